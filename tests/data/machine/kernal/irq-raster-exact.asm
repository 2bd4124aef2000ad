; Where in a program the VIC-II's raster interrupt comes, from a start the program
; synchronises with the raster to the cycle: as irq-raster-where (line 100 of 64
; frames, the KERNAL's entry and ($0314), the low byte of the pushed address kept from
; $C080 on, a loop of instructions of 2 to 7 cycles, the screen off), but after the
; loop that waits for line 1 (which ends 0-6 cycles into it) three reads of the
; raster at the next line changes make up the difference (see below), so the places
; do not hang on the cycle the program happened to start at.
main sei
 lda $d011
 and #$ef
 sta $d011
 ldx #1
wait cpx $d012
 bne wait
 lda $d011
 bmi wait
; the read that saw line 1 came 0-6 cycles after the line began (a loop of 7 cycles):
; three reads of $D012 across the next line changes, each after a known delay, take 3,
; 2 and 1 cycles more where the line had not yet changed, so the code goes on from the
; same cycle of line 4 whichever it was
 ldx #9
d1 dex
 bne d1
 nop
 lda $d012
 cmp #2
 beq s1
 nop
 nop
s1 ldx #9
d2 dex
 bne d2
 nop
 nop
 nop
 lda $d012
 cmp #3
 beq s2
 bit $ea
s2 ldx #10
d3 dex
 bne d3
 nop
 lda $d012
 cmp #4
 beq s3
 nop
s3 lda #$7f
 sta $dc0d
 lda $dc0d
 lda #<irq
 sta $0314
 lda #>irq
 sta $0315
 lda #0
 sta count
 lda #100
 sta $d012
 lda #1
 sta $d019
 sta $d01a
 ldy #0
 cli
loop nop
 lda $c0f0
 inc $c0f1
 lda ($fb),y
 bit $ea
 ldx $c0f2,y
 asl $c0f3,x
 pha
 pla
 lda #1
 sta $c0f4
 inc $ea
 dec $ea
 lda count
 cmp #64
 bne loop
 sei
 lda #0
 sta $d01a
 lda #1
 sta $d019
 lda #$31
 sta $0314
 lda #$ea
 sta $0315
 lda #$81
 sta $dc0d
 lda $d011
 ora #$10
 sta $d011
 cli
 rts
irq tsx
 lda $0105,x
 ldy count
 sta $c080,y
 inc count
 lda #1
 sta $d019
 jmp $ea81
count .byt 0
