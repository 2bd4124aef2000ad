100 rem rugg/feldman benchmark 6
110 t=ti
300 k=0
310 dim m(5)
400 k=k+1
410 a=k/2*3+4-5
420 gosub 820
430 for l=1 to 5
440 next l
500 if k<1000 then 400
700 print "bm6";ti-t
710 end
820 return
