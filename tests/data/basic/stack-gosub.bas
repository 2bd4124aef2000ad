10 n=n+1:print n;:gosub 10
