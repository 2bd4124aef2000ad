; 64tass -a
; every character of the none encoding (Unicode source), and of screen
*       = $1000
        .text " !""#$%&'()*+,-./0123456789:;<=>?@ABCDEFG"
        .text "HIJKLMNOPQRSTUVWXYZ[]abcdefghijklmnopqrs"
        .text "tuvwxyz£π←↑─│┌┐└┘├┤┬┴┼╭╮╯╰╱╲╳▁▂▃▄▌▍▎▏▒▔▕"
        .text "▖▗▘▚▝○●◤◥♠♣♥♦✓🭰🭱🭲🭳🭴🭵🭶🭷🭸🭹🭺🭻🭼🭽🭾🭿🮂🮃🮇🮈🮌🮏🮕🮘🮙"
        .enc "screen"
        .text " !""#$%&'()*+,-./0123456789:;<=>?@ABCDEFG"
        .text "HIJKLMNOPQRSTUVWXYZ[]abcdefghijklmnopqrs"
        .text "tuvwxyz£π←↑─│┌┐└┘├┤┬┴┼╭╮╯╰╱╲╳▁▂▃▄▌▍▎▏▒▔▕"
        .text "▖▗▘▚▝○●◤◥♠♣♥♦✓🭰🭱🭲🭳🭴🭵🭶🭷🭸🭹🭺🭻🭼🭽🭾🭿🮂🮃🮇🮈🮌🮏🮕🮘🮙"
