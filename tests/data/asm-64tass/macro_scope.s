; 64tass -a
; a macro's labels are its own: a label on the call reaches them
*       = $1000
lohi    .macro
lo      .byte <(\@)
hi      .byte >(\@)
        .endm
var     .lohi 1234, 5678
        lda var.lo,y
        ldx var.hi,y
        #lohi $abcd
