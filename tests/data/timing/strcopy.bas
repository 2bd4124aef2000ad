100 rem let of a string another variable holds: copied when it lies in string space
110 a$="abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwx":b$=a$+"":c$=left$(a$,5)+""
120 t=ti:for i=1 to 300:s$=a$:next:print "literal";ti-t
130 t=ti:for i=1 to 300:s$=c$:next:print "short copy";ti-t
140 t=ti:for i=1 to 300:s$=b$:next:print "long copy";ti-t
150 dim w$(20):for i=0 to 20:w$(i)=chr$(65+i)+"xy":next
160 t=ti:for k=1 to 10:for i=0 to 19:s$=w$(i):w$(i)=w$(i+1):w$(i+1)=s$:next:next:print "swaps";ti-t
170 t=ti:for i=1 to 1000:s$=b$:next:print "collect";ti-t
