10 print chr$(14);"Hello World";peek(53272)
20 print chr$(142);"Upper";peek(53272)
30 poke 53272,23:print "Poked";peek(53272)
