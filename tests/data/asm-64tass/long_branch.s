; 64tass -a -B
; -B: a branch out of range becomes the opposite branch over a jmp
*       = $1000
        bcc far
        bne near
near    nop
        .fill 200, $ea
far     rts
