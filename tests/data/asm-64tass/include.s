; 64tass -a
; .include: another source where it stands
*       = $1000
        .include "probe.inc"
        lda #included
        jsr routine
