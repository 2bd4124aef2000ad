10 open1,9,15:printst:close1:printst
20 open2,8,2,"nix":printst:close2:open3,8,15:close3:printst
30 open4,8,15,"i":printst:close4
40 open15,8,15:open15,8,15
