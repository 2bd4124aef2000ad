10 x=rnd(-6)
20 for i=1 to 11: a=rnd(1)*1e6: b=rnd(1)/1e5: print val(str$(a))-a;a*1e30;b;int(a*b): next
