; CIA 1's timer A read by loads of each addressing mode, right after it starts from
; $FFFF: a 6510 reads in a mode's last cycle (the 4th of LDA abs; the 5th of LDA abs,X
; across a page and of LDA (zp),Y; the 6th of (zp),Y across a page and of (zp,X)),
; so the value read tells the cycle.  Kept from $C080 on: abs, abs,X, abs,Y across a
; page, (zp),Y, (zp),Y across a page, (zp,X), then LDX abs and BIT abs (the status).
main sei
 lda #$7f
 sta $dc0d
 lda #$ff
 sta $dc04
 sta $dc05
 lda #$04
 sta $fb
 lda #$dc
 sta $fc
 lda #$fc
 sta $fd
 lda #$db
 sta $fe
 lda #$11
 sta $dc0e
 lda $dc04
 sta $c080
 ldx #4
 lda $dc00,x
 sta $c081
 ldy #8
 lda $dbfc,y
 sta $c082
 ldy #0
 lda ($fb),y
 sta $c083
 ldy #8
 lda ($fd),y
 sta $c084
 ldx #0
 lda ($fb,x)
 sta $c085
 ldx $dc04
 stx $c086
 bit $dc04
 php
 pla
 sta $c087
 lda #$81
 sta $dc0d
 cli
 rts
