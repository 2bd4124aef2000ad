; 64tass -a
; .for name in values
*       = $1000
        .for col in 0, 11, 12, 15, 1
        lda #col
        sta $d020
        .endfor
        .for n in range(3)
        .byte n
        .next
