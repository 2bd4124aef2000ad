; CIA 2's timer A continuous with its NMI on, an underflow every 1000 cycles, for about
; 100,000 cycles of a busy loop (bad lines included): a handler through ($0318) that
; reads $DD0D gets every underflow's NMI (the line goes high at the read, the next
; underflow is a new edge); then one that does not read it gets the first only (the
; line stays low).  Kept: both counts (16 bits) and CIA 2's flags after each part.  The
; I flag stays set (an NMI does not look at it): no KERNAL interrupt in between.
main sei
 lda #<nmi
 sta $0318
 lda #>nmi
 sta $0319
 lda #$7f
 sta $dd0d
 lda $dd0d
 lda #$e7
 sta $dd04
 lda #$03
 sta $dd05
 lda #$81
 sta $dd0d
 lda #$11
 sta $dd0e
 jsr busy
 lda #$00
 sta $dd0e
 lda $dd0d
 sta $c084
 lda #<held
 sta $0318
 lda #>held
 sta $0319
 lda #$11
 sta $dd0e
 jsr busy
 lda #$00
 sta $dd0e
 lda $dd0d
 sta $c085
 lda #$47
 sta $0318
 lda #$fe
 sta $0319
 cli
 rts
busy ldx #80
 ldy #0
b1 dey
 bne b1
 dex
 bne b1
 rts
nmi pha
 inc $c080
 bne n1
 inc $c081
n1 lda $dd0d
 pla
 rti
held inc $c082
 bne h1
 inc $c083
h1 rti
