100 rem the 30th variable against the first
110 a0=1:a1=1:a2=1:a3=1:a4=1:a5=1:a6=1:a7=1:a8=1:a9=1:b0=1:b1=1:b2=1:b3=1:b4=1
120 b5=1:b6=1:b7=1:b8=1:b9=1:c0=1:c1=1:c2=1:c3=1:c4=1:c5=1:c6=1:c7=1:c8=1:c9=1
130 t=ti:for i=1 to 500:x=a0:next:print "first";ti-t
140 t=ti:for i=1 to 500:x=c9:next:print "30th";ti-t
150 t=ti:for i=1 to 500:c9=c9+a0:next:print "30th add";ti-t
160 t=ti:for i=1 to 500:x=zz:next:print "unset";ti-t
