10 print sin(1);cos(1);tan(1);atn(1)
20 print log(10);exp(1);sqr(2);sqr(9)
30 print 2^.5;(-2)^3;10^-2;int(-1.5)
40 print 1/7;100/7;1e-10/3
50 print val("1e5");val(" 12 3x");val("-.5e-3")
60 print 123456789.4;999999999.6;.1+.2;1-.9
70 print str$(-0);str$(1e-9);abs(-3.5);sgn(-2)
80 print asc("a");chr$(65);len("abc");left$("hello",2);right$("hello",3);mid$("hello",2,2)
90 a%=-1.5:b%=32767.9:print a%;b%;7 and 12;7 or 8;not 0
100 print 1=1;1<2;"a"<"b";"ab">"a";2>=3
110 x=rnd(-7):print rnd(1);rnd(1)
120 print 3*16777217;4.35*100;5/3*3
130 print fre(0)<0;pos(0);,"x";spc(2);"y"
140 print tab(5)"t"
150 print 1.5e-5;12345678912;-.000123
