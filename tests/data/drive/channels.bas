10 print"{clr}";:open15,8,15:print#15,"ui":gosub900
20 fori=3to6:openi,8,i,"#":get#i,a$:printasc(a$+chr$(0));:next:print:fori=3to6:closei:next
30 open3,8,3,"#2":get#3,a$:printasc(a$+chr$(0));:close3:open3,8,3,"#4":gosub900:close3
40 open3,8,3,"#5":gosub900:close3
50 open3,8,3,"#":print#3,"ab";:print#15,"b-p 3 1":get#3,a$:printa$:close3
60 open2,8,18,"sa,s,w":print#2,"eighteen":close2:open2,8,34,"sa":input#2,a$:printa$:close2
70 open2,8,1,"w1,s":print#2,"x":close2:gosub900
80 open2,8,0,"w1,s,w":gosub900:get#2,a$:printa$:close2
90 open2,8,130,"sb,s,w":print#2,"x":printst:close2
100 open2,8,2,"sa":print#15,"u1 2 0 18 0":gosub900:get#2,a$:printasc(a$):close2
110 fori=3to6:openi,8,i,"#":get#i,a$:printasc(a$+chr$(0));:next:print:fori=3to6:closei:next
120 print#15,"u1 6 0 18 0":gosub900:print#15,"b-p 6 0":gosub900
130 print#15,"b-a 0 1 255":gosub900:print#15,"b-a 1 120":gosub900
199 end
900 s$=""
910 get#15,b$:s$=s$+b$:ifst=0then910
920 printleft$(s$,len(s$)-1);st:return
