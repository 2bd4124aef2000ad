; Where in a program the VIC-II's raster interrupt comes: line 100 of 64 frames,
; through the KERNAL's entry ($FF48) and ($0314) to a handler that keeps the low byte of
; the address the interrupt pushed from $C080 on, while the program runs a loop of
; instructions of 2 to 7 cycles (as irq-where, with CIA 1's interrupts off).  The
; screen is off (no bad lines); the loop waits for line 0 first, so every run starts at
; the same point of a frame.  The KERNAL's interrupt and the screen are set back at the
; end.
main sei
 lda $d011
 and #$ef
 sta $d011
wait lda $d012
 bne wait
 lda $d011
 bmi wait
 lda #$7f
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
