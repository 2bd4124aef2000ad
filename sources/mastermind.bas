100 rem *** mastermind: the computer guesses, any size (list algorithm) ***
110 rem answer each guess with + (right digit, right place) and - (right
120 rem digit, wrong place), nothing for neither. next guess: the next code
130 rem in list order (last position fastest) that fits every answer.
140 rem the first guess 123.. is not from the list, so the first walk starts
150 rem at 11..1; later walks go on after the last guess. end of list: an
160 rem answer was wrong. scoring is standard mastermind: the document's
170 rem example (secret 311: 123 --, 211 ++, 311 +++) skips 212, which fits
180 rem 123 -- and 211 ++ and is only ruled out when a digit that already
190 rem scored + is counted again for -. here: 123 --,211 ++,212 +,311 +++
200 rem limits: 2-6 positions, 2-9 digits (one key each), 30 guesses kept.
210 rem time: a guess tests codes one by one against all answers. on vice a
220 rem 4x6 game took 2-3 minutes, a 5x8 game 25-50; 6x9 would take hours.
230 dim g(30,6),b(30),w(30),k(30,9),c(6),q(9)
240 input "positions (2-6)";p: if p<2 or p>6 or p<>int(p) then 240
250 input "digits (2-9)";d: if d<2 or d>9 or d<>int(d) then 250
260 for i=1 to p: c(i)=i-1-int((i-1)/d)*d+1: next: n=0
270 n=n+1: g$="": for i=1 to p: g(n,i)=c(i): g$=g$+chr$(48+c(i)): next
280 for j=1 to d: k(n,j)=0: next: for i=1 to p: k(n,c(i))=k(n,c(i))+1: next
290 print n;g$
300 a$="": input "answer";a$: x=0: y=0: if a$="" then 340
310 for i=1 to len(a$): z$=mid$(a$,i,1): x=x-(z$="+"): y=y-(z$="-")
320 if z$<>"+" and z$<>"-" then print "type + and - only": goto 300
330 next: if x+y>p then print "more marks than places": goto 300
340 b(n)=x: w(n)=y: if x=p then print "solved in";n;"guesses": end
350 if n=30 then print "out of room for answers": end
360 if n>1 then 390
370 for i=1 to p: c(i)=1: next: goto 400
380 rem * the next code: the last position counts fastest *
390 i=p
395 c(i)=c(i)+1: if c(i)>d then c(i)=1: i=i-1: if i>0 then 395
396 if i=0 then print "no code fits all answers: one was wrong": end
400 gosub 500: if f then 270
410 goto 390
500 rem * f=1 if code c fits every answer so far *
510 f=0: for t=1 to n: x=0: for i=1 to p: x=x-(c(i)=g(t,i)): next
520 if x<>b(t) then return
530 for j=1 to d: q(j)=0: next: for i=1 to p: q(c(i))=q(c(i))+1: next
540 y=-x: for j=1 to d: y=y+q(j)+(q(j)>k(t,j))*(q(j)-k(t,j)): next
550 if y<>w(t) then return
560 next: f=1: return
