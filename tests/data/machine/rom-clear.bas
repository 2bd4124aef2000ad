10 print "this is cleared"
20 sys 58692:print "after clear"
