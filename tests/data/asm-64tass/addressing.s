; 64tass -a
; every addressing mode
*       = $1000
        lda #$12
        lda $12
        lda $12,x
        ldx $12,y
        lda $1234
        lda $1234,x
        lda $1234,y
        jmp ($1234)
        lda ($12,x)
        lda ($12),y
        lda $12, x
        bne *
