10 rem the edges of the runner's fast paths
20 for i=4294967291 to 4294967299 step 2:print 4294967300-i;:next:print
30 for i=-4294967291 to -4294967299 step -2:print 4294967300+i;:next:print
40 for i=1 to 3:i=i+.5:print i;:next:print i
50 for i=0 to 1 step .25:print i;:next:print i
60 for i=2147483646 to 2147483649:print i-2147483640;:next:print
70 for i=1 to 3:for j=1 to 2:print i*10+j;:next:next:print i;j
80 for i=1 to 2:gosub 500:next:print i
90 for i=3 to 1 step -1:print i;:next:print i
100 for i=5 to 1:print i;:next:print i;:for i=1 to 1 step 0:print i;:next:print i
120 dim a(4),b(2,3),c%(3),d$(2):a(1.5)=7:a(4)=8:b(2,3)=9:b(1.9,.5)=3
125 c%(2)=-2.5:d$(1)="x"
130 print a(1);a(1.99);a(4);b(2,3);b(1,0);c%(2);d$(1.5);e(10);f(2,2)
140 a$="2311111":for i=1 to 8:print val(mid$(a$,i,1));:next:print
150 print mid$(a$,3);"/";mid$(a$,3,2);"/";mid$(a$,7,5);"/";mid$(a$,8);"/";
155 print mid$(a$,255,1);"/";left$(a$,0)
160 print right$(a$,3);"/";right$(a$,9);"/";val("12e3");val(" 1.5");val("-7")
165 print val("");val("1e3")+val("1e3");val(".1")*3
170 for i=0 to 255 step 51:print len(left$(a$,i));:next:print left$(a$,3);mid$(a$,i/100,1.9)
180 k=2311111:k$=mid$(str$(k),2):print k$;len(k$);str$(-k);str$(999999999)
185 print str$(1e9);str$(-1e9);str$(-999999999);str$(.5);str$(-0)
190 x=-4294967295:for i=x to 1 step 4294967296:print i;:next:for i=1 to 2:next i:print i
200 for i=1 to 3:for j=1 to 3:next i:print i;j:print "end"
210 end
500 for j=1 to 2:print i;j;:next:print:return
