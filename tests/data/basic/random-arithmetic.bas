10 x=rnd(-3)
20 for i=1 to 11: a=rnd(1)*1000-500: b=rnd(1)*10-2: print a*b;a/b;a+b;a-b: next
