10 print"hello world"             <227>
20 fori=1to10:printi:nxt          <158>
30 data 1,23                      <143>
