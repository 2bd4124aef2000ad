; 64tass -a
; .text: strings in the encoding, numbers and bit strings as bytes
*       = $1000
        .text "hello, world!"
        .text 'it''s'
        .text 23, $33
        .text $0a0d
        .text %00011111
        .text "{clr}{return}text{up arrow}"
