; SAVE ($FFD8) of $C100-$C13F to the disk in drive 8 and LOAD ($FFD5) of it back to
; $C200 (secondary address 0), from its own address (1) and as VERIFY; a LOAD of a file
; that is not there.  Kept: X and Y after each (A is what the serial routines last read
; from CIA 2's port), READST, and the pointers the KERNAL leaves: $AC/$AD, $AE/$AF,
; $C1/$C2, $C3/$C4, $B9, and a byte of each loaded copy.
main ldx #0
fill txa
 eor #$5a
 sta $c100,x
 inx
 bne fill
 lda #1
 ldx #8
 ldy #1
 jsr $ffba
 lda #4
 ldx #<sname
 ldy #>sname
 jsr $ffbd
 lda #$00
 sta $fd
 lda #$c1
 sta $fe
 lda #$fd
 ldx #$40
 ldy #$c1
 jsr $ffd8
 stx $c000
 sty $c001
 jsr $ffb7
 sta $c002
 lda $ac
 sta $c080
 lda $ad
 sta $c081
 lda $ae
 sta $c082
 lda $af
 sta $c083
 lda $c1
 sta $c084
 lda $c2
 sta $c085
 lda $b9
 sta $c086
 lda #1
 ldx #8
 ldy #0
 jsr $ffba
 lda #0
 ldx #$00
 ldy #$c2
 jsr $ffd5
 stx $c004
 sty $c005
 jsr $ffb7
 sta $c006
 lda $ae
 sta $c088
 lda $af
 sta $c089
 lda $c3
 sta $c08a
 lda $c4
 sta $c08b
 lda $c230
 sta $c08c
 lda $b9
 sta $c08d
 lda #1
 ldx #8
 ldy #1
 jsr $ffba
 lda #$30
 sta $c130
 lda #1
 ldx #$00
 ldy #$c3
 jsr $ffd5
 stx $c008
 sty $c009
 jsr $ffb7
 sta $c00a
 lda #1
 ldx #8
 ldy #1
 jsr $ffba
 lda #4
 ldx #<nname
 ldy #>nname
 jsr $ffbd
 lda #0
 jsr $ffd5
 php
 sta $c00c
 stx $c00d
 sty $c00e
 pla
 sta $c00f
 jsr $ffb7
 sta $c010
 rts
sname .asc "data"
nname .asc "none"
