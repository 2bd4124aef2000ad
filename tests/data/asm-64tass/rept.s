; 64tass -a
; .rept count
*       = $1000
        .rept 3
        nop
        .endrept
        .rept 2
-       inx
        bne -
        .next
