; IOINIT ($FF84 = $FDA3) after the CIAs' control registers, ports and the SID's volume were
; changed, with PALNTS ($02A6) $11 and 1.  (The processor port $01 it writes, $E7, reads
; back $37: tests/test_processor_port.py; not compared here, nor
; $DD00, whose serial lines the drive on VICE answers to.)
main lda #$05
 sta $dc0e
 lda #$10
 sta $dc0f
 lda #$55
 sta $dc03
 lda #$ff
 sta $dd03
 lda #$00
 sta $dd02
 lda #$0f
 sta $d418
 lda #$11
 sta $02a6
 sei
 jsr $ff84
 jsr save
 lda $00
 sta $c081
 lda $dc0e
 sta $c082
 lda $dc0f
 sta $c083
 lda $dc03
 sta $c084
 lda $dd03
 sta $c085
 lda $dd02
 sta $c086
 lda $dc02
 sta $c088
 lda $dc00
 sta $c089
 lda $dd0e
 sta $c08a
 lda $dd0f
 sta $c08b
 lda $dc05
 sta $c08c
 lda $02a6
 sta $c08d
 lda #1
 sta $02a6
 jsr $ff84
 cli
 lda $dc05
 sta $c08e
 lda $dc0e
 sta $c08f
 rts
