100 rem for/next with and without the variable
110 t=ti:for i=1 to 2000:next:print "next";ti-t
120 t=ti:for i=1 to 2000:next i:print "next i";ti-t
130 t=ti:for i=1 to 2000 step 2:next:print "step 2";ti-t
140 t=ti:for i=1 to 100:for j=1 to 20:next j,i:print "nested";ti-t
150 t=ti:for i=10 to 1 step -.5:next:print "step -.5";ti-t
160 t=ti:for i=1 to 300
170 next
180 print "two lines";ti-t
190 t=ti:for i=1 to 500:a=1:b=2:c=3:next:print "assign";ti-t
