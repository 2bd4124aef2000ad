10 for i=768 to 819:print peek(i);:next:print
20 for i=115 to 138:print peek(i);:next
