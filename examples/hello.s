        .cpu "6502"
        * = $0801
        .word (+), 2024
        .null $9e, format("%d", start)
+       .word 0
start   ldx #0
-       lda text,x
        beq +
        jsr $ffd2
        inx
        bne -
+       rts
text    .null "hello, world!"
