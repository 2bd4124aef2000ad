; 64tass -a
; .offs: the compile offset apart from the program counter
*       = $1000
        nop
        .offs 4
        nop
        lda #<*
