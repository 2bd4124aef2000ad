; The screen blanked ($D011 bit 4 clear): the border colour everywhere.
*= $c000
 sei
 lda #5
 sta $d020
 lda #2
 sta $d021
 lda #$0b
 sta $d011
loop jmp loop
