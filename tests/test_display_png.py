"""PNG pictures of the screen against VICE's own screenshots of the same screens.

The screens: every screen code in every colour, in both character sets (4096
code/colour pairs a set, over five screens of 1000 cells, each with its own border
and background colour).  A small machine-code program puts one of them on a real
(emulated) C64 in VICE; ``c64tc vice --check --screenshot`` saves VICE's picture.
Those pictures, as VICE wrote them, are kept in tests/data/display/ (our own
measurement; regenerate with ``python -m tests.test_display_png`` with VICE on the
PATH), so the comparisons run without VICE: pixel for pixel with the character ROM
(skipped without one), cell colours and framing with the fallback font (always).
With VICE installed, fresh screenshots are compared too.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from tests.conftest import DATA, c64_roms
from toolchain.display.font import fallback_font
from toolchain.display.palette import PEPTO_PAL
from toolchain.display.png import (
    HEIGHT,
    TEXT_HEIGHT,
    TEXT_LEFT,
    TEXT_TOP,
    TEXT_WIDTH,
    WIDTH,
    png_bytes,
    render_png,
    write_png,
)
from toolchain.display.state import CELLS, COLUMNS, ROWS, ScreenImage

pytestmark = pytest.mark.vice_roms  # the character ROM (tests.conftest.c64_roms)

REFERENCES = DATA / "display"
SCREENS = [(number, lowercase) for lowercase in (False, True) for number in range(5)]
BORDERS, BACKGROUNDS = (14, 2, 7, 0, 15), (6, 0, 1, 11, 5)
LOAD_ADDRESS = 0xC000


def screen_image(number: int, lowercase: bool) -> ScreenImage:
    """Screen ``number`` of five: cell i shows pair n = 1000 * number + i, screen code
    n mod 256 in colour n div 256 (pairs past 4095 start again)."""
    first = number * CELLS
    codes = bytes((first + i) % 256 for i in range(CELLS))
    colours = bytes(((first + i) // 256) % 16 for i in range(CELLS))
    return ScreenImage(codes, colours, BORDERS[number], BACKGROUNDS[number], lowercase)


def screen_program(image: ScreenImage) -> bytes:
    """A PRG at $C000 that copies the screen and colour RAM into place, sets $D020,
    $D021 and $D018 ($15 upper case, $17 lower case) and loops forever, with the
    KERNAL's interrupt still running (the check saves screen memory from it)."""
    code = bytearray([0xA2, 0x00])  # LDX #0
    for page in range(4):
        code += bytes([0xBD, 0x00, 0xC1 + page, 0x9D, 0x00, 0x04 + page])  # LDA $C1xx,X : STA $04xx,X
        code += bytes([0xBD, 0x00, 0xC5 + page, 0x9D, 0x00, 0xD8 + page])  # LDA $C5xx,X : STA $D8xx,X
    code += bytes([0xE8, 0xD0, (2 - (len(code) + 3)) & 0xFF])  # INX : BNE back to the first LDA
    code += bytes([0xA9, image.border, 0x8D, 0x20, 0xD0, 0xA9, image.background, 0x8D, 0x21, 0xD0,
                   0xA9, 0x17 if image.lowercase else 0x15, 0x8D, 0x18, 0xD0])
    here = LOAD_ADDRESS + len(code)
    code += bytes([0x4C, here & 0xFF, here >> 8])  # JMP here
    code += bytes(0x100 - len(code))  # the data from $C100: screen codes, then colours at $C500
    code += image.codes + bytes(1024 - CELLS) + image.colours + bytes(1024 - CELLS)
    return bytes([LOAD_ADDRESS & 0xFF, LOAD_ADDRESS >> 8]) + bytes(code)


def reference_path(number: int, lowercase: bool) -> Path:
    return REFERENCES / f"vice-{'lower' if lowercase else 'upper'}-{number}.png"


def palette_indices(picture: Image.Image) -> list[int]:
    """A picture's pixels as C64 colour numbers; every pixel must be exactly one of
    the palette's colours."""
    if picture.mode == "P":
        return list(picture.tobytes())
    rgb = picture.convert("RGB")
    palette = Image.new("P", (1, 1))
    palette.putpalette([component for colour in PEPTO_PAL for component in colour])
    indexed = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    assert indexed.convert("RGB").tobytes() == rgb.tobytes(), "a pixel is not a Pepto palette colour"
    return list(indexed.tobytes())


