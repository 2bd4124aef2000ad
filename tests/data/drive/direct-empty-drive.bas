10 print "{clr}load"chr$(34)"x"chr$(34)",8"
20 poke 631,19:poke 632,13:poke 198,2:end
