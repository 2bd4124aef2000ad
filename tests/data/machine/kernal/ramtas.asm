; RAMTAS ($FF87 = $FD50) with interrupts off: zero page, pages 2 and 3 are kept at
; $C200-$C5FF first and put back after (BASIC needs them), the RAM under $A000 is
; seen through $01 = $36.  Stored: the registers, the pointers it sets (tape buffer
; $B2/$B3, $C1/$C2, MEMBOT/MEMTOP $0281-$0284, $0288), how many bytes of $0002-$00FF
; and $0200-$03FF are not 0 after it, and the byte it left at $A000.
main sei
 ldx #0
k1 lda $00,x
 sta $c200,x
 lda $0200,x
 sta $c300,x
 lda $0300,x
 sta $c400,x
 inx
 bne k1
 lda #$11
 sta $a000
 jsr $ff87
 php
 sta $c0f0
 stx $c0f1
 sty $c0f2
 pla
 sta $c0f3
 lda $b2
 sta $c080
 lda $b3
 sta $c081
 lda $c1
 sta $c082
 lda $c2
 sta $c083
 lda $0281
 sta $c084
 lda $0282
 sta $c085
 lda $0283
 sta $c086
 lda $0284
 sta $c087
 lda $0288
 sta $c088
 ldx #2
 ldy #0
c1 lda $00,x
 beq c2
 iny
c2 inx
 bne c1
 sty $c089
 ldy #0
c3 lda $0200,x
 beq c4
 iny
c4 lda $0300,x
 beq c5
 iny
c5 inx
 bne c3
 sty $c08a
 ldx #2
r1 lda $c200,x
 sta $00,x
 inx
 bne r1
r2 lda $c300,x
 sta $0200,x
 lda $c400,x
 sta $0300,x
 inx
 bne r2
 lda #$36
 sta $01
 lda $a000
 sta $c08b
 lda #$37
 sta $01
 cli
 rts
