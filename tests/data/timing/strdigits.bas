100 rem str$ of numbers with few and many digits (fout's time)
110 t=ti:for i=1 to 300:b$=str$(0):next:print "zero";ti-t
120 t=ti:for i=1 to 300:b$=str$(7):next:print "one digit";ti-t
130 x=987654321:t=ti:for i=1 to 300:b$=str$(x):next:print "nine digits";ti-t
140 t=ti:for k=2311111 to 2311410:k$=mid$(str$(k),2):next:print "counter";ti-t
150 x=1e20:t=ti:for i=1 to 100:b$=str$(x):next:print "huge";ti-t
160 x=.25:t=ti:for i=1 to 300:b$=str$(x):next:print "quarter";ti-t
170 x=3.14159265:t=ti:for i=1 to 300:b$=str$(x):next:print "pi";ti-t
