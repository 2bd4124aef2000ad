100 rem rugg/feldman benchmark 4
110 t=ti
300 k=0
400 k=k+1
410 a=k/2*3+4-5
500 if k<1000 then 400
700 print "bm4";ti-t
