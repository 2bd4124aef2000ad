10 ti$="999999":print ti$
20 ti$="235999":print ti$
30 ti$="0a0000":print ti$
40 ti$="000:00":print ti$
50 ti$="240000":for i=1 to 100:next:print ti$
60 ti$="2"+chr$(200)+"0000":print ti$
70 ti$="00000/"
