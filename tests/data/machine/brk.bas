10 print "before"
20 poke 49152,0:sys 49152
30 print "after"