def vice_screenshot(image: ScreenImage, folder: Path) -> Path:
    """VICE's picture of ``image``, made as a user would: c64tc vice --check --screenshot."""
    from toolchain.cli import main

    program = folder / "screen.prg"
    program.write_bytes(screen_program(image))
    picture = folder / "vice.png"
    result = CliRunner().invoke(main, ["vice", "--check", str(program), "--max-cycles", "4000000",
                                       "--screenshot", str(picture)])
    assert result.exit_code == 0, result.output
    return picture


def _cell_colours(indices: list[int], row: int, column: int) -> set[int]:
    colours = set()
    for y in range(8):
        start = (TEXT_TOP + row * 8 + y) * WIDTH + TEXT_LEFT + column * 8
        colours.update(indices[start : start + 8])
    return colours


def _outside_text(indices: list[int]) -> list[int]:
    """The border's pixels: the rows above and below the text area, and the parts of
    the rows beside it."""
    outside = indices[: TEXT_TOP * WIDTH] + indices[(TEXT_TOP + TEXT_HEIGHT) * WIDTH :]
    for y in range(TEXT_TOP, TEXT_TOP + TEXT_HEIGHT):
        outside += indices[y * WIDTH : y * WIDTH + TEXT_LEFT]
        outside += indices[y * WIDTH + TEXT_LEFT + TEXT_WIDTH : (y + 1) * WIDTH]
    return outside


def _chargen() -> bytes:
    return c64_roms().chargen


def _x64sc() -> None:
    if not (os.environ.get("C64TC_VICE") or shutil.which("x64sc")):
        pytest.skip("VICE's x64sc is not installed (set C64TC_VICE to run these tests)")


# -- always -----------------------------------------------------------------------------------

def test_the_screens_hold_every_code_in_every_colour_in_both_sets() -> None:
    for lowercase in (False, True):
        pairs = {(code, colour) for number in range(5)
                 for code, colour in zip(screen_image(number, lowercase).codes,
                                         screen_image(number, lowercase).colours, strict=True)}
        assert len(pairs) == 256 * 16


def test_picture_is_vice_sized_paletted_and_framed_in_the_border_colour() -> None:
    image = ScreenImage.blank(border=2, background=0)
    picture = render_png(image)
    assert (picture.size, picture.mode) == ((WIDTH, HEIGHT), "P") == ((384, 272), "P")
    assert (picture.getpalette() or [])[: 16 * 3] == [c for rgb in PEPTO_PAL for c in rgb]
    indices = palette_indices(picture)
    assert set(_outside_text(indices)) == {2}
    assert {indices[(TEXT_TOP + y) * WIDTH + TEXT_LEFT + x] for y in (0, 199) for x in (0, 319)} == {0}
    assert indices[(TEXT_TOP - 1) * WIDTH + TEXT_LEFT] == 2 and indices[TEXT_TOP * WIDTH + TEXT_LEFT - 1] == 2


def test_reverse_video_swaps_the_two_colours() -> None:
    codes = bytearray(b" " * CELLS)
    codes[0], codes[1] = 0x20, 0xA0  # a space, a reverse space
    picture = palette_indices(render_png(ScreenImage(bytes(codes), bytes([7]) * CELLS, 0, 6)))
    assert _cell_colours(picture, 0, 0) == {6} and _cell_colours(picture, 0, 1) == {7}


def test_write_png_writes_the_picture_atomically(tmp_path: Path) -> None:
    image = screen_image(1, True)
    target = tmp_path / "out" / "screen.png"
    target.parent.mkdir()  # outputs go into folders that exist (issue 26)
    write_png(image, target)
    assert target.read_bytes() == png_bytes(image)
    assert palette_indices(Image.open(target)) == palette_indices(render_png(image))
    assert [p.name for p in target.parent.iterdir()] == ["screen.png"]  # no temporary file left


@pytest.mark.parametrize(("number", "lowercase"), SCREENS)
def test_fallback_font_gives_every_cell_the_colours_vice_shows(number: int, lowercase: bool) -> None:
    image = screen_image(number, lowercase)
    vice = palette_indices(Image.open(reference_path(number, lowercase)))
    ours = palette_indices(render_png(image, None))
    assert len(ours) == len(vice) == WIDTH * HEIGHT
    assert _outside_text(ours) == _outside_text(vice)  # framing and border colour
    font = fallback_font()
    for row in range(ROWS):
        for column in range(COLUMNS):
            code, colour = image.cell(row, column)
            assert _cell_colours(vice, row, column) <= {colour, image.background}
            if any(font.glyph(code, lowercase)) and not all(b == 0xFF for b in font.glyph(code, lowercase)):
                expected = {colour, image.background}  # a glyph with both kinds of pixel
            else:
                expected = _cell_colours(vice, row, column)  # blank or solid: as VICE has it
            assert _cell_colours(ours, row, column) == expected, (row, column, hex(code))


