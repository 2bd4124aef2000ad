; The invalid modes: ECM with multicolour text ($D011 $5B, $D016 $D8) in the top half,
; ECM with a bitmap in the bottom half would need a split: here the first only, and
; the text behind it is all black, as on the chip.
*= $c000
 sei
 lda #3
 sta $d020
 lda #7
 sta $d021
 lda #$5b
 sta $d011
 lda #$d8
 sta $d016
 lda #$15
 sta $d018
 ldx #0
fill txa
 sta $0400,x
 sta $0500,x
 sta $0600,x
 sta $06e8,x
 sta $d800,x
 sta $d900,x
 sta $da00,x
 sta $dae8,x
 inx
 bne fill
loop jmp loop
