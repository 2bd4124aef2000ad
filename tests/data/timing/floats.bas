100 rem sin log exp sqr power
110 t=ti:for i=1 to 100:x=sin(i):next:print "sin";ti-t
120 t=ti:for i=1 to 100:x=log(i):next:print "log";ti-t
130 t=ti:for i=1 to 100:x=exp(i/10):next:print "exp";ti-t
140 t=ti:for i=1 to 100:x=sqr(i):next:print "sqr";ti-t
150 t=ti:for i=1 to 100:x=i^2.5:next:print "power";ti-t
160 t=ti:for i=1 to 300:x=i*3.14159:next:print "mul";ti-t
170 t=ti:for i=1 to 300:x=i/7:next:print "div";ti-t
180 t=ti:for i=1 to 300:x=i+1234.5:next:print "add";ti-t
190 t=ti:for i=1 to 100:x=atn(i)+cos(i)+tan(i):next:print "atn cos tan";ti-t
