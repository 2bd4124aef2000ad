10 c=56320:d=56576
20 for k=0 to 1:b=c+k*256:gosub 800:print "reset";peek(b+14)and128;h;m;s;z;
25 w=30:gosub 900:gosub 800:print h;m;s;z:next
30 poke c+13,1:x=peek(c+13):x=peek(d+13)
40 for k=0 to 1:b=c+k*256:poke b+15,peek(b+15)or128:poke b+11,1:a=peek(b+13)and132
50 poke b+8,3:e=peek(b+13)and132:poke b+15,peek(b+15)and127:poke b+8,0:f=peek(b+13)and132
60 for i=1 to 600:next:g=peek(b+13)and132:print "alarm";a;e;f;g;peek(b+13)and132:next
70 b=c:h=1:m=0:s=0:z=0:gosub 850:t=ti:poke c+13,132:for i=1 to 600:next
80 print "irq";ti-t;peek(c+13)and132:poke c+13,4:poke c+13,129
100 for k=0 to 1:b=c+k*256:print "hr";
110 for j=1 to 8:read v:poke b+11,v:x=peek(b+8):print peek(b+11);:x=peek(b+8):next:restore
120 poke b+10,255:poke b+9,255:poke b+8,255:print:print " min sec ten";peek(b+10);peek(b+9);peek(b+8):next
130 data 18,146,17,255,0,19,31,128
200 restore:for j=1 to 8:read v:next:b=c
205 for j=1 to 10:read h,m,s,z:print "roll";h;m;s;z;:gosub 850:w=20:gosub 900:gosub 800
210 print "to";h;m;s:next
220 data 17,89,89,9,145,89,89,9,18,89,89,9,146,89,89,9,9,89,89,9
230 data 31,89,89,9,19,89,89,9,1,0,0,15,1,95,89,9,1,0,121,9
300 for k=0 to 1:b=c+k*256:h=1:m=0:s=0:z=0:gosub 850:w=30:gosub 900:x=peek(b+11):w=90:gosub 900
310 s=peek(b+9):z=peek(b+8):print "latch";s;peek(b+9);:poke b+11,2:x=peek(b+8):gosub 800:y=z:w=60:gosub 900
320 gosub 800:print "stop";h;s;y=z;:poke b+8,5:w=90:gosub 900:print peek(b+9):x=peek(b+8):next
400 b=c:poke b+14,peek(b+14)and127:gosub 700:print "tenth ms";j;
410 b=d:poke b+14,peek(b+14)or128:gosub 700:print j:end
700 h=1:m=0:s=0:z=0:gosub 850:z=peek(b+8)
710 if peek(b+8)=z then 710
720 t=ti
730 if peek(b+9)=0 then 730
740 j=int((ti-t)*1000/60/9/10+.5)*10:x=peek(b+8):return
800 h=peek(b+11):m=peek(b+10):s=peek(b+9):z=peek(b+8):return
850 poke b+11,h:poke b+10,m:poke b+9,s:poke b+8,z:return
900 t=ti+w
910 if ti<t then 910
920 return
