; Hires bitmap at $2000 (screen at $0400 gives each cell's two colours): a pattern
; made of the byte's address, colours from the cell number.
*= $c000
 sei
 lda #14
 sta $d020
 lda #$3b
 sta $d011
 lda #$c8
 sta $d016
 lda #$18
 sta $d018
 jsr pattern
 ldx #0
colours txa
 sta $0400,x
 eor #$5a
 sta $0500,x
 eor #$33
 sta $0600,x
 eor #$c6
 sta $06e8,x
 inx
 bne colours
loop jmp loop
; $2000-$3fff: byte = low byte of the address xor the page, rotated
pattern lda #$00
 sta $fb
 lda #$20
 sta $fc
 ldy #0
p1 tya
 eor $fc
 asl
 adc $fc
 sta ($fb),y
 iny
 bne p1
 inc $fc
 lda $fc
 cmp #$40
 bne p1
 rts
