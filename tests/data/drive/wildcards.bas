10 fori=1to5:readn$:open2,8,2,n$+",s,w":print#2,n$:close2:next
20 data ab,abc,b,xa,lang
30 forj=1to9:readp$:open2,8,2,p$:input#2,a$:printp$" "a$;st:a$="-":close2:nextj
40 data ab?,a?,ab*,b*,?a,x*,a*c,l??g,ab
50 open15,8,15:print#15,"s:a?":input#15,e,e$,t,s:printe;e$;t;s
60 open2,8,2,"$:*":n=0
70 get#2,c$:n=n+1:ifst=0then70
80 printn:close2:open2,8,2,"*":get#2,a$,b$:printasc(a$);asc(b$):close2
90 load"a*",8
