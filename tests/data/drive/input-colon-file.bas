10 open 2,8,2,"c,s,w"
20 print#2,"a:b":print#2,"12:30":print#2,"x y , z":print#2,chr$(34)"q:r"chr$(34)":s"
30 print#2,"":print#2,"last"
40 close 2
50 open 2,8,2,"c,s,r"
60 input#2,a$:print "["a$"]"
70 input#2,b$,c$:print "["b$"]["c$"]"
80 input#2,d$,e$:print "["d$"]["e$"]"
90 input#2,f$,g$:print "["f$"]["g$"]";st
100 close 2
