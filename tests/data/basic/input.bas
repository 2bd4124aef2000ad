10 input a,b$:print a;b$
20 input "num";n:print n
30 input c,d:print c;d
40 input e:print e
50 input f$:print "["f$"]"
60 print "end"
