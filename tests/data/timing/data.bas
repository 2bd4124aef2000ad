100 rem data and read
110 t=ti:for k=1 to 50:restore:for i=1 to 20:read x:next i,k:print "read num";ti-t
120 t=ti:for k=1 to 50:restore:for i=1 to 20:read x$:next i,k:print "read str";ti-t
130 data 1,2,3,4,5,6,7,8,9,10
140 data 11,12,13,14,15,16,17,18,19,20
