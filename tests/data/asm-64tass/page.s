; 64tass -a
; .page/.endp: the block stays within one page
*       = $10f0
        .page
table   .byte 0, 1, 2, 3
        .endp
