; 64tass -a
; an instruction with a list operand is assembled once per element
*       = $1000
        lda #32
        sta $400+range(4)*$100,x
        lda [1, 2, 3]
