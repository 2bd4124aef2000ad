chrout = $ffd2
