"""What the renderers draw: one picture of the C64's text screen.

The machine (or a saved dump) produces a ``ScreenImage``; the PNG, ANSI and live
terminal renderers only read it.  Screen memory holds one screen code per cell
(bit 7 is reverse video in the character ROM's layout), colour RAM one colour per
cell (only its low nybble exists on the C64: the upper four bits read back as
noise, so they are ignored here), $D020 is the border colour, $D021 the background
colour, and $D018 chooses the character set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from toolchain.diagnostics import UserError, counted
from toolchain.fileio import read_bytes

COLUMNS = 40
ROWS = 25
CELLS = COLUMNS * ROWS
LIGHT_BLUE = 14  # colour RAM, border and text after power-on
BLUE = 6  # background after power-on
SPACE = 0x20


def lowercase_from_d018(value: int) -> bool:
    """Whether $D018 selects the lower/upper case character set.

    Bits 1-3 of $D018 give the character memory base inside the VIC bank in 2 KiB
    steps.  In the default bank 0 the VIC sees the character ROM at $1000-$1FFF:
    %010 ($1000, the KERNAL's $15) is the upper case/graphics half, %011 ($1800,
    $17 after SHIFT+C= or CHR$(14)) the lower/upper case half, so bit 1 decides
    (C64 Programmer's Reference Guide, ch. 3 "Character memory" and the VIC-II
    register map, location 53272; Mapping the Commodore 64, $D018).  Other values
    point the VIC at character RAM, which this text view does not draw: it shows
    the ROM half that bit 1 names.
    """
    return bool(value & 0x02)


def _colour(value: int, what: str) -> int:
    if not 0 <= value <= 15:
        raise ValueError(f"{what} colour {value} is not 0-15")
    return value


@dataclass(frozen=True)
class ScreenImage:
    """The 40x25 text screen as the VIC-II shows it.

    ``codes``: 1000 screen codes, row-major; ``colours``: 1000 colour RAM values
    (low nybble used); ``border``/``background``: $D020/$D021 (0-15);
    ``lowercase``: the character set ($D018, see ``lowercase_from_d018``);
    ``cursor``: (row, column) of the editor's cursor, or None; ``cursor_visible``:
    whether the cursor blinks there (the program waits for typed input).
    """

    codes: bytes
    colours: bytes = field(default=bytes([LIGHT_BLUE]) * CELLS)
    border: int = LIGHT_BLUE
    background: int = BLUE
    lowercase: bool = False
    cursor: tuple[int, int] | None = None
    cursor_visible: bool = False

    def __post_init__(self) -> None:
        if len(self.codes) != CELLS:
            raise ValueError(f"a screen has {CELLS} screen codes, not {len(self.codes)}")
        if len(self.colours) != CELLS:
            raise ValueError(f"colour RAM has {CELLS} values, not {len(self.colours)}")
        # keep only the nybble the C64 has, so equal pictures compare equal
        object.__setattr__(self, "codes", bytes(self.codes))
        object.__setattr__(self, "colours", bytes(value & 0x0F for value in self.colours))
        _colour(self.border, "border")
        _colour(self.background, "background")
        if self.cursor is not None:
            row, column = self.cursor
            if not (0 <= row < ROWS and 0 <= column < COLUMNS):
                raise ValueError(f"cursor {self.cursor} is outside the 40x25 screen")

    def cell(self, row: int, column: int) -> tuple[int, int]:
        """(screen code, colour) of one cell."""
        index = row * COLUMNS + column
        return self.codes[index], self.colours[index]

    def row_codes(self, row: int) -> bytes:
        return self.codes[row * COLUMNS : (row + 1) * COLUMNS]

    @classmethod
    def blank(cls, colour: int = LIGHT_BLUE, **options: object) -> ScreenImage:
        """A cleared screen: spaces in ``colour``."""
        return cls(bytes([SPACE]) * CELLS, bytes([colour]) * CELLS, **options)  # type: ignore[arg-type]

    @classmethod
    def from_dumps(cls, screen: bytes, colours: bytes | None = None, *, border: int = LIGHT_BLUE,
                   background: int = BLUE, lowercase: bool = False,
                   screen_name: str = "screen", colours_name: str = "colours") -> ScreenImage:
        """From the bytes of saved screen memory and colour RAM.

        Accepted: exactly the 1000 bytes; a whole 1 KiB page ($0400-$07FF with the
        sprite pointers, $D800-$DBFF); either of these saved as a PRG (two bytes of
        load address first), as VICE's monitor ``s`` command writes them.  Without
        colour RAM every cell is light blue, as after power-on.  A wrong size is a
        ``UserError`` naming the file."""
        codes = _payload(screen, screen_name, "screen memory")
        colour_ram = (_payload(colours, colours_name, "colour RAM") if colours is not None
                      else bytes([LIGHT_BLUE]) * CELLS)
        for value, what in ((border, "border"), (background, "background")):
            if not 0 <= value <= 15:
                raise UserError.single(screen_name, f"{what} colour {value} is not 0-15")
        return cls(codes, colour_ram, border, background, lowercase)

    @classmethod
    def from_files(cls, screen: Path, colours: Path | None = None, *, border: int = LIGHT_BLUE,
                   background: int = BLUE, lowercase: bool = False) -> ScreenImage:
        """``from_dumps`` with the bytes read from files (errors name the files)."""
        return cls.from_dumps(read_bytes(screen), read_bytes(colours) if colours else None, border=border,
                              background=background, lowercase=lowercase, screen_name=str(screen),
                              colours_name=str(colours))


_ACCEPTED_SIZES = {CELLS: 0, CELLS + 2: 2, 1024: 0, 1024 + 2: 2}


def _payload(data: bytes, name: str, what: str) -> bytes:
    """The 1000 cells of a dump, without a PRG load address or the rest of the page."""
    skip = _ACCEPTED_SIZES.get(len(data))
    if skip is None:
        raise UserError.single(name, f"{counted(len(data), 'byte')} is not a dump of {what}: expected "
                               f"{CELLS} bytes (or {CELLS + 2} as a PRG with its load address, or a whole "
                               "1024-byte page)")
    return data[skip : skip + CELLS]
