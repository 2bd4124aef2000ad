10 poke 53280,2:poke 53281,0:poke 646,7:print chr$(14);"{clr}before reset"
20 a$="a string"+"":dim b(50):ti$="123456"
30 poke 631,asc("x"):poke 198,1
40 sys 64738
