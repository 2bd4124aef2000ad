"""The C64's 40x25 text screen as the KERNAL's screen editor drives it.

What CHROUT ($FFD2, editor routine $E716) does with each PETSCII byte: printable
characters become screen codes at the cursor (reversed while RVS is on); RETURN
ends the logical line (and quote and reverse mode); CLR/HOME, cursor keys, DEL
and INST move or edit; colour codes change the current colour.  A physical line
filled to column 40 continues as a second row of the same logical line (80
characters at most), so RETURN after exactly 40 characters leaves an empty row,
as on the real machine.  In quote mode (after an odd number of ") control codes
are shown as reverse characters instead of being carried out.

The characters and their colours live in the machine's memory (see
:mod:`toolchain.c64.memory`): the editor prints into the page HIBASE (648) names and
colour RAM at $D800, and the screen shown is the one the VIC-II's registers select.
So whatever machine code or POKE puts into screen memory is on the screen.

The transcript is every row as the user saw it: rows scrolled off the top and
rows wiped by CLR, in order, then the final screen.
"""

from __future__ import annotations

from toolchain.c64.memory import (
    COLOUR_RAM,
    CURSOR_COLOUR,
    SCREEN_CELLS,
    SCREEN_COLUMNS,
    SCREEN_PAGE,
    SCREEN_ROWS,
    power_on_memory,
    visible_screen,
)

COLUMNS = SCREEN_COLUMNS
ROWS = SCREEN_ROWS

# PETSCII colour codes -> colour number (black 0 ... light grey 15)
COLOUR_CODES = {0x90: 0, 0x05: 1, 0x1C: 2, 0x9F: 3, 0x9C: 4, 0x1E: 5, 0x1F: 6, 0x9E: 7, 0x81: 8,
                0x95: 9, 0x96: 10, 0x97: 11, 0x98: 12, 0x99: 13, 0x9A: 14, 0x9B: 15}  # fmt: skip


def petscii_to_screen_code(byte: int) -> int:
    """The screen code the editor stores for a printable PETSCII character."""
    if byte < 0x20:
        return byte + 0x80  # control characters in quote mode: reverse @..._
    if byte < 0x40:
        return byte
    if byte < 0x60:
        return byte - 0x40
    if byte < 0x80:
        return byte - 0x20
    if byte < 0xA0:
        return (byte - 0x40) | 0x80  # control codes $80-$9F in quote mode: reverse
    if byte < 0xC0:
        return byte - 0x40
    if byte < 0xFF:
        return byte - 0x80
    return 0x5E  # pi


# Screen codes $00-$7F in the default upper-case/graphics character set, as text:
# ASCII where the glyph is a character, the nearest Unicode symbol for graphics.
# Graphics screen codes $40-$7F, one glyph each ("SP" is the shifted space)
_GRAPHICS = """
─ ♠ │ ─ ─ ─ ─ │ │ ╮ ╰ ╯ └ ╲ ╱ ┌ ┐ ● ─ ♥ │ ╭ ╳ ○ ♣ │ ♦ ┼ ▒ │ π ◥
SP ▌ ▄ ▔ ▁ ▏ ▒ ▕ ▒ ◤ ▕ ├ ▗ └ ┐ ▂ ┌ ┴ ┬ ┤ ▎ ▍ ▕ ▔ ▔ ▃ ✓ ▖ ▝ ┘ ▘ ▚
""".split()
_DISPLAY = ("@ABCDEFGHIJKLMNOPQRSTUVWXYZ[£]↑←" + "".join(chr(c) for c in range(0x20, 0x40))
            + "".join(" " if glyph == "SP" else glyph for glyph in _GRAPHICS))
assert len(_DISPLAY) == 128


def screen_code_to_text(code: int) -> str:
    """One screen code as text (reverse characters show as their glyph)."""
    return _DISPLAY[code & 0x7F]


