; A character set in RAM at $3000 ($D018 = $1C): every glyph made from its own
; screen code (row r of glyph c is c xor r*$11), drawn from RAM, not from the ROM.
*= $c000
 sei
 lda #0
 sta $d020
 lda #11
 sta $d021
 lda #$1b
 sta $d011
 lda #$c8
 sta $d016
 lda #$1c
 sta $d018
 lda #$00
 sta $fb
 lda #$30
 sta $fc
 ldx #0
glyph ldy #0
row tya
 asl
 asl
 asl
 asl
 sta $fd
 tya
 ora $fd
 sta $fd
 txa
 eor $fd
 sta ($fb),y
 iny
 cpy #8
 bne row
 clc
 lda $fb
 adc #8
 sta $fb
 bcc next
 inc $fc
next inx
 bne glyph
 ldx #0
fill txa
 sta $0400,x
 sta $0500,x
 sta $0600,x
 sta $06e8,x
 and #$0f
 ora #1
 sta $d800,x
 sta $d900,x
 sta $da00,x
 sta $dae8,x
 inx
 bne fill
loop jmp loop
