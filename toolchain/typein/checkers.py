"""The checkers magazines printed for their BASIC listings, and the value each shows for a
typed line.

A reader typed a listing line, pressed RETURN, and compared the value the checker
showed with the one printed beside the line in the magazine.  Two kinds of checker:

* the 64'er's **Checksummer 64** (1985-86) patches BASIC's line insertion (a RAM copy of
  BASIC, its ``JMP $A480`` at $A530 turned into ``JMP $E460``) and sums the *stored*
  line: the two line-number bytes and the tokenized text, every $20 byte left out
  (also a line number's byte that happens to be $20: line 32, line 8192), low byte
  shown as ``<n>`` at the top left.  Measured on VICE with the real V1 (64'er 1/85) and
  V2.0 (64'er 4/85, same routine, faster set-up): tests/data/checksums.  V3 (64'er
  3/86) rotates each summed byte left by one more bit than the one before (the line
  number's low byte by 0, its high byte by 1, ...; a left-out $20 does not count):
  the magazine's own example (``1 REM`` shows 63) and VICE's petcat (``-C64er-v3``)
  agree; its listing could not be had (only a PRG of it is public), so V3 is not
  measured on VICE.  A deleted line (a line number alone) shows nothing (VICE).
* COMPUTE!'s **Automatic Proofreader** reads the *typed* line in BASIC's input buffer
  ($0200) before it is tokenized, so ``?`` and ``PRINT`` differ, and so do the line
  number's digits.  The 1983/84 version (COMPUTE!'s Gazette 10/83, COMPUTE! 4/84)
  sums every character but spaces, low byte shown as a number (``:rem 34`` in the
  listings): its listing could not be had, so it is checked against lines the
  magazine printed with their values (tests/data/checksums/proofreader-1983.json).
  The New Automatic Proofreader (COMPUTE! 3/86, its routine disassembled from the
  listing's DATA) hooks the tokenizer's vector ($0304): starting from the line number
  ($14/$15), it adds each character of the buffer, the n-th counted character n times;
  spaces outside quotes are skipped and not counted; the two bytes of the 16-bit sum
  are exclusive-ored and shown as two letters from ``ABCDEFGHJKMPQRSX`` (low nybble
  first).  Measured on VICE with the real program.

A line is given as :class:`TypedLine`: what the user typed (petcat text, as listings
are kept), what BASIC's input buffer holds, and what the C64 stores.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from toolchain.basic.tokenizer import MAX_LINE_NUMBER, crunch
from toolchain.petscii import parse_units

SPACE = 0x20
QUOTE = 0x22
_LINE_NUMBER = re.compile(r"[ \t]*(\d+)[ \t]*")


@dataclass(frozen=True, slots=True)
class TypedLine:
    """A listing line as a C64 gets it when the user types it."""

    number: int
    typed: bytes  # the input buffer: the line number's digits, then the text (PETSCII)
    stored: bytes  # the text as BASIC stores it ('?' is PRINT, shifted characters outside quotes
    # and REM dropped); empty: a deletion

    @property
    def deletes(self) -> bool:
        return not self.stored


def typed_line(text: str) -> TypedLine:
    """The line of petcat text ``text`` (a valid listing line: a line number, then text)
    as typed.  Raises ValueError (or PetsciiError) for text that is no listing line."""
    match = _LINE_NUMBER.match(text)
    if match is None:
        raise ValueError(f"no line number: {text!r}")
    if int(match.group(1)) > MAX_LINE_NUMBER:
        raise ValueError(f"line number {match.group(1)} is out of range")
    units = parse_units(text[match.end() :].rstrip(" \t"))
    # spaces between the number and the text are typed too, but every checker skips
    # spaces outside quotes without counting them: they change nothing
    digits = match.group(1).encode("ascii")
    return TypedLine(int(digits), digits + bytes(unit.byte for unit in units),
                     crunch(units, question_mark_is_print=True, shifted_dropped=True))


def _rotated(value: int, bits: int) -> int:
    bits &= 7
    return ((value << bits) | (value >> (8 - bits))) & 0xFF


def checksummer_v1(line: TypedLine) -> str | None:
    """Checksummer 64 V1/V2: the stored line's bytes summed, $20 bytes left out ($E460)."""
    if line.deletes:
        return None
    stored = line.number.to_bytes(2, "little") + line.stored
    return str(sum(byte for byte in stored if byte != SPACE) & 0xFF)


def checksummer_v3(line: TypedLine) -> str | None:
    """Checksummer 64 V3: each byte rotated left by one bit more than the one before."""
    if line.deletes:
        return None
    total = 0
    counted = 0
    for byte in line.number.to_bytes(2, "little") + line.stored:
        if byte == SPACE:
            continue
        total += _rotated(byte, counted)
        counted += 1
    return str(total & 0xFF)


def proofreader_1983(line: TypedLine) -> str | None:
    """The Automatic Proofreader of 1983/84: every typed character but spaces, summed."""
    return str(sum(byte for byte in line.typed if byte != SPACE) & 0xFF)


PROOFREADER_LETTERS = "ABCDEFGHJKMPQRSX"


def proofreader_1986(line: TypedLine) -> str | None:
    """The New Automatic Proofreader: a position-weighted sum from the line number on."""
    total = line.number
    position = 0
    in_quotes = False
    for byte in line.typed:
        if byte == QUOTE:
            in_quotes = not in_quotes
        if byte == SPACE and not in_quotes:
            continue
        position += 1
        total = (total + byte * position) & 0xFFFF
    folded = (total & 0xFF) ^ (total >> 8)
    return PROOFREADER_LETTERS[folded & 0x0F] + PROOFREADER_LETTERS[folded >> 4]


@dataclass(frozen=True, slots=True)
class Checker:
    """One checker: how it computes, and how its value is printed in the magazine."""

    name: str
    title: str
    value: Callable[[TypedLine], str | None]
    printed: Callable[[str], str]  # the value as the magazine printed it
    additive: bool  # the value is a plain sum (a missing character shifts it by its code)


CHECKERS: dict[str, Checker] = {
    checker.name: checker for checker in (
        Checker("64er", "64'er Checksummer 64 V1/V2 (1985)", checksummer_v1, lambda v: f"<{v}>", True),
        Checker("64er-v3", "64'er Checksummer 64 V3 (1986)", checksummer_v3, lambda v: f"<{v}>", False),
        Checker("proofreader", "COMPUTE!'s Automatic Proofreader (1983)", proofreader_1983,
                lambda v: f":rem {v}", True),
        Checker("proofreader-1986", "COMPUTE!'s New Automatic Proofreader (1986)", proofreader_1986,
                lambda v: v, False),
    )
}
#: Other names users know them by (petcat's, the magazines').
ALIASES = {"64er-v1": "64er", "64er-v2": "64er", "checksummer": "64er", "checksummer-v3": "64er-v3",
           "proofreader-1983": "proofreader", "new-proofreader": "proofreader-1986"}


def checker_named(name: str) -> Checker:
    """The checker called ``name`` (or one of its :data:`ALIASES`); KeyError otherwise."""
    key = name.lower()
    return CHECKERS[ALIASES.get(key, key)]
