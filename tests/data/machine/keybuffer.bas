10 for i=0 to 9:poke 631+i,65+i:next:poke 198,0
20 for i=631 to 640:print peek(i);:next:print peek(198)
30 poke 198,3:end
