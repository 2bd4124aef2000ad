; Extended background colour mode: screen code bits 6-7 choose the background
; from $D021-$D024, bits 0-5 the character.
*= $c000
 sei
 lda #11
 sta $d020
 lda #0
 sta $d021
 lda #2
 sta $d022
 lda #5
 sta $d023
 lda #6
 sta $d024
 lda #$5b
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
 eor #$ff
 sta $d800,x
 sta $d900,x
 sta $da00,x
 sta $dae8,x
 inx
 bne fill
loop jmp loop
