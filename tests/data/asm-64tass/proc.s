; 64tass -a
; .proc: compiled only when its label is used
*       = $1000
        jsr used
        jmp used.inner
used    .proc
        nop
inner   rts
        .pend
unused  .proc
        lda #$ff
        rts
        .pend
        .byte 1
