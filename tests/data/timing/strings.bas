100 rem strings and garbage collection
110 t=ti:a$="":for i=1 to 200:a$=a$+"x":next:print "build";ti-t
120 t=ti:for i=1 to 200:b$=left$(a$,100)+mid$(a$,i,1):next:print "left mid";ti-t
130 dim s$(50):for i=0 to 50:s$(i)=str$(i):next
140 t=ti:for i=1 to 600:b$=a$+"y":next:print "gc";ti-t
150 t=ti:for i=1 to 300:b$=str$(i):c$=chr$(65+i/10):next:print "str chr";ti-t
160 t=ti:x=fre(0):print "fre";ti-t
