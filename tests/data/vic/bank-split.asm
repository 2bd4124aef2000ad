; A split between VIC banks (CIA 2's port A, $DD00): bank 0 down to line $80, bank 1
; ($4000: the screen at $4400, a character set in RAM at $5000, sprite pointers at
; $47F8) to line $C0, bank 2 ($8000: the character ROM at $9000 again, sprite pointers
; at $87F8) to line $F8.  Each switch is written in the horizontal blanking (line $80
; and $C0, cycle 62 to cycle 5 of the next line, after the raster wait's jitter), and
; the sprites lie wholly inside their bank's part: the chip reads each bank's screen,
; characters, sprite pointers and sprite data only while it is switched in.
*= $c000
 sei
 lda #14
 sta $d020
 lda #6
 sta $d021
 lda #$1b
 sta $d011
 lda #$c8
 sta $d016
 lda #$14 ; the screen at offset $0400, the characters at $1000 in every bank
 sta $d018
 lda #$3f
 sta $dd02
 ldx #0
fill txa
 sta $0400,x
 sta $0500,x
 sta $0600,x
 sta $06e8,x
 sta $5000,x ; bank 1's characters: each byte its own offset's low byte
 sta $5100,x
 sta $5200,x
 sta $5300,x
 sta $5400,x
 sta $5500,x
 sta $5600,x
 sta $5700,x
 eor #$ff
 sta $4400,x
 sta $4500,x
 sta $4600,x
 sta $46e8,x
 eor #$55
 sta $8400,x
 sta $8500,x
 sta $8600,x
 sta $86e8,x
 and #$0f
 sta $d800,x
 sta $d900,x
 sta $da00,x
 sta $dae8,x
 inx
 bne fill
 ldx #63
shapes txa
 sta $6000,x ; bank 1, block 128
 eor #$ff
 sta $a040,x ; bank 2, block 129
 dex
 bpl shapes
 lda #128
 sta $47f8
 lda #129
 sta $87f9
 lda #13 ; bank 0's pointers: block 13 (not shown: no sprite there)
 sta $07f8
 sta $07f9
 ldx #0
setup lda sprites,x
 sta $d000,x
 inx
 cpx #4
 bne setup
 lda #%00000011
 sta $d015
 sta $d01d
 lda #1
 sta $d027
 lda #2
 sta $d028
frame lda #$80
w1 cmp $d012
 bne w1
 ldx #10
d1 dex
 bne d1
 lda #$96 ; bank 1
 sta $dd00
 lda #$c0
w2 cmp $d012
 bne w2
 ldx #10
d2 dex
 bne d2
 lda #$95 ; bank 2
 sta $dd00
 lda #$f8
w3 cmp $d012
 bne w3
 lda #$97 ; bank 0
 sta $dd00
 jmp frame
sprites .byt 100,$90, 200,$d0
