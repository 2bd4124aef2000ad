; Sprite collisions as a program reads them: $D01E (sprite-sprite) and $D01F (sprite-
; background) after a frame, again at once (a read clears them), after another frame,
; after sprite 1 moves away; $D019's bits; and the raster line read first thing in the
; interrupt that a sprite-sprite collision raises (106: sprite 1's first line; the
; handler reads $d012 some 50 cycles after the collision).  Printed as hex digits in
; row 0.
; Interrupts are off (SEI) but the KERNAL's 60 Hz timer keeps running until the
; collision interrupt is set up, as in a program that takes over the IRQ.
;   sprite 0 and 1 overlap (bits 0 1), sprite 2 lies on text (bit 2 in $D01F), sprite 3
;   alone, sprite 4 on text behind it (priority does not matter: bit 4), sprite 5
;   (multicolour) on a space, sprites 6 and 7 overlap under the left border (bits 6 7).
*= $c000
 sei
 lda #14
 sta $d020
 lda #6
 sta $d021
 lda #$1b
 sta $d011
 lda #$c8
 sta $d016
 lda #$15
 sta $d018
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
 ldx #39
text lda #$a0 ; a row of solid characters in row 12
 sta $0400+12*40,x
 dex
 bpl text
 ldx #63
shape lda #$ff
 sta $0340,x ; block 13: solid
 dex
 bpl shape
 ldx #0
setup lda table,x
 sta $d000,x
 inx
 cpx #$2f
 bne setup
 ldx #7
pointers lda #13
 sta $07f8,x
 dex
 bpl pointers
 jsr frame
 jsr frame
 lda $d01e
 sta results
 lda $d01f
 sta results+1
 lda $d01e
 sta results+2
 lda $d01f
 sta results+3
 jsr frame
 lda $d01e
 sta results+4
 lda $d01f
 sta results+5
 lda #200 ; sprite 1 away from sprite 0
 sta $d002
 jsr frame
 lda $d01e ; clears what the last frame latched
 lda $d019
 sta results+6
 jsr frame
 lda $d01e
 sta results+7
 lda #$ff
 sta $d019 ; acknowledge everything
; the interrupt: sprite 1 back on sprite 0, sprite-sprite collisions raise an IRQ
 lda #<irq
 sta $0314
 lda #>irq
 sta $0315
 lda #$04
 sta $d01a
 jsr frame
 jsr frame
 lda #$7f
 sta $dc0d ; now the CIA's interrupts off
 lda $dc0d
 jsr frame
 lda $d01e ; at line 0: nothing latched, nothing pending
 lda #$ff
 sta $d019
 lda #176 ; sprites 0 and 1 overlap again, at X $1b0 and $1b8: in the left border, where
 sta $d000 ; the beam is early in the line (cycle 6), so that the handler reads $d012
 lda #184 ; before the line ends, whatever the wait loop's phase
 sta $d002
 lda #3
 sta $d010
 cli
wait lda results+8
 beq wait
 sei
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
 cpx #10
 bne print ; (a page crossed: one cycle more, no matter here)
loop jmp loop
; the screen position for result x in y, the hex digit of a in a
digit stx $fb
 pha
 txa
 asl
 adc $fb
 tay
 pla
 cmp #10
 bcc number
 sbc #9 ; a-f: screen codes 1-6
 rts
number ora #$30
 rts
; wait for the start of the next frame (line 0)
frame bit $d011
 bpl frame
f1 bit $d011
 bmi f1
 rts
irq lda $d012
 sta results+8
 lda $d011
 and #$80
 sta results+9
 lda #$ff
 sta $d019
 lda #0
 sta $d01a
 jmp $ea81
results .byt 0,0,0,0,0,0,0,0,0,0
table .byt 100,100, 110,105, 60,130, 200,160, 150,140, 250,200, 10,220, 14,225
 .byt 0 ; $d010
 .byt $1b,0,0,0 ; $d011-$d014
 .byt $ff ; $d015
 .byt $c8 ; $d016
 .byt 0 ; $d017
 .byt $15 ; $d018
 .byt 0,0 ; $d019, $d01a
 .byt %00010000 ; $d01b: sprite 4 behind the text
 .byt %00100000 ; $d01c: sprite 5 multicolour
 .byt 0 ; $d01d
 .byt 0,0 ; $d01e, $d01f (read only)
 .byt 14,6,0,0,0 ; $d020-$d024
 .byt 10,13
 .byt 1,2,3,4,5,7,8,9
