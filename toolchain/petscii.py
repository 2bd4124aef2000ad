"""PETSCII text in petcat's format: one place for the rules every part shares.

petcat (VICE's BASIC tokenizer, ``src/tools/petcat/petcat.c``) defines the text
format that C64 listings are exchanged in.  Its conventions, reproduced here:

* lower-case ASCII letters are unshifted PETSCII $41-$5A, upper-case letters
  shifted PETSCII $C1-$DA; ``\\`` (and ``|``) is the pound sign $5C, ``^`` the up
  arrow $5E, ``_`` the left arrow $5F, ``~`` pi $FF;
* any byte may be written in braces: a name (``{clr}``, ``{CBM-R}``), ``{$xx}``
  (lower-case hex), a decimal code ``{147}``, and repeats ``{3 down}`` or ``{down*3}``.
  Names are matched case-sensitively, as petcat does by default.

When reading, every name of petcat's tables is accepted (its magazine and tok64
alternatives too), the first table in petcat's search order winning.  When writing,
the name petcat writes is used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# -- petcat's tables, in its search order (petcat.c: ctrl1 ... a_cbmkeys) -------------

# Primary names for $00-$1F (petcat "ctrl1"); the names petcat writes.
_CTRL1 = {
    0x01: "CTRL-A", 0x02: "CTRL-B", 0x03: "stop", 0x04: "CTRL-D", 0x05: "wht", 0x06: "CTRL-F",
    0x07: "CTRL-G", 0x08: "dish", 0x09: "ensh", 0x0B: "CTRL-K", 0x0C: "CTRL-L", 0x0E: "swlc",
    0x0F: "CTRL-O", 0x10: "CTRL-P", 0x11: "down", 0x12: "rvon", 0x13: "home", 0x14: "del",
    0x15: "CTRL-U", 0x16: "CTRL-V", 0x17: "CTRL-W", 0x18: "CTRL-X", 0x19: "CTRL-Y",
    0x1A: "CTRL-Z", 0x1B: "esc", 0x1C: "red", 0x1D: "rght", 0x1E: "grn", 0x1F: "blu",
}  # fmt: skip
# Alternatives petcat reads for $00-$1F (MikroBITTI, tok64, 64'er Checksummer v3).
_CTRL1_ALTERNATIVES = [
    {0x05: "WHT", 0x08: "up/lo lock on", 0x09: "up/lo lock off", 0x0D: "return", 0x0E: "lower case",
     0x11: "DOWN", 0x12: "RVS ON", 0x13: "HOME", 0x14: "delete", 0x1B: "esc", 0x1C: "RED",
     0x1D: "RIGHT", 0x1E: "GRN", 0x1F: "BLU"},
    {0x12: "REVERSE ON"},
    {0x05: "white", 0x11: "down", 0x12: "reverse on", 0x13: "home", 0x1C: "red", 0x1D: "right",
     0x1E: "green", 0x1F: "blue"},
    {0x05: "WHITE", 0x0D: "RETURN", 0x11: "DOWN", 0x12: "RVSON", 0x13: "HOME", 0x14: "DEL",
     0x1C: "RED", 0x1D: "RIGHT", 0x1E: "GREEN", 0x1F: "BLUE"},
]  # fmt: skip
# Names for printable characters (petcat "cbmchars"), used to escape keyword letters.
_CBMCHARS = {0x20: "space", 0x2A: "*", 0x2B: "+", 0x2D: "-", 0x2F: "/", 0x3C: "<", 0x3D: "=",
             0x3E: ">", 0x5E: "^", **{0x41 + i: chr(ord("a") + i) for i in range(26)}}  # fmt: skip
_CBMCHARS_ALTERNATIVES = [{0x20: "SPACE"}]
# Primary names for $80-$9F (petcat "ctrl2"); the names petcat writes.
_CTRL2 = {
    0x81: "orng", 0x85: "f1", 0x86: "f3", 0x87: "f5", 0x88: "f7", 0x89: "f2", 0x8A: "f4",
    0x8B: "f6", 0x8C: "f8", 0x8D: "sret", 0x8E: "swuc", 0x90: "blk", 0x91: "up", 0x92: "rvof",
    0x93: "clr", 0x94: "inst", 0x95: "brn", 0x96: "lred", 0x97: "gry1", 0x98: "gry2",
    0x99: "lgrn", 0x9A: "lblu", 0x9B: "gry3", 0x9C: "pur", 0x9D: "left", 0x9E: "yel", 0x9F: "cyn",
}  # fmt: skip
_CTRL2_ALTERNATIVES = [
    {0x81: "orange", 0x85: "F1", 0x86: "F3", 0x87: "F5", 0x88: "F7", 0x89: "F2", 0x8A: "F4",
     0x8B: "F6", 0x8C: "F8", 0x8D: "shift return", 0x8E: "upper case", 0x90: "BLK", 0x91: "UP",
     0x92: "RVS OFF", 0x93: "CLR", 0x94: "insert", 0x95: "BROWN", 0x96: "LT.RED", 0x97: "GREY1",
     0x98: "GREY2", 0x99: "lt green", 0x9A: "LT.BLUE", 0x9B: "GREY3", 0x9C: "PUR", 0x9D: "LEFT",
     0x9E: "YEL", 0x9F: "cyn"},
    {0x81: "orange", 0x85: "f1", 0x86: "f3", 0x87: "r5", 0x88: "f7", 0x89: "f2", 0x8A: "f4",
     0x8B: "f6", 0x8C: "f8", 0x90: "black", 0x91: "up", 0x92: "reverse off", 0x93: "clear",
     0x95: "brown", 0x96: "pink", 0x97: "dark gray", 0x98: "gray", 0x99: "light green",
     0x9A: "light blue", 0x9B: "light gray", 0x9C: "purple", 0x9D: "left", 0x9E: "yellow",
     0x9F: "cyan"},
    {0x81: "ORANGE", 0x85: "F1", 0x86: "F3", 0x87: "F5", 0x88: "F7", 0x89: "F2", 0x8A: "F4",
     0x8B: "F6", 0x8C: "F8", 0x90: "BLACK", 0x91: "UP", 0x92: "RVSOFF", 0x93: "CLR", 0x94: "INST",
     0x95: "BROWN", 0x96: "LIG.RED", 0x97: "GREY 1", 0x98: "GREY 2", 0x99: "LIG.GREEN",
     0x9A: "LIG.BLUE", 0x9B: "GREY 3", 0x9C: "PURPLE", 0x9D: "LEFT", 0x9E: "YELLOW", 0x9F: "CYAN"},
]  # fmt: skip
# Key names for $A0-$DF (petcat "cbmkeys"), in byte order.
_CBMKEYS = (
    "SHIFT-SPACE CBM-K CBM-I CBM-T CBM-@ CBM-G CBM-+ CBM-M CBM-POUND SHIFT-POUND CBM-N CBM-Q CBM-D "
    "CBM-Z CBM-S CBM-P CBM-A CBM-E CBM-R CBM-W CBM-H CBM-J CBM-L CBM-Y CBM-U CBM-O SHIFT-@ CBM-F "
    "CBM-C CBM-X CBM-V CBM-B SHIFT-* SHIFT-A SHIFT-B SHIFT-C SHIFT-D SHIFT-E SHIFT-F SHIFT-G "
    "SHIFT-H SHIFT-I SHIFT-J SHIFT-K SHIFT-L SHIFT-M SHIFT-N SHIFT-O SHIFT-P SHIFT-Q SHIFT-R "
    "SHIFT-S SHIFT-T SHIFT-U SHIFT-V SHIFT-W SHIFT-X SHIFT-Y SHIFT-Z SHIFT-+ CBM-- SHIFT-- "
    "SHIFT-^ CBM-*"
).split()
_CBMKEYS_ALTERNATIVES = [{0xDE: "CBM-^"}]


def _reading_table() -> dict[str, int]:
    table: dict[str, int] = {f"${code:02x}": code for code in range(256)}
    groups: list[dict[int, str]] = [_CTRL1, *_CTRL1_ALTERNATIVES, _CBMCHARS, *_CBMCHARS_ALTERNATIVES,
                                    _CTRL2, *_CTRL2_ALTERNATIVES,
                                    {0xA0 + i: name for i, name in enumerate(_CBMKEYS)},
                                    *_CBMKEYS_ALTERNATIVES]  # fmt: skip
    for group in groups:
        for code, name in group.items():
            table.setdefault(name, code)
    return table


#: Every brace name petcat reads, to its byte.
CODE_NAMES: dict[str, int] = _reading_table()

_UNICODE_EXTRAS = {"£": 0x5C, "π": 0xFF, "↑": 0x5E, "←": 0x5F}


class PetsciiError(ValueError):
    """A text that is not valid petcat-format PETSCII; ``column`` is 0-based."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.column = column


