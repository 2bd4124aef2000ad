"""The programs the chip benchmarks run (benchmarks/chip_speed.py) and the before/after
check of instruction and cycle counts (benchmarks/same_counts.py): machine-code loops
on RAM and on the VIC-II, SID and CIAs, and BASIC loops that POKE and PEEK them.

The machine-code loops start at $C000 with SYS (the KERNAL's 60 Hz interrupt stays
on, as after a SYS from BASIC) and run for a fixed number of cycles; each stands for
what programs people watch do all the time (raster bars, music, joystick polls).
"""

from __future__ import annotations

from dataclasses import dataclass

from toolchain.asm.assembler import assemble
from toolchain.basic import tokenize
from toolchain.disk.prg import Prg

START = 0xC000


@dataclass(frozen=True)
class Loop:
    name: str
    what: str
    source: str  # Profi-Ass, at $C000

    def image(self) -> tuple[int, bytes]:
        program = assemble(self.source, f"{self.name}.asm")
        return program.start, bytes(program.image)


# The baseline: a loop that only touches RAM (issue 25's table).
RAM_LOOP = Loop("ram", "INC $FB / JMP (RAM only)", """*=$c000
loop inc $fb
 jmp loop
""")

CHIP_LOOPS = (
    Loop("border", "INC $D020 / JMP (border colour)", """*=$c000
loop inc $d020
 jmp loop
"""),
    Loop("raster-poll", "LDA $D012 / CMP / BNE (raster poll)", """*=$c000
loop lda $d012
 cmp #$80
 bne loop
 inc $fb
 jmp loop
"""),
    Loop("sid-writes", "STX to 14 SID registers (three voices, volume)", """*=$c000
loop inx
 stx $d400
 stx $d401
 stx $d402
 stx $d405
 stx $d406
 stx $d407
 stx $d408
 stx $d40e
 stx $d40f
 stx $d410
 stx $d413
 stx $d414
 stx $d416
 stx $d418
 jmp loop
"""),
    Loop("sid-copy", "LDA shadow,X / STA $D400,X (a player's register copy)", """*=$c000
loop ldx #24
copy lda shadow,x
 sta $d400,x
 dex
 bpl copy
 inc shadow
 inc shadow+7
 jmp loop
shadow .byt 0,16,0,8,64,9,240, 0,20,0,8,64,9,240, 0,24,0,8,32,9,240, 0,0,0,15
"""),
    Loop("cia-timer", "LDA $DC04 / LDA $DC05 (timer reads)", """*=$c000
loop lda $dc04
 sta $fb
 lda $dc05
 sta $fc
 jmp loop
"""),
    Loop("cia-ports", "keyboard row scan and joystick poll ($DC00/$DC01)", """*=$c000
loop lda #$fe
 sta $dc00
 lda $dc01
 sta $fb
 lda #$7f
 sta $dc00
 lda $dc00
 and #$1f
 sta $fc
 jmp loop
"""),
)

# Chip-heavy programs for the comparison with VICE (and the before/after check).
RASTER_BARS = Loop("raster-bars", "raster bars: 16 colours, a raster line each, every frame", """*=$c000
frame lda #$40
top cmp $d012
 bne top
 ldx #0
bar lda colours,x
 ldy $d012
line cpy $d012
 beq line
 sta $d020
 sta $d021
 inx
 cpx #16
 bne bar
 lda #6
 sta $d021
 lda #14
 sta $d020
 jmp frame
colours .byt 0,9,2,8,10,15,7,1,7,15,10,8,2,9,0,11
""")

SID_PLAYER = Loop("sid-player", "a player: each frame new notes for three voices, gate on", """*=$c000
frame lda #$f8
top cmp $d012
 bne top
 inc $d020
 ldx step
 lda notes,x
 sta $d401
 sta $d408
 lsr
 sta $d40f
 lda $dc04
 sta $d400
 lda #$41
 sta $d404
 sta $d40b
 lda #$21
 sta $d412
 lda #$09
 sta $d405
 sta $d40c
 sta $d413
 lda #$f0
 sta $d406
 sta $d40d
 sta $d414
 lda #$0f
 sta $d418
 lda $d41b
 sta $fb
 lda $d41c
 sta $fc
 inx
 txa
 and #7
 sta step
 dec $d020
 jmp frame
step .byt 0
notes .byt 17,19,21,22,25,28,31,34
""")

VICE_SET = (RASTER_BARS, SID_PLAYER, CHIP_LOOPS[0], CHIP_LOOPS[4])


@dataclass(frozen=True)
class BasicLoop:
    name: str
    what: str
    text: str  # petcat text

    def program(self) -> Prg:
        return tokenize([(f"{self.name}.bas", self.text)])[0]


def basic_loop(name: str, what: str, statement: str, passes: int) -> BasicLoop:
    return BasicLoop(name, what, f"10 fori=1to{passes}:{statement}:next\n")


def basic_loops(passes: int) -> dict[str, BasicLoop]:
    """The BASIC loops, in pairs: the same statements on RAM and on the chips."""
    return {
        "poke-ram": basic_loop("poke-ram", "POKE 828,I AND 15", "poke828,iand15", passes),
        "poke-border": basic_loop("poke-border", "POKE 53280,I AND 15", "poke53280,iand15", passes),
        "peek-ram": basic_loop("peek-ram", "A=PEEK(828)+PEEK(829)+PEEK(830)",
                               "a=peek(828)+peek(829)+peek(830)", passes),
        "peek-chips": basic_loop("peek-chips", "A=PEEK(53266)+PEEK(56324)+PEEK(56328) (raster, timer, TOD)",
                                 "a=peek(53266)+peek(56324)+peek(56328)", passes),
    }
