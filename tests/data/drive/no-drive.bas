10 print"{clr}";:open15,8,15:printst:open4,4:printst:print#4,"x"
