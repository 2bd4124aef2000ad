; 64tass -a
; variables counting up in a loop, labels defined once
*       = $1000
n       := 0
        .rept 4
        .byte n
n       += 1
        .next
last    .byte n
