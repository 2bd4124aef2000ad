; All eight sprites with every attribute over a text screen: hires and multicolour,
; expanded in X and Y, behind and in front of the text, the X MSB, overlapping each
; other, and partly in every border (the border covers them).
*= $c000
 sei
 lda #14
 sta $d020
 lda #6
 sta $d021
 lda #$1b
 sta $d011
 lda #$c8
 sta $d016
 lda #$15
 sta $d018
 ldx #0
fill txa
 and #$3f
 sta $0400,x
 sta $0500,x
 sta $0600,x
 sta $06e8,x
 lda #1
 sta $d800,x
 sta $d900,x
 sta $da00,x
 sta $dae8,x
 inx
 bne fill
; three shapes at $0340 (block 13), $0380 (14), $03c0 (15)
 ldx #0
shape txa
 sta $0340,x
 eor #$ff
 sta $0380,x
 txa
 asl
 ora #$81
 sta $03c0,x
 inx
 cpx #64
 bne shape
 ldx #0
setup lda table,x
 sta $d000,x
 inx
 cpx #$2f
 bne setup
 ldx #7
pointers lda blocks,x
 sta $07f8,x
 dex
 bpl pointers
loop jmp loop
; $d000-$d02e: positions, MSB, $d011-$d014 skipped by value, enable, expansion, ...
table .byt 24,50, 40,60, 120,100, 40,140, 10,40, 74,200, 200,240, 160,120
 .byt %00100000 ; $d010: sprite 5 at X 256+74 (partly in the right border)
 .byt $1b,0,0,0 ; $d011-$d014
 .byt $ff ; $d015: all on
 .byt $c8 ; $d016
 .byt %10000010 ; $d017: Y expansion for sprites 1 and 7
 .byt $15 ; $d018
 .byt 0,0 ; $d019, $d01a
 .byt %10000010 ; $d01b: sprites 1 and 7 behind the text
 .byt %11000100 ; $d01c: multicolour sprites 2, 6, 7
 .byt %10001010 ; $d01d: X expansion for sprites 1, 3, 7
 .byt 0,0 ; $d01e, $d01f
 .byt 14,6,0,0,0 ; $d020-$d024
 .byt 10,13 ; $d025, $d026: sprite multicolours
 .byt 1,2,3,4,5,7,8,9 ; $d027-$d02e: sprite colours
blocks .byt 13,14,15,13,14,13,15,14
