; Where in a program an interrupt comes: CIA 1's timer A every 1,001 cycles, through the
; KERNAL's entry ($FF48) and ($0314) to a handler that keeps the low byte of the address
; the interrupt pushed (the instruction it came before) from $C080 on, 64 times, while
; the program runs a loop of instructions of 2 to 7 cycles.  A 6502 looks at its IRQ
; line in each instruction's last cycles: the interrupt comes before the instruction
; after the one running when the timer ran out (or the one after that), wherever that
; is in the loop.  The screen is off meanwhile (no bad lines: where the loop starts in
; a frame does not count, see irq-repeat); the KERNAL's timer and handler are set back
; at the end.
main sei
 lda $d011
 and #$ef
 sta $d011
wait lda $d012
 bne wait
 lda $d011
 bmi wait
 lda #<irq
 sta $0314
 lda #>irq
 sta $0315
 lda #0
 sta count
 lda #$e8
 sta $dc04
 lda #$03
 sta $dc05
 lda #$11
 sta $dc0e
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
 lda #$25
 sta $dc04
 lda #$40
 sta $dc05
 lda #$11
 sta $dc0e
 lda #$31
 sta $0314
 lda #$ea
 sta $0315
 lda $dc0d
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
 lda $dc0d
 jmp $ea81
count .byt 0
