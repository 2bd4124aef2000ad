10 get a:print a;
20 get b:print b;
30 get c:print c;
40 get d,e$:print d;"["e$"]";
50 get f:print f;
60 get g:print g;
70 get h:print h;
80 get i:print i;
90 get j:print j
100 get k
110 print "not reached"
