100 rem delay loops as games write them
110 t=ti:for d=1 to 1000:next d:print "delay 1000";ti-t
120 t=ti:for j=1 to 5:for d=1 to 300:next d:next j:print "5x300";ti-t
130 t=ti:for d=1 to 200:a=a+1:next d:print "busy";ti-t
140 t=ti:for d=0 to 59:t1=ti
150 if ti=t1 then 150
160 next:print "ti wait";ti-t
