100 rem peek and poke
110 t=ti:for i=1 to 1000:poke 1024,1:next:print "poke";ti-t
120 t=ti:for i=1 to 1000:x=peek(1024):next:print "peek";ti-t
130 t=ti:for i=1 to 500:poke 53280,peek(53280):next:print "poke peek";ti-t
140 a=53280:t=ti:for i=1 to 1000:poke a,1:next:print "poke var";ti-t
150 t=ti:for i=1 to 300:x=peek(53266):next:print "raster";ti-t
