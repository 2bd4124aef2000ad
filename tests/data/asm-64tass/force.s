; 64tass -a
; @b and @w force the operand size
*       = $1000
        lda @w $12
        sta @w $fb,x
        lda @b $1234 & $ff
        jmp @w $0040
