5 print "{clr}";:rem 300 live strings, 251-byte temporaries
10 dim a$(299):print fre(0)
20 for i=0 to 299:a$(i)=left$("abcdefghijklmnopqrstuvwxyz",i/12+1):next:print fre(0)
30 for j=1 to 3:t$="":for k=1 to 251:t$=t$+chr$(65+k/10):next:a$(j)=mid$(t$,j,5):next
40 print fre(0)
50 x$=a$(5):y$=a$(5)+"":z$="abc":print fre(0)
60 for i=0 to 299 step 2:a$(i)="":next:print fre(0)
70 read q$,r$(3):print fre(0):data "hello",world
80 s$=q$:u$=r$(3)+"":print fre(0)
90 clr:print fre(0)
