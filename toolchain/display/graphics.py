"""The VIC-II's frames on a terminal: pictures through the kitty graphics protocol or
sixels where the terminal draws them, else character cells.

* **kitty** (kitty, WezTerm, Ghostty, Konsole...): the frame's PNG (Pillow), base64 in
  chunks of 4096, shown scaled to a block of cells by the terminal; one image and one
  placement id, so each frame replaces the last (the protocol's documentation,
  sw.kovidgoyal.net/kitty/graphics-protocol).
* **sixel** (xterm -ti vt340, mlterm, foot, WezTerm, Windows Terminal...): the frame
  scaled by a whole factor to the terminal's pixels, its 16 palette colours as sixel
  colour registers, each band of six pixel rows one run-length-coded line per colour
  (DEC's VT330/VT340 manual, "Sixel graphics").
* **cells**: Unicode 13's block sextants (2x3 pixels a cell, "Symbols for Legacy
  Computing") in 24-bit colour (or the nearest of the 256-colour set), two colours a
  cell (the cell's two most frequent; a third is drawn as the nearer of them); with
  ``ascii``, one pixel a cell drawn as a coloured space.

Which one: ``C64TC_GRAPHICS`` (kitty, sixel, cells) if set; kitty where the terminal
says it is one of those that speak it ($TERM, $KITTY_WINDOW_ID, $TERM_PROGRAM); sixel
where the terminal's answer to "who are you" (DA1, ``ESC [ c``) lists attribute 4;
else cells.

Why no library: the frames are 16-colour palette images already, so the sixel
encoding needs no colour quantising (some 40 lines here with ``bytes.translate`` and
integers), and kitty's takes the PNG c64tc writes anyway.  libsixel-python (last
released 2018) needs the C libsixel; chafa.py bundles libchafa for a few platforms
only, and the cells would still need a fallback where its wheel is missing.
"""

from __future__ import annotations

import base64
import functools
import os
import re
from collections import Counter
from enum import Enum

from toolchain.c64.chips.vic_render import HEIGHT, WIDTH
from toolchain.display.ansi import RESET, ColourDepth, sgr
from toolchain.display.palette import PEPTO_PAL

GRAPHICS_ENV = "C64TC_GRAPHICS"
WHO_ARE_YOU = "\x1b[c"  # DA1; the answer is ESC [ ? attributes c
SIXEL_ATTRIBUTE = "4"
KITTY_TERMINALS = ("kitty", "wezterm", "ghostty", "konsole")
ASPECT = WIDTH / HEIGHT  # the frame's pixels are drawn square


class GraphicsKind(Enum):
    KITTY = "kitty"
    SIXEL = "sixel"
    CELLS = "cells"


def detect(environment: dict[str, str] | None = None, answer: str | None = None) -> GraphicsKind:
    """The terminal's way of showing pictures (see the module's description);
    ``answer``: its reply to DA1, when asked."""
    environment = environment if environment is not None else dict(os.environ)
    forced = environment.get(GRAPHICS_ENV, "").lower()
    for kind in GraphicsKind:
        if forced == kind.value:
            return kind
    names = " ".join(environment.get(name, "") for name in ("TERM", "TERM_PROGRAM")).lower()
    if environment.get("KITTY_WINDOW_ID") or any(name in names for name in KITTY_TERMINALS):
        return GraphicsKind.KITTY
    if answer is not None:
        match = re.search(r"\x1b\[\?([0-9;]*)c", answer)
        if match and SIXEL_ATTRIBUTE in match[1].split(";"):
            return GraphicsKind.SIXEL
    return GraphicsKind.CELLS


def fit(columns: int, lines: int, cell_aspect: float = 0.5) -> tuple[int, int]:
    """The largest block of cells (columns, lines) within the given that shows the frame
    undistorted, a cell being ``cell_aspect`` as wide as high."""
    width = min(columns, max(1, round(lines * ASPECT / cell_aspect)))
    height = min(lines, max(1, round(width * cell_aspect / ASPECT)))
    return width, height


# -- kitty -------------------------------------------------------------------------------------------

def kitty(png: bytes, columns: int, lines: int, image_id: int = 1) -> str:
    """Show ``png`` over ``columns`` x ``lines`` cells at the cursor, replacing the image
    (and placement) with the same id; the cursor stays where it is."""
    data = base64.standard_b64encode(png).decode("ascii")
    chunks = [data[start : start + 4096] for start in range(0, len(data), 4096)] or [""]
    out = []
    for index, chunk in enumerate(chunks):
        more = 1 if index + 1 < len(chunks) else 0
        if index == 0:
            control = f"a=T,f=100,i={image_id},p=1,q=2,C=1,c={columns},r={lines},m={more}"
        else:
            control = f"m={more}"
        out.append(f"\x1b_G{control};{chunk}\x1b\\")
    return "".join(out)


