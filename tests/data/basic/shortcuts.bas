10 print "{clr}";:rem the runner's shortcuts at their guards' edges (issue 21)
20 a$="abcdefghij":for s=1 to 12 step .5:h=0:for l=0 to 12 step .5:b$=mid$(a$,s,l)
30 h=h*3+len(b$)+len(left$(a$,l))-len(mid$(a$,s)):h=h-int(h/9973)*9973:next:k=k+h:next:print k
40 s=255.9:l=255.99:print mid$(a$,s,1);"/";mid$(a$,1,l);"/";left$(a$,l);"/";mid$(a$,1.99999,2)
50 print mid$(a$,255.9,1);"/";mid$(a$,1,255.99);"/";left$(a$,255.99);"/";mid$(a$,10.5);"/"
60 print val("999999999");val("000000001");val("1000000000");val("4294967295");val("0")
70 print val("123456789")-123456789;val("99999999")*10;val("")
80 dim c(3),d(2,2):c(2)=5:d(1,2)=7:s=1.99999999
85 print c(s+.00000001);c(2.9999999999);d(1.5,2.99)
90 a%=32767.9999:b%=-32768:c%=-32767.99999:print a%;b%;c%;-32768.0000001 and 1
100 print 32767.99999 or 0;-1 and 32767.5;not -32768.00000001
110 print str$(999999999);str$(-999999999);str$(1e9);str$(-1e9);str$(100000000);str$(-0)
120 x=4294967295:print x+0;x-1;x*1;-x;x+1-1;4294967295*1;65535*65537;65537*65535
130 print 3*16777217;16777215*255;1520319949+(2-2^-31);4294967296-4294967295
140 print -32768.00001 and 1
