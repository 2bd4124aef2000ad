10 b$="abcdefghijklmnopqrstuvwxyz":b$=b$+b$+b$+b$:dim a$(400)
20 for i=0 to 400:a$(i)=left$(b$,100+i/20):if i>270 then print i;
30 next:print fre(0)
