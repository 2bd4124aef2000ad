100 sys32768
110 .opt oo,p
120 *= $3400
130 ;
140 ; superhirn iii - der c64 raet ihren code (4 stellen, ziffern 1-6)
150 ; strategie: minimax ueber die noch moeglichen codes: gewaehlt wird der
160 ; code, dessen schlechteste antwort die wenigsten codes uebrig laesst;
170 ; bei gleichstand der erste in der reihenfolge von superhirn ii (erste
180 ; stelle zaehlt am schnellsten). erster versuch 1234.
190 ;
200 chrout = $ffd2
210 chrin = $ffcf
220 strout = $ab1e
230 pg = $fb ; zeiger auf den code des kandidaten (2 bytes)
240 ps = $fd ; zeiger auf den verglichenen code (2 bytes)
250 codes = $4000 ; 1296 codes zu je 4 ziffern, bit 7 der 1. ziffer: moeglich
260 ende = codes+1296*4
270 cntlo = $5500 ; zaehler je antwort (schwarz*5+weiss), 25 stueck
280 cnthi = $5520
290 gd = $5540 ; ziffern des versuchs (4)
300 gc = $5544 ; anzahl je ziffer im versuch (gc+1 .. gc+6)
310 tc = $554c ; arbeitskopie davon
320 black = $5554
330 common = $5555
340 white = $5556
350 answer = $5557
360 bestlo = $5558
370 besthi = $5559
380 bestpg = $555a ; 2 bytes
390 maxlo = $555c
400 maxhi = $555d
410 e0 = $555e ; ziffern beim erzeugen der tabelle
420 e1 = $555f
430 e2 = $5560
440 e3 = $5561
450 left = $5562 ; noch moegliche codes (2 bytes)
460 ;
470 ; programm-start
480 ;
490 lda #147
500 jsr chrout ; bildschirm loeschen
510 jsr gen ; alle codes erzeugen
520 ldx #3 ; 1. versuch '1234'
530 first lda text,x
540 sec : sbc #$30
550 sta gd,x
560 dex
570 bpl first
580 lda #<text
590 ldy #>text
600 jsr strout
610 round jsr counts ; ziffernanzahl des versuchs
620 jsr antwort
630 cpy #$ff ; kombination gefunden ja/nein
640 bne filter
650 rts
660 ;
670 ; codes streichen, die eine andere antwort gaeben
680 ;
690 filter lda #0 : sta left : sta left+1
700 jsr start
710 fl1 ldy #0
720 lda (ps),y
730 bpl fl3 ; nicht mehr moeglich
740 jsr score
750 cmp answer
760 beq fl2
770 ldy #0 ; streichen
780 lda (ps),y
790 and #$7f
800 sta (ps),y
810 jmp fl3
820 fl2 inc left
830 bne fl3
840 inc left+1
850 fl3 jsr next
860 bne fl1
870 lda left
880 ora left+1
890 bne choose
900 lda #$6b:ldy #$a3 ; kein code passt mehr
910 jsr strout ; 'error' ausgeben
920 rts
930 ;
940 ; minimax: naechsten versuch waehlen
950 ;
960 choose lda #$ff : sta bestlo : sta besthi
970 lda #<codes : sta pg
980 lda #>codes : sta pg+1
990 ch1 ldy #0
1000 lda (pg),y
1010 bmi ch2
1020 jmp ch9 ; kein moeglicher code
1030 ch2 ldy #3 ; kandidat als versuch
1040 ch3 lda (pg),y
1050 and #7
1060 sta gd,y
1070 dey
1080 bpl ch3
1090 jsr counts
1100 ldx #24
1110 lda #0
1120 ch4 sta cntlo,x
1130 sta cnthi,x
1140 dex
1150 bpl ch4
1160 jsr start
1170 ch5 ldy #0
1180 lda (ps),y
1190 bpl ch7
1200 jsr score
1210 tax
1220 inc cntlo,x
1230 bne ch6
1240 inc cnthi,x
1250 ch6 lda cnthi,x ; zaehler >= bisher bester: kandidat verwerfen
1260 cmp besthi
1270 bcc ch7
1280 bne ch9
1290 lda cntlo,x
1300 cmp bestlo
1310 bcs ch9
1320 ch7 jsr next
1330 bne ch5
1340 lda #0 : sta maxlo : sta maxhi ; schlechteste antwort
1350 ldx #24
1360 ch8 lda cnthi,x
1370 cmp maxhi
1380 bcc ch8a
1390 bne ch8b
1400 lda cntlo,x
1410 cmp maxlo
1420 bcc ch8a
1430 ch8b lda cntlo,x : sta maxlo
1440 lda cnthi,x : sta maxhi
1450 ch8a dex
1460 bpl ch8
1470 lda maxlo : sta bestlo
1480 lda maxhi : sta besthi
1490 lda pg : sta bestpg
1500 lda pg+1 : sta bestpg+1
1510 ch9 clc
1520 lda pg : adc #4 : sta pg
1530 bcc ch10
1540 inc pg+1
1550 ch10 lda pg
1560 cmp #<ende
1570 bne ch1x
1580 lda pg+1
1590 cmp #>ende
1600 beq ch11
1610 ch1x jmp ch1
1620 ch11 lda bestpg : sta pg
1630 lda bestpg+1 : sta pg+1
1640 ldy #3
1650 ch12 lda (pg),y
1660 and #7
1670 sta gd,y
1680 dey
1690 bpl ch12
1700 ldy #0 ; versuch ausgeben
1710 ch13 lda gd,y
1720 clc : adc #$30
1730 jsr chrout
1740 iny
1750 cpy #4
1760 bne ch13
1770 jmp round
1780 ;
1790 ; unterprogramm: ps auf den ersten code
1800 ;
1810 start lda #<codes : sta ps
1820 lda #>codes : sta ps+1
1830 rts
1840 ;
1850 ; unterprogramm: ps auf den naechsten code, z=1 am ende
1860 ;
1870 next clc
1880 lda ps : adc #4 : sta ps
1890 bcc nx1
1900 inc ps+1
1910 nx1 cmp #<ende
1920 bne nx2
1930 lda ps+1
1940 cmp #>ende
1950 nx2 rts
1960 ;
1970 ; unterprogramm: ziffernanzahl des versuchs nach gc+1 .. gc+6
1980 ;
1990 counts ldx #6
2000 lda #0
2010 co1 sta gc,x
2020 dex
2030 bpl co1
2040 ldy #3
2050 co2 ldx gd,y
2060 inc gc,x
2070 dey
2080 bpl co2
2090 rts
2100 ;
2110 ; unterprogramm: antwort fuer versuch gd, wenn (ps) der code waere
2120 ; ergebnis in a: schwarz*5+weiss
2130 ;
2140 score ldx #6
2150 sc0 lda gc,x
2160 sta tc,x
2170 dex
2180 bne sc0
2190 stx black : stx common
2200 ldy #0
2210 sc1 lda (ps),y
2220 and #7
2230 tax
2240 cmp gd,y
2250 bne sc2
2260 inc black
2270 sc2 lda tc,x
2280 beq sc3
2290 dec tc,x
2300 inc common
2310 sc3 iny
2320 cpy #4
2330 bne sc1
2340 lda common
2350 sec : sbc black
2360 sta white
2370 lda black
2380 asl a : asl a
2390 clc : adc black
2400 adc white
2410 rts
2420 ;
2430 ; unterprogramm: alle 1296 codes erzeugen (erste stelle am schnellsten)
2440 ;
2450 gen jsr start
2460 lda #1 : sta e3
2470 ge3 lda #1 : sta e2
2480 ge2 lda #1 : sta e1
2490 ge1 lda #1 : sta e0
2500 ge0 ldy #0
2510 lda e0 : ora #$80 : sta (ps),y
2520 iny : lda e1 : sta (ps),y
2530 iny : lda e2 : sta (ps),y
2540 iny : lda e3 : sta (ps),y
2550 jsr next
2560 inc e0 : lda e0 : cmp #7 : bne ge0
2570 inc e1 : lda e1 : cmp #7 : bne ge1
2580 inc e2 : lda e2 : cmp #7 : bne ge2
2590 inc e3 : lda e3 : cmp #7 : bne ge3
2600 rts
2610 ;
2620 ; unterprogramm antwort holen (wie superhirn ii: nur das erste zeichen zaehlt)
2630 ;
2640 antwort lda #$0d:jsr chrout
2650 jsr chrin
2660 sec:sbc #$30
2670 cmp #4
2680 bne an1
2690 lda #$64:ldy #$a3:jsr strout ; 'ok'
2700 ldy #$ff
2710 rts
2720 an1 sta black
2730 lda #$0d:jsr chrout
2740 jsr chrin
2750 sec:sbc #$30
2760 sta white
2770 lda #$0d:jsr chrout
2780 lda black
2790 asl a : asl a
2800 clc : adc black
2810 adc white
2820 sta answer
2830 ldy #0
2840 rts
2850 ;
2860 text .asc "1234" : .byt 0
