10 dim p%(5):n=0
20 for i=2 to 13
30 f=0:for j=2 to i-1:if i/j=int(i/j) then f=1
40 next j
50 if f then 70
60 n=n+1:p%(n)=i:print i;
70 next i
80 t$="{rvon}done{rvof}":def fnh(x)=x/2
90 print:print n;t$;fnh(n)
