; 64tass -a
; several origins: the gap between them is filled with zeros
*       = $1000
        .byte 1, 2
*       = $1008
        .byte 3
*       = $1004
        .byte 4
