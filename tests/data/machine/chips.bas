10 poke 55296,2:a=peek(55296):print "colour";a and 15;"high";int(a/16)
20 print "user port";peek(56577);"joy";peek(56320);peek(56321)
30 a=peek(53266):b=peek(53266):print "raster changes";a<>b;"d011";peek(53265)and127
40 poke 54286,255:poke 54287,255:poke 54290,128
50 a=peek(54299):b=peek(54299):c=peek(54299):print "voice 3 changes";a<>b or b<>c
60 t=ti:for i=1 to 300:next:print "ti runs";ti>t
70 poke 56331,1:poke 56330,0:poke 56329,0:poke 56328,0
80 for i=1 to 1500:next:h=peek(56331):s=peek(56329):z=peek(56328)
90 print "tod runs";s>0 or z>0;"hours";h
