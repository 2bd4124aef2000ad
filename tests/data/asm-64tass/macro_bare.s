; 64tass -a
; a macro called by its bare name
*       = $1000
border  .macro
        lda #\1
        sta $d020
        .endm
        border 5
        border 6
        rts
