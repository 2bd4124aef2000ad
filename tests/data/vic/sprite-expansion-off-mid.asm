; Y expansion switched off and on in the middle of expanded sprites, written in the
; horizontal blanking after a raster wait: sprites 0 and 1 start one line apart, so one
; of them has its expansion flip-flop clear when $D017 is cleared on line 100 (the chip
; sets it: VICE's d017_store; the sprite goes on a row a line and ends); sprites 2 and
; 3 have their expansion back on for lines 180-190.
*= $c000
 sei
 lda #14
 sta $d020
 lda #6
 sta $d021
 ldx #0
fill lda #$20
 sta $0400,x
 sta $0500,x
 sta $0600,x
 sta $06e8,x
 inx
 bne fill
 ldx #62
shape txa
 sta $0340,x
 dex
 bpl shape
 lda #13
 sta $07f8
 sta $07f9
 sta $07fa
 sta $07fb
 lda #60
 sta $d000
 lda #80
 sta $d001
 lda #120
 sta $d002
 lda #81
 sta $d003
 lda #180
 sta $d004
 lda #160
 sta $d005
 lda #240
 sta $d006
 lda #161
 sta $d007
 lda #1
 sta $d027
 sta $d028
 sta $d029
 sta $d02a
 lda #$0f
 sta $d015
frame lda #$0f
 sta $d017
 lda #100
w1 cmp $d012
 bne w1
 ldx #10
d1 dex
 bne d1
 lda #0
 sta $d017
 lda #180
w2 cmp $d012
 bne w2
 ldx #10
d2 dex
 bne d2
 lda #$0c
 sta $d017
 lda #190
w3 cmp $d012
 bne w3
 ldx #10
d3 dex
 bne d3
 lda #$00
 sta $d017
 lda #$fa
w4 cmp $d012
 bne w4
 jmp frame