def char_to_petscii(char: str) -> int:
    """One plain text character to PETSCII, as petcat converts it (outside braces)."""
    c = ord(char)
    if c == 0x0A:
        return 0x0D  # a line break is RETURN, as in petcat
    if c == 0x7E:
        return 0xFF
    if 0x60 <= c <= 0x7E:
        return c ^ 0x20
    if 0x41 <= c <= 0x5A:
        return c | 0x80
    if c < 0x80:
        return c
    if char in _UNICODE_EXTRAS:
        return _UNICODE_EXTRAS[char]
    raise ValueError(f"character {char!r} has no PETSCII equivalent")


@dataclass(frozen=True, slots=True)
class Unit:
    """One PETSCII byte of a text line, and whether it was typed as a plain character
    (only plain characters take part in keyword matching and quote tracking)."""

    byte: int
    char: str | None  # the plain character typed, None for a brace code
    column: int


# petcat reads a brace code's numbers with strtol, which skips white space before them:
# ``{ 3 down}``, ``{ 65}`` and ``{down* 2}`` are codes, ``{ down}`` is not
_LEADING_COUNT = re.compile(r"\s*(\d+) ?")

#: The largest repeat count (``{255 down}``): no line holds more bytes (a stored BASIC line,
#: and so a Profi-Ass source line, is at most 255 bytes long), and a bound keeps a typo like
#: ``{999999999999 down}`` from filling the memory.
MAX_REPEAT = 255


