; JMP $E37B, BASIC's warm start, from machine code with the output switched to the
; screen file 1 and $13 set: READY. on the screen, the channels back to the keyboard
; and screen.  (What it leaves in $C000 is only what the program stored before.)
main lda #1
 ldx #3
 ldy #0
 jsr $ffba
 lda #0
 jsr $ffbd
 jsr $ffc0
 ldx #1
 jsr $ffc9
 lda #$41
 jsr $ffd2
 lda #1
 sta $13
 lda $9a
 sta $c080
 jmp $e37b
