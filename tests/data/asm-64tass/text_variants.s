; 64tass -a
; .null, .shift, .shiftl, .ptext
*       = $1000
        .null "single", 32, "string"
        .shift "abc"
        .ptext "pascal"
        .enc "screen"
        .shiftl "single"
        .enc "none"
