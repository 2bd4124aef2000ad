; 64tass -a -i
; -i: the NMOS undocumented opcodes with 64tass's names
*       = $1000
        lax $fb
        sax $fc
        dcp $1234,x
        isb ($10),y
        slo $20
        rla $30,x
        sre $4000
        rra $4000,y
        anc #1
        asr #2
        arr #3
        sbx #4
        nop $10
        nop #5
        lax ($12,x)
