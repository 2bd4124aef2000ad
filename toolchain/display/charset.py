"""Screen codes as characters, for both of the C64's character sets.

Three renderings of a screen code, each one character wide:

* ``unicode_for``: the character Unicode encodes for the glyph.  Unicode 13 added
  the PETSCII graphics to "Symbols for Legacy Computing" (U+1FB00-U+1FBFF); the
  table follows the mapping files that came with that proposal (Unicode document
  L2/19-025, Bettencourt et al., C64VPRI.TXT and C64VALT.TXT: "Commodore 64/128
  (video) primary/alternate character set to Unicode"), box drawing and block
  elements included.  Where those files offer a choice, the character nearest the
  C64's glyph is used ($51: BLACK CIRCLE, the ROM's large dot, not BULLET).
* ``ascii_for``: plain 7-bit ASCII for terminals and fonts without those glyphs:
  letters, digits and punctuation as such, petcat's ``\\ ^ _`` for pound, up arrow
  and left arrow, and the nearest ASCII shape for graphics.
* ``text_for``: the transcript's text decoding (compared byte for byte with the
  screens VICE showed): the Unicode character, so every screen code of a set has
  its own (the shifted space is U+00A0).

Codes $80-$FF are the reverse-video forms of $00-$7F (the character ROM holds them
inverted); every function here returns the glyph of ``code & 0x7F`` and leaves the
reversing to the renderer (``is_reverse``).

Why not a codec package: ``petscii-codecs`` (which d64 installs) decodes PETSCII, not
screen codes, and puts the graphics in the Private Use Area (its tables predate
Unicode 13); ``cbmcodecs2`` 1.3 has screen code codecs, but also maps twenty-odd
graphics to the Private Use Area.  Neither covers the Unicode 13 characters.
"""

from __future__ import annotations

# -- Unicode ------------------------------------------------------------------------------

_SHARED_START = "[£]↑←" + "".join(chr(c) for c in range(0x20, 0x40))  # $1B-$3F in both sets

# $40-$7F of the upper case/graphics set, as code points (C64VPRI.TXT)
_UPPER_GRAPHICS = (
    0x2500, 0x2660, 0x1FB72, 0x1FB78, 0x1FB77, 0x1FB76, 0x1FB7A, 0x1FB71,  # $40
    0x1FB74, 0x256E, 0x2570, 0x256F, 0x1FB7C, 0x2572, 0x2571, 0x1FB7D,  # $48
    0x1FB7E, 0x25CF, 0x1FB7B, 0x2665, 0x1FB70, 0x256D, 0x2573, 0x25CB,  # $50
    0x2663, 0x1FB75, 0x2666, 0x253C, 0x1FB8C, 0x2502, 0x03C0, 0x25E5,  # $58
    0x00A0, 0x258C, 0x2584, 0x2594, 0x2581, 0x258F, 0x2592, 0x2595,  # $60
    0x1FB8F, 0x25E4, 0x1FB87, 0x251C, 0x2597, 0x2514, 0x2510, 0x2582,  # $68
    0x250C, 0x2534, 0x252C, 0x2524, 0x258E, 0x258D, 0x1FB88, 0x1FB82,  # $70
    0x1FB83, 0x2583, 0x1FB7F, 0x2596, 0x259D, 0x2518, 0x2598, 0x259A,  # $78
)  # fmt: skip

# where the lower/upper case set differs in $40-$7F (C64VALT.TXT): capitals at
# $41-$5A, and four graphics
_LOWER_DIFFERENCES = {
    **{0x41 + i: ord("A") + i for i in range(26)},
    0x5E: 0x1FB96,  # INVERSE CHECKER BOARD FILL (the upper set has pi here)
    0x5F: 0x1FB98,  # UPPER LEFT TO LOWER RIGHT FILL
    0x69: 0x1FB99,  # UPPER RIGHT TO LOWER LEFT FILL
    0x7A: 0x2713,  # CHECK MARK
}


def _lower_graphics() -> tuple[int, ...]:
    return tuple(_LOWER_DIFFERENCES.get(0x40 + i, point) for i, point in enumerate(_UPPER_GRAPHICS))


UPPER_CASE_UNICODE: str = ("@ABCDEFGHIJKLMNOPQRSTUVWXYZ" + _SHARED_START
                           + "".join(map(chr, _UPPER_GRAPHICS)))
LOWER_CASE_UNICODE: str = ("@abcdefghijklmnopqrstuvwxyz" + _SHARED_START
                           + "".join(map(chr, _lower_graphics())))
assert len(UPPER_CASE_UNICODE) == len(LOWER_CASE_UNICODE) == 128


