; 64tass -a
; 'name *= x' is a label and an origin when name is no variable
*       = $1000
tmp     .byte 1
tmpe    *= tmp+25
        .byte 2
v       := 3
v       *= 2
        .byte v
