; 64tass -a
; .long, .lint, .dword, .dint
*       = $1000
        .long $123456
        .lint -2
        .dword $12345678
        .dint -1
