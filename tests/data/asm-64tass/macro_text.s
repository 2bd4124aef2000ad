; 64tass -a
; @1: a parameter as text, also inside a string
*       = $1000
say     .macro
        .null "hello @1!"
        .endm
        #say world
        #say c64
