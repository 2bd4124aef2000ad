; 64tass -a
; .eor: every byte written is XOR-ed with a value
*       = $1000
        .eor $80
        .text "abc"
        .eor 0
        .text "abc"
