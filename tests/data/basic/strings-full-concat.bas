10 b$="abcdefghijklmnopqrstuvwxyz":b$=b$+b$+b$+b$:dim a$(400)
20 for i=0 to 400:a$(i)=b$+str$(i):if i>270 then print i;
30 next:print fre(0)
