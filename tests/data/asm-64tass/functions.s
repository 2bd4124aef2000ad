; 64tass -a
; built-in functions
*       = $1000
        .null $9e, format("%d", start)
        .text format("%04x %s %3d:%-3d:", 4660, "ok", 7, 8)
        .byte len("abc"), size(tab), len($1234)
        .byte 128+127*sin(0.5), round(2.5), floor(-1.5) & $ff, ceil(1.1), abs(-3)
        .byte sqrt(16), int(2.7), trunc(-1.9) & $ff
tab     .word 1, 2, 3
start   rts
