; 64tass -a
; #-3 and #+value: signed immediates
*       = $1000
num     = -3
        ldx #-3
        ldy #+num
        lda #(-num)
        lda #255
