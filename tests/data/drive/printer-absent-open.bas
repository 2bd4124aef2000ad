10 print"{clr}";:open4,4,7,"name"
