10 open 2,8,2,"notes,s,w"
20 for i=1 to 3: print#2,"note";i: next
30 close 2
40 open 15,8,15: input#15,e,e$,t,s: print e;e$;t;s: close 15
50 open 2,8,2,"notes,s,r"
60 input#2,a$: print a$;: if st=0 then 60
70 print: print "st=";st: close 2
