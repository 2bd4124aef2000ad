"""The screen as a picture: 384x272 pixels, VICE's visible PAL area.

Framing, measured on VICE 3.10's x64sc (``-exitscreenshot`` of the READY screen):
the 320x200 text area starts at x=32, y=35 of the 384x272 picture, leaving borders
of 32 pixels left and right, 35 above and 37 below (VICE shows raster lines 16-287
and the text window starts at line 51).  Pixels are palette indices 0-15 in a
paletted PNG, so pictures compare by colour number; the RGB values are the Pepto
palette (``toolchain.display.palette``).

Written with Pillow: maintained, on every platform as a wheel, and it also reads
PNGs (VICE's screenshots, in the tests); a hand-written encoder would save a
dependency but not the reading side.
"""

from __future__ import annotations

import functools
import io
from pathlib import Path
from typing import TYPE_CHECKING

from toolchain.display.font import Font, fallback_font, font_from_chargen
from toolchain.display.palette import PEPTO_PAL
from toolchain.display.state import COLUMNS, ROWS, ScreenImage
from toolchain.fileio import write_atomic

if TYPE_CHECKING:
    from PIL import Image

WIDTH, HEIGHT = 384, 272
TEXT_LEFT, TEXT_TOP = 32, 35  # where the 320x200 text area starts
TEXT_WIDTH, TEXT_HEIGHT = COLUMNS * 8, ROWS * 8


def font_for(chargen: bytes | None) -> Font:
    """The character ROM's shapes when there is one, else the fallback font."""
    return font_from_chargen(chargen) if chargen is not None else fallback_font()


@functools.cache
def _pixels_of_row(bits: int) -> bytes:
    """One glyph row as 8 pixels: 1 for the foreground, 0 for the background."""
    return bytes((bits >> (7 - x)) & 1 for x in range(8))


@functools.cache
def _colouring(foreground: int, background: int) -> bytes:
    """A bytes.translate table turning 1/0 pixels into the two palette indices."""
    table = bytearray(range(256))
    table[0], table[1] = background, foreground
    return bytes(table)


def text_area_pixels(image: ScreenImage, font: Font) -> bytes:
    """The 320x200 text area as palette indices, row by row."""
    lines = []
    background = image.background
    for row in range(ROWS):
        cells = [(font.glyph(code, image.lowercase), _colouring(colour, background))
                 for code, colour in zip(image.row_codes(row),
                                         image.colours[row * COLUMNS : (row + 1) * COLUMNS], strict=True)]
        for y in range(8):
            lines.append(b"".join(_pixels_of_row(glyph[y]).translate(colouring)
                                  for glyph, colouring in cells))
    return b"".join(lines)


def render_png(image: ScreenImage, chargen: bytes | None = None) -> Image.Image:
    """The screen as VICE frames it: a paletted 384x272 Pillow image (palette index
    = C64 colour).  ``chargen``: the 4096-byte character ROM, or None for the
    fallback font."""
    from PIL import Image

    picture = Image.new("P", (WIDTH, HEIGHT), image.border)
    picture.putpalette([component for colour in PEPTO_PAL for component in colour])
    text = Image.frombytes("P", (TEXT_WIDTH, TEXT_HEIGHT), text_area_pixels(image, font_for(chargen)))
    picture.paste(text, (TEXT_LEFT, TEXT_TOP))
    return picture


def png_bytes(image: ScreenImage, chargen: bytes | None = None) -> bytes:
    buffer = io.BytesIO()
    render_png(image, chargen).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def write_png(image: ScreenImage, path: str | Path, chargen: bytes | None = None) -> None:
    """Render and write atomically (a temporary file renamed over ``path``)."""
    write_atomic(path, png_bytes(image, chargen))
