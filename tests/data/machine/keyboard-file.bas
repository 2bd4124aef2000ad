10 open 1,0
20 print "name: ";:input#1,a$:print:print "["a$"]"
30 input#1,b,c:print b;c
40 input#1,d$:print "["d$"]"
50 get#1,e$:print "["e$"]"
60 close 1
