10 open2,8,2,"seq,s,w":print#2,"x":close2
20 load"$",8
