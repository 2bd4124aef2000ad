10 print "{clr}";:rem numbers a variable gets are rounded to 5 bytes (issue 21)
20 read x:print 17612-x:data 17612.9325
30 dim a(2):read a(1):print 17612-a(1):data 17612.9325
40 input y:print 17612-y:input a(2):print 17612-a(2)
60 a=3e9:x=int(a*1.3):print x=3900000000;3899999999-x
70 print 3899999999-int(a*1.3);int(a*1.3)=3900000000
80 a(0)=int(a*1.3):print 3899999999-a(0):def fn f(q)=3899999999-q:print fn f(int(a*1.3))
90 x=abs(int(a*1.3)):print 3899999999-x;3899999999-abs(int(a*1.3))
