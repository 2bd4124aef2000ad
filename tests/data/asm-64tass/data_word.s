; 64tass -a
; .word, .sint, .addr, .rta
*       = $1000
        .word $1234, 65535, start
        .sint -1, -32768, 32767
        .addr start
        .rta start
start   rts
