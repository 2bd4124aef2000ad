; 64tass -a
; a user encoding with .cdef (ranges) and .edef (escapes)
*       = $1000
        .enc "mine"
        .cdef " @", 32
        .cdef "AZ", $c1
        .cdef "az", $01
        .edef "{esc}", 27
        .edef "<nl>", [13, 10]
        .text "hello{esc}WORLD<nl>"
        .enc "none"
        .text "back"
