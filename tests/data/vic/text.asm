; Standard text mode: all 256 screen codes of the upper case set, in every colour,
; on a yellow background in a red border; then the program loops with interrupts off.
*= $c000
 sei
 lda #2
 sta $d020
 lda #7
 sta $d021
 lda #$1b
 sta $d011
 lda #$c8
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
 lsr
 sta $d800,x
 sta $d900,x
 sta $da00,x
 sta $dae8,x
 inx
 bne fill
loop jmp loop
