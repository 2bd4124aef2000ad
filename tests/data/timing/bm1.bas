100 rem rugg/feldman benchmark 1
110 t=ti
300 for k=1 to 1000
400 next k
700 print "bm1";ti-t
