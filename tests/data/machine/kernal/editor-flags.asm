; The screen editor's routines called directly, each with the carry clear and then set
; before: the registers and flags they return with ($E544 clear, $E518 initialise,
; $E566 home, $E56C line pointers, $E9FF clear a row, $E50A/$E510/$E513 the cursor).
main lda #$41
 jsr $ffd2
 ldx #0
loop stx index
 clc
 jsr call
 jsr save
 ldx index
 sec
 jsr call
 jsr save
 ldx index
 inx
 inx
 cpx #16
 bne loop
 rts
call lda routines+1,x
 pha
 lda routines,x
 pha
 lda #5
 sta $d3
 lda #3
 sta $d6
 ldx #4
 ldy #7
 lda #$55
 rts
index .byt 0
routines .wor $e544-1,$e518-1,$e566-1,$e56c-1,$e9ff-1,$e50a-1,$e510-1,$e513-1
