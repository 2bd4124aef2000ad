; GETIN ($FFE4) with three keys in the keyboard buffer ($41, $85 and a zero byte), each
; called with interrupts off: A, X (the count before), Y (the key) and the flags it
; returns with (CLI at $E5C7), and the count left.
main lda #$41
 sta $0277
 lda #$85
 sta $0278
 lda #$00
 sta $0279
 lda #3
 sta $c6
 ldx #$99
 ldy #$99
 sei
 jsr $ffe4
 jsr save
 sei
 jsr $ffe4
 jsr save
 sei
 jsr $ffe4
 jsr save
 cli
 lda $c6
 sta $c080
 rts
