; 64tass -a
; _local symbols belong to the code label above them
*       = $1000
incr    inc ac
        bne _skip
        inc ac+1
_skip   rts
decr    lda ac
        bne _skip
        dec ac+1
_skip   dec ac
        jmp incr._skip
ac      .word 0
