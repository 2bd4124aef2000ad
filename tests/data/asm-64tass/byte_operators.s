; 64tass -a
; < > `: bytes of an address; <> >` ><: words; they hold the whole expression
*       = $1000
label   = $123456
        .byte <label, >label, `label
        .word <>label, >`label, ><$1234
        lda #<label+1
        lda #>label+$100
