10 open2,8,2,"code,p,w":print#2,chr$(0);chr$(192);"hi";:close2
20 poke49152,72:poke49153,73:verify"code",8,1:printst
30 poke49153,0:verify"code",8,1
