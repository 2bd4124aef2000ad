"""The instruction sets of the 64tass and ACME dialects: the documented 6502 (the CPU's
table, ``toolchain.cpu.opcodes``) and each assembler's undocumented opcodes with its own
names.

64tass's "6502i" (``-i``, ``.cpu "6502i"``) and ACME's "6510"/"nmos6502" (``!cpu 6510``)
both add the NMOS opcodes, but not quite the same: 64tass names $EB... nothing, ACME has
``dop``/``top``; the unstable ones (ANE, LXA, SHA, SHS, SHX, SHY, JAM) are assembled by
both although the CPU emulation treats them separately.  The tables below are those of
the 64tass manual ("6502 illegal opcodes") and ACME's ``docs/Illegals.txt``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from toolchain.asm.parser import Dialect
from toolchain.cpu.opcodes import ENCODINGS, MNEMONICS, Mode, Opcode

_MODES = {"imp": Mode.IMP, "imm": Mode.IMM, "zp": Mode.ZP, "zpx": Mode.ZPX, "zpy": Mode.ZPY, "abs": Mode.ABS,
          "abx": Mode.ABX, "aby": Mode.ABY, "izx": Mode.IZX, "izy": Mode.IZY}  # fmt: skip

# mnemonic: mode=opcode ... (64tass 1.58 manual, "6502 illegal opcodes")
_TASS_6502I = """
anc imm=0b
ane imm=8b
arr imm=6b
asr imm=4b
dcp izx=c3 zp=c7 abs=cf izy=d3 zpx=d7 aby=db abx=df
isb izx=e3 zp=e7 abs=ef izy=f3 zpx=f7 aby=fb abx=ff
jam imp=02
lax izx=a3 zp=a7 imm=ab abs=af izy=b3 zpy=b7 aby=bf
lds aby=bb
nop zp=04 abs=0c zpx=14 abx=1c imm=80
rla izx=23 zp=27 abs=2f izy=33 zpx=37 aby=3b abx=3f
rra izx=63 zp=67 abs=6f izy=73 zpx=77 aby=7b abx=7f
sax izx=83 zp=87 abs=8f zpy=97
sbx imm=cb
sha izy=93 aby=9f
shs aby=9b
shx aby=9e
shy abx=9c
slo izx=03 zp=07 abs=0f izy=13 zpx=17 aby=1b abx=1f
sre izx=43 zp=47 abs=4f izy=53 zpx=57 aby=5b abx=5f
"""
_TASS_ALIASES = {"ahx": "sha", "alr": "asr", "axs": "sbx", "dcm": "dcp", "ins": "isb", "isc": "isb",
                 "lae": "lds", "las": "lds", "lxa": "lax", "tas": "shs", "xaa": "ane"}  # fmt: skip
# 64tass's aliases that every 6502 has: blt/bge for bcc/bcs, shl/shr for asl/lsr
_TASS_DOCUMENTED_ALIASES = {"blt": "bcc", "bge": "bcs", "shl": "asl", "shr": "lsr"}

# ACME 0.97 docs/Illegals.txt ("nmos6502", alias "6510")
_ACME_6510 = """
slo zp=07 zpx=17 abs=0f abx=1f aby=1b izx=03 izy=13
rla zp=27 zpx=37 abs=2f abx=3f aby=3b izx=23 izy=33
sre zp=47 zpx=57 abs=4f abx=5f aby=5b izx=43 izy=53
rra zp=67 zpx=77 abs=6f abx=7f aby=7b izx=63 izy=73
sax zp=87 zpy=97 abs=8f izx=83
lax zp=a7 zpy=b7 abs=af aby=bf izx=a3 izy=b3 imm=ab
dcp zp=c7 zpx=d7 abs=cf abx=df aby=db izx=c3 izy=d3
isc zp=e7 zpx=f7 abs=ef abx=ff aby=fb izx=e3 izy=f3
las aby=bb
tas aby=9b
sha aby=9f izy=93
shx aby=9e
shy abx=9c
anc imm=0b
alr imm=4b
arr imm=6b
sbx imm=cb
dop imp=80 imm=80 zp=04 zpx=14
top imp=0c abs=0c abx=1c
nop imm=80 zp=04 zpx=14 abs=0c abx=1c
jam imp=02
ane imm=8b
lxa imm=ab
"""
_ACME_ALIASES = {"asr": "alr"}


@dataclass(frozen=True, eq=False)
class InstructionSet:
    dialect: Dialect  # mnemonics with their modes, and alias names
    encodings: Mapping[tuple[str, Mode], Opcode]


def _parse(table: str) -> dict[tuple[str, Mode], Opcode]:
    encodings: dict[tuple[str, Mode], Opcode] = {}
    for row in table.strip().splitlines():
        mnemonic, *cells = row.split()
        for cell in cells:
            mode_name, code = cell.split("=")
            mode = _MODES[mode_name]
            encodings[(mnemonic, mode)] = Opcode(int(code, 16), mnemonic, mode, 0, False, False)
    return encodings


def _combine(extra: dict[tuple[str, Mode], Opcode], aliases: dict[str, str]) -> InstructionSet:
    encodings: dict[tuple[str, Mode], Opcode] = dict(ENCODINGS)
    for key, opcode in extra.items():
        encodings.setdefault(key, opcode)  # documented forms (nop, sbc #) keep their opcode
    mnemonics: dict[str, frozenset[Mode]] = {}
    for mnemonic, mode in encodings:
        mnemonics[mnemonic] = mnemonics.get(mnemonic, frozenset()) | {mode}
    return InstructionSet(Dialect(mnemonics, dict(aliases)), encodings)


TASS_6502 = _combine({}, _TASS_DOCUMENTED_ALIASES)
TASS_6502I = _combine(_parse(_TASS_6502I), {**_TASS_DOCUMENTED_ALIASES, **_TASS_ALIASES})
ACME_6502 = InstructionSet(Dialect(dict(MNEMONICS), {}), dict(ENCODINGS))
ACME_6510 = _combine(_parse(_ACME_6510), _ACME_ALIASES)
