10 a=1:b%=2:c$="hello":dim d(5),e$(3):f$=c$+"x"
20 for i=43 to 56:print peek(i);:next:print
30 print "line";peek(57)+256*peek(58)
40 read x:print "data";x;peek(63)+256*peek(64);peek(65)+256*peek(66)
50 print "cont";peek(61)+256*peek(62)
60 data 7,8
