*= $c000
.include "kernal.asm"
.if debug
 lda #"d
 jsr chrout
.endif
 ldx #0
loop lda text,x
 beq done
 jsr chrout
 inx
 bne loop
done rts
text .asc "hello"
 .byt 13,0
.fill 3, $ea
