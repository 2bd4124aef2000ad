; The vertical border flip-flop checked in every cycle of its lines (VICE's
; vicii_cycle: check_vborder_top/bottom each cycle; the main border takes the flip-flop
; at its left check): DEN, clear on line $30 (so no bad lines: the window shows the idle
; graphics, $3FFF = $33), is set on line $33 in cycle 30, after the left border check,
; and the window opens from line $34; on line $FB 24 rows are chosen in cycle 10 and 25
; rows again in cycle 40, and the border closes after line $FB all the same.  The
; raster is made stable in the top border as in midline.asm; each write is commented
; with its line and cycle.
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
 lda #$c8
 sta $d016
 lda #$33
 sta $3fff
 lda #0
 sta $d015
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
 ldx #10
 jsr wait
 nop
 lda #$0b
 sta $d011 ; line $17, cycle 10
 ldx #255
 jsr wait
 ldx #95
 jsr wait
 nop
 lda #$1b
 sta $d011 ; line $33, cycle 30
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
 ldx #255
 jsr wait
 ldx #255
 jsr wait
 ldx #255
 jsr wait
 ldx #193
 jsr wait
 nop
 nop
 lda #$13
 sta $d011 ; line $fb, cycle 10
 ldx #1
 jsr wait
 bit $fb
 bit $fb
 lda #$1b
 sta $d011 ; line $fb, cycle 40
 jmp frame
