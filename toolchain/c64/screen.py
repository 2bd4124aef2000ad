"""The C64's 40x25 text screen as people see it: the text the VIC-II shows, and the
transcript of a run.

The screen editor (:mod:`toolchain.c64.editor`, the KERNAL's, ported) prints into
the machine's memory; machine code and POKEs write there too.  This module reads
what the VIC-II shows (the matrix $DD00 and $D018 select, in the character set
$D018 selects: upper case/graphics or lower/upper case) as text, and keeps the
transcript: every row as the user saw it, the rows that scrolled off the top and
the rows a clear wiped, in order, then the final screen.
"""

from __future__ import annotations

from toolchain.c64.memory import (
    COLOUR_RAM,
    SCREEN_CELLS,
    SCREEN_COLUMNS,
    SCREEN_ROWS,
    lower_case_set,
    power_on_memory,
    visible_screen,
)
from toolchain.display.charset import screen_codes_to_text, screen_row_text, text_for

COLUMNS = SCREEN_COLUMNS
ROWS = SCREEN_ROWS

__all__ = ["COLUMNS", "ROWS", "Screen", "screen_code_to_text", "screen_codes_to_text", "screen_row_text"]


def screen_code_to_text(code: int, lowercase: bool = False) -> str:
    """One screen code as text (reverse characters show as their glyph)."""
    return text_for(code, lowercase)


class Screen:
    """What the VIC-II shows of ``memory`` (a fresh power-on memory when none is
    given), and the rows that went by."""

    def __init__(self, memory: bytearray | None = None) -> None:
        self.memory = memory if memory is not None else power_on_memory()
        self.history: list[str] = []  # rows that scrolled away or were cleared
        self.scrolled = 0  # rows scrolled away (BASIC's clock counts the editor's time for them)

    @property
    def lowercase(self) -> bool:
        """Whether the lower/upper case character set is shown ($D018 bit 1)."""
        return lower_case_set(self.memory)

    def code_at(self, row: int, column: int) -> int:
        """The screen code the VIC-II shows at ``row``, ``column``."""
        return self.memory[visible_screen(self.memory) + row * COLUMNS + column]

    def colour_at(self, row: int, column: int) -> int:
        return self.memory[COLOUR_RAM + row * COLUMNS + column] & 0x0F

    def codes(self) -> bytes:
        """The 1000 screen codes the VIC-II shows."""
        start = visible_screen(self.memory)
        return bytes(self.memory[start : start + SCREEN_CELLS])

    def text_rows(self) -> list[str]:
        codes, lowercase = self.codes(), self.lowercase
        return [screen_row_text(codes[row * COLUMNS : (row + 1) * COLUMNS], lowercase) for row in range(ROWS)]

    def text(self) -> str:
        """The final screen: 25 rows, trailing spaces removed."""
        return "\n".join(self.text_rows()) + "\n"

    def transcript(self) -> str:
        rows = self.history + self.text_rows()
        while rows and not rows[-1]:
            rows.pop()
        return "\n".join(rows) + ("\n" if rows else "")

    # -- the editor's hooks --------------------------------------------------------------------
    def record_scroll(self, row: bytes) -> None:
        """A row about to scroll off the top (the editor's on_scroll)."""
        self.history.append(screen_row_text(row, self.lowercase))
        self.scrolled += 1

    def record_clear(self, rows: list[bytes]) -> None:
        """The rows a clear is about to wipe (the editor's on_clear): kept up to the last
        one with text."""
        lowercase = self.lowercase
        end = len(rows)
        while end and not rows[end - 1].rstrip(b"\x20"):  # screen code $20, a space: no text
            end -= 1  # (not converted: a program's clear of a blank screen was 1% of its run)
        texts = [screen_row_text(row, lowercase) for row in rows[:end]]
        while texts and not texts[-1]:
            texts.pop()
        self.history.extend(texts)
