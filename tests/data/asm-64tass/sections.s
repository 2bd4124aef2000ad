; 64tass -a
; .dsection/.section/.send: fragments collected in their section
*       = $1000
        .dsection code
        .cerror * > $1100, "too long"
*       = $1100
        .dsection data
        .section code
        lda #<msg
        .section data
msg     .null "hi"
        .send data
        ldy #>msg
        rts
        .send code
