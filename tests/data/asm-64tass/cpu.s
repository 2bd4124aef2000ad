; 64tass -a
; .cpu "6502i" switches the undocumented opcodes on, "6502" off again
*       = $1000
        .cpu "6502i"
        lax $10
        dcm $20
        .cpu "6502"
        lda $10
