; YSCROLL 7 with 25 rows: the bad lines are $37, $3F, ... $F7, so the first rows' lines
; $33-$36 show the idle graphics ($3FFF = $D5, in black) and the 25th row is fetched on
; line $F7, the last line that can be a bad line (its four lines $F7-$FA show before
; the border closes on $FB).  A bitmap fills $2000-$3FFF (the idle byte's page).
*= $c000
 sei
 lda #14
 sta $d020
 lda #6
 sta $d021
 ldx #0
bm txa
 eor #$5a
 sta $2000,x
 sta $2100,x
 sta $2200,x
 sta $2300,x
 sta $2400,x
 sta $2500,x
 sta $2600,x
 sta $2700,x
 sta $2800,x
 sta $2900,x
 sta $2a00,x
 sta $2b00,x
 sta $2c00,x
 sta $2d00,x
 sta $2e00,x
 sta $2f00,x
 sta $3000,x
 sta $3100,x
 sta $3200,x
 sta $3300,x
 sta $3400,x
 sta $3500,x
 sta $3600,x
 sta $3700,x
 sta $3800,x
 sta $3900,x
 sta $3a00,x
 sta $3b00,x
 sta $3c00,x
 sta $3d00,x
 sta $3e00,x
 sta $3f00,x
 inx
 bne bm
 lda #$d5
 sta $3fff
 ldx #0
fill txa
 sta $0400,x
 sta $0500,x
 sta $0600,x
 sta $06e8,x
 and #$0f
 sta $d800,x
 sta $d900,x
 sta $da00,x
 sta $dae8,x
 inx
 bne fill
 lda #$1f
 sta $d011
 lda #$c8
 sta $d016
 lda #$15
 sta $d018
loop jmp loop