def kitty_delete(image_id: int = 1) -> str:
    return f"\x1b_Ga=d,d=I,i={image_id},q=2\x1b\\"


# -- sixel -------------------------------------------------------------------------------------------

_IS_COLOUR = [bytes(1 if value == colour else 0 for value in range(256)) for colour in range(16)]
_RUN = re.compile(rb"(.)\1{3,}")


def _run_length(match: re.Match[bytes]) -> bytes:
    return b"!%d%s" % (len(match[0]), match[1])


@functools.cache
def _palette() -> bytes:
    return b"".join(b"#%d;2;%d;%d;%d" % (index, *(round(part * 100 / 255) for part in rgb))
                    for index, rgb in enumerate(PEPTO_PAL))


def sixel(pixels: bytes, width: int = WIDTH, height: int = HEIGHT, scale: int = 1) -> str:
    """The frame (palette indices, ``width`` x ``height``) as a sixel image, each pixel
    ``scale`` x ``scale`` screen pixels."""
    if scale > 1:
        from toolchain.display.png import frame_image

        width, height = width * scale, height * scale
        pixels = frame_image(pixels).resize((width, height), 0).tobytes()  # 0: nearest
    rows = [pixels[y * width : (y + 1) * width] for y in range(height)]
    offset = int.from_bytes(b"?" * width, "big")
    out = [b"\x1bP0;1q\"1;1;%d;%d" % (width, height), _palette()]
    for top in range(0, height, 6):
        band = rows[top : top + 6]
        colours = sorted(set(b"".join(band)))
        lines = []
        for colour in colours:
            table = _IS_COLOUR[colour]
            value = 0
            for bit, row in enumerate(band):
                value |= int.from_bytes(row.translate(table), "big") << bit
            line = (value + offset).to_bytes(width, "big").rstrip(b"?")
            lines.append(b"#%d" % colour + _RUN.sub(_run_length, line))
        out.append(b"$".join(lines) + b"-")
    out.append(b"\x1b\\")
    return b"".join(out).decode("ascii")


# -- cells -------------------------------------------------------------------------------------------

def _sextant(mask: int) -> str:
    """The character for the 2x3 pixels in ``mask`` (bit 2*row + column set: foreground)."""
    special = {0: " ", 63: "\u2588", 0b010101: "\u258C", 0b101010: "\u2590"}
    if mask in special:
        return special[mask]
    skipped = sum(1 for value in (0b010101, 0b101010) if value < mask)
    return chr(0x1FB00 + mask - 1 - skipped)  # U+1FB00 BLOCK SEXTANT-1 ... (Unicode 13)


SEXTANTS = [_sextant(mask) for mask in range(64)]
_DISTANCE = [[sum((a - b) ** 2 for a, b in zip(PEPTO_PAL[x], PEPTO_PAL[y], strict=True)) for y in range(16)]
             for x in range(16)]


def cells(pixels: bytes, columns: int, lines: int, ascii: bool = False,
          depth: ColourDepth = ColourDepth.TRUE_COLOUR) -> list[str]:
    """The frame in ``columns`` x ``lines`` character cells, each line a string of ANSI
    colour and characters ending with a colour reset."""
    from toolchain.display.png import frame_image

    across, down = (1, 1) if ascii else (2, 3)
    small = frame_image(pixels).resize((columns * across, lines * down), 0).tobytes()
    width = columns * across
    out = []
    for line in range(lines):
        top = line * down * width
        rows = [small[top + y * width : top + (y + 1) * width] for y in range(down)]
        if ascii:
            keys = [bytes([value]) for value in rows[0]]
        else:
            first, second, third = rows
            keys = [first[x : x + 2] + second[x : x + 2] + third[x : x + 2] for x in range(0, width, 2)]
        text = []
        current: tuple[int, int] | None = None
        for key in keys:
            foreground, background, character = _cell(key)
            if (foreground, background) != current:
                current = (foreground, background)
                text.append(sgr(foreground, background, depth))
            text.append(character if not ascii else " ")
        out.append("".join(text) + RESET)
    return out


@functools.lru_cache(maxsize=65536)
def _cell(values: bytes) -> tuple[int, int, str]:
    """A cell's colours and character: its two most frequent colours, each pixel drawn
    in the nearer of them."""
    common = Counter(values).most_common(2)
    background = common[0][0]
    foreground = common[1][0] if len(common) > 1 else background
    mask = 0
    if foreground != background:
        for bit, value in enumerate(values):
            if value == foreground or (value != background and _DISTANCE[value][foreground]
                                       < _DISTANCE[value][background]):
                mask |= 1 << bit
    return foreground, background, SEXTANTS[mask]
