; 64tass -a
; .segment: copied in place, no scope of its own
*       = $1000
twice   .segment
        inx
        inx
        .endm
        #twice
        #twice
        rts
