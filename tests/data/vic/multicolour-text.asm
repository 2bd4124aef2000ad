; Multicolour text: cells with colour bit 3 set draw pairs of pixels in $D021,
; $D022, $D023 and the cell's colour (bits 0-2); the others stay hires.
*= $c000
 sei
 lda #0
 sta $d020
 lda #6
 sta $d021
 lda #2
 sta $d022
 lda #5
 sta $d023
 lda #$1b
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
 lsr
 lsr
 lsr
 sta $d800,x
 sta $d900,x
 sta $da00,x
 sta $dae8,x
 inx
 bne fill
loop jmp loop
