; CIA 2's port A ($DD00) as the KERNAL's serial routines leave it: after the LOAD that
; brought this program in, after OPEN 15,8,15,"I0" (its UNLISTEN), after CLOSE, and
; after a LOAD of a file that is not there (UNTALK): ATN, CLK and DATA released.
main lda $dd00
 sta $c080
 lda #15
 ldx #8
 ldy #15
 jsr $ffba
 lda #2
 ldx #<cmd
 ldy #>cmd
 jsr $ffbd
 lda #$17
 sta $dd00
 jsr $ffc0
 lda $dd00
 sta $c081
 lda #$17
 sta $dd00
 lda #15
 jsr $ffc3
 lda $dd00
 sta $c082
 lda #1
 ldx #8
 ldy #1
 jsr $ffba
 lda #4
 ldx #<nname
 ldy #>nname
 jsr $ffbd
 lda #$17
 sta $dd00
 lda #0
 jsr $ffd5
 lda $dd00
 sta $c083
 rts
cmd .asc "i0"
nname .asc "none"
