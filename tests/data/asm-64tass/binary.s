; 64tass -a
; .binary with an offset and a length (negative offsets count from the end)
*       = $1000
        .binary "probe.bin"
        .binary "probe.bin", 2
        .binary "probe.bin", 1, 3
        .binary "probe.bin", -2
