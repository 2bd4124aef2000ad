5 print "{clr}";:rem reading a variable does not make it
10 print fre(0)
20 print a:print fre(0)
30 print b$:print fre(0)
40 x=c:print fre(0)
50 print d(3):print fre(0)
60 def fn e(f)=f*2:print fre(0)
70 print fn e(2):print fre(0)
80 if g then print
90 print fre(0);h%:print fre(0)
100 get i$:print fre(0)
110 print fre(j):print fre(0)
120 k=fre(0):print k-fre(0):l$=str$(fre(0)):print fre(0);l$
