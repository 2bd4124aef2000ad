5 print "{clr}";:rem what takes string space, what makes a variable
10 a$="hello":b$=a$:print fre(0)
20 c$=mid$(a$,2,3):print fre(0)
30 d$=c$:print fre(0)
40 read e$,f$:print fre(0):data abc,"de f"
50 g$=chr$(65)+chr$(66):h$=str$(12345):print fre(0)
60 i$=left$("xyz",2)+right$("xyz",1):print fre(0)
70 t$=ti$:print fre(0)
80 dim n%(10),m(3,3):print fre(0)
90 def fn q(x)=x*2:print fre(0);fn q(fre(0))
