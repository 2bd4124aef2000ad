"""The NMOS 6502 opcode table: the single source of truth for the assembler, the
disassembler and the CPU core.

The table is written as readable text (one row per mnemonic, one cell per
addressing mode: ``opcode/cycles``, a trailing ``+`` for the page-cross
penalty) and turned into immutable records at import time.  Cycle counts and
encodings follow the MOS MCS6500 programming manual; the undocumented opcodes
follow the "NMOS 6510 Unintended Opcodes" document (groepaz, 2024 edition).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from types import MappingProxyType


class Mode(enum.Enum):
    """Addressing modes, with the operand length in bytes."""

    IMP = ("imp", 0)  # implied
    ACC = ("acc", 0)  # accumulator: asl a
    IMM = ("imm", 1)  # #$12
    ZP = ("zp", 1)  # $12
    ZPX = ("zpx", 1)  # $12,x
    ZPY = ("zpy", 1)  # $12,y
    ABS = ("abs", 2)  # $1234
    ABX = ("abx", 2)  # $1234,x
    ABY = ("aby", 2)  # $1234,y
    IND = ("ind", 2)  # ($1234)     (jmp only)
    IZX = ("izx", 1)  # ($12,x)
    IZY = ("izy", 1)  # ($12),y
    REL = ("rel", 1)  # branch offset

    def __init__(self, key: str, operand_length: int) -> None:
        self.key = key
        self.operand_length = operand_length

    # members are singletons: hashing by identity is right and much faster than Enum's
    # own __hash__ (a Python-level hash of the name), which the assembler pays per line
    __hash__ = object.__hash__

    @property
    def length(self) -> int:
        return 1 + self.operand_length


_MODE_BY_KEY = {mode.key: mode for mode in Mode}

# Columns of the documented table; "-" means the mode does not exist.
_DOCUMENTED = """
mnem  imp   acc   imm   zp    zpx   zpy   abs   abx   aby   ind   izx   izy   rel
adc   -     -     69/2  65/3  75/4  -     6d/4  7d/4+ 79/4+ -     61/6  71/5+ -
and   -     -     29/2  25/3  35/4  -     2d/4  3d/4+ 39/4+ -     21/6  31/5+ -
asl   -     0a/2  -     06/5  16/6  -     0e/6  1e/7  -     -     -     -     -
bcc   -     -     -     -     -     -     -     -     -     -     -     -     90/2
bcs   -     -     -     -     -     -     -     -     -     -     -     -     b0/2
beq   -     -     -     -     -     -     -     -     -     -     -     -     f0/2
bit   -     -     -     24/3  -     -     2c/4  -     -     -     -     -     -
bmi   -     -     -     -     -     -     -     -     -     -     -     -     30/2
bne   -     -     -     -     -     -     -     -     -     -     -     -     d0/2
bpl   -     -     -     -     -     -     -     -     -     -     -     -     10/2
brk   00/7  -     -     -     -     -     -     -     -     -     -     -     -
bvc   -     -     -     -     -     -     -     -     -     -     -     -     50/2
bvs   -     -     -     -     -     -     -     -     -     -     -     -     70/2
clc   18/2  -     -     -     -     -     -     -     -     -     -     -     -
cld   d8/2  -     -     -     -     -     -     -     -     -     -     -     -
cli   58/2  -     -     -     -     -     -     -     -     -     -     -     -
clv   b8/2  -     -     -     -     -     -     -     -     -     -     -     -
cmp   -     -     c9/2  c5/3  d5/4  -     cd/4  dd/4+ d9/4+ -     c1/6  d1/5+ -
cpx   -     -     e0/2  e4/3  -     -     ec/4  -     -     -     -     -     -
cpy   -     -     c0/2  c4/3  -     -     cc/4  -     -     -     -     -     -
dec   -     -     -     c6/5  d6/6  -     ce/6  de/7  -     -     -     -     -
dex   ca/2  -     -     -     -     -     -     -     -     -     -     -     -
dey   88/2  -     -     -     -     -     -     -     -     -     -     -     -
eor   -     -     49/2  45/3  55/4  -     4d/4  5d/4+ 59/4+ -     41/6  51/5+ -
inc   -     -     -     e6/5  f6/6  -     ee/6  fe/7  -     -     -     -     -
inx   e8/2  -     -     -     -     -     -     -     -     -     -     -     -
iny   c8/2  -     -     -     -     -     -     -     -     -     -     -     -
jmp   -     -     -     -     -     -     4c/3  -     -     6c/5  -     -     -
jsr   -     -     -     -     -     -     20/6  -     -     -     -     -     -
lda   -     -     a9/2  a5/3  b5/4  -     ad/4  bd/4+ b9/4+ -     a1/6  b1/5+ -
ldx   -     -     a2/2  a6/3  -     b6/4  ae/4  -     be/4+ -     -     -     -
ldy   -     -     a0/2  a4/3  b4/4  -     ac/4  bc/4+ -     -     -     -     -
lsr   -     4a/2  -     46/5  56/6  -     4e/6  5e/7  -     -     -     -     -
nop   ea/2  -     -     -     -     -     -     -     -     -     -     -     -
ora   -     -     09/2  05/3  15/4  -     0d/4  1d/4+ 19/4+ -     01/6  11/5+ -
pha   48/3  -     -     -     -     -     -     -     -     -     -     -     -
php   08/3  -     -     -     -     -     -     -     -     -     -     -     -
pla   68/4  -     -     -     -     -     -     -     -     -     -     -     -
plp   28/4  -     -     -     -     -     -     -     -     -     -     -     -
rol   -     2a/2  -     26/5  36/6  -     2e/6  3e/7  -     -     -     -     -
ror   -     6a/2  -     66/5  76/6  -     6e/6  7e/7  -     -     -     -     -
rti   40/6  -     -     -     -     -     -     -     -     -     -     -     -
rts   60/6  -     -     -     -     -     -     -     -     -     -     -     -
sbc   -     -     e9/2  e5/3  f5/4  -     ed/4  fd/4+ f9/4+ -     e1/6  f1/5+ -
sec   38/2  -     -     -     -     -     -     -     -     -     -     -     -
sed   f8/2  -     -     -     -     -     -     -     -     -     -     -     -
sei   78/2  -     -     -     -     -     -     -     -     -     -     -     -
sta   -     -     -     85/3  95/4  -     8d/4  9d/5  99/5  -     81/6  91/6  -
stx   -     -     -     86/3  -     96/4  8e/4  -     -     -     -     -     -
sty   -     -     -     84/3  94/4  -     8c/4  -     -     -     -     -     -
tax   aa/2  -     -     -     -     -     -     -     -     -     -     -     -
tay   a8/2  -     -     -     -     -     -     -     -     -     -     -     -
tsx   ba/2  -     -     -     -     -     -     -     -     -     -     -     -
txa   8a/2  -     -     -     -     -     -     -     -     -     -     -     -
txs   9a/2  -     -     -     -     -     -     -     -     -     -     -     -
tya   98/2  -     -     -     -     -     -     -     -     -     -     -     -
"""

# The stable undocumented opcodes that C64 programs use.  Several NOP rows list
# more than one opcode per mode, so these are written one opcode per line.
_UNDOCUMENTED = """
slo zp 07/5   slo zpx 17/6  slo abs 0f/6  slo abx 1f/7  slo aby 1b/7  slo izx 03/8  slo izy 13/8
rla zp 27/5   rla zpx 37/6  rla abs 2f/6  rla abx 3f/7  rla aby 3b/7  rla izx 23/8  rla izy 33/8
sre zp 47/5   sre zpx 57/6  sre abs 4f/6  sre abx 5f/7  sre aby 5b/7  sre izx 43/8  sre izy 53/8
rra zp 67/5   rra zpx 77/6  rra abs 6f/6  rra abx 7f/7  rra aby 7b/7  rra izx 63/8  rra izy 73/8
dcp zp c7/5   dcp zpx d7/6  dcp abs cf/6  dcp abx df/7  dcp aby db/7  dcp izx c3/8  dcp izy d3/8
isc zp e7/5   isc zpx f7/6  isc abs ef/6  isc abx ff/7  isc aby fb/7  isc izx e3/8  isc izy f3/8
sax zp 87/3   sax zpy 97/4  sax abs 8f/4  sax izx 83/6
lax zp a7/3   lax zpy b7/4  lax abs af/4  lax aby bf/4+ lax izx a3/6  lax izy b3/5+
las aby bb/4+
anc imm 0b/2  anc imm 2b/2  alr imm 4b/2  arr imm 6b/2  sbx imm cb/2  sbc imm eb/2
nop imp 1a/2  nop imp 3a/2  nop imp 5a/2  nop imp 7a/2  nop imp da/2  nop imp fa/2
nop imm 80/2  nop imm 82/2  nop imm 89/2  nop imm c2/2  nop imm e2/2
nop zp 04/3   nop zp 44/3   nop zp 64/3
nop zpx 14/4  nop zpx 34/4  nop zpx 54/4  nop zpx 74/4  nop zpx d4/4  nop zpx f4/4
nop abs 0c/4
nop abx 1c/4+ nop abx 3c/4+ nop abx 5c/4+ nop abx 7c/4+ nop abx dc/4+ nop abx fc/4+
"""

# Opcodes that lock the NMOS 6502 until reset (JAM, also called KIL or HLT).
JAM_OPCODES = frozenset({0x02, 0x12, 0x22, 0x32, 0x42, 0x52, 0x62, 0x72, 0x92, 0xB2, 0xD2, 0xF2})

# Opcodes whose result depends on the chip's analogue behaviour (ANE, LXA, SHA,
# SHX, SHY, TAS): no C64 program can rely on them, so the core refuses them.  LAS ($BB,
# A,X,SP = memory AND SP) is not among them: groepaz lists it as stable.
UNSTABLE_OPCODES = frozenset({0x8B, 0xAB, 0x93, 0x9F, 0x9B, 0x9C, 0x9E})


@dataclass(frozen=True, slots=True)
class Opcode:
    code: int
    mnemonic: str
    mode: Mode
    cycles: int
    page_penalty: bool  # one more cycle when the indexed address crosses a page
    documented: bool

    @property
    def length(self) -> int:
        return self.mode.length


def _cell(text: str) -> tuple[int, int, bool]:
    code, cycles = text.split("/")
    penalty = cycles.endswith("+")
    return int(code, 16), int(cycles.rstrip("+")), penalty


def _build() -> tuple[dict[int, Opcode], dict[tuple[str, Mode], Opcode]]:
    by_code: dict[int, Opcode] = {}
    documented: dict[tuple[str, Mode], Opcode] = {}
    rows = [line.split() for line in _DOCUMENTED.strip().splitlines()]
    header = [_MODE_BY_KEY[key] for key in rows[0][1:]]
    for mnemonic, *cells in rows[1:]:
        for mode, cell in zip(header, cells, strict=True):
            if cell == "-":
                continue
            code, cycles, penalty = _cell(cell)
            op = Opcode(code, mnemonic, mode, cycles, penalty, True)
            assert code not in by_code, f"opcode {code:02x} listed twice"
            by_code[code] = op
            documented[(mnemonic, mode)] = op
    words = _UNDOCUMENTED.split()
    for mnemonic, mode_key, cell in zip(words[0::3], words[1::3], words[2::3], strict=True):
        code, cycles, penalty = _cell(cell)
        assert code not in by_code, f"opcode {code:02x} listed twice"
        by_code[code] = Opcode(code, mnemonic, _MODE_BY_KEY[mode_key], cycles, penalty, False)
    return by_code, documented


_by_code, _documented = _build()

#: Every opcode the core executes, by its byte value.
OPCODES: MappingProxyType[int, Opcode] = MappingProxyType(_by_code)
#: The 151 documented opcodes, by (mnemonic, addressing mode): what the assembler encodes.
ENCODINGS: MappingProxyType[tuple[str, Mode], Opcode] = MappingProxyType(_documented)
#: Documented mnemonics, each with the set of its addressing modes.
MNEMONICS: MappingProxyType[str, frozenset[Mode]] = MappingProxyType(
    {
        mnemonic: frozenset(mode for (m, mode) in _documented if m == mnemonic)
        for mnemonic in sorted({m for (m, _) in _documented})
    }
)


def _undocumented_encodings() -> dict[tuple[str, Mode], Opcode]:
    """What the assembler encodes for an undocumented mnemonic: the first opcode listed
    for each (mnemonic, mode), as 64tass does ($80 for ``nop #``, $04 for ``nop zp``);
    forms that have a documented opcode (``nop``, ``sbc #``) keep it."""
    table: dict[tuple[str, Mode], Opcode] = {}
    for op in _by_code.values():
        key = (op.mnemonic, op.mode)
        if not op.documented and key not in _documented:
            table.setdefault(key, op)
    return table


#: Undocumented (mnemonic, mode) -> opcode, with 64tass's mnemonics (assembler, --undocumented).
UNDOCUMENTED_ENCODINGS: MappingProxyType[tuple[str, Mode], Opcode] = MappingProxyType(
    dict(sorted(_undocumented_encodings().items(), key=lambda kv: kv[1].code)))
#: Every mnemonic with its modes, documented and undocumented (nop gains its extra modes).
ALL_MNEMONICS: MappingProxyType[str, frozenset[Mode]] = MappingProxyType(
    {
        mnemonic: frozenset(mode for (m, mode) in (*_documented, *UNDOCUMENTED_ENCODINGS) if m == mnemonic)
        for mnemonic in sorted({m for (m, _) in (*_documented, *UNDOCUMENTED_ENCODINGS)})
    }
)
#: Other names for the undocumented mnemonics, as other assemblers and documents spell them.
MNEMONIC_ALIASES: MappingProxyType[str, str] = MappingProxyType({
    "aso": "slo", "lse": "sre", "dcm": "dcp", "isb": "isc", "ins": "isc", "asr": "alr", "axs": "sbx",
    "lar": "las", "lae": "las"
})