def _repeat_count(digits: str, column: int) -> int:
    if len(digits.lstrip("0")) > 3 or int(digits) > MAX_REPEAT:
        shown = digits if len(digits) <= 12 else digits[:12] + "..."
        raise PetsciiError(f"repeat count {shown} is more than a line can hold (at most {MAX_REPEAT})",
                           column)
    return int(digits)


def _brace_code(content: str, column: int) -> tuple[int, int]:
    """The byte and repeat count of a brace code's content, petcat's way: an optional
    leading count (``3 down``), a name, an optional ``*count`` (``down*3``); a bare
    number is a decimal character code (``147``)."""
    repeat = 1
    if content.lstrip().isdigit():
        content = content.lstrip()
        number = int(content) if len(content.lstrip("0")) <= 3 else 256
        if number > 255:
            shown = content if len(content) <= 12 else content[:12] + "..."
            raise PetsciiError(f"character code {{{shown}}} is larger than 255", column)
        return number, 1
    count = _LEADING_COUNT.match(content)
    if count:
        repeat = _repeat_count(count.group(1), column)
        content = content[count.end():]
    code: int | None = CODE_NAMES.get(content)
    if code is None and content.startswith("$") and len(content) == 3:
        code = CODE_NAMES.get(content.lower())  # petcat wants lower-case hex; accept both
    if code is None and "*" in content:
        name, _, times = content.rpartition("*")
        if times.lstrip().isdigit() and name in CODE_NAMES:
            code, repeat = CODE_NAMES[name], _repeat_count(times.lstrip(), column)
    if code is None:
        shown = content if len(content) <= 40 else content[:40] + "..."
        raise PetsciiError(f"unknown control code name {{{shown}}}", column)
    return code, repeat


def parse_units(text: str, column_offset: int = 0) -> list[Unit]:
    """Split a line of petcat text into PETSCII bytes.  Raises PetsciiError."""
    units: list[Unit] = []
    i = 0
    n = len(text)
    while i < n:
        char = text[i]
        if char == "{":
            close = text.find("}", i)
            if close < 0:
                raise PetsciiError("unterminated '{' (write a brace code like {clr} or {$93})",
                                   column_offset + i)
            code, repeat = _brace_code(text[i + 1 : close], column_offset + i)
            units.extend(Unit(code, None, column_offset + i) for _ in range(repeat))
            i = close + 1
            continue
        try:
            units.append(Unit(char_to_petscii(char), char, column_offset + i))
        except ValueError as exc:
            raise PetsciiError(str(exc), column_offset + i) from None
        i += 1
    return units


def text_to_petscii(text: str) -> bytes:
    """A whole petcat-format text (no tokenizing) to PETSCII bytes."""
    return bytes(unit.byte for unit in parse_units(text))


def _writing_table() -> list[str]:
    """The text petcat writes for each byte (petcat.c _p_toascii with control codes on)."""
    out = [f"{{${code:02x}}}" for code in range(256)]
    for code in range(0x20, 0x40):
        out[code] = chr(code)
    out[0x40] = "@"
    for code in range(0x41, 0x5B):
        out[code] = chr(code + 0x20)  # unshifted letters are written in lower case
    out[0x5B], out[0x5C], out[0x5D], out[0x5E], out[0x5F] = "[", "\\", "]", "^", "_"
    for code, name in (_CTRL1 | _CTRL2).items():
        out[code] = "{" + name + "}"
    for code in range(0xA1, 0xC0):
        out[code] = "{" + _CBMKEYS[code - 0xA0] + "}"
    for code in range(0xC1, 0xDB):
        out[code] = chr(code - 0x80)  # shifted letters are written in upper case
    out[0xC0], out[0xDB], out[0xDC], out[0xDD], out[0xDF] = (
        "{SHIFT-*}", "{SHIFT-+}", "{CBM--}", "{SHIFT--}", "{CBM-*}")
    out[0xFF] = "~"
    # petcat writes $0D as a line break, which would split the line: keep it a code.
    return out


#: The text written for each PETSCII byte (index = byte).
BYTE_TEXT: tuple[str, ...] = tuple(_writing_table())
