"""Random BASIC programs run by the compiled runner (c64tc's models, no ROMs) end on
the screen BASIC in the C64's own ROM shows (the ROM's interpreter on c64tc's CPU):
expressions, string functions, PRINT's formatting, TAB/SPC/POS, FOR, ON GOSUB/GOTO,
DEF FN, READ/DATA/RESTORE, RND's sequence, integer conversions, PEEKs of RAM and the
processor port.  The programs come from a seeded generator (one seed a test, the same
programs every run); a program that ends in an error must end in the same one."""

from __future__ import annotations

import random

import pytest

from tests.conftest import c64_roms
from toolchain.basic import tokenize
from toolchain.c64.run import Keyboard, Session, program_from_prg, run_program

NV = ["a", "b", "c", "x", "y"]
SV = ["a$", "b$", "c$"]
IV = ["i%", "j%"]
NUMBERS = ["0", "1", "-1", "2", ".5", "1e9", "-3.7", "255", "65535", "32767", "-32768", "1e-9", "1.5e38", "7"]
TO_INTEGER = ["40000", "-32769", "32767.9", "-32768.5", "1e5", ".9", "-.1"]
PEEKED = ["1", "43", "44", "45", "55", "56", "631", "198", "53281", "1023", "2", "3"]  # RAM, chips, the port
PRINTED = ["1e9", "1e10", "123456789", "1234567890", ".01", ".001", "1/3", "-1e-10", "2^31", "2^24+1",
           "1e38*3.4", "99999999.5", "-0", "10^9"]


