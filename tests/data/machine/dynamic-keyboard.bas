10 print "{clr}?"chr$(34)"x"chr$(34)":run 100"
20 poke 631,19:poke 632,13:poke 198,2:end
100 print "line 100"
