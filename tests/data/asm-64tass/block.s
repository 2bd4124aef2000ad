; 64tass -a
; .block/.bend: a scope, reachable through its label
*       = $1000
        jsr blk.here
blk     .block
here    lda #1
count   ldx #0
        rts
        .bend
        .block
here    lda #2
        .bend
        .word blk.count
