; 64tass -a
; .macro with \1 \2, called with # and with .
*       = $1000
copy    .macro
        ldx #size(\1)-1
-       lda \1,x
        sta \2,x
        dex
        bpl -
        .endm
        #copy data, $0400
        .copy data, $0500
        rts
data    .byte 1, 2, 3
