"""Character shapes: 8x8 pixels per screen code, from the C64's character ROM or,
without one, from a free font.

A glyph is 8 bytes, one per pixel row, top first, bit 7 the leftmost pixel: the
layout of the character ROM (chargen-901225-01: $0000-$03FF the upper case/graphics
set, $0400-$07FF its reverse forms, $0800-$0FFF the lower/upper case set likewise).

The fallback is UNSCII 8x8 (Viznut's public-domain bitmap fonts drawn after the
classic 8-bit computers, PETSCII included), from the PyPI package ``unscii``: its
letters, digits and most PETSCII graphics are the C64's shapes or within a pixel or
two of them.  Its data (2019) predates Unicode 13, so the Symbols for Legacy
Computing the C64 needs are drawn here from their Unicode names, the way the C64
draws them (``legacy_glyph``), and so are the medium-shade patterns, which UNSCII
draws one pixel fine where the C64 uses 2x2 checks.  The CHECK MARK, not in UNSCII,
is drawn with its SQUARE ROOT, the nearest shape it has.  The drawing rules (line
thickness and position, the 2x2 checks, the stripes) were read off the character
ROM; tests/test_display.py checks each glyph drawn by them against the ROM.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from toolchain.display.charset import LOWER_CASE_UNICODE, UPPER_CASE_UNICODE

CHARGEN_SIZE = 4096
GLYPH_BYTES = 8


@dataclass(frozen=True)
class Font:
    """256 glyphs for each character set (reverse forms included)."""

    upper: bytes  # 256 x 8 bytes: screen codes $00-$FF of the upper case/graphics set
    lower: bytes  # the same for the lower/upper case set
    source: str  # where the shapes came from, for messages

    def glyph(self, code: int, lowercase: bool = False) -> bytes:
        table = self.lower if lowercase else self.upper
        return table[code * GLYPH_BYTES : (code + 1) * GLYPH_BYTES]


def font_from_chargen(chargen: bytes, source: str = "character ROM") -> Font:
    """The character ROM's own shapes, reverse forms as the ROM holds them."""
    if len(chargen) != CHARGEN_SIZE:
        raise ValueError(f"a C64 character ROM has {CHARGEN_SIZE} bytes, not {len(chargen)}")
    return Font(bytes(chargen[:0x800]), bytes(chargen[0x800:]), source)


# -- the fallback ---------------------------------------------------------------------------

# The C64's medium shade: 2x2 pixel checks (screen code $66, "##..##.." twice, then
# "..##..##" twice)
_MEDIUM_SHADE = bytes([0xCC, 0xCC, 0x33, 0x33] * 2)
_FRACTIONS = {"ONE EIGHTH": 1, "ONE QUARTER": 2, "THREE EIGHTHS": 3, "HALF": 4, "FIVE EIGHTHS": 5,
              "THREE QUARTERS": 6, "SEVEN EIGHTHS": 7}


def _line_positions(n: int) -> tuple[int, int]:
    """The two pixel rows (or columns) of ONE EIGHTH BLOCK-n (1-8) on the C64: its
    one-eighth lines are two pixels thick, grown towards the middle of the cell."""
    return (n - 1, n) if n <= 4 else (n - 2, n - 1)


def _rows_mask(rows: set[int] | range) -> bytes:
    return bytes(0xFF if row in rows else 0 for row in range(8))


def _columns_mask(columns: set[int] | range) -> bytes:
    bits = sum(0x80 >> column for column in columns)
    return bytes([bits] * 8)


def _union(*glyphs: bytes) -> bytes:
    return bytes(functools.reduce(lambda a, b: a | b, rows) for rows in zip(*glyphs, strict=True))


def _side(side: str, eighths: int) -> bytes:
    """A block along one side; the C64 draws the one-eighth blocks at the top and
    bottom one pixel high, those at the left and right two pixels wide."""
    if side in ("LEFT", "RIGHT"):
        eighths = max(eighths, 2)
    if side == "UPPER":
        return _rows_mask(range(eighths))
    if side == "LOWER":
        return _rows_mask(range(8 - eighths, 8))
    if side == "LEFT":
        return _columns_mask(range(eighths))
    return _columns_mask(range(8 - eighths, 8))  # RIGHT


def _rotate_right(value: int, count: int) -> int:
    count %= 8
    return ((value >> count) | (value << (8 - count))) & 0xFF


def legacy_glyph(char: str) -> bytes | None:
    """The C64's drawing of a block, line, shade or fill character, from its Unicode
    name; None for any other character."""
    name = unicodedata.name(char, "")
    if match := re.fullmatch(r"(VERTICAL|HORIZONTAL) ONE EIGHTH BLOCK-(\d)", name):
        positions = set(_line_positions(int(match[2])))
        return _columns_mask(positions) if match[1] == "VERTICAL" else _rows_mask(positions)
    if match := re.fullmatch(r"(LEFT|RIGHT) AND (UPPER|LOWER) ONE EIGHTH BLOCK", name):
        return _union(_side(match[1], 2), _side(match[2], 2))  # two pixels thick, as above
    if match := re.fullmatch(r"(UPPER|LOWER|LEFT|RIGHT) (.+) BLOCK", name):
        if match[2] in _FRACTIONS:
            return _side(match[1], _FRACTIONS[match[2]])
    if name == "MEDIUM SHADE":
        return _MEDIUM_SHADE
    if match := re.fullmatch(r"(UPPER|LOWER|LEFT|RIGHT) HALF MEDIUM SHADE", name):
        return bytes(a & b for a, b in zip(_MEDIUM_SHADE, _side(match[1], 4), strict=True))
    if name == "INVERSE CHECKER BOARD FILL":
        return bytes(row ^ 0xFF for row in _MEDIUM_SHADE)
    if name == "UPPER LEFT TO LOWER RIGHT FILL":  # stripes 2 pixels wide, one pixel right a row
        return bytes(_rotate_right(0x33, row) for row in range(8))
    if name == "UPPER RIGHT TO LOWER LEFT FILL":  # the same, one pixel left a row
        return bytes(_rotate_right(0xCC, -row) for row in range(8))
    return None


_STAND_INS = {"\u2713": "\u221a"}  # CHECK MARK, not in UNSCII: its SQUARE ROOT has the shape


def _fallback_glyph(char: str, unscii: dict[int, list[int]]) -> bytes:
    drawn = legacy_glyph(char)
    if drawn is not None:
        return drawn
    rows = unscii.get(ord(_STAND_INS.get(char, char)))
    if rows is None or len(rows) != GLYPH_BYTES:
        raise LookupError(f"no 8x8 glyph for {char!r} (U+{ord(char):04X})")
    return bytes(rows)


def _with_reverse(glyphs: list[bytes]) -> bytes:
    normal = b"".join(glyphs)
    return normal + bytes(byte ^ 0xFF for byte in normal)


@functools.cache
def fallback_font() -> Font:
    """UNSCII's shapes for every screen code of both sets (reverse forms inverted)."""
    from unscii.raw_unscii.unscii_8 import unscii_8_bytes

    upper = [_fallback_glyph(char, unscii_8_bytes) for char in UPPER_CASE_UNICODE]
    lower = [_fallback_glyph(char, unscii_8_bytes) for char in LOWER_CASE_UNICODE]
    return Font(_with_reverse(upper), _with_reverse(lower), "UNSCII 8x8 (no character ROM found)")
