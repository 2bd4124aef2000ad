; The cycles bad lines take with YSCROLL 7 (badlines.asm's loop and printing): the bad
; lines are $37, $3F, ... $F7, and $F7, the last line that can be bad, is one of them
; (25 bad lines, as with YSCROLL 3); then the same with 24 rows, with all eight sprites'
; DMA too, and YSCROLL 0 with 24 rows and the sprites (bad lines $30 ... $F0).  The four
; counts are printed in hex in row 0 (high byte first): the iterations of a 12-cycle
; loop through one frame, from a fixed cycle of line $16 (the raster made stable in the
; top border, as in midline.asm) until line $16 comes again.
*= $c000
 sei
 lda #0
 sta $d020
 sta $d021
 ldx #0
clear lda #$20
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
 bne clear
 ldx #7
spr lda #13
 sta $07f8,x
 lda #1
 sta $d027,x
 dex
 bpl spr
 ldx #15
pos lda positions,x
 sta $d000,x
 dex
 bpl pos
 lda #0
 sta $d010
 sta $d017
 sta $d01d
 sta $d015
 lda #$1f ; YSCROLL 7: bad lines $37-$F7
 sta $d011
 jsr measure
 stx results+1
 sty results
 lda #$17 ; YSCROLL 7, 24 rows: the same bad lines
 sta $d011
 jsr measure
 stx results+3
 sty results+2
 lda #$ff ; eight sprites
 sta $d015
 jsr measure
 stx results+5
 sty results+4
 lda #$10 ; YSCROLL 0, 24 rows, sprites on
 sta $d011
 jsr measure
 stx results+7
 sty results+6
 lda #$1b
 sta $d011
 lda #0
 sta $d015
 ldx #0
print lda results,x
 lsr
 lsr
 lsr
 lsr
 jsr digit
 sta $0400,y
 lda results,x
 and #$0f
 jsr digit
 sta $0401,y
 inx
 cpx #8
 bne print
loop jmp loop
; a frame's iterations in x (low), y (high)
measure jsr frame ; settle: a whole frame with the new setting first
 jsr frame
 jsr stable ; line $16, cycle 3 (the last instruction's first cycle)
 ldx #0
 ldy #0
count inx ; lines $16-$ff
 bne c1
 iny
c1 lda $d011
 bpl count
c2 inx ; lines $100-$137
 bne c3
 iny
c3 lda $d011
 bmi c2
c4 inx ; lines 0-$15 of the next frame
 bne c5
 iny
c5 lda $d012
 cmp #$16
 bne c4
 rts
; wait for line $10 and take out the 0-6 cycles of the wait's jitter: six stages, one a
; line, each reads $d012 six cycles before the next line's start plus the jitter and
; adds a cycle while the jitter is below 6
stable lda #$10
w0 cmp $d012
 bne w0
 ldx #9
d1 dex
 bne d1
 lda #$11
 bit $fb
 cmp $d012
 bne s1
s1 ldx #10
d2 dex
 bne d2
 lda #$12
 nop
 nop
 cmp $d012
 bne s2
s2 ldx #10
d3 dex
 bne d3
 lda #$13
 nop
 nop
 cmp $d012
 bne s3
s3 ldx #10
d4 dex
 bne d4
 lda #$14
 nop
 nop
 cmp $d012
 bne s4
s4 ldx #10
d5 dex
 bne d5
 lda #$15
 nop
 nop
 cmp $d012
 bne s5
s5 ldx #10
d6 dex
 bne d6
 lda #$16
 nop
 nop
 cmp $d012
 bne s6
s6 rts
frame bit $d011
 bpl frame
f1 bit $d011
 bmi f1
 rts
; screen position for result x in y, the hex digit of a in a
digit stx $fb
 pha
 txa
 asl
 adc $fb
 tay
 pla
 cmp #10
 bcc number
 sbc #9
 rts
number ora #$30
 rts
results .byt 0,0,0,0,0,0,0,0
positions .byt 30,60, 60,90, 90,120, 120,150, 150,180, 180,210, 210,100, 240,130
