; 64tass -a
; a range or escape may be defined again only as it is (built in or not)
*       = $1000
        .enc "screen"
        .cdef "az", 1           ; screen's own range: the same
        .cdef 1000, 1010, 1
        .edef "{clr}", $93 - $80 - $13
        .text "az", "{clr}"
        .enc "my"
        .cdef "az", 1
        .cdef "az", 1
        .cdef "AZ", $41
        .edef "x", 7
        .edef "x", 7
        .text "aZx"
