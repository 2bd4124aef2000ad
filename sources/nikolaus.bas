100 rem *** das haus vom nikolaus ***
110 rem
120 dim n(5,5),a(5,5):rem verknuepfungsmatrix
130 data 0,1,1,1,0
140 data 1,0,1,1,0
150 data 1,1,0,1,1
160 data 1,1,1,0,1
170 data 0,0,1,1,0
180 for i=1to5: forj=1to5
190 read a: n(i,j)=a
200 next: next
210 rem start bei 1 ende bei 2
220 rem 9 knoten (0/8), davon 7 variabel
230 dim k(8)
240 k(0)=1:k(8)=2
250 c=0: rem counter
260 rem * hauptschleife *
270 for k=2311111 to 5535554
280 k$=mid$(str$(k),2)
290 f=0: rem fehlerflag
300 fori=1to7
310 k(i)=val(mid$(k$,i,1)):ifk(i)=0 or k(i)>5 then f=1 :i=7
320 next: if f then 450
330 rem * init testmatrix *
340 for i=1to5: forj=1to5
350 a(i,j)=n(i,j)
360 next: next
370 rem * pruefung auf wegstrecken *
380 f=0: rem fehlerflag
390 fori=1to8
400 if a(k(i-1),k(i))=0 then f=1:i=8
410 a(k(i-1),k(i))=0: rem benutzter weg
420 a(k(i),k(i-1))=0: rem zugehoeriger rueckweg
430 next
440 if f=0 then gosub 480
450 next
460 print"*** ende ***"
470 end
480 rem * ausgabe *
490 c=c+1
500 print "loesung"c"{left}:";
510 forj=0to8: print str$(k(j));: next
520 print: return
