; 64tass -a
; .if/.elsif/.else/.fi and .ifeq/.ifne/.ifpl/.ifmi
*       = $1000
mode    = 2
        .if mode == 1
        .byte 1
        .elsif mode == 2
        .byte 2
        .else
        .byte 3
        .fi
        .ifeq mode-2
        .byte 4
        .endif
        .ifne mode
        .byte 5
        .fi
        .ifmi -1
        .byte 6
        .fi
        .ifpl -1
        .byte 7
        .else
        .byte 8
        .fi
