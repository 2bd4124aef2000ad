; 24 rows and 38 columns with fine scrolling: XSCROLL 3, YSCROLL 6 (the window
; narrowed by the border, the text moved right and down, the idle lines above).
*= $c000
 sei
 lda #6
 sta $d020
 lda #14
 sta $d021
 lda #$16
 sta $d011
 lda #$c3
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
 sta $d800,x
 sta $d900,x
 sta $da00,x
 sta $dae8,x
 inx
 bne fill
loop jmp loop
