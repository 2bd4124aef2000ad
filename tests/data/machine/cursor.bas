10 print "abc";:a=peek(211):b=peek(214)
20 print chr$(28);"x";:c=peek(646)
30 print chr$(154):print "col";a;"row";b;"red";c;"lblue";peek(646)
40 print "page";peek(648);"port";peek(1);"ddr";peek(0)
