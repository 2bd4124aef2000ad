; 64tass -a
; labels with and without a colon, in any column
*       = $1000
start   lda #1
second: ldx #2
   indented nop
        jmp start
        jmp second
        jmp indented
