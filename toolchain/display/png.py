"""The screen as a picture: 384x272 pixels, VICE's visible PAL area, and films of a run.

Framing, measured on VICE 3.10's x64sc (``-exitscreenshot`` of the READY screen):
the 320x200 text area starts at x=32, y=35 of the 384x272 picture, leaving borders
of 32 pixels left and right, 35 above and 37 below (VICE shows raster lines 16-287
and the text window starts at line 51).  Pixels are palette indices 0-15 in a
paletted PNG, so pictures compare by colour number; the RGB values are the Pepto
palette (``toolchain.display.palette``).

Every picture is drawn by the VIC-II renderer (:mod:`toolchain.c64.chips.vic_render`):
a machine's frame, or a saved text screen (:class:`ScreenImage`) put into memory as
the KERNAL leaves it ($0400, $D018 $15 or $17).

Written with Pillow: maintained, on every platform as a wheel, it reads PNGs (VICE's
screenshots, in the tests) and writes animated GIF and APNG for films; a hand-written
encoder would save a dependency but not the reading side.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from toolchain.c64.chips.vic_render import CYCLES_PER_FRAME, HEIGHT, WIDTH, Beam, VideoMemory
from toolchain.display.font import Font, fallback_font, font_from_chargen
from toolchain.display.palette import PEPTO_PAL
from toolchain.display.state import CELLS, COLUMNS, ROWS, ScreenImage
from toolchain.fileio import write_atomic

if TYPE_CHECKING:
    from PIL import Image

TEXT_LEFT, TEXT_TOP = 32, 35  # where the 320x200 text area starts
TEXT_WIDTH, TEXT_HEIGHT = COLUMNS * 8, ROWS * 8
FRAME_MILLISECONDS = 1000 * CYCLES_PER_FRAME / 985_248  # 19.95 ms: 50.125 frames a second


def kernal_registers() -> bytearray:
    """The VIC-II's registers as the KERNAL's reset leaves them (the table at $ECB9)."""
    from toolchain.c64.chips.power_on import KERNAL_RESET_WRITES

    registers = bytearray(64)
    for address, value in KERNAL_RESET_WRITES:
        if 0xD000 <= address < 0xD040:
            registers[address - 0xD000] = value
    return registers


def font_for(chargen: bytes | None) -> Font:
    """The character ROM's shapes when there is one, else the fallback font."""
    return font_from_chargen(chargen) if chargen is not None else fallback_font()


def character_rom_of(chargen: bytes | None) -> bytes:
    """The 4096 bytes the VIC-II shows as its character ROM: the ROM, else the
    fallback font in the ROM's layout."""
    font = font_for(chargen)
    return font.upper + font.lower


def screen_frame(image: ScreenImage, chargen: bytes | None = None) -> bytes:
    """A text screen drawn as the VIC-II draws it after the KERNAL's start-up: the 384x272
    palette indices."""
    ram = bytearray(0x10000)
    ram[0x0400 : 0x0400 + CELLS] = image.codes
    registers = kernal_registers()
    registers[0x20], registers[0x21] = image.border, image.background
    registers[0x18] = 0x17 if image.lowercase else 0x15
    return frame_of(registers, VideoMemory.of(ram, 0, character_rom_of(chargen), image.colours + bytes(24)))


def frame_of(registers: bytes | bytearray, memory: VideoMemory) -> bytes:
    """The frame the VIC-II draws with ``registers`` (unchanged through the frame) from
    ``memory``: 384x272 palette indices."""
    beam = Beam(bytearray(registers))
    beam.run([], CYCLES_PER_FRAME, memory)
    return bytes(beam.pixels)


def frame_image(pixels: bytes) -> Image.Image:
    """A frame's palette indices as a paletted Pillow image (palette index = C64 colour)."""
    from PIL import Image

    picture = Image.frombytes("P", (WIDTH, HEIGHT), pixels)
    picture.putpalette([component for colour in PEPTO_PAL for component in colour])
    return picture


