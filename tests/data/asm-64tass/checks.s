; 64tass -a
; .cerror/.cwarn that do not fire, .warn
*       = $1000
        .cerror * > $1200, "program too long"
        .cwarn * > $1100, "long"
        .byte 1
