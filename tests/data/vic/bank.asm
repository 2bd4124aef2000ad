; VIC bank 2 ($8000-$BFFF: $DD00 bits 0-1 = %01) with the screen at $8400 and the
; character ROM at $9000 (as in bank 0), and bank 3's RAM under the KERNAL is not used.
*= $c000
 sei
 lda #$3f
 sta $dd02
 lda $dd00
 and #$fc
 ora #$01
 sta $dd00
 lda #4
 sta $d020
 lda #0
 sta $d021
 lda #$1b
 sta $d011
 lda #$c8
 sta $d016
 lda #$16
 sta $d018
 ldx #0
fill txa
 sta $8400,x
 sta $8500,x
 sta $8600,x
 sta $86e8,x
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
