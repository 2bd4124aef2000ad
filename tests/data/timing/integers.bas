100 rem integer variables
110 t=ti:i%=0
120 i%=i%+1:if i%<1000 then 120
130 print "int loop";ti-t
140 t=ti:k=0
150 k=k+1:if k<1000 then 150
160 print "float loop";ti-t
170 t=ti:for i=1 to 500:a%=i*2:b%=a%/3:next:print "int assign";ti-t
