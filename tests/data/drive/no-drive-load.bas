10 print"{clr}";:load"x",8
