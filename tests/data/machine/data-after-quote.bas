10 read a$,b$:print "["a$"]["b$"]"
20 read c$,d$:print "["c$"]["d$"]"
30 read e$:print "["e$"]"
40 print "not reached"
100 data "one"  ,  "two"  :rem spaces after a closing quote
110 data "three",four"five":data "six"x
