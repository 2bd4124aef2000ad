10 print"{clr}";:open15,8,15:gosub500
20 readf$:iff$="end"then60
30 printf$;":";:gosub100:print:goto20
40 data"$:*=s","$:*=r","$:*=l","$:*=d","$:*=x","$:t*=p","$:*=u","end"
60 readc$:ifc$="end"then300
70 print#15,"s:*":gosub900:gosub500:print#15,c$:gosub900
80 printc$;" ";left$(s$,2)right$(s$,6);:f$="$":gosub100:print:goto60
90 data"s:*=r","s:*=l","s:*=d","s:*=p","end"
100 open1,8,0,f$:get#1,a$,a$:get#1,a$,a$:gosub200
110 get#1,a$,a$:ifst<>0thenclose1:return
120 get#1,a$,a$:gosub200:printn$;" ";:goto110
200 n$="":q=0
210 get#1,a$:ifa$=""thenreturn
220 ifa$=chr$(34)thenq=q+1:goto210
230 ifq=1thenn$=n$+a$
240 goto210
300 print#15,"s:*":gosub900:open2,8,2,"lang"+chr$(160)+"name,s,w":print#2,"x":close2
310 open2,8,2,"lang,s,a":print#2,"y":close2:gosub900:prints$
320 open2,8,2,"lang,s,r":input#2,a$,b$:close2:gosub900:printa$;" ";b$;" ";s$
330 open1,8,0,"$":get#1,a$,a$:gosub400:gosub400:close1:end
400 get#1,a$,a$,a$,a$:l$=""
410 get#1,a$:ifa$<>""thenl$=l$+a$:goto410
420 printl$:return
500 open2,8,2,"one,s,w":print#2,"1":close2
510 open2,8,2,"two,u,w":print#2,"2":close2
520 open2,8,2,"three,p,w":print#2,"3":close2:return
900 s$=""
910 get#15,b$:s$=s$+b$:ifst=0then910
920 s$=left$(s$,len(s$)-1):return
