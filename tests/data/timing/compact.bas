100 rem the statements of a typed-in listing, written without spaces
110 t=ti:k=0
120 k=k+1:ifk<1000then120
130 print"if then";ti-t
140 t=ti:fori=1to1000:nexti:print"next i";ti-t
150 t=ti:k=0
160 k=k+1:gosub900:ifk<300then160
170 print"gosub";ti-t
180 t=ti:k=0
190 k=k+1:goto210
200 rem
210 ifk<500then190
220 print"goto";ti-t
230 t=ti:fori=1to500:ifi=0thenk=1
240 next:print"if stmt";ti-t
250 t=ti:fori=1to500:poke828,1:a=peek(828):next:print"poke peek";ti-t
260 t=ti:fori=1to200:restore:readx:next:print"read";ti-t
270 t=ti:forj=1to200:fori=1to2:next:next:print"for";ti-t
280 data 5
290 end
900 return
