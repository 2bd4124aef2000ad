; Register writes at exact cycles inside lines, as VICE draws them: colours from the
; pixel after the write (the 8565's grey dot on the first), the multicolour bit four
; pixels later, the bitmap and extended colour bits a cycle later, the border flip-flop
; at its check cycles, XSCROLL within a line.  The raster is made stable in the top
; border (six one-cycle corrections after a 7-cycle wait), and DEN is clear on line $30,
; so the frame has no bad lines (the window opens on idle graphics from $3FFF): no cycle
; is stolen, and the writes happen at the same cycles on any emulator that counts the
; 6502's cycles as the chip does.  Generated (cycles counted) by a script; each write
; is commented with its line and cycle.
*= $c000
 sei
 lda #$1b
 sta $3fff ; the idle graphics: 00011011
 lda #$00
 sta $39ff ; with ECM
 lda #14
 sta $d020
 lda #6
 sta $d021
 lda #$c8
 sta $d016
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
 ldx #69
 jsr wait
 nop
 nop
 nop
 lda #$1b
 sta $d011 ; line $31, cycle 30
 ldx #182
 jsr wait
 nop
 nop
 nop
 lda #$02
 sta $d021 ; line $40, cycle 20
 nop
 nop
 nop
 nop
 nop
 nop
 nop
 lda #$06
 sta $d021 ; line $40, cycle 40
 nop
 nop
 nop
 nop
 nop
 nop
 lda #$05
 sta $d020 ; line $40, cycle 58
 nop
 nop
 lda #$0e
 sta $d020 ; line $41, cycle 5
 ldx #86
 jsr wait
 nop
 nop
 lda #$07
 sta $d021 ; line $48, cycle 17
 lda #$06
 sta $d021 ; line $48, cycle 23
 ldx #96
 jsr wait
 nop
 lda #$d8
 sta $d016 ; line $50, cycle 20
 lda #$3b
 sta $d011 ; line $50, cycle 26
 nop
 nop
 nop
 nop
 lda #$c8
 sta $d016 ; line $50, cycle 40
 lda #$1b
 sta $d011 ; line $50, cycle 46
 ldx #92
 jsr wait
 lda #$3b
 sta $d011 ; line $58, cycle 21
 lda #$d8
 sta $d016 ; line $58, cycle 27
 nop
 nop
 nop
 nop
 nop
 nop
 lda #$1b
 sta $d011 ; line $58, cycle 45
 lda #$c8
 sta $d016 ; line $58, cycle 51
 ldx #92
 jsr wait
 nop
 nop
 lda #$5b
 sta $d011 ; line $60, cycle 30
 lda #$1b
 sta $d011 ; line $60, cycle 36
 ldx #91
 jsr wait
 nop
 nop
 lda #$c0
 sta $d016 ; line $68, cycle 10
 nop
 lda #$c8
 sta $d016 ; line $68, cycle 18
 ldx #104
 jsr wait
 nop
 lda #$c0
 sta $d016 ; line $70, cycle 55
 lda #$c8
 sta $d016 ; line $70, cycle 61
 ldx #87
 jsr wait
 nop
 nop
 lda #$cc
 sta $d016 ; line $78, cycle 15
 ldx #2
 jsr wait
 nop
 nop
 nop
 lda #$c8
 sta $d016 ; line $78, cycle 50
 ldx #88
 jsr wait
 bit $fb
 lda #$d8
 sta $d016 ; line $80, cycle 8
 lda #$3b
 sta $d011 ; line $80, cycle 14
 ldx #5
 jsr wait
 nop
 lda #$1b
 sta $d011 ; line $80, cycle 60
 lda #$c8
 sta $d016 ; line $81, cycle 3
 jmp frame
wait dex ; 5X - 1 cycles, with the JSR and RTS 5X + 11
 bne wait
 rts
