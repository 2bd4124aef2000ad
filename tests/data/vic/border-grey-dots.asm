; Border colour writes at exact cycles on a blanked screen (DEN clear: every line is
; border): the 8565 draws the first pixel after each write to $D020 in light grey, in the
; border as anywhere (VICE draw_colors_8565), and none for the writes to $D021, whose
; colour no pixel of these lines shows.  The raster is made stable in the top border as
; in midline.asm (the wait loop at the start, where its branch crosses no page); each
; write is commented with its line and cycle.
*= $c000
 jmp main
wait dex ; 5X - 1 cycles, with the JSR and RTS 5X + 11
 bne wait
 rts
main sei
 lda #14
 sta $d020
 lda #6
 sta $d021
 lda #$0b
 sta $d011
frame bit $d011 ; wait for line 256, then for line 0: $d012 = $10 is line $10, not $110
 bpl frame
f0 bit $d011
 bmi f0
 lda #$10
w0 cmp $d012 ; the line $10 began 0-6 cycles before this read (cycle j)
 bne w0
; six stages, one a line: each reads $d012 six cycles before the next line's start plus j
; and adds a cycle while j < 6 (bne taken)
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
s6 ; line $16, cycle 3
 ldx #125
 jsr wait
 nop
 nop
 lda #$02
 sta $d020 ; line $20, cycle 20
 nop
 nop
 lda #$0e
 sta $d020 ; line $20, cycle 30
 ldx #255
 jsr wait
 ldx #255
 jsr wait
 ldx #87
 jsr wait
 nop
 nop
 lda #$02
 sta $d021 ; line $50, cycle 40
 lda #$06
 sta $d021 ; line $50, cycle 46
 ldx #255
 jsr wait
 ldx #255
 jsr wait
 ldx #81
 jsr wait
 bit $fb
 lda #$07
 sta $d020 ; line $80, cycle 25
 ldx #4
 jsr wait
 nop
 nop
 lda #$0e
 sta $d020 ; line $81, cycle 5
 ldx #255
 jsr wait
 ldx #255
 jsr wait
 ldx #255
 jsr wait
 ldx #255
 jsr wait
 ldx #255
 jsr wait
 ldx #255
 jsr wait
 ldx #59
 jsr wait
 nop
 nop
 lda #$00
 sta $d020 ; line $100, cycle 50
 ldx #2
 jsr wait
 nop
 nop
 lda #$0e
 sta $d020 ; line $101, cycle 20
 jmp frame