def test_vice_screenshot_needs_a_check(tmp_path: Path) -> None:
    from toolchain.cli import main

    program = tmp_path / "screen.prg"
    program.write_bytes(screen_program(screen_image(0, False)))
    result = CliRunner().invoke(main, ["vice", str(program), "--screenshot", str(tmp_path / "x.png")])
    assert result.exit_code == 2 and "--screenshot needs --check" in result.output


# -- with the character ROM -------------------------------------------------------------------

@pytest.mark.parametrize(("number", "lowercase"), SCREENS)
def test_png_equals_vice_screenshot_pixel_for_pixel(number: int, lowercase: bool) -> None:
    chargen = _chargen()
    vice = palette_indices(Image.open(reference_path(number, lowercase)))
    assert palette_indices(render_png(screen_image(number, lowercase), chargen)) == vice


# -- with VICE --------------------------------------------------------------------------------

@pytest.mark.parametrize(("number", "lowercase"), [(0, True)])  # one run: about 1.5 s
def test_vice_screenshot_of_the_same_screen_is_our_picture(number: int, lowercase: bool,
                                                           tmp_path: Path) -> None:
    _x64sc()
    chargen = _chargen()
    image = screen_image(number, lowercase)
    picture = Image.open(vice_screenshot(image, tmp_path))
    assert picture.size == (WIDTH, HEIGHT)
    assert palette_indices(picture) == palette_indices(render_png(image, chargen))


@pytest.mark.slow
@pytest.mark.parametrize(("number", "lowercase"), SCREENS)
def test_every_screen_on_vice_is_our_picture(number: int, lowercase: bool, tmp_path: Path) -> None:
    test_vice_screenshot_of_the_same_screen_is_our_picture(number, lowercase, tmp_path)


def regenerate_references() -> None:
    """Take VICE's screenshots of all ten screens into tests/data/display/."""
    import tempfile

    REFERENCES.mkdir(parents=True, exist_ok=True)
    for number, lowercase in SCREENS:
        with tempfile.TemporaryDirectory() as folder:
            picture = vice_screenshot(screen_image(number, lowercase), Path(folder))
            shutil.copyfile(picture, reference_path(number, lowercase))
            print(reference_path(number, lowercase), file=sys.stderr)


if __name__ == "__main__":
    regenerate_references()


def test_run_screenshot_is_the_picture_of_the_screen_vice_measured(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """`c64tc run --screenshot`: the program's final screen as a picture; for a program
    that ends on the screen VICE showed (tests/data/machine/rom-input), the picture of
    VICE's screen memory, byte for byte (both drawn with the fallback font here)."""
    from click.testing import CliRunner

    from toolchain.c64 import roms
    from toolchain.cli import main
    from toolchain.display.png import png_bytes
    from toolchain.display.state import ScreenImage

    monkeypatch.setattr(roms, "find_chargen", lambda explicit=None: None)  # the fallback font
    machine_data = Path(__file__).parent / "data" / "machine"
    shot = tmp_path / "rom-input.png"
    # on c64tc's models: with the ROMs, pictures take the machine's own character ROM
    result = CliRunner().invoke(main, ["run", str(machine_data / "rom-input.bas"), "--input", "hello c64|",
                                       "--no-roms", "--screenshot", str(shot)])
    assert result.exit_code == 0, result.output
    vice = ScreenImage.from_files(machine_data / "rom-input.screen.bin",
                                  machine_data / "rom-input.colour.bin", border=14, background=6)
    # VICE's screen at READY.; the picture shows it once the cursor has blinked on (two
    # jiffies later, tests/data/cursor-blink): its cell reversed, in the cursor colour
    row, column = json.loads((machine_data / "rom-input.vice.json").read_text())["cursor"]
    codes, colours = bytearray(vice.codes), bytearray(vice.colours)
    codes[row * 40 + column] ^= 0x80
    colours[row * 40 + column] = 14  # COLOR ($0286) as the KERNAL leaves it: light blue
    vice = dataclasses.replace(vice, codes=bytes(codes), colours=bytes(colours))
    assert shot.read_bytes() == png_bytes(vice, None)
