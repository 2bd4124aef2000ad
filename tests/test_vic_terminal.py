"""The VIC-II's frames on a terminal: which protocol a terminal gets, and what each
encoder writes, read back by an independent decoder (sixels as DEC's VT340 manual
defines them, kitty's chunks and base64 as its protocol document does, the sextant
characters by their Unicode names)."""

from __future__ import annotations

import base64
import io
import re
import unicodedata

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from PIL import Image

from tests.test_vic_frames import reference_frame
from toolchain.c64.chips.vic_render import HEIGHT, WIDTH
from toolchain.display.graphics import SEXTANTS, GraphicsKind, cells, detect, fit, kitty, sixel
from toolchain.display.palette import PEPTO_PAL


def decode_sixel(text: str) -> tuple[int, int, bytes, dict[int, tuple[int, int, int]]]:
    """A sixel image as (width, height, pixels, palette in percent): a reading of the
    format written for this test (raster attributes, colour introducers, repeats, the
    graphics carriage return $ and new line -)."""
    assert text.startswith("\x1bP") and text.endswith("\x1b\\")
    body = text[text.index("q") + 1 : -2]
    raster = re.match(r'"1;1;(\d+);(\d+)', body)
    assert raster is not None
    width, height = int(raster[1]), int(raster[2])
    body = body[raster.end() :]
    pixels = bytearray(width * height)
    palette: dict[int, tuple[int, int, int]] = {}
    colour, x, band = 0, 0, 0
    position = 0
    while position < len(body):
        char = body[position]
        if char == "#":
            match = re.match(r"#(\d+)(;2;(\d+);(\d+);(\d+))?", body[position:])
            assert match is not None
            colour = int(match[1])
            if match[2]:
                palette[colour] = (int(match[3]), int(match[4]), int(match[5]))
            position += match.end()
            continue
        if char == "$":
            x = 0
        elif char == "-":
            x, band = 0, band + 1
        else:
            count = 1
            if char == "!":
                match = re.match(r"!(\d+)(.)", body[position:])
                assert match is not None
                count, char = int(match[1]), match[2]
                position += match.end() - 1
            bits = ord(char) - 63
            assert 0 <= bits < 64
            for _ in range(count):
                for row in range(6):
                    y = band * 6 + row
                    if bits >> row & 1 and y < height:
                        pixels[y * width + x] = colour
                x += 1
        position += 1
    return width, height, bytes(pixels), palette


@pytest.mark.parametrize("name", ["sprites", "split-colours", "midline", "bitmap-multicolour"])
def test_sixel_draws_every_pixel_in_its_palette_colour(name: str) -> None:
    frame = reference_frame(name)
    width, height, pixels, palette = decode_sixel(sixel(frame))
    assert (width, height) == (WIDTH, HEIGHT) and pixels == frame
    for index, rgb in enumerate(PEPTO_PAL):  # colour registers in percent
        assert palette[index] == tuple(round(part * 100 / 255) for part in rgb)


def test_sixel_scales_by_whole_pixels() -> None:
    frame = reference_frame("charset-ram")
    width, height, pixels, _ = decode_sixel(sixel(frame, scale=2))
    assert (width, height) == (2 * WIDTH, 2 * HEIGHT)
    for y in range(0, HEIGHT, 17):
        for x in range(0, WIDTH, 13):
            top_left, bottom_right = 2 * y * width + 2 * x, (2 * y + 1) * width + 2 * x + 1
            assert pixels[top_left] == frame[y * WIDTH + x] == pixels[bottom_right]


@settings(derandomize=True, max_examples=60)
@given(st.binary(min_size=24 * 13, max_size=24 * 13).map(lambda data: bytes(b & 15 for b in data)))
@example(bytes(24 * 13))  # one colour: one line a band
@example(bytes([15]) * (24 * 13))
@example(bytes([7, 7, 7, 7, 7, 2]) * 52)  # runs of four and more are repeats
def test_sixel_round_trips_any_picture(pixels: bytes) -> None:
    """24x13: two whole bands of six rows and one of a single row."""
    width, height, decoded, _ = decode_sixel(sixel(pixels, 24, 13))
    assert (width, height, decoded) == (24, 13, pixels)


