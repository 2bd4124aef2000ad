; 64tass -a
; .comment/.endc: never assembled (not even checked)
*       = $1000
        nop
        .comment
        this is not assembler source at all
        lda #
        .endc
        rts
