*= $10f0
loop lax $fb
 dcp counter
*= $1100
 bne loop
 lda later
 rts
later = $fb
counter .byt 3
