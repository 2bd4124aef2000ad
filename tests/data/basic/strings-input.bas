5 print "{clr}";:rem input, get, str$, ti$ in string space
10 input a$,b$:print fre(0):c$=a$:print fre(0)
20 get k$:print fre(0);len(k$)
30 d$=str$(1e9)+chr$(66):print fre(0)
40 dim e%(100):e%(5)=3:f=5:print fre(0)
50 for i=1 to 3:g$=g$+"yes":next:print fre(0)
60 h$=ti$:i$=mid$(ti$,2):print fre(0)
