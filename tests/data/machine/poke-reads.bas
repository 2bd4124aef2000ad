10 b=56320:poke b+11,1:poke b+10,0:poke b+9,0:poke b+8,0
20 poke b+11,5:print "hours";peek(b+11);:x=peek(b+8):print peek(b+11):x=peek(b+8)
30 d=56576:poke d+13,127:poke d+4,10:poke d+5,0:poke d+14,25:for i=1 to 10:next
40 print "icr";peek(d+13);:poke d+14,25:for i=1 to 10:next:poke d+13,0:print peek(d+13)
50 poke d+14,25:for i=1 to 10:next:x=peek(d+13):print "icr read";x;peek(d+13)
