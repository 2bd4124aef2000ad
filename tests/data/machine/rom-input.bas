10 print "type:";:sys 42336
20 a$="":for i=512 to 600:a=peek(i):if a then a$=a$+chr$(a):next
30 print:print "got ";a$;len(a$)
