; 64tass -a
; accumulator forms: asl, asl a, lsr A
*       = $1000
        asl
        asl a
        lsr A
        rol a
        ror
