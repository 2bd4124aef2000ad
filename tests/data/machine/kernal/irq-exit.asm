; A program's interrupt handler through ($0314) that ends in JMP $FEBC (the KERNAL's
; PLA TAY PLA TAX PLA RTI of its NMI handler), then one that ends in JMP $EA81: each
; counts five interrupts while the main loop waits with X and Y set, which the handler's
; exit must give back.
main sei
 lda #<irq1
 sta $0314
 lda #>irq1
 sta $0315
 cli
 ldx #$11
 ldy #$22
wait1 lda $c080
 cmp #5
 bcc wait1
 jsr save
 sei
 lda #<irq2
 sta $0314
 lda #>irq2
 sta $0315
 cli
 ldx #$33
 ldy #$44
wait2 lda $c081
 cmp #5
 bcc wait2
 jsr save
 sei
 lda #$31
 sta $0314
 lda #$ea
 sta $0315
 cli
 rts
irq1 inc $c080
 lda $dc0d
 ldx #0
 ldy #0
 jmp $febc
irq2 inc $c081
 lda $dc0d
 ldx #0
 ldy #0
 jmp $ea81
