; 64tass -a -C
; -C: symbols are case-sensitive
*       = $1000
label   lda #1
Label   lda #2
        jmp label
        jmp Label
