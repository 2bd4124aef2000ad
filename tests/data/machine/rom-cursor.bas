10 print "{clr}line 1":print "line 2":print "line 3":print "line 4"
20 poke 214,5:poke 211,10:sys 58640:print "at 5,10";
30 poke 781,1:sys 59903
40 poke 214,7:poke 211,0:sys 58640:poke 780,1:poke 781,226:sys 48589
50 sys 58726:print "home";
60 poke 214,9:poke 211,0:sys 58640:print "end"
70 poke 214,11:poke 211,5:sys 58732:print "58732"