def is_reverse(code: int) -> bool:
    """Codes $80-$FF show their glyph in reverse video."""
    return bool(code & 0x80)


def unicode_for(code: int, lowercase: bool = False) -> str:
    """The Unicode character of a screen code's glyph (reverse not applied)."""
    return (LOWER_CASE_UNICODE if lowercase else UPPER_CASE_UNICODE)[code & 0x7F]


# -- plain ASCII -----------------------------------------------------------------------------

# $40-$7F of the upper case/graphics set: lines as - | / \, corners and crossings +,
# blocks #, shades :, circles and suits o O *, pi as petcat's ~
_UPPER_ASCII_GRAPHICS = (
    "-*|----|" "|+++L\\/+"  # $40-$4F
    "+o_*|+XO" "*|*+:|~/"  # $50-$5F
    " ##-_|:|" ":/|+#++_"  # $60-$6F
    "+++||##-" "##+##+##"  # $70-$7F
)
_LOWER_ASCII_DIFFERENCES = {**{0x41 + i: chr(ord("A") + i) for i in range(26)},
                            0x5E: ":", 0x5F: ":", 0x69: ":", 0x7A: "v"}
_ASCII_START = "[\\]^_" + "".join(chr(c) for c in range(0x20, 0x40))  # petcat: \ pound, ^ up, _ left
UPPER_CASE_ASCII: str = "@ABCDEFGHIJKLMNOPQRSTUVWXYZ" + _ASCII_START + _UPPER_ASCII_GRAPHICS
LOWER_CASE_ASCII: str = ("@abcdefghijklmnopqrstuvwxyz" + _ASCII_START
                         + "".join(_LOWER_ASCII_DIFFERENCES.get(0x40 + i, glyph)
                                   for i, glyph in enumerate(_UPPER_ASCII_GRAPHICS)))
assert len(UPPER_CASE_ASCII) == len(LOWER_CASE_ASCII) == 128


def ascii_for(code: int, lowercase: bool = False) -> str:
    """A 7-bit ASCII stand-in for a screen code's glyph (reverse not applied)."""
    return (LOWER_CASE_ASCII if lowercase else UPPER_CASE_ASCII)[code & 0x7F]


# -- the transcript's text ---------------------------------------------------------------------

# The transcript (and --screen, and every screen compared with VICE's) shows each screen code
# as its Unicode character above: one character a code, no two codes of a set alike, so text
# compared with a real screen sees every difference the screen codes have.  Even the glyphs
# the character ROM 901225-01 draws alike stay apart ($20 space and $60 shifted space are both
# blank, $40/$43, $42/$5D, $65/$74 and $67/$6A are the same shapes): they are different
# characters to the C64 (a shifted space is CHR$(160), which INPUT and the editor do not
# take for a space).  The shifted space is U+00A0 NO-BREAK SPACE: trailing blanks of a row
# are only the $20 spaces (``strip_row``).
UPPER_CASE_TEXT: str = UPPER_CASE_UNICODE
LOWER_CASE_TEXT: str = LOWER_CASE_UNICODE
SHIFTED_SPACE = UPPER_CASE_TEXT[0x60]
assert SHIFTED_SPACE == LOWER_CASE_TEXT[0x60] == "\u00a0"


def text_for(code: int, lowercase: bool = False) -> str:
    """A screen code as transcript text (reverse characters show as their glyph)."""
    return (LOWER_CASE_TEXT if lowercase else UPPER_CASE_TEXT)[code & 0x7F]


# each byte's text (reverse codes as their glyph): a row is mapped with a built-in, no
# Python-level loop (the screen editor keeps every row a clear or a scroll takes away)
_BYTE_TEXT = {lowercase: tuple((LOWER_CASE_TEXT if lowercase else UPPER_CASE_TEXT)[code & 0x7F]
                               for code in range(256)) for lowercase in (False, True)}


def screen_codes_to_text(codes: bytes | list[int], lowercase: bool = False) -> str:
    """A row (or any run) of screen codes as transcript text, in either set."""
    if isinstance(codes, (bytes, bytearray)):
        return "".join(map(_BYTE_TEXT[lowercase].__getitem__, codes))
    table = LOWER_CASE_TEXT if lowercase else UPPER_CASE_TEXT
    return "".join(table[code & 0x7F] for code in codes)


def strip_row(text: str) -> str:
    """A row of screen text without its trailing spaces: only the spaces ($20), not a
    shifted space (U+00A0, which ``str.rstrip()`` would take for white space)."""
    return text.rstrip(" ")


def screen_row_text(codes: bytes | list[int], lowercase: bool = False) -> str:
    """A row of screen codes as text without its trailing spaces (``strip_row``)."""
    return strip_row(screen_codes_to_text(codes, lowercase))
