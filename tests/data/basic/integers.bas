10 a%=1/7*7:print a%;1 and (1/7*7);(1/7*7) and 1;not (1/7*7);int(1/7*7)
20 dim c%(2):c%(1/7*7)=1/7*7:print c%(0);c%(1);mid$("abc",1/7*7)
30 read d%:print d%
40 data 1e-10
