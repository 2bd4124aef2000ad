; 64tass -a
; macros and loops inside one another
*       = $1000
twice   .macro
        .rept 2
        .byte \1
        .next
        .endm
        .for i := 1, i < 4, i += 1
        #twice i
        .next
