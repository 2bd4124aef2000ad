; One NMI from CIA 2's timer A (one-shot) through $FFFA: first to a program's handler
; through ($0318) ($FE43: SEI, JMP ($0318)), which counts it and acknowledges; then one
; through the KERNAL's handler ($FE47), which disables CIA 2's interrupts (its mask set
; to ENABL, $02A1, 0 without RS-232) and returns through $FEBC.  Kept: the count, the
; registers the interrupted loop had (given back), CIA 2's flags read after each.
main sei
 lda #<nmi
 sta $0318
 lda #>nmi
 sta $0319
 lda #$7f
 sta $dd0d
 lda $dd0d
 lda #$00
 sta $dd04
 lda #$10
 sta $dd05
 lda #$81
 sta $dd0d
 lda #$19
 sta $dd0e
 cli
 ldx #$12
 ldy #$34
w1 lda $c080
 beq w1
 jsr save
 lda $dd0d
 sta $c081
 lda #$47
 sta $0318
 lda #$fe
 sta $0319
 lda #$19
 sta $dd0e
 ldx #$08
 ldy #0
w2 dey
 bne w2
 dex
 bne w2
 ldx #$56
 jsr save
 lda $dd0d
 sta $c082
 lda #$19
 sta $dd0e
 ldx #$08
 ldy #0
w3 dey
 bne w3
 dex
 bne w3
 lda $dd0d
 sta $c083
 lda $c080
 sta $c084
 lda $02a1
 sta $c085
 rts
nmi pha
 inc $c080
 lda $dd0d
 sta $c086
 pla
 rti
