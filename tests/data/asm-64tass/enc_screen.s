; 64tass -a
; .enc "screen": screen codes; "none": PETSCII again
*       = $1000
        .enc "screen"
        .text "screen codes @[]"
        cmp #"u"
        .enc "none"
        cmp #"u"
        .text "abc ABC 123"
