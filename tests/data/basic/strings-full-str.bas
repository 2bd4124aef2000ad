10 dim a$(135),b$(600):x$="x":for i=1 to 7:x$=x$+x$:next:x$=x$+left$(x$,122)
20 for i=0 to 135:a$(i)=x$+"":next
30 for i=0 to 600:b$(i)=str$(i*7):if i>430 then print i;
40 next:print fre(0)
