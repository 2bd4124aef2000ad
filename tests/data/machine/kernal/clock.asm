; SETTIM ($FFDB), RDTIM ($FFDE) and UDTIM ($FFEA), each called with interrupts off (the
; interrupt points at $EA7E meanwhile, so the clock only counts when UDTIM is called):
; registers and flags (SETTIM and RDTIM end in CLI, $F6EB), the clock at $A0-$A2, and
; UDTIM's carry at a day's end ($4F1A01 jiffies: the clock goes to 0, $F6A7-$F6BA),
; its A and X (the keyboard row of RUN/STOP, $F6BC) and STKEY ($91).
main sei
 lda #$7e
 sta $0314
 lda #$ea
 sta $0315
 lda #$12
 ldx #$34
 ldy #$56
 sei
 clc
 jsr $ffdb
 jsr save
 ldx #0
 ldy #0
 lda #0
 sei
 jsr $ffde
 jsr save
 sei
 jsr $ffea
 jsr save
 lda $a0
 sta $c080
 lda $a1
 sta $c081
 lda $a2
 sta $c082
 lda $91
 sta $c083
 lda #$00
 ldx #$1a
 ldy #$4f
 jsr $ffdb
 sei
 clc
 jsr $ffea
 jsr save
 lda $a0
 sta $c084
 lda $a1
 sta $c085
 lda $a2
 sta $c086
 sec
 jsr $ffea
 jsr save
 lda $a2
 sta $c087
 lda #$31
 sta $0314
 lda #$ea
 sta $0315
 cli
 rts
