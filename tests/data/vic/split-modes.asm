; A raster split between text and a hires bitmap: the top of the screen is text at
; $0400 with the ROM's character set, from line $8e on the bitmap at $2000 with its
; colours in the screen at $0c00 ($D011 $3B, $D018 $38), switched back at the bottom.
; Written in the horizontal blanking, as in split-colours.asm.
*= $c000
 sei
 lda #0
 sta $d020
 lda #11
 sta $d021
 lda #$c8
 sta $d016
 ldx #0
fill txa
 sta $0400,x
 sta $0500,x
 sta $0600,x
 sta $06e8,x
 lda #1
 sta $d800,x
 sta $d900,x
 sta $da00,x
 sta $dae8,x
 txa
 eor #$4b
 sta $0c00,x
 sta $0d00,x
 sta $0e00,x
 sta $0ee8,x
 inx
 bne fill
 lda #$00
 sta $fb
 lda #$20
 sta $fc
 ldy #0
p1 tya
 eor $fc
 sta ($fb),y
 iny
 bne p1
 inc $fc
 lda $fc
 cmp #$40
 bne p1
frame ldx #0
next lda lines,x
 ldy #9
w1 cmp $d012 ; the line has begun 0-6 cycles before this read
 bne w1
delay dey ; 44 cycles, and 6 more: the first write 60-66 cycles after the line began,
 bne delay ; the second 68-74: both in the blanking
 nop
 nop
 nop
 lda controls,x
 sta $d011
 lda setups,x
 sta $d018
 inx
 cpx #2
 bne next
 jmp frame
lines .byt $8d, $fd
controls .byt $3b, $1b
setups .byt $38, $15
