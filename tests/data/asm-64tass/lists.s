; 64tass -a
; lists: arithmetic applies to every element
*       = $1000
        .byte [1, 2, 3] + 1
        .byte range(4) * 2
        .byte %10000000 >> range(8)
tab     := $400 + range(0, 200, 40)
        .byte <tab
        .byte >tab
        .byte (1, 2, 3)[1], [1, 2, 3][-1]
