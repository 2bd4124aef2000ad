; 64tass -a
; .switch/.case/.default
*       = $1000
wait    = 3
        .switch wait
        .case 2
        nop
        .case 3, 4
        bit $ea
        .default
        inc $2
        .endswitch
