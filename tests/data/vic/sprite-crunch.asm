; Sprite 0 (Y $60, expanded in Y) has its expansion switched off on line $61, while
; its expansion flip-flop is clear, at an exact cycle.  The raster is made stable in the
; top border as in midline.asm, DEN is clear on line $30 (no bad lines: the window shows
; idle graphics, $3FFF = 0), and the sprite's DMA takes 5 cycles on line $60 (counted in
; the wait before the write, whose loop only reads there); each write is commented with
; its line and cycle.
; The write in cycle 14, the cycle before MCBASE is updated: VICE's d017_store mixes
; MCBASE into MC (the "sprite crunch", MC = (%101010 & (MCBASE & MC)) | (%010101 &
; (MCBASE | MC))), and the sprite shows its rows out of order for 43 lines.
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
 lda #0
 sta $3fff
 ldx #62
shape txa
 asl
 asl
 ora #$81
 sta $0340,x
 dex
 bpl shape
 lda #13
 sta $07f8
 lda #1
 sta $d027
 lda #100
 sta $d000
 lda #$60
 sta $d001
 lda #0
 sta $d010
 sta $d01d
 sta $d01c
 lda #1
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
 ldx #69
 jsr wait
 bit $fb
 bit $fb
 lda #$1b
 sta $d011 ; line $31, cycle 30
 ldx #182
 jsr wait
 bit $fb
 bit $fb
 lda #$01
 sta $d017 ; line $40, cycle 20
 ldx #255
 jsr wait
 ldx #151
 jsr wait
 bit $fb
 bit $fb
 lda #$00
 sta $d017 ; line $61, cycle 14
 jmp frame
