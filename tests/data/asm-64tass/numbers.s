; 64tass -a
; number literals: $hex, %binary, decimal, underscores, floats, characters
*       = $1000
        .byte $ff, %1111_0000, 255, 1_0
        .word $12_34, 65_535
        .byte 7.9, 3.5*2, 1.5e1
        .char -7.9
        .byte 'a', "b"
        .byte ~$07, ~%101
