; 64tass -a
; .fill: reserved (a gap) or filled with a byte or a pattern
*       = $1000
        .byte 1
        .fill 3
        .byte 2
        .fill 4, $ea
        .fill 5, [1, 2]
        .byte 3
