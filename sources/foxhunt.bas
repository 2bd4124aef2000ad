100 rem *** fox hunt (ohota na lis, mk-61) ***
110 rem 10x10 field with n foxes. a move names a cell as row.col, one
115 rem digit each (3.7, 0.0); anything else is a wrong cell.
120 rem answer: foxes on its row, column and both diagonals, a fox on
130 rem the cell included; +.01 when a fox is on the cell. a wrong cell
140 rem answers -(foxes still hidden) and is not a move. each fox counts
150 rem as found once (the calculator counted a found fox again).
160 rem f(r,c): 0 empty, 1 hidden fox, 2 found fox; p(r,c)=1 probed
170 dim f(9,9),p(9,9)
180 input "seed (0-1)";s: if s<0 or s>1 then 180
190 x=rnd(-1-s): rem the same seed gives the same field
200 input "foxes (1-38)";n: if n<1 or n>38 or n<>int(n) then 200
210 for k=1 to n
220 r=int(rnd(1)*10): c=int(rnd(1)*10): if f(r,c) then 220
230 f(r,c)=1: next
240 h=n: m=0
250 m$="": input "cell";m$: gosub 500
260 if v=0 then print -h: goto 250
270 m=m+1: p(r,c)=1: a=0
280 for i=0 to 9: a=a-(f(r,i)>0)-(f(i,c)>0)
290 d=c+i-r: if d>=0 and d<=9 then a=a-(f(i,d)>0)
300 d=c+r-i: if d>=0 and d<=9 then a=a-(f(i,d)>0)
310 next: rem the cell itself was counted four times
320 if f(r,c) then a=a-3+.01: if f(r,c)=1 then f(r,c)=2: h=h-1
330 print a: if h>0 then 250
340 print "all foxes found in";m;"moves"
350 for r=0 to 9: l$=""
360 for c=0 to 9: x$=".": if f(r,c) then x$="f"
370 if p(r,c) and f(r,c)=0 then x$="+"
380 l$=l$+x$: next: print l$: next
390 end
500 rem * the cell in m$: v=1 and r,c when it is digit.digit *
510 v=0: if len(m$)<>3 then return
520 if mid$(m$,2,1)<>"." then return
530 r=asc(m$)-48: c=asc(right$(m$,1))-48
540 if r<0 or r>9 or c<0 or c>9 then return
550 v=1: return
