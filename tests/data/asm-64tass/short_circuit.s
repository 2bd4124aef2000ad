; 64tass
; '&&', '||' and '? :' compute only the operand they need
*       = $1000
        .byte 1 || nosuch, 0 && nosuch, 1 ? 2 : nosuch, 0 ? nosuch : 3
        .byte 1 || 1/0 || 1/0, 2 && 3, 5 || 0, 1 ? 0 ? 1 : 2 : 3
