; CINT ($FF81 = $FF5B) after the colours, the character set, reverse and quote mode,
; the keyboard variables and the timer were changed.  $DD00 is set to $07 first (the
; serial lines as a LOAD leaves them) so that CINT reads the same port value.
main lda #$07
 sta $dd00
 lda #2
 sta $d020
 lda #5
 sta $d021
 lda #7
 sta $0286
 lda #$0e
 jsr $ffd2
 lda #$12
 jsr $ffd2
 lda #$41
 jsr $ffd2
 lda #$22
 jsr $ffd2
 lda #$80
 sta $028a
 lda #$30
 sta $0289
 lda #$99
 sta $dc04
 lda #$99
 sta $dc05
 lda #$00
 sta $02a6
 sei
 jsr $ff81
 jsr save
 cli
 lda $0286
 sta $c080
 lda $d020
 sta $c081
 lda $d021
 sta $c082
 lda $d018
 sta $c083
 lda $02a6
 sta $c084
 lda $0289
 sta $c085
 lda $028a
 sta $c086
 lda $c7
 sta $c087
 lda $d4
 sta $c088
 lda $d3
 sta $c089
 lda $d6
 sta $c08a
 lda $0291
 sta $c08b
 lda $028b
 sta $c08c
 lda $028c
 sta $c08d
 lda $cc
 sta $c08e
 lda $cd
 sta $c08f
 lda $0292
 sta $c090
 lda $028f
 sta $c091
 lda $0290
 sta $c092
 lda $dc0e
 sta $c093
 lda $dd00
 sta $c094
 lda $d016
 sta $c096
 lda $0288
 sta $c097
 lda $c6
 sta $c098
 lda $9a
 sta $c099
 lda $99
 sta $c09a
 lda $d015
 sta $c09b
 lda $d027
 sta $c09c
 ldx #0
l1 lda $d9,x
 sta $c0a0,x
 inx
 cpx #26
 bne l1
 lda #$42
 jsr $ffd2
 rts
