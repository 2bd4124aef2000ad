; JSR $E8EA, the editor's scroll, called by a program: with a two-row logical line at
; the top it scrolls both rows away; the registers (A = $AC, which it saves and
; restores, X = the cursor row), the cursor row, the line link table and the pointers
; $D1/$D2 and $F3/$F4 after; then called once more.
main lda #$93
 jsr $ffd2
 ldx #0
l1 txa
 and #$1f
 ora #$40
 jsr $ffd2
 inx
 cpx #60
 bne l1
 lda #$0d
 jsr $ffd2
 ldy #0
l2 lda #$30
 jsr $ffd2
 tya
 ora #$40
 jsr $ffd2
 lda #$0d
 jsr $ffd2
 iny
 cpy #5
 bne l2
 lda #$5a
 sta $ac
 jsr $e8ea
 jsr save
 jsr copy
 lda #$0d
 jsr $ffd2
 lda #$a5
 sta $ac
 jsr $e8ea
 jsr save
 lda #$58
 jsr $ffd2
 rts
copy ldx #0
c1 lda $d9,x
 sta $c080,x
 inx
 cpx #26
 bne c1
 lda $d1
 sta $c0a0
 lda $d2
 sta $c0a1
 lda $f3
 sta $c0a2
 lda $f4
 sta $c0a3
 lda $d6
 sta $c0a4
 lda $d3
 sta $c0a5
 lda $c9
 sta $c0a6
 lda $02a5
 sta $c0a7
 rts
