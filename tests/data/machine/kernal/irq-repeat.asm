; CIA 1's timer A at 1000 cycles, its interrupt through the KERNAL's entry ($FF48) and
; ($0314) to a handler that counts it, reads $DC0D and leaves through $EA81, for about
; 100,000 cycles of a busy loop: every underflow is an interrupt, and the KERNAL's entry
; and exit take their cycles (29 and 22).  The screen is off meanwhile (no bad lines: the
; count does not depend on where in a frame the loop starts, which differs between a C64
; booted in VICE and c64tc without ROMs; DEN cleared in a frame keeps that frame's bad
; lines, so the loop waits for line 0).  Kept: the count (16 bits).  The KERNAL's
; interrupt (timer A at $4025, its handler at $EA31) and the screen are set back at the
; end.
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
 lda #$e7
 sta $dc04
 lda #$03
 sta $dc05
 lda #$11
 sta $dc0e
 cli
 ldx #80
 ldy #0
b1 dey
 bne b1
 dex
 bne b1
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
irq inc $c080
 bne i1
 inc $c081
i1 lda $dc0d
 jmp $ea81
