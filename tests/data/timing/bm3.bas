100 rem rugg/feldman benchmark 3
110 t=ti
300 k=0
400 k=k+1
410 a=k/k*k+k-k
500 if k<1000 then 400
700 print "bm3";ti-t
