100 rem arrays
110 dim a(100),b(10,10),c%(100),d$(50)
120 t=ti:for i=0 to 100:a(i)=i:next:print "a(i)=i";ti-t
130 t=ti:for i=0 to 100:x=a(i):next:print "x=a(i)";ti-t
140 t=ti:for i=0 to 10:for j=0 to 10:b(i,j)=i*j:next j,i:print "b(i,j)";ti-t
150 t=ti:for i=0 to 100:c%(i)=i:next:print "c%(i)=i";ti-t
160 t=ti:for i=0 to 50:d$(i)="x":next:print "d$(i)";ti-t
170 t=ti:for i=0 to 300:x=e(5):next:print "e(5)";ti-t
