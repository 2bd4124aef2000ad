10 print"{clr}";:open4,4:printst:print#4,"ab";1:printst:close4:printst
20 open4,4:cmd4:print"cd";:print#4:close4