def test_kitty_sends_the_png_in_chunks_replacing_the_last_image() -> None:
    png = io.BytesIO()
    Image.new("P", (384, 272), 3).save(png, format="PNG")
    data = png.getvalue() + bytes(range(256)) * 20  # more than one chunk of 4096
    text = kitty(data, 80, 30)
    chunks = re.findall(r"\x1b_G([^;]*);([^\x1b]*)\x1b\\", text)
    assert len(chunks) > 1 and "".join(chunk for _, chunk in chunks) == base64.b64encode(data).decode()
    first = dict(item.split("=") for item in chunks[0][0].split(","))
    assert first == {"a": "T", "f": "100", "i": "1", "p": "1", "q": "2", "C": "1", "c": "80", "r": "30",
                     "m": "1"}
    assert [control for control, _ in chunks[1:]] == ["m=1"] * (len(chunks) - 2) + ["m=0"]
    assert all(len(chunk) <= 4096 for _, chunk in chunks)


def test_sextants_are_the_unicode_blocks_of_their_pixels() -> None:
    special = {0: "SPACE", 63: "FULL BLOCK", 0b010101: "LEFT HALF BLOCK", 0b101010: "RIGHT HALF BLOCK"}
    for mask, character in enumerate(SEXTANTS):
        name = unicodedata.name(character)
        if mask in special:
            assert name == special[mask]
        else:  # BLOCK SEXTANT-1356: cells 1-6 counted left to right, top to bottom
            assert name.startswith("BLOCK SEXTANT-")
            assert sum(1 << (int(cell) - 1) for cell in name.split("-")[1]) == mask


def test_cells_draw_two_colours_a_cell() -> None:
    frame = reference_frame("split-colours")
    lines = cells(frame, 60, 20)
    assert len(lines) == 20
    for line in lines:
        glyphs = re.sub(r"\x1b\[[0-9;]*m", "", line)
        assert len(glyphs) == 60 and all(glyph in SEXTANTS for glyph in glyphs)
    # a flat area (the blank frame) is all spaces in its colour, one colour sequence a line
    blank = cells(reference_frame("blank"), 30, 10)
    for line in blank:
        assert re.sub(r"\x1b\[[0-9;]*m", "", line) == " " * 30 and line.count("\x1b[38;2") == 1
    r, g, b = PEPTO_PAL[5]
    assert f"48;2;{r};{g};{b}m" in blank[0]


def test_cells_in_ascii_are_coloured_spaces() -> None:
    lines = cells(reference_frame("text"), 40, 14, ascii=True)
    assert all(set(re.sub(r"\x1b\[[0-9;]*m", "", line)) == {" "} for line in lines)


@pytest.mark.parametrize(("environment", "answer", "kind"), [
    ({"TERM": "xterm-kitty"}, None, GraphicsKind.KITTY),
    ({"TERM": "xterm-256color", "KITTY_WINDOW_ID": "3"}, None, GraphicsKind.KITTY),
    ({"TERM": "xterm", "TERM_PROGRAM": "WezTerm"}, None, GraphicsKind.KITTY),
    ({"TERM": "xterm"}, "\x1b[?64;1;2;4;6;9;15;18;21;22c", GraphicsKind.SIXEL),  # xterm -ti vt340
    ({"TERM": "xterm"}, "\x1b[?62;22c", GraphicsKind.CELLS),
    ({"TERM": "xterm"}, "\x1b[?1;2c", GraphicsKind.CELLS),  # attribute 4 is not "2" followed by anything
    ({"TERM": "xterm"}, None, GraphicsKind.CELLS),
    ({"TERM": "xterm-kitty", "C64TC_GRAPHICS": "cells"}, None, GraphicsKind.CELLS),
    ({"TERM": "dumb", "C64TC_GRAPHICS": "sixel"}, None, GraphicsKind.SIXEL),
])
def test_the_terminal_gets_what_it_speaks(environment: dict[str, str], answer: str | None,
                                          kind: GraphicsKind) -> None:
    assert detect(environment, answer) is kind


def test_the_picture_fits_the_terminal_undistorted() -> None:
    assert fit(200, 60) == (169, 60)  # as high as it can be: 60 lines of cells half as wide as high
    assert fit(80, 60) == (80, 28)  # as wide as it can be
    width, height = fit(120, 40, cell_aspect=0.45)
    assert abs(width * 0.45 / height - WIDTH / HEIGHT) < 0.05
