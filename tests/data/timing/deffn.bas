100 rem def fn and the cursor keys
110 def fn u(x)=x and 15:def fn o(x)=(x and 240)/16
120 def fn d(x)=fn u(x)+fn o(x)*10:def fn p(x)=fn d(peek(x) and 127)
130 t=ti:for i=1 to 300:a=fn u(i):next:print "fn";ti-t
140 t=ti:for i=1 to 100:a=fn d(i):next:print "fn of fn";ti-t
150 t=ti:for i=1 to 100:a=fn p(1024):next:print "fn peek";ti-t
160 t=ti:for i=1 to 100:a=fn p(1024)+fn p(1025)+fn p(1026):next:print "three fns";ti-t
170 t=ti:for i=1 to 300:print "{right}{left}";:next:print:print "cursor";ti-t
