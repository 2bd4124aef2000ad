"""The opcode table against the MOS datasheet, transcribed here independently in
the datasheet's own order (by opcode), not derived from the table under test."""

from toolchain.cpu.opcodes import ENCODINGS, JAM_OPCODES, MNEMONICS, OPCODES, UNSTABLE_OPCODES, Mode

# opcode mnemonic mode cycles ("+": one more when a page is crossed) -- MCS6500 manual
DATASHEET = """
00 brk imp 7   01 ora izx 6   05 ora zp 3    06 asl zp 5    08 php imp 3   09 ora imm 2
0a asl acc 2   0d ora abs 4   0e asl abs 6   10 bpl rel 2   11 ora izy 5+  15 ora zpx 4
16 asl zpx 6   18 clc imp 2   19 ora aby 4+  1d ora abx 4+  1e asl abx 7   20 jsr abs 6
21 and izx 6   24 bit zp 3    25 and zp 3    26 rol zp 5    28 plp imp 4   29 and imm 2
2a rol acc 2   2c bit abs 4   2d and abs 4   2e rol abs 6   30 bmi rel 2   31 and izy 5+
35 and zpx 4   36 rol zpx 6   38 sec imp 2   39 and aby 4+  3d and abx 4+  3e rol abx 7
40 rti imp 6   41 eor izx 6   45 eor zp 3    46 lsr zp 5    48 pha imp 3   49 eor imm 2
4a lsr acc 2   4c jmp abs 3   4d eor abs 4   4e lsr abs 6   50 bvc rel 2   51 eor izy 5+
55 eor zpx 4   56 lsr zpx 6   58 cli imp 2   59 eor aby 4+  5d eor abx 4+  5e lsr abx 7
60 rts imp 6   61 adc izx 6   65 adc zp 3    66 ror zp 5    68 pla imp 4   69 adc imm 2
6a ror acc 2   6c jmp ind 5   6d adc abs 4   6e ror abs 6   70 bvs rel 2   71 adc izy 5+
75 adc zpx 4   76 ror zpx 6   78 sei imp 2   79 adc aby 4+  7d adc abx 4+  7e ror abx 7
81 sta izx 6   84 sty zp 3    85 sta zp 3    86 stx zp 3    88 dey imp 2   8a txa imp 2
8c sty abs 4   8d sta abs 4   8e stx abs 4   90 bcc rel 2   91 sta izy 6   94 sty zpx 4
95 sta zpx 4   96 stx zpy 4   98 tya imp 2   99 sta aby 5   9a txs imp 2   9d sta abx 5
a0 ldy imm 2   a1 lda izx 6   a2 ldx imm 2   a4 ldy zp 3    a5 lda zp 3    a6 ldx zp 3
a8 tay imp 2   a9 lda imm 2   aa tax imp 2   ac ldy abs 4   ad lda abs 4   ae ldx abs 4
b0 bcs rel 2   b1 lda izy 5+  b4 ldy zpx 4   b5 lda zpx 4   b6 ldx zpy 4   b8 clv imp 2
b9 lda aby 4+  ba tsx imp 2   bc ldy abx 4+  bd lda abx 4+  be ldx aby 4+  c0 cpy imm 2
c1 cmp izx 6   c4 cpy zp 3    c5 cmp zp 3    c6 dec zp 5    c8 iny imp 2   c9 cmp imm 2
ca dex imp 2   cc cpy abs 4   cd cmp abs 4   ce dec abs 6   d0 bne rel 2   d1 cmp izy 5+
d5 cmp zpx 4   d6 dec zpx 6   d8 cld imp 2   d9 cmp aby 4+  dd cmp abx 4+  de dec abx 7
e0 cpx imm 2   e1 sbc izx 6   e4 cpx zp 3    e5 sbc zp 3    e6 inc zp 5    e8 inx imp 2
e9 sbc imm 2   ea nop imp 2   ec cpx abs 4   ed sbc abs 4   ee inc abs 6   f0 beq rel 2
f1 sbc izy 5+  f5 sbc zpx 4   f6 inc zpx 6   f8 sed imp 2   f9 sbc aby 4+  fd sbc abx 4+
fe inc abx 7
"""


def _reference() -> dict[int, tuple[str, str, int, bool]]:
    words = DATASHEET.split()
    return {int(code, 16): (mnemonic, mode, int(cycles.rstrip("+")), cycles.endswith("+"))
            for code, mnemonic, mode, cycles in zip(words[0::4], words[1::4], words[2::4], words[3::4],
                                                    strict=True)}


def test_documented_opcodes_match_the_datasheet() -> None:
    reference = _reference()
    assert len(reference) == 151
    table = {op.code: (op.mnemonic, op.mode.key, op.cycles, op.page_penalty)
             for op in ENCODINGS.values()}
    assert table == reference


def test_there_are_56_documented_mnemonics() -> None:
    assert len(MNEMONICS) == 56


def test_every_byte_is_an_opcode_a_jam_or_refused_as_unstable() -> None:
    for code in range(256):
        kinds = [code in OPCODES, code in JAM_OPCODES, code in UNSTABLE_OPCODES]
        assert kinds.count(True) == 1, f"${code:02X}"


def test_lengths_follow_the_modes() -> None:
    assert OPCODES[0x4C].length == 3 and OPCODES[0xA9].length == 2 and OPCODES[0xEA].length == 1
    assert OPCODES[0x6C].mode is Mode.IND and OPCODES[0xB1].mode is Mode.IZY


def test_undocumented_opcodes_that_c64_programs_use() -> None:
    # groepaz, "NMOS 6510 Unintended Opcodes": a few representative entries
    expected = {0xA7: ("lax", "zp", 3), 0x87: ("sax", "zp", 3), 0xC7: ("dcp", "zp", 5),
                0xE3: ("isc", "izx", 8), 0x0B: ("anc", "imm", 2), 0x4B: ("alr", "imm", 2),
                0x6B: ("arr", "imm", 2), 0xCB: ("sbx", "imm", 2), 0xEB: ("sbc", "imm", 2),
                0x1C: ("nop", "abx", 4), 0x04: ("nop", "zp", 3), 0x80: ("nop", "imm", 2)}
    for code, (mnemonic, mode, cycles) in expected.items():
        op = OPCODES[code]
        assert (op.mnemonic, op.mode.key, op.cycles, op.documented) == (mnemonic, mode, cycles, False)
