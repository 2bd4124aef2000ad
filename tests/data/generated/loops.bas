10 for i=1 to 3
20 if i=2 then print "two":goto 40
30 print i
40 next
50 gosub 100:end
100 a$="x"+str$(i):return
