10 print"{clr}";:open15,8,15:gosub900
20 open2,8,2,"x":gosub900:close2:open2,8,2,"x,s,w":gosub900:close2
30 print#15,"i":gosub900:print#15,"s:x":gosub900
40 print#15,"r:a=b":gosub900:print#15,"ui":print#15,"c:a=b":gosub900
50 print#15,"v":gosub900:print#15,"n:x":gosub900
60 print#15,"n:x,id":gosub900
70 open3,8,3,"#":gosub900:print#15,"u1 3 0 17 5":gosub900
80 print#15,"b-p 3 5":gosub900:print#15,"b-w 3 0 1 0":gosub900:close3
90 open2,8,2,"$":gosub900:close2:print#15,"ui":gosub900
100 save"x",8:printst:gosub900
110 load"x",8
900 s$=""
910 get#15,c$:s$=s$+c$:ifst=0then910
920 printleft$(s$,len(s$)-1);st:return