def screen_codes_to_text(codes: bytes | list[int]) -> str:
    return "".join(_DISPLAY[c & 0x7F] for c in codes)


class Screen:
    """The screen editor: CHROUT's screen output, working on ``memory`` (a fresh
    power-on memory when none is given)."""

    def __init__(self, memory: bytearray | None = None) -> None:
        self.memory = memory if memory is not None else power_on_memory()
        self.continued = [False] * ROWS  # row i continues the logical line of row i-1
        self.row = self.column = 0
        self.reverse = False
        self.quote = False
        self.history: list[str] = []  # rows that scrolled away or were cleared

    # -- where things are ----------------------------------------------------------------------
    @property
    def colour(self) -> int:
        """The cursor colour, kept where the KERNAL keeps it (COLOR, 646)."""
        return self.memory[CURSOR_COLOUR] & 0x0F

    @colour.setter
    def colour(self, value: int) -> None:
        self.memory[CURSOR_COLOUR] = value

    def _base(self) -> int:
        """Where the editor prints: the page in HIBASE (648)."""
        return self.memory[SCREEN_PAGE] << 8

    def _editor_row(self, row: int) -> bytes:
        start = self._base() + row * COLUMNS
        return bytes(self.memory[start : start + COLUMNS])

    def code_at(self, row: int, column: int) -> int:
        """The screen code the VIC-II shows at ``row``, ``column``."""
        return self.memory[visible_screen(self.memory) + row * COLUMNS + column]

    def colour_at(self, row: int, column: int) -> int:
        return self.memory[COLOUR_RAM + row * COLUMNS + column] & 0x0F

    # -- what the program sees -------------------------------------------------------------
    def codes(self) -> bytes:
        """The 1000 screen codes the VIC-II shows."""
        start = visible_screen(self.memory)
        return bytes(self.memory[start : start + SCREEN_CELLS])

    def text_rows(self) -> list[str]:
        codes = self.codes()
        return [screen_codes_to_text(codes[row * COLUMNS : (row + 1) * COLUMNS]).rstrip()
                for row in range(ROWS)]

    def text(self) -> str:
        """The final screen: 25 rows, trailing spaces removed."""
        return "\n".join(self.text_rows()) + "\n"

    def transcript(self) -> str:
        rows = self.history + self.text_rows()
        while rows and not rows[-1]:
            rows.pop()
        return "\n".join(rows) + ("\n" if rows else "")

    # -- the editor ----------------------------------------------------------------------------
    def _logical_end(self, row: int) -> int:
        while row + 1 < ROWS and self.continued[row + 1]:
            row += 1
        return row

    def _clear_row(self, row: int) -> None:
        """A blank row in the cursor colour (the KERNAL's CLRLN, $E9FF)."""
        start = self._base() + row * COLUMNS
        self.memory[start : start + COLUMNS] = b" " * COLUMNS
        colours = COLOUR_RAM + row * COLUMNS
        self.memory[colours : colours + COLUMNS] = bytes([self.colour]) * COLUMNS

    def _scroll(self) -> None:
        memory = self.memory
        base = self._base()
        last = (ROWS - 1) * COLUMNS
        while True:
            self.history.append(screen_codes_to_text(self._editor_row(0)).rstrip())
            memory[base : base + last] = memory[base + COLUMNS : base + SCREEN_CELLS]
            memory[COLOUR_RAM : COLOUR_RAM + last] = memory[COLOUR_RAM + COLUMNS : COLOUR_RAM + SCREEN_CELLS]
            self._clear_row(ROWS - 1)
            self.continued = self.continued[1:] + [False]
            self.row -= 1
            if not self.continued[0]:
                break
            self.continued[0] = False

    def _down(self, new_logical_line: bool) -> None:
        self.row += 1
        if self.row >= ROWS:
            self.row = ROWS - 1
            self._scroll()
            self.row = ROWS - 1
        if new_logical_line:
            self.continued[self.row] = False

    def _put(self, code: int) -> None:
        if self.reverse:
            code |= 0x80
        offset = self.row * COLUMNS + self.column
        self.memory[self._base() + offset] = code
        self.memory[COLOUR_RAM + offset] = self.colour
        self.column += 1
        if self.column == COLUMNS:
            self.column = 0
            starts_line = self.continued[self.row]  # a logical line has two rows at most
            self._down(new_logical_line=False)
            start = self._base() + self.row * COLUMNS
            self.memory[start : start + COLUMNS] = b" " * COLUMNS
            self.continued[self.row] = not starts_line

    def carriage_return(self) -> None:
        self.row = self._logical_end(self.row)
        self.column = 0
        self.reverse = self.quote = False
        self._down(new_logical_line=True)

    def record_clear(self) -> None:
        """The rows CLR wipes, kept for the transcript."""
        rows = [screen_codes_to_text(self._editor_row(row)).rstrip() for row in range(ROWS)]
        while rows and not rows[-1]:
            rows.pop()
        self.history.extend(rows)

    def clear(self) -> None:
        self.record_clear()
        for row in range(ROWS):
            self._clear_row(row)
            self.continued[row] = False
        self.row = self.column = 0

    def output(self, byte: int) -> None:
        """CHROUT to the screen."""
        if byte in (0x0D, 0x8D):
            self.carriage_return()
            return
        if byte == 0x22:
            self.quote = not self.quote
            self._put(petscii_to_screen_code(byte))
            return
        control = byte < 0x20 or 0x80 <= byte < 0xA0
        if not control:
            self._put(petscii_to_screen_code(byte))
            return
        if self.quote and byte != 0x14:  # DEL still deletes in quote mode
            self.reverse, reverse = True, self.reverse
            self._put(petscii_to_screen_code(byte) & 0x7F)
            self.reverse = reverse
            return
        if byte in COLOUR_CODES:
            self.colour = COLOUR_CODES[byte]
        elif byte == 0x93:
            self.clear()
        elif byte == 0x13:
            self.row = self.column = 0
        elif byte == 0x12:
            self.reverse = True
        elif byte == 0x92:
            self.reverse = False
        elif byte == 0x11:
            self._down(new_logical_line=False)
        elif byte == 0x91:
            if self.row > 0:
                self.row -= 1
        elif byte == 0x1D:
            self.column += 1
            if self.column == COLUMNS:
                self.column = 0
                self._down(new_logical_line=False)
        elif byte == 0x9D:
            if self.column > 0:
                self.column -= 1
            elif self.row > 0:
                self.row -= 1
                self.column = COLUMNS - 1
        elif byte == 0x14:
            self._delete()
        elif byte == 0x94:
            self._insert()
        # other control codes ($0E/$8E character set, $08/$09 shift lock, ...) change
        # nothing on a text screen that we model

    def _delete(self) -> None:
        if self.column == 0 and self.row > 0 and self.continued[self.row]:
            self.row -= 1
            self.column = COLUMNS
        if self.column == 0:
            return
        self.column -= 1
        start = self._base() + self.row * COLUMNS
        line = self.memory
        line[start + self.column : start + COLUMNS - 1] = line[start + self.column + 1 : start + COLUMNS]
        line[start + COLUMNS - 1] = 0x20

    def _insert(self) -> None:
        start = self._base() + self.row * COLUMNS
        line = self.memory
        if line[start + COLUMNS - 1] != 0x20:
            return
        line[start + self.column + 1 : start + COLUMNS] = line[start + self.column : start + COLUMNS - 1]
        line[start + self.column] = 0x20

    def cursor(self) -> tuple[int, int]:
        return self.row, self.column

    def set_cursor(self, row: int, column: int) -> None:
        self.row = min(max(row, 0), ROWS - 1)
        self.column = min(max(column, 0), COLUMNS - 1)
