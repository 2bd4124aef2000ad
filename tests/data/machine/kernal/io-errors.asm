; The KERNAL's errors ($F6FB-$F72B): CLRCHN first (a disk file the output was switched
; to is told UNLISTEN, the next CHROUT goes to the screen), "I/O ERROR #n" with MSGFLG
; bit 6, A the number, X 3, Y 0 (12 after the message), carry set.  The cases: OPEN of
; a logical file already open (2) while the output goes to a disk file, CHKIN of a file
; not open (3), with messages on, OPEN of logical file 0 (6), CHKOUT to the keyboard
; (7), then READST; X and Y after OPEN of a disk file (A is what UNLISTEN read from
; CIA 2's port, left out), the registers after CHKOUT to it.
main lda #2
 ldx #8
 ldy #2
 jsr $ffba
 lda #8
 ldx #<wname
 ldy #>wname
 jsr $ffbd
 jsr $ffc0
 stx $c090
 sty $c091
 ldx #2
 jsr $ffc9
 jsr save
 lda #$41
 jsr $ffd2
 lda #2
 ldx #8
 ldy #2
 jsr $ffba
 jsr $ffc0
 jsr save
 lda $9a
 sta $c080
 lda #$58
 jsr $ffd2
 lda #$40
 jsr $ff90
 ldx #7
 jsr $ffc6
 jsr save
 lda #0
 ldx #3
 ldy #0
 jsr $ffba
 jsr $ffc0
 jsr save
 lda #5
 ldx #0
 ldy #0
 jsr $ffba
 jsr $ffc0
 jsr save
 ldx #5
 jsr $ffc9
 jsr save
 jsr $ffb7
 jsr save
 lda #0
 jsr $ff90
 lda #5
 jsr $ffc3
 lda #2
 jsr $ffc3
 lda $98
 sta $c081
 lda $99
 sta $c082
 lda $9a
 sta $c083
 rts
wname .asc "t,s,w"
 .byt 0,0,0
