10 s=54272:pokes+24,15:pokes+1,29:pokes+6,240:pokes+4,33
20 t=ti+30
30 ifti<tthen30
40 pokes+4,32
