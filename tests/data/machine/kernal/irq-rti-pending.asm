; An interrupt still pending when the handler returns: the handler acknowledges the
; VIC-II's raster interrupt (line 100) only at every second entry, so at the RTI of
; the others the line is still pulled and the 6510 takes the interrupt again at once,
; before the program's next instruction.  For 32 entries the handler keeps the low byte
; of the address the interrupt pushed and the loop's counter at $C0F1; at the end the
; program keeps, for each of the 16 pairs, the second entry's minus the first's: from
; $C0C0 on for the addresses, from $C0D0 on for the counters (0 and 0 on a C64: no
; instruction of the loop ran in between).  Where in the loop each pair comes depends
; on the cycle at which the loop waiting for raster line 0 ends (a loop of 7 cycles)
; and is left out.  The loop and the set-up are irq-raster-where's (the screen off,
; CIA 1's interrupts off).
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
 cmp #32
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
 ldx #0
 ldy #0
pairs lda $c081,y
 sec
 sbc $c080,y
 sta $c0c0,x
 lda $c0a1,y
 sec
 sbc $c0a0,y
 sta $c0d0,x
 iny
 iny
 inx
 cpx #16
 bne pairs
 lda #0
 sta $c0f1
 ldx #63
clear2 sta $c080,x
 dex
 bpl clear2
 rts
irq tsx
 lda $0105,x
 ldy count
 sta $c080,y
 lda $c0f1
 sta $c0a0,y
 inc count
 lda count
 and #1
 bne keep
 lda #1
 sta $d019
keep jmp $ea81
count .byt 0
