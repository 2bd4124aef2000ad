; Multicolour bitmap at $2000: pairs of pixels in $D021, the screen code's high and
; low nybble, and the cell's colour RAM.
*= $c000
 sei
 lda #9
 sta $d020
 lda #1
 sta $d021
 lda #$3b
 sta $d011
 lda #$d8
 sta $d016
 lda #$18
 sta $d018
 jsr pattern
 ldx #0
colours txa
 sta $0400,x
 sta $d800,x
 eor #$a5
 sta $0500,x
 sta $d900,x
 eor #$3c
 sta $0600,x
 sta $da00,x
 eor #$f0
 sta $06e8,x
 sta $dae8,x
 inx
 bne colours
loop jmp loop
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
