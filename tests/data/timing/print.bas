100 rem print with scrolling
110 print chr$(147);:t=ti:for i=1 to 20:print "abcdefghij";:next:r1=ti-t
120 t=ti:for i=1 to 100:print i:next:r2=ti-t
130 t=ti:for i=1 to 50:print "0123456789012345678901234567890123456789";:next:r3=ti-t
140 t=ti:for i=1 to 100:print i;:next:r4=ti-t
150 t=ti:for i=1 to 100:print "a","b":next:r5=ti-t
160 print chr$(147);"print";r1:print "scroll num";r2:print "scroll line";r3
170 print "numbers";r4:print "commas";r5
