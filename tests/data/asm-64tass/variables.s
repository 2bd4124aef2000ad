; 64tass -a
; constants (=) and variables (:= and .var) with compound assignments
*       = $1000
width   = 40
v       := 1
        .byte v
v       += 2
        .byte v
v       *= 3
        .byte v
v       <<= 1
        .byte v
w       .var 7
        .byte w, width
w       .var w - 1
        .byte w
