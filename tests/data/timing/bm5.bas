100 rem rugg/feldman benchmark 5
110 t=ti
300 k=0
400 k=k+1
410 a=k/2*3+4-5
420 gosub 820
500 if k<1000 then 400
700 print "bm5";ti-t
710 end
820 return
