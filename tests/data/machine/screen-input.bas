10 print "{clr}hello, world  ";chr$(34);"q:1";chr$(34);" end"
20 print "{rvon}rev{rvof} 12 text"
30 open 1,3
40 print "{home}";:input#1,a$,b$,c$:print "["a$"]["b$"]["c$"]"
50 print "{home}{down}";:input#1,d$:print "["d$"]"
60 print "{home}{rght}{rght}";:get#1,e$,f$,g$:print "["e$"]["f$"]["g$"]"
70 print "{home}{down}{rght}{rght}{rght}{rght}";:input#1,n:print n
80 close 1:print peek(153);peek(211)
