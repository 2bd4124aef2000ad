; 64tass -a
; bit strings keep their length through - + << >>; a data value or an immediate takes one
; by its value (an inverted one by its length), signed or not; strings as their bytes
*       = $1000
        .byte -$2, -$ff, -%1, -(<$1234), ~$ff >> 1, ~$f << 4, $ff >> 9, $ff << -1
        .word -$2, -$1234, -$ff, +~$2, ~$f << 4, $ff << 1, -<$1234
        .long -$12345
        .char $00ff, 'A', -$2
        .sint 'AB', ~$00ff
        .rta 0, $0, ~$0, $00ff
        lda #-$80
        lda #+$80
        lda #+$00ff
        ldx #-%1
        .byte 255 >> 1.5, 3 << 1.5, $3 << 1.5, 2.5 << 1
