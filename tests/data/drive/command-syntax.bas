10 print"{clr}";:open15,8,15
20 fori=1to4:readn$:open2,8,2,n$+",w":print#2,n$:close2:next
30 data"one,s","two,u","three,p","tool,u"
40 readc$:ifc$="end"thenend
50 print#15,c$:gosub900:printc$tab(16)left$(s$,2)right$(s$,6):goto40
100 data"s:o*=s,t*=u","s:*=p,x","s","s:","n:a*b,xx","n:a?b,xx","n:a=b,xx","n:a*"
110 data"n:a,x*","n","xyz","b-a","b-z","b","b-","b-a 0 1 255","u1","u1 2","u2 9"
120 data"b-p 9 1","&","&:nix"
140 data"end"
900 s$=""
910 get#15,b$:s$=s$+b$:ifst=0then910
920 s$=left$(s$,len(s$)-1):return
