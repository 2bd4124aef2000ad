; 64tass -a
; .align: up to a multiple, reserved or filled
*       = $1001
        .byte 1
        .align 4
        .byte 2
        .align $10, $ea
        .byte 3
