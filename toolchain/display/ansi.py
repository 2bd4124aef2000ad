"""The screen as terminal text with ANSI colours.

Each C64 cell becomes one terminal cell: its glyph as a character (Unicode 13's
legacy computing symbols, or plain ASCII), the foreground from colour RAM, the
background from $D021, both swapped for reverse characters (codes $80-$FF); the
border is a frame of terminal cells in the $D020 colour.  Colours are 24-bit
(``ESC[38;2;r;g;bm``), or the nearest of the xterm 256-colour set for terminals
that lack 24-bit colour.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from enum import Enum

from toolchain.display.charset import ascii_for, is_reverse, unicode_for
from toolchain.display.palette import PEPTO_PAL, XTERM_256
from toolchain.display.state import COLUMNS, ROWS, ScreenImage

RESET = "\x1b[0m"
BORDER_COLUMNS, BORDER_ROWS = 4, 2  # a terminal cell is about twice as high as wide


class ColourDepth(Enum):
    TRUE_COLOUR = "24bit"
    XTERM_256 = "256"

    @classmethod
    def of_terminal(cls, environment: dict[str, str] | None = None) -> ColourDepth:
        """24-bit where the terminal says so ($COLORTERM truecolor/24bit, the common
        convention), else the 256-colour set."""
        value = (environment if environment is not None else os.environ).get("COLORTERM", "")
        return cls.TRUE_COLOUR if value.lower() in ("truecolor", "24bit") else cls.XTERM_256


def sgr(foreground: int, background: int, depth: ColourDepth = ColourDepth.TRUE_COLOUR) -> str:
    """The escape sequence selecting two C64 colours."""
    if depth is ColourDepth.XTERM_256:
        return f"\x1b[38;5;{XTERM_256[foreground]};48;5;{XTERM_256[background]}m"
    (fr, fg, fb), (br, bg, bb) = PEPTO_PAL[foreground], PEPTO_PAL[background]
    return f"\x1b[38;2;{fr};{fg};{fb};48;2;{br};{bg};{bb}m"


Cell = tuple[str, int, int]  # (character, foreground, background)


def screen_cells(image: ScreenImage, ascii: bool = False, cursor_on: bool = False) -> list[Cell]:
    """The 1000 cells as terminal cells, reverse video applied.  ``cursor_on``: show
    the cursor's cell reversed, as the KERNAL's blink does (it flips bit 7 of the
    screen code in screen memory)."""
    glyph = ascii_for if ascii else unicode_for
    cursor = -1
    if cursor_on and image.cursor is not None:
        cursor = image.cursor[0] * COLUMNS + image.cursor[1]
    cells = []
    background = image.background
    for index, (code, colour) in enumerate(zip(image.codes, image.colours, strict=True)):
        if index == cursor:
            code ^= 0x80
        char = glyph(code, image.lowercase)
        cells.append((char, background, colour) if is_reverse(code) else (char, colour, background))
    return cells


def _styled(cells: Iterable[Cell], depth: ColourDepth) -> str:
    out = []
    current: tuple[int, int] | None = None
    for char, foreground, background in cells:
        if (foreground, background) != current:
            current = (foreground, background)
            out.append(sgr(foreground, background, depth))
        out.append(char)
    return "".join(out)


def render_ansi(image: ScreenImage, ascii: bool = False, depth: ColourDepth = ColourDepth.TRUE_COLOUR,
                border_columns: int = BORDER_COLUMNS, border_rows: int = BORDER_ROWS) -> str:
    """The screen inside its border as lines of ANSI-coloured text, each ending with
    a colour reset and a line break."""
    cells = screen_cells(image, ascii)
    frame: list[Cell] = [(" ", image.border, image.border)]
    width = COLUMNS + 2 * border_columns
    lines = [_styled(frame * width, depth) for _ in range(border_rows)]
    for row in range(ROWS):
        lines.append(_styled(frame * border_columns + cells[row * COLUMNS : (row + 1) * COLUMNS]
                             + frame * border_columns, depth))
    lines += [_styled(frame * width, depth) for _ in range(border_rows)]
    return "".join(line + RESET + "\n" for line in lines)
