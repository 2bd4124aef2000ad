; 64tass -a
; .break and .continue
*       = $1000
        .for i := 0, i < 10, i += 1
        .continueif i == 2
        .breakif i == 5
        .byte i
        .next
