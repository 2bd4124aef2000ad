10 x=rnd(-5)
20 for i=1 to 11: a=rnd(1)*80-40: b=rnd(1)*9+.01: print exp(a);log(b);b^a;tan(a): next
