; 64tass -a
; .namespace: symbols in a scope of their own
*       = $1000
colors  .namespace
red     = 2
blue    = 6
        .endn
        lda #colors.red
        ldx #colors.blue
