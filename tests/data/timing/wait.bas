100 rem wait for the jiffy clock and the raster
110 t=ti:for i=1 to 30:wait 162,1:wait 162,1,1:next:print "wait 162";ti-t
120 t=ti:for i=1 to 60:wait 53265,128:wait 53265,128,128:next:print "wait frame";ti-t
130 t=ti:for i=1 to 10:wait 162,4:wait 162,4,4:next:print "wait 162,4";ti-t
