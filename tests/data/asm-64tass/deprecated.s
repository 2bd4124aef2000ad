; 64tass -a
; 64tass's old '//' modulo and '^' decimal string
*       = $1000
        .byte 312 // 8, 10 // 3 + 1
        .text ^123
