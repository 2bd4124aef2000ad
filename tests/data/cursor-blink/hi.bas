10 print "hi"
