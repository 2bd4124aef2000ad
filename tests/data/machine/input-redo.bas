10 a=5:b=6:input a,b:print a;b
20 c$="c":d=7:input c$,d:print c$;d
30 e=1:f=2:input e,f:print e;f
