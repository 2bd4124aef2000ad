; VECTOR ($FF8D) copying the vectors $0314-$0333 out (carry set) to $C040 and in (carry
; clear) from there, RESTOR ($FF8A) after CHROUT's vector was changed: the registers,
; the pointer $C3/$C4 both leave ($FD1A), the vectors; IOBASE ($FFF3) and SCREEN ($FFED).
main ldx #$40
 ldy #$c0
 sec
 jsr $ff8d
 jsr save
 lda $c3
 sta $c090
 lda $c4
 sta $c091
 lda #$34
 sta $c04c
 ldx #$40
 ldy #$c0
 clc
 jsr $ff8d
 jsr save
 lda $0320
 sta $c092
 lda #$00
 sta $0326
 lda #$12
 sta $0327
 sec
 jsr $ff8a
 jsr save
 lda $0326
 sta $c093
 lda $0327
 sta $c094
 lda $0320
 sta $c095
 lda $c3
 sta $c096
 lda $c4
 sta $c097
 jsr $fff3
 jsr save
 jsr $ffed
 jsr save
 rts
