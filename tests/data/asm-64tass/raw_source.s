; 64tass
; without -a the source is PETSCII already: strings are copied byte for byte
*       = $1000
        .text "abc ABC"
        .enc "screen"
        .text "abc ABC @"
