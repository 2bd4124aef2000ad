; STROUT ($AB1E) and LINPRT ($BDCD) called from machine code: a string with reverse
; characters and RETURN, numbers $1234, $FFFF and 0, and a string that begins with a
; quote (STRLIT ends it there: nothing printed); the registers after each and $22/$23.
main lda #<text
 ldy #>text
 jsr $ab1e
 jsr save
 lda $22
 sta $c080
 lda $23
 sta $c081
 lda #$12
 ldx #$34
 jsr $bdcd
 jsr save
 lda #$ff
 ldx #$ff
 jsr $bdcd
 jsr save
 lda #0
 ldx #0
 jsr $bdcd
 jsr save
 lda #$0d
 jsr $ffd2
 lda #<text2
 ldy #>text2
 jsr $ab1e
 jsr save
 rts
text .asc "hello "
 .byt $12,$41,$92,$0d,0
text2 .byt $22,$41,$1d,$22,$1d,0