def frame_png(pixels: bytes) -> bytes:
    buffer = io.BytesIO()
    frame_image(pixels).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def write_frame(pixels: bytes, path: str | Path) -> None:
    """A frame written atomically as a paletted PNG."""
    write_atomic(path, frame_png(pixels))


def render_png(image: ScreenImage, chargen: bytes | None = None) -> Image.Image:
    """The screen as VICE frames it: a paletted 384x272 Pillow image (palette index
    = C64 colour).  ``chargen``: the 4096-byte character ROM, or None for the
    fallback font."""
    return frame_image(screen_frame(image, chargen))


def png_bytes(image: ScreenImage, chargen: bytes | None = None) -> bytes:
    return frame_png(screen_frame(image, chargen))


def write_png(image: ScreenImage, path: str | Path, chargen: bytes | None = None) -> None:
    """Render and write atomically (a temporary file renamed over ``path``)."""
    write_atomic(path, png_bytes(image, chargen))


# -- films ----------------------------------------------------------------------------------------

FILM_FORMATS = {".gif": "GIF", ".png": "PNG", ".apng": "PNG"}


# A film holds at most this many different frames, a minute of a picture that changes
# every frame (kept compressed while the run goes on, 104,448 pixels are a few KiB; Pillow
# holds them all as pictures while it encodes the film, 100 KB each): a longer run's film
# ends there, and ``run`` says so
MAX_FILM_FRAMES = 3_000


class Film:
    """Frames collected for an animated GIF or APNG: a frame like the one before only
    lengthens it, so a still screen costs one frame.  At MAX_FILM_FRAMES different
    frames the film is ``full``: the frames after it are left out."""

    def __init__(self, frame_milliseconds: float = FRAME_MILLISECONDS) -> None:
        self.frame_milliseconds = frame_milliseconds
        self.frames: list[bytes] = []  # zlib-compressed
        self.lengths: list[int] = []  # in frames
        self.full = False
        self._last: bytes | None = None

    def add(self, pixels: bytes, count: int = 1) -> None:
        if self._last == pixels:
            self.lengths[-1] += count
        elif len(self.frames) >= MAX_FILM_FRAMES:
            self.full = True
        else:
            self.frames.append(zlib.compress(pixels, 1))
            self.lengths.append(count)
            self._last = pixels

    def __len__(self) -> int:
        return sum(self.lengths)

    def encode(self, kind: str) -> bytes:
        """The film as an animated ``kind`` ("GIF" or "PNG", APNG), looping forever;
        each frame lasts its time on a PAL C64 (GIF counts hundredths of a second: the
        times are rounded so that they add up)."""
        if not self.frames:
            raise ValueError("a film needs a frame")
        durations = _durations(self.lengths, self.frame_milliseconds, 10 if kind == "GIF" else 1)
        images = list(_images(self.frames))
        buffer = io.BytesIO()
        options: dict[str, object] = {"save_all": True, "append_images": images[1:], "duration": durations,
                                      "loop": 0}
        if kind == "GIF":
            options["optimize"] = False  # keep the 16 colours as palette indices 0-15
            options["disposal"] = 1
        images[0].save(buffer, format=kind, **options)
        return buffer.getvalue()


def _images(frames: Iterable[bytes]) -> Iterable[Image.Image]:
    for compressed in frames:
        yield frame_image(zlib.decompress(compressed))


def _durations(lengths: list[int], frame_milliseconds: float, unit: int) -> list[int]:
    """Each frame's duration in milliseconds, multiples of ``unit``, rounded so that the
    running total stays within a unit of the C64's time."""
    durations = []
    elapsed = 0.0
    shown = 0
    for length in lengths:
        elapsed += length * frame_milliseconds
        end = max(shown + unit, round(elapsed / unit) * unit)
        durations.append(end - shown)
        shown = end
    return durations


def write_film(film: Film, path: str | Path) -> None:
    """Write ``film`` atomically, as the file's extension says (.gif, .png/.apng)."""
    kind = FILM_FORMATS.get(Path(path).suffix.lower())
    if kind is None:
        raise ValueError(f"{path}: a film is a .gif or .png (APNG) file")
    write_atomic(path, film.encode(kind))
