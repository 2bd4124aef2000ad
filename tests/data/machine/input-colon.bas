10 input a$:print "["a$"]"
20 input a:print a
30 input a$,b$:print "["a$"]["b$"]"
40 c$="c":d$="d":input c$,d$:print "["c$"]["d$"]"
50 e=7:f=8:input e,f:print e;f
60 input g$:print "["g$"]"
70 input h,i:print h;i
80 input j$,k:print "["j$"]";k
