; 64tass -a
; values that carry the immediate mode: c = #1 makes 'lda c' an immediate load
*       = $1000
const   = #1
two     = #$02
        lda const
        ldx const+1
        ldy two
        cmp #3
