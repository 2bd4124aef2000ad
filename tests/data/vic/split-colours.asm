; A raster split: border and background change at five lines, each written while the
; beam is in the horizontal blanking (cycles 60-11 of the line, which VICE's frame does
; not show), so the picture does not depend on where in its wait loop the CPU was.
; The lines before and at a split are no bad lines (YSCROLL 3: bad lines are those
; with bits 0-2 = 3), so no cycles are stolen while it is timed.
*= $c000
 sei
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
 lda #1
 sta $d800,x
 sta $d900,x
 sta $da00,x
 sta $dae8,x
 inx
 bne fill
frame ldx #0
next lda lines,x
 ldy #9
w1 cmp $d012 ; the line has begun 0-6 cycles before this read
 bne w1
delay dey ; 44 cycles, and 6 more: the first write 60-66 cycles after the line began,
 bne delay ; the second 68-74: both in the blanking
 nop
 nop
 nop
 lda borders,x
 sta $d020
 lda backgrounds,x
 sta $d021
 inx
 cpx #6
 bne next
 jmp frame
; the colours change on the line after each of these (line 261 is $105: $D012 reads 5)
lines .byt $01, $2c, $5d, $8d, $e5, $05
borders .byt 14, 2, 5, 7, 0, 10
backgrounds .byt 6, 0, 6, 2, 1, 11
