; 64tass -a
; .bfor/.brept: a scope per iteration, so labels repeat freely
*       = $1000
lst     .brept 3
label   jmp label
        .endrept
        .bfor i := 0, i < 2, i += 1
here    lda #i
        bne here
        .next
