10 print "total:";
20 for i=1 to 3: t=t+i*1.1: next
30 print t
40 print 3*16777217
50 print t/0
