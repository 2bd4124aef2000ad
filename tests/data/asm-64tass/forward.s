; 64tass -a
; forward references: 64tass shrinks them to zero page once the value is known
*       = $1000
        lda zp
        sta zp+1
        lda far
        jmp end
zp      = $fb
far     = $1234
end     rts
