*= $c000
 ldx #0
loop lda text,x
 beq done
 jsr $ffd2
 inx
 bne loop
done rts
text .asc "hi"
 .byt 0
