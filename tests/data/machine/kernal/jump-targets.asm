; The routines behind the jump table called at their own addresses, as some programs
; call them: $FE00 (SETLFS), $FDF9 (SETNAM), $FE07 (READST), $E505 (SCREEN), $E500
; (IOBASE), $F6E4/$F6DD (SETTIM/RDTIM, interrupts off meanwhile), $FE25/$FE34 (MEMTOP/
; MEMBOT read), $FD1A (VECTOR out to $C040) and $FD15 (RESTOR) after CHROUT's vector
; was changed: the registers after each and what they set.
main lda #2
 ldx #8
 ldy #15
 jsr $fe00
 jsr save
 lda #4
 ldx #$34
 ldy #$12
 jsr $fdf9
 jsr save
 jsr $fe07
 jsr save
 jsr $e505
 jsr save
 jsr $e500
 jsr save
 lda #$7e
 sta $0314
 lda #$ea
 sta $0315
 lda #1
 ldx #2
 ldy #3
 jsr $f6e4
 sei
 jsr $f6dd
 jsr save
 lda #$31
 sta $0314
 lda #$ea
 sta $0315
 cli
 sec
 jsr $fe25
 jsr save
 sec
 jsr $fe34
 jsr save
 lda $b8
 sta $c080
 lda $b9
 sta $c081
 lda $ba
 sta $c082
 lda $b7
 sta $c083
 lda $bb
 sta $c084
 lda $bc
 sta $c085
 lda #0
 sta $0326
 ldx #$40
 ldy #$c0
 sec
 jsr $fd1a
 jsr $fd15
 jsr save
 lda $0326
 sta $c086
 lda $0327
 sta $c087
 rts
