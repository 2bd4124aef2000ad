10 for i=1 to 3
20 a$="x"+str$(i)
30 print i*2;a$
40 next
