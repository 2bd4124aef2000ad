; 64tass
; '**' binds tighter than a prefix operator to its left, not to its right
*       = $1000
        .char -2 ** 2, ~2 ** 0, -2 ** 3 ** 2 + 1 & 255
        .byte 2 ** -1 ** 2, -2 ** 2 & 255, (-2) ** 2, <-$1234 ** 1, !0 ** 2
