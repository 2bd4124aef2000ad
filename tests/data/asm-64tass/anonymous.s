; 64tass -a
; anonymous labels: - and + (and -- ++), counted in skipped .if branches too
*       = $1000
        ldy #4
-       ldx #0
-       txa
        cmp #3
        bcc +
        adc #44
+       sta $400,x
        inx
        bne -
        dey
        bne --
        .if 0
+       nop
        .fi
        beq +
        nop
+       rts
