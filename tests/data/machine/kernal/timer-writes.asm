; Stores of each addressing mode, timed by CIA 1's timer A: the timer is started from
; $FFFF (STX/STY abs, CRA = $11) and the next instruction stops it (CRA = 0); the timer
; holds the value of the stop's cycle, so the byte kept tells in which cycle the store
; wrote.  A 6510 writes in an instruction's last cycle: the 4th of STA abs, the 5th of
; STA abs,X and abs,Y (a page crossed or not), the 6th of STA (zp),Y and (zp,X); a
; read-modify-write (DEC abs: 6 cycles, DEC abs,X: 7) writes the old value back in its
; next-to-last cycle and the new one in its last.  All of it in raster lines 256 on
; (no bad line steals a cycle).  Kept from $C080 on: STA abs, abs,X, abs,X across a
; page, abs,Y, abs,Y across a page, (zp),Y, (zp),Y across a page, (zp,X), DEC abs,
; DEC abs,X.  Then the VIC-II's raster flag ($D019 bit 0, line 288, no interrupt
; enabled) with INC, DEC, ASL, LSR $D019 and INC $D000,X (X=$19): $D019 read after
; each, from $C08A on (the old value written back, $71, acknowledges the flag).
main sei
 lda #$7f
 sta $dc0d
 lda #$ff
 sta $dc04
 sta $dc05
 lda #$00
 sta $fb
 lda #$dc
 sta $fc
 lda #$f0
 sta $fd
 lda #$db
 sta $fe
 lda #$0e
 sta $f9
 lda #$dc
 sta $fa
wait1 bit $d011
 bmi wait1
wait2 bit $d011
 bpl wait2
 ldx #$11
 lda #0
 stx $dc0e
 sta $dc0e
 ldx $dc04
 stx $c080
 ldy #$11
 ldx #$0e
 lda #0
 sty $dc0e
 sta $dc00,x
 ldy $dc04
 sty $c081
 ldy #$11
 ldx #$1e
 lda #0
 sty $dc0e
 sta $dbf0,x
 ldy $dc04
 sty $c082
 ldx #$11
 ldy #$0e
 lda #0
 stx $dc0e
 sta $dc00,y
 ldx $dc04
 stx $c083
 ldx #$11
 ldy #$1e
 lda #0
 stx $dc0e
 sta $dbf0,y
 ldx $dc04
 stx $c084
 ldx #$11
 ldy #$0e
 lda #0
 stx $dc0e
 sta ($fb),y
 ldx $dc04
 stx $c085
 ldx #$11
 ldy #$1e
 lda #0
 stx $dc0e
 sta ($fd),y
 ldx $dc04
 stx $c086
 ldy #$11
 ldx #0
 lda #0
 sty $dc0e
 sta ($f9,x)
 ldy $dc04
 sty $c087
 ldx #$11
 stx $dc0e
 dec $dc0e
 ldx $dc04
 stx $c088
 ldy #$11
 ldx #$0e
 sty $dc0e
 dec $dc00,x
 ldy $dc04
 sty $c089
 lda #$9b
 sta $d011
 lda #$20
 sta $d012
 lda #$0f
 sta $d019
 jsr flag
 inc $d019
 lda $d019
 sta $c08a
 jsr flag
 dec $d019
 lda $d019
 sta $c08b
 jsr flag
 asl $d019
 lda $d019
 sta $c08c
 jsr flag
 lsr $d019
 lda $d019
 sta $c08d
 jsr flag
 ldx #$19
 inc $d000,x
 lda $d019
 sta $c08e
 lda #$1b
 sta $d011
 lda #0
 sta $d012
 lda #$0f
 sta $d019
 lda #$25
 sta $dc04
 lda #$40
 sta $dc05
 lda #$11
 sta $dc0e
 lda #$81
 sta $dc0d
 cli
 rts
flag lda $d019
 lsr
 bcc flag
 rts
