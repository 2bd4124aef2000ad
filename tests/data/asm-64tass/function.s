; 64tass -a
; .function called as a statement: its parameters are variables of its own scope
*       = $1000
set16   .function value, target
        lda #<value
        sta target
        lda #>value
        sta target+1
        .endf
fill    .function count, byte=0
        ldx count
-       lda #byte
        dex
        bne -
        .endf
        set16 $1234, $fb
        #set16 label, $fd
        fill #5
        fill #3, 7
label   rts
