100 rem the statements of compact.bas, with spaces between the words
110 t=ti:k=0
120 k=k+1:if k<1000 then 120
130 print "if then";ti-t
140 t=ti:for i=1 to 1000:next i:print "next i";ti-t
150 t=ti:k=0
160 k=k+1:gosub 900:if k<300 then 160
170 print "gosub";ti-t
180 t=ti:k=0
190 k=k+1:goto 210
200 rem
210 if k<500 then 190
220 print "goto";ti-t
230 t=ti:for i=1 to 500:if i=0 then k=1
240 next:print "if stmt";ti-t
250 t=ti:for i=1 to 500:poke 828,1:a=peek(828):next:print "poke peek";ti-t
260 t=ti:for i=1 to 200:restore:read x:next:print "read";ti-t
270 t=ti:for j=1 to 200:for i=1 to 2:next:next:print "for";ti-t
280 data 5
290 end
900 return
