; SCNKEY ($FF9F) with interrupts off and no key pressed, twice: the registers and the
; keyboard variables it leaves ($CB, $C5, $F5/$F6, $028D, $028E, $C6, $DC00, the
; repeat counters).
main sei
 lda #0
 sta $cb
 sta $c5
 sta $f5
 sta $f6
 sta $028d
 sta $028e
 jsr $ff9f
 jsr save
 lda $cb
 sta $c080
 lda $c5
 sta $c081
 lda $f5
 sta $c082
 lda $f6
 sta $c083
 lda $028d
 sta $c084
 lda $028e
 sta $c085
 lda $c6
 sta $c086
 lda $dc00
 sta $c087
 jsr $ff9f
 jsr save
 lda $028b
 sta $c088
 lda $028c
 sta $c089
 cli
 rts
