; 64tass -a
; .for init, condition, step
*       = $1000
        lda #32
        .for ue := $400, ue < $800, ue += $100
        sta ue,x
        .endfor
        .for i = 0, i < 3, i += 1
        .byte i * 2
        .next
