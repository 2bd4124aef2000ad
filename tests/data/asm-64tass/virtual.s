; 64tass -a
; .virtual: labels for a structure, no bytes
*       = $1000
        .virtual $d400
freq    .word ?
pw      .word ?
ctrl    .byte ?
        .endv
        lda #1
        sta ctrl
        sta freq+1
