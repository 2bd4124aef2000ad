10 print "{clr}";:rem next's shortcut at the edges of +-2**32 (issue 21)
20 for i=-4294967296 to 1e30 step 4294967295:print i;:if i<4e9 then next
30 print:for i=4294967296 to -1e30 step -4294967295:print i;:if i>-4e9 then next
40 print:x=-4294967296:for i=x to x+3:print i-x;:next:print i-x
50 x=4294967296:for i=x to x-3 step -1:print x-i;:next:print x-i
60 for i=-4294967295 to -4294967293:print i+4294967296;:next:print
70 for i=4294967294 to 4294967297:print i-4294967290;:next:print i-4294967290
80 for i=-4294967297 to -4294967294 step 2:print i+4294967300;:next:print
90 for i=0 to 4294967295 step 4294967295:print i;:next:print i
100 for i=-8589934591 to 1e30 step 4294967295:print i;:if i<1 then next
110 print:for i=-4294967296 to -3 step 4294967295:print i;:next:print i
120 for i=2147483647 to 2147483649:print i-2147483600;:next:print
