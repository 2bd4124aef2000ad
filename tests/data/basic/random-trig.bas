10 x=rnd(-4)
20 for i=1 to 11: a=rnd(1)*20-10: b=rnd(1)*5: print sin(a);cos(a);atn(a);sqr(b): next
