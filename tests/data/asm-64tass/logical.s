; 64tass -a
; .logical/.here: code for another address, stored where it stands
*       = $1000
        ldx #size(code)-1
-       lda code,x
        sta $0300,x
        dex
        bpl -
        jmp $0300
code    .logical $0300
drive   lda #$80
        sta $00
        jmp drive
        .here
after   rts
