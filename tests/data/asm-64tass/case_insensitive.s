; 64tass -a
; without -C, LABEL and label are one symbol, and LDA is lda
*       = $1000
Label   LDA #1
        JMP label
        .BYTE 1
