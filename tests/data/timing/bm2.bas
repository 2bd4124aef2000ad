100 rem rugg/feldman benchmark 2
110 t=ti
300 k=0
400 k=k+1
500 if k<1000 then 400
700 print "bm2";ti-t
