100 *= $c000
110 lda #(1+
120 jmp nowhere
