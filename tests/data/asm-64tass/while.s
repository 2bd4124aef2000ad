; 64tass -a
; .while condition
*       = $1000
n       := 1
        .while n < 100
        .byte n
n       *= 3
        .endwhile
