; 64tass -a
; .byte (0..255) and .char (-128..127)
*       = $1000
        .byte 0, 255, $ff, %1010, 'a', "b"
        .char -128, 127, -1
        .byte ?
        .byte 7
