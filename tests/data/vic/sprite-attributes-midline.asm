; Sprite 0 (X 60, expanded in X, over idle graphics: $3FFF = $33 in the window that
; DEN clear on line $30 leaves without bad lines) switched to multicolour and back, and
; its X expansion off and on, in the middle of lines: $D01C and $D01D written at exact
; cycles.  The chip takes both at the seventh pixel of each cycle (a write seen in cycle
; c from pixel 8c + 6) and goes on shifting out the row with its flip-flops as they are:
; VICE 3.10's draw_sprites (the 8565: update_sprite_mc_bits_8565 toggles the multicolour
; flip-flop on a change while the expansion flip-flop is clear; hires loads a bit at
; every set expansion flip-flop).  The raster is made stable in the top border as in
; midline.asm; the waits count the 5 cycles the sprite's DMA takes on each of its lines;
; each write is commented with its line and cycle.
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
 ldx #62
shape txa
 ora #$99
 sta $0340,x
 dex
 bpl shape
 lda #13
 sta $07f8
 lda #1
 sta $d027
 lda #2
 sta $d025
 lda #5
 sta $d026
 lda #60
 sta $d000
 lda #$60
 sta $d001
 lda #0
 sta $d010
 sta $d01b
 sta $d01c
 lda #1
 sta $d01d
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
 ldx #255
 jsr wait
 ldx #255
 jsr wait
 ldx #94
 jsr wait
 bit $fb
 bit $fb
 lda #$01
 sta $d01c ; line $62, cycle 24
 ldx #7
 jsr wait
 nop
 nop
 lda #$00
 sta $d01c ; line $63, cycle 24
 ldx #30
 jsr wait
 bit $fb
 lda #$01
 sta $d01c ; line $66, cycle 22
 ldx #8
 jsr wait
 lda #$00
 sta $d01c ; line $67, cycle 23
 ldx #30
 jsr wait
 bit $fb
 bit $fb
 lda #$00
 sta $d01d ; line $6a, cycle 24
 ldx #8
 jsr wait
 lda #$01
 sta $d01d ; line $6b, cycle 25
 ldx #30
 jsr wait
 bit $fb
 lda #$00
 sta $d01d ; line $6e, cycle 23
 ldx #7
 jsr wait
 bit $fb
 lda #$01
 sta $d01d ; line $6f, cycle 22
 jmp frame
