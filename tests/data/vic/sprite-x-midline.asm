; Sprite 0's X ($D000) written at exact cycles near where the beam reaches it (X 60:
; the fifth pixel of cycle 21), one write a line: the sprite starts where its X equals
; the beam's as the comparison sees it, and VICE's draw_sprites8 compares with
; sprite_x_pipe, which takes the X registers after each cycle's pixels: a write seen in
; cycle c counts from pixel 8c + 8.  A sprite moved away before the beam gets there, or
; onto a place the beam has passed, is not shown on that line.  Over idle graphics
; ($3FFF = $33 in the window that DEN clear on line $30 leaves without bad lines); the
; raster is made stable in the top border as in midline.asm, the waits count the 5
; cycles the sprite's DMA takes on each of its lines; each write is commented with its
; line and cycle.
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
 lda #60
 sta $d000
 lda #$60
 sta $d001
 lda #0
 sta $d010
 sta $d01b
 sta $d01c
 sta $d01d
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
 ldx #255
 jsr wait
 ldx #255
 jsr wait
 ldx #93
 jsr wait
 bit $fb
 bit $fb
 lda #$64
 sta $d000 ; line $62, cycle 19
 ldx #7
 jsr wait
 bit $fb
 bit $fb
 lda #$3c
 sta $d000 ; line $63, cycle 21
 ldx #7
 jsr wait
 bit $fb
 lda #$40
 sta $d000 ; line $64, cycle 20
 ldx #7
 jsr wait
 bit $fb
 bit $fb
 lda #$3c
 sta $d000 ; line $65, cycle 22
 ldx #7
 jsr wait
 bit $fb
 lda #$3d
 sta $d000 ; line $66, cycle 21
 ldx #8
 jsr wait
 bit $fb
 lda #$3c
 sta $d000 ; line $67, cycle 25
 ldx #6
 jsr wait
 nop
 lda #$c8
 sta $d000 ; line $68, cycle 18
 ldx #8
 jsr wait
 nop
 nop
 lda #$3c
 sta $d000 ; line $69, cycle 23
 ldx #6
 jsr wait
 bit $fb
 bit $fb
 lda #$3d
 sta $d000 ; line $6a, cycle 20
 ldx #8
 jsr wait
 lda #$3c
 sta $d000 ; line $6b, cycle 21
 ldx #7
 jsr wait
 nop
 nop
 lda #$3b
 sta $d000 ; line $6c, cycle 21
 ldx #8
 jsr wait
 lda #$3c
 sta $d000 ; line $6d, cycle 22
 ldx #7
 jsr wait
 nop
 lda #$3a
 sta $d000 ; line $6e, cycle 20
 jmp frame