class Programs:
    """A seeded generator of small BASIC listings (petcat's lower-case text)."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def number(self, d: int = 0) -> str:
        k = self.random.randrange(14 if d < 3 else 4)
        if k == 0:
            return self.random.choice(NUMBERS)
        if k == 1:
            return self.random.choice(NV)
        if k == 2:
            return self.random.choice(IV)
        if k == 3:
            return str(self.random.randrange(-300, 300))
        if k == 4:
            return f"({self.number(d+1)}{self.random.choice(['+','-','*','/','^'])}{self.number(d+1)})"
        if k == 5:
            f = self.random.choice(['int','abs','sgn','sqr','sin','cos','atn','exp','log','tan'])
            return f"{f}(abs({self.number(d+1)})+.1)" if f in ("sqr", "log") else f"{f}({self.number(d+1)})"
        if k == 6:
            return f"({self.number(d+1)}{self.random.choice(['=','<','>','<=','>=','<>'])}{self.number(d+1)})"
        if k == 7:
            return f"({self.number(d+1)} {self.random.choice(['and','or'])} {self.number(d+1)})"
        if k == 8:
            return f"len({self.string(d+1)})"
        if k == 9:
            return f"asc({self.string(d+1)}+\"q\")"
        if k == 10:
            return f"val({self.string(d+1)})"
        if k == 11:
            return f"not {self.number(d+1)}"
        if k == 12:
            return f"-{self.number(d+1)}"
        return f"({self.string(d+1)}{self.random.choice(['=','<','>','<>'])}{self.string(d+1)})"

    def string(self, d: int = 0) -> str:
        k = self.random.randrange(9 if d < 3 else 3)
        if k == 0:
            return self.random.choice(['""', '"abc"', '"12"', '" 3.5e2x"', '"-"', '"zz"', '"1e"', '"."'])
        if k == 1:
            return self.random.choice(SV)
        if k == 2:
            return f"chr$({self.random.randrange(32, 91)})"
        if k == 3:
            return f"str$({self.number(d+1)})"
        if k == 4:
            return f"left$({self.string(d+1)},{self.random.randrange(0, 6)})"
        if k == 5:
            return f"right$({self.string(d+1)},{self.random.randrange(0, 6)})"
        if k == 6:
            return f"mid$({self.string(d+1)},{self.random.randrange(1, 6)})"
        if k == 7:
            return f"mid$({self.string(d+1)},{self.random.randrange(1, 6)},{self.random.randrange(0, 5)})"
        return f"{self.string(d+1)}+{self.string(d+1)}"

    def statement(self) -> str:
        k = self.random.randrange(24)
        if k == 12:
            return f"dim d{self.random.randrange(9)}({self.random.randrange(0, 12)})"
        if k == 13:
            cells = self.random.randrange(0, 11), self.random.randrange(0, 11)
            return f"e$({cells[0]})={self.string()}:print e$({cells[1]});len(e$(3))"
        if k == 14:
            read = self.random.choice(NV + SV)
            return f"read {read}:print {self.random.choice(NV)};{self.random.choice(SV)}"
        if k == 15:
            return f"{self.random.choice(IV)}={self.random.choice(TO_INTEGER)}"
        if k == 16:
            return f"def fn {self.random.choice(['f','g'])}(x)={self.number()}:print fn f({self.number()})"
        if k == 17:
            return f"print rnd(-{self.random.randrange(1, 99)});rnd(1);int(rnd(1)*1000)"
        if k == 18:
            return f"print pos(0);:print {self.string()};pos(0)"
        if k == 19:
            return f"print peek({self.random.choice(PEEKED)})"
        if k == 20:
            return f"print {self.random.choice(PRINTED)}"
        if k == 21:
            return f"restore:read {self.random.choice(NV)}"
        if k == 22:
            return f"on {self.number()} goto {{next}}"
        if k == 23:
            sum_ = f"{self.random.choice(NV)}{self.random.choice(['+', '-'])}{self.random.choice(NV)}"
            return f"print {sum_},{self.string()};tab({self.random.randrange(60)}){self.number()}"
        if k < 3:
            return f"{self.random.choice(NV)}={self.number()}"
        if k == 3:
            return f"{self.random.choice(IV)}={self.number()}"
        if k == 4:
            return f"{self.random.choice(SV)}={self.string()}"
        if k == 5:
            return f"print {self.number()};{self.string()}" + self.random.choice([";", ",", ""])
        if k == 6:
            return f"print {self.string()}," + self.number() + self.random.choice([";", ""])
        if k == 7:
            return f"if {self.number()} then {self.random.choice(NV)}={self.number()}"
        if k == 8:
            column, spaces = self.random.randrange(0, 45), self.random.randrange(0, 10)
            return f"print tab({column});{self.number()};spc({spaces});{self.string()}"
        if k == 9:
            return f"on {self.random.randrange(0,4)} gosub 900,910:print \"r\""
        if k == 10:
            step = self.random.choice(["1", "-1", ".5", "2"])
            return f"for i={self.number()} to {self.number()} step {step}:{self.random.choice(NV)}=i:next"
        return f"print {self.number()}"

    def listing(self) -> str:
        lines = ["5 dim e$(10):goto 10", '6 data 1,-2.5e3,"q,r",abc , 7 ,,x1,3e,""']
        number = 10
        for _ in range(self.random.randrange(3, 12)):
            statements = ":".join(self.statement() for _ in range(self.random.randrange(1, 3)))
            lines.append(f"{number} " + statements.replace("{next}", str(number + 10)))
            number += 10
        lines += [f'{number} print "end":end', '900 print "g1":return', '910 print "g2":return']
        return "\n".join(lines) + "\n"


def _shown(rows: list[str]) -> list[str]:
    return [row.rstrip() for row in rows if row.strip()]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(16))
def test_a_random_program_ends_as_basic_in_the_rom_ends_it(seed: int) -> None:
    listing = Programs(seed).listing()
    program = program_from_prg(tokenize([(f"random{seed}.bas", listing)])[0], f"random{seed}")
    compiled, machine = run_program(program)
    session = Session(program, roms=c64_roms(), boot=True)
    in_rom = session.run(Keyboard(""))
    rom_rows = _shown(session.machine.screen.text_rows())
    rom_rows = rom_rows[rom_rows.index("RUN") + 1 :]  # typed at the start-up screen
    assert _shown(machine.screen.text_rows()) == rom_rows, listing
    assert (compiled.stop, compiled.message) == (in_rom.stop, in_rom.message), listing
