10 fora=1to1:print1;:forb=1to1:print2;:forc=1to1:print3;:ford=1to1:print4;:fore=1to1:print5;:forf=1to1:print6;
20 forg=1to1:print7;:forh=1to1:print8;:fori=1to1:print9;:forj=1to1:print10;:fork=1to1:print11;:forl=1to1:print12
30 print "f";n
