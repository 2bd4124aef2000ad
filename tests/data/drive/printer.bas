10 print"{clr}";:open4,4:print#4,"ab";1:cmd4:print"cd":print#4:close4:printst
20 open5,4,7,"name":print#5,"ef","gh";tab(20)"ij":close5:printst
30 open6,4:get#6,a$:printst;len(a$);asc(a$+chr$(0)):close6
40 open7,4,1:input#7,b$:printst;len(b$):close7
