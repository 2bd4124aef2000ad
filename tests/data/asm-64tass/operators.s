; 64tass -a
; arithmetic, bitwise, comparison and conditional operators with 64tass's priorities
*       = $1000
        .char -7/2, 7/-2, -7%2, 7%-2, 2**3, 1<<4, -8>>1, ~3
        .byte 5^3, 5|2, 6&3, 1+2*3, (1+2)*3, 2**3**2 & $ff
        .byte 3 < 4, 3 == 3, 3 != 3, (3 <=> 4) & $ff, !0, 1 && 2, 0 || 3, 1 ? 5 : 6
        .byte 10 <? 3, 10 >? 3, 0 ? 1 : 2 ? 3 : 4
        .byte 1 = 1, 312 // 8
