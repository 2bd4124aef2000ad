; 64tass -a
; named macro parameters with defaults: \name and \{name}
*       = $1000
setc    .macro color, where=$d020
        lda #\color
        sta \{where}
        .endm
        #setc 1
        #setc 2, $d021
        #setc 3,
