100 rem rugg/feldman benchmark 8
110 t=ti
300 k=0
400 k=k+1
410 a=k^2
420 b=log(k)
430 c=sin(k)
500 if k<100 then 400
700 print "bm8";ti-t
