10 print tab(7);"abc";
20 poke 783,1:sys 65520:print:print peek(780);peek(781);peek(782);peek(783)
30 poke 781,10:poke 782,20:poke 783,0:sys 65520:print "here";
40 print:print peek(780);peek(781);peek(782);peek(783)
50 poke 780,65:poke 781,1:poke 782,2:sys 65490:print:print peek(780);peek(781);peek(782)
