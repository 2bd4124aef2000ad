; 64tass -a
; strings: concatenation .., repetition x, indexing and slices
*       = $1000
        .text "ab" .. "cd"
        .text "ab" x 3
        .text "text"[:2], "text"[2:], "text"[:-1], "reverse"[::-1]
        .byte "abc"[1]
        .word $12 x 2
