"""The display package without a terminal: screen codes as characters (checked
against the character ROM's shapes where one is found), the screen state, ANSI text,
key decoding, finding the ROMs, and ``c64tc screen``."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from tests.conftest import c64_roms
from toolchain.c64.roms import ROMS_ENV, find_chargen, find_rom, find_roms
from toolchain.c64.screen import screen_code_to_text, screen_codes_to_text
from toolchain.cli.screen import screen_command
from toolchain.diagnostics import UserError
from toolchain.display import charset
from toolchain.display.ansi import ColourDepth, render_ansi, screen_cells
from toolchain.display.font import fallback_font, font_from_chargen, legacy_glyph
from toolchain.display.keys import RUN_STOP, KeyDecoder
from toolchain.display.state import CELLS, ScreenImage, lowercase_from_d018

pytestmark = pytest.mark.vice_roms  # the character ROM (tests.conftest.c64_roms)

SETS = (False, True)  # upper case/graphics, lower/upper case


def _chargen() -> bytes:
    return c64_roms().chargen


# -- screen codes as characters ----------------------------------------------------------------

@pytest.mark.parametrize("lowercase", SETS)
def test_every_code_is_one_character_and_reverse_codes_share_the_glyph(lowercase: bool) -> None:
    for code in range(256):
        for render in (charset.unicode_for, charset.ascii_for, charset.text_for):
            assert len(render(code, lowercase)) == 1
            assert render(code, lowercase) == render(code & 0x7F, lowercase)
        assert charset.is_reverse(code) == (code >= 0x80)
        plain = charset.ascii_for(code, lowercase)
        assert plain.isascii() and plain.isprintable()
    table = charset.LOWER_CASE_UNICODE if lowercase else charset.UPPER_CASE_UNICODE
    assert len(set(table)) == 128  # no two glyphs share a character


def test_letters_of_both_sets() -> None:
    upper, lower = charset.UPPER_CASE_UNICODE, charset.LOWER_CASE_UNICODE
    assert upper[0x01:0x1B] == "ABCDEFGHIJKLMNOPQRSTUVWXYZ" == lower[0x41:0x5B]
    assert lower[0x01:0x1B] == "abcdefghijklmnopqrstuvwxyz"
    assert upper[0x00] == lower[0x00] == "@" and upper[0x1C] == "£" and upper[0x5E] == "π"
    assert upper[0x30:0x3A] == lower[0x30:0x3A] == "0123456789"


@pytest.mark.parametrize("lowercase", SETS)
def test_graphics_are_unicode_13_legacy_computing_box_drawing_and_block_elements(lowercase: bool) -> None:
    table = charset.LOWER_CASE_UNICODE if lowercase else charset.UPPER_CASE_UNICODE
    blocks = {"legacy": range(0x1FB00, 0x1FC00), "box": range(0x2500, 0x2580),
              "blocks": range(0x2580, 0x25A0), "shapes": range(0x25A0, 0x2600),
              "symbols": range(0x2600, 0x2700), "dingbats": range(0x2700, 0x27C0)}
    used = {name: 0 for name in blocks}
    for char in table[0x40:]:
        if char in "\u00a0π" or char.isupper():
            continue
        block = next(name for name, points in blocks.items() if ord(char) in points)
        used[block] += 1
        assert unicodedata.name(char)  # a named character of the Python's Unicode database
    assert used["legacy"] >= 9 and used["box"] >= 11 and used["blocks"] >= 15


def test_text_for_the_upper_case_set_is_the_transcripts_decoding_byte_for_byte() -> None:
    for code in range(256):
        assert charset.text_for(code) == screen_code_to_text(code)
    assert charset.screen_codes_to_text(bytes(range(256))) == screen_codes_to_text(bytes(range(256)))


def test_text_for_the_lower_case_set() -> None:
    row = charset.screen_codes_to_text(bytes(range(0x00, 0x80)), lowercase=True)
    assert row[0x01:0x1B] == "abcdefghijklmnopqrstuvwxyz" and row[0x41:0x5B] == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    differing = [code for code in range(128) if row[code] != screen_code_to_text(code)]
    # where the character ROM's two halves differ (test_the_sets_differ_where_the_roms_two_halves_differ)
    assert differing == [*range(0x01, 0x1B), *range(0x41, 0x5B), 0x5E, 0x5F, 0x69, 0x7A]
    assert charset.text_for(0x81, True) == "a" and charset.text_for(0xC1, True) == "A"


@pytest.mark.parametrize("lowercase", SETS)
def test_the_text_keeps_apart_every_glyph_the_character_rom_draws_apart(lowercase: bool) -> None:
    """Issue 21: the transcript's text gave one character to glyphs the ROM draws
    differently (six horizontal lines as "─", the shifted space as a space...), so a
    text comparison with a real screen missed differences.  Every code of a set has its
    own character, the shifted space ($60, CHR$(160)) U+00A0, even where the ROM's
    shapes are alike ($20/$60: both blank, but different characters to the C64)."""
    rom = font_from_chargen(_chargen())
    text = [charset.text_for(code, lowercase) for code in range(128)]
    for first in range(128):
        for second in range(first + 1, 128):
            if rom.glyph(first, lowercase) != rom.glyph(second, lowercase):
                assert text[first] != text[second], (hex(first), hex(second))
    assert len(set(text)) == 128
    assert text[0x60] == charset.text_for(0xE0, lowercase) == "\u00a0" and text[0x20] == " "
    assert rom.glyph(0x60, lowercase) == rom.glyph(0x20, lowercase)  # drawn alike, kept apart


def test_a_row_keeps_its_trailing_shifted_spaces() -> None:
    row = bytes([0x01, 0x60, 0x20, 0x60, 0xE0]) + b"\x20" * 35
    assert charset.screen_row_text(row) == "A\u00a0 \u00a0\u00a0"  # str.rstrip() would take them


@pytest.mark.parametrize("lowercase", SETS)
def test_glyphs_drawn_from_unicode_names_are_the_character_roms(lowercase: bool) -> None:
    """The mapping's lines, blocks, shades and fills: the shape the Unicode name
    describes, drawn the C64's way, is exactly the ROM's glyph for that code."""
    rom = font_from_chargen(_chargen())
    table = charset.LOWER_CASE_UNICODE if lowercase else charset.UPPER_CASE_UNICODE
    checked = 0
    for code, char in enumerate(table):
        drawn = legacy_glyph(char)
        if drawn is not None:
            assert drawn == rom.glyph(code, lowercase), (hex(code), unicodedata.name(char))
            checked += 1
    assert checked >= 20


def test_the_sets_differ_where_the_roms_two_halves_differ() -> None:
    """The Unicode tables of the two sets differ at exactly the codes where the
    character ROM's upper case and lower case halves hold different glyphs."""
    rom = font_from_chargen(_chargen())
    in_rom = [code for code in range(128) if rom.glyph(code, False) != rom.glyph(code, True)]
    in_tables = [code for code in range(128)
                 if charset.UPPER_CASE_UNICODE[code] != charset.LOWER_CASE_UNICODE[code]]
    assert in_rom == in_tables == [*range(0x01, 0x1B), *range(0x41, 0x5B), 0x5E, 0x5F, 0x69, 0x7A]
    for code in range(0x01, 0x1B):  # the capitals: the same glyphs in both sets
        assert rom.glyph(code, False) == rom.glyph(code + 0x40, True)


def test_rom_reverse_forms_are_the_inverted_glyphs_but_for_the_at_sign() -> None:
    """Reverse video is a flag the renderers apply; the PNG takes the ROM's own
    reverse half, which inverts every glyph but @: its reverse form has one pixel
    more (row 5), in both sets."""
    rom = font_from_chargen(_chargen())
    for lowercase in SETS:
        differ = [code for code in range(128)
                  if rom.glyph(code | 0x80, lowercase) != bytes(b ^ 0xFF for b in rom.glyph(code, lowercase))]
        assert differ == [0x00]
        inverted = bytes(b ^ 0xFF for b in rom.glyph(0x00, lowercase))
        extra = [a ^ b for a, b in zip(rom.glyph(0x80, lowercase), inverted, strict=True)]
        assert extra == [0, 0, 0, 0, 0, 4, 0, 0]


def test_fallback_font_has_every_glyph_and_inverts_for_reverse() -> None:
    font = fallback_font()
    assert len(font.upper) == len(font.lower) == 256 * 8
    assert font.glyph(0x20) == bytes(8) and font.glyph(0xA0) == b"\xff" * 8
    assert font.glyph(0x01, True) != font.glyph(0x41, True) == font.glyph(0x01, False)  # a, A


# -- the screen state ------------------------------------------------------------------------

def test_d018_bit_1_selects_the_lower_case_set() -> None:
    assert not lowercase_from_d018(0x15) and lowercase_from_d018(0x17)  # the KERNAL's two values
    assert [lowercase_from_d018(value) for value in (0x14, 0x16, 0x1E, 0x1C)] == [False, True, True, False]


def test_screen_image_keeps_colour_ram_nybbles_and_checks_its_fields() -> None:
    image = ScreenImage(bytes(CELLS), bytes([0xF3]) * CELLS)
    assert image.colours == bytes([3]) * CELLS and image.cell(24, 39) == (0, 3)
    with pytest.raises(ValueError, match="1000 screen codes"):
        ScreenImage(bytes(999))
    with pytest.raises(ValueError, match="border colour 16"):
        ScreenImage(bytes(CELLS), border=16)
    with pytest.raises(ValueError, match="outside"):
        ScreenImage(bytes(CELLS), cursor=(25, 0))


@pytest.mark.parametrize(("prefix", "suffix"), [(b"", b""), (b"\x00\x04", b""), (b"", bytes(24)),
                                                (b"\x00\x04", bytes(24))])
def test_dumps_raw_as_prg_or_whole_page(prefix: bytes, suffix: bytes) -> None:
    codes = bytes(i % 256 for i in range(CELLS))
    image = ScreenImage.from_dumps(prefix + codes + suffix, prefix + bytes([2]) * CELLS + suffix)
    assert image.codes == codes and image.colours == bytes([2]) * CELLS


def test_a_dump_of_the_wrong_size_is_a_message_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / "s.bin").write_bytes(bytes(500))
    with pytest.raises(UserError, match=r"s\.bin: error: 500 bytes is not a dump of screen memory"):
        ScreenImage.from_files(tmp_path / "s.bin")


# -- ANSI -------------------------------------------------------------------------------------

ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def test_ansi_frames_the_screen_in_the_border_and_reverses_colours() -> None:
    codes = bytearray(b" " * CELLS)
    codes[0:3] = bytes([0x08, 0x09, 0x81 + 1])  # H I, then a reverse B
    image = ScreenImage(bytes(codes), bytes([1]) * CELLS, border=2, background=0)
    text = render_ansi(image)
    lines = text.splitlines()
    assert len(lines) == 25 + 4
    plain = [ESCAPE.sub("", line) for line in lines]
    assert plain[0] == " " * 48 and plain[2] == "    HIB" + " " * 41
    assert lines[2].startswith("\x1b[38;2;104;55;43;48;2;104;55;43m    ")  # border: red on red
    assert "\x1b[38;2;255;255;255;48;2;0;0;0mHI\x1b[38;2;0;0;0;48;2;255;255;255mB" in lines[2]
    assert screen_cells(image)[2] == ("B", 0, 1)
    assert all(line.endswith("\x1b[0m") for line in lines)


def test_ansi_in_256_colours_and_ascii() -> None:
    image = ScreenImage(bytes([0x55]) * CELLS, border=0, background=1, lowercase=False)
    text = render_ansi(image, ascii=True, depth=ColourDepth.XTERM_256, border_columns=0, border_rows=0)
    assert ESCAPE.sub("", text.splitlines()[0]) == "+" * 40
    assert "\x1b[38;5;" in text and "38;2;" not in text
    assert ColourDepth.of_terminal({"COLORTERM": "truecolor"}) is ColourDepth.TRUE_COLOUR
    assert ColourDepth.of_terminal({}) is ColourDepth.XTERM_256


def test_cursor_shows_as_a_reversed_cell() -> None:
    image = ScreenImage.blank(cursor=(1, 2), cursor_visible=True)
    assert screen_cells(image, cursor_on=True)[42] == (" ", 6, 14)
    assert screen_cells(image, cursor_on=False)[42] == (" ", 14, 6)


# -- keys -------------------------------------------------------------------------------------

def _keys(*chunks: bytes) -> list[int]:
    decoder = KeyDecoder()
    keys = []
    for number, chunk in enumerate(chunks):
        keys += decoder.feed(chunk, number * 0.01)
    return keys


@pytest.mark.parametrize(("typed", "keys"), [
    (b"a", [0x41]), (b"A", [0xC1]), (b"z9 ", [0x5A, 0x39, 0x20]), (b"\r\n", [0x0D, 0x0D]),
    (b"\x7f\x08", [0x14, 0x14]), ("£π".encode(), [0x5C, 0xFF]),
    (b"\x1b[A\x1b[B\x1b[C\x1b[D", [0x91, 0x11, 0x1D, 0x9D]),
    (b"\x1bOA\x1bOB\x1bOC\x1bOD", [0x91, 0x11, 0x1D, 0x9D]),
    (b"\x1b[1;2A\x1b[1;5D", [0x91, 0x9D]),
    (b"\x1b[H\x1bOH\x1b[1~\x1b[7~", [0x13] * 4), (b"\x1b[1;2H\x1b[7$\x1b[1;2~", [0x93] * 3),
    (b"\x1b[2~\x1b[3~", [0x94, 0x14]),
    (b"\x1bOP\x1bOQ\x1bOR\x1bOS\x1b[15~\x1b[17~\x1b[18~\x1b[19~",
     [0x85, 0x89, 0x86, 0x8A, 0x87, 0x8B, 0x88, 0x8C]),
    (b"\x1b[11~\x1b[12~\x1b[13~\x1b[14~", [0x85, 0x89, 0x86, 0x8A]),
    (b"\x1b[[A\x1b[[E", [0x85, 0x87]), (b"\x1b[1;2P", [0x85]),
    (b"\x1b[F\x1b[5~\x1b[Z\x01\t", []),  # End, Page Up, Shift+Tab, Ctrl-A, Tab: no C64 key
    (b"\x1bx", [RUN_STOP, 0x58]),
])
def test_keys_decode_as_the_c64_types_them(typed: bytes, keys: list[int]) -> None:
    assert _keys(typed) == keys


def test_sequences_and_characters_split_across_reads_wait_for_their_rest() -> None:
    assert _keys(b"\x1b[", b"1;2", b"A") == [0x91]
    assert _keys(b"\xc2", b"\xa3") == [0x5C]


def test_a_lone_escape_is_run_stop_once_nothing_follows() -> None:
    decoder = KeyDecoder()
    assert decoder.feed(b"\x1b", 1.0) == [] and decoder.feed(b"", 1.02) == []
    assert decoder.feed(b"", 1.06) == [RUN_STOP] and decoder.feed(b"", 2.0) == []


def test_ctrl_c_as_a_byte_interrupts() -> None:
    with pytest.raises(KeyboardInterrupt):
        _keys(b"a\x03")


# -- finding the ROMs ----------------------------------------------------------------------------

def _fake_roms(folder: Path, plain_names: bool = False) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    names = {"kernal": "kernal-901227-03.bin", "basic": "basic-901226-01.bin",
             "chargen": "chargen-901225-01.bin"}
    for kind, size, fill in (("kernal", 8192, 1), ("basic", 8192, 2), ("chargen", 4096, 3)):
        (folder / (kind if plain_names else names[kind])).write_bytes(bytes([fill]) * size)


def test_roms_from_an_explicit_folder_or_its_c64_subfolder(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ROMS_ENV, raising=False)
    _fake_roms(tmp_path / "a")
    _fake_roms(tmp_path / "b" / "C64", plain_names=True)
    for folder in (tmp_path / "a", tmp_path / "b"):
        roms = find_roms(folder)
        assert roms is not None and roms.origin == "--roms"
        assert (roms.kernal[0], roms.basic[0], roms.chargen[0], len(roms.chargen)) == (1, 2, 3, 4096)
        assert roms.paths["chargen"].name == ("chargen" if folder.name == "b" else "chargen-901225-01.bin")


def test_roms_from_the_environment_and_wrong_sizes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_roms(tmp_path)
    monkeypatch.setenv(ROMS_ENV, str(tmp_path))
    roms = find_roms()
    assert roms is not None and roms.origin == ROMS_ENV
    (tmp_path / "chargen-901225-01.bin").write_bytes(bytes(2048))
    with pytest.raises(UserError, match="2,048 bytes; a C64 chargen ROM has 4,096"):
        find_roms()
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserError, match="no C64 kernal ROM here"):
        find_rom("kernal", tmp_path / "empty")
    with pytest.raises(UserError, match="not a folder"):
        find_rom("kernal", tmp_path / "missing")


def test_roms_from_the_data_folder_of_the_vice_c64tc_runs(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ROMS_ENV, raising=False)
    monkeypatch.delenv("C64TC_VICE_DATA", raising=False)
    emulator = tmp_path / "prefix" / "bin" / "x64sc"
    emulator.parent.mkdir(parents=True)
    emulator.write_text("#!/bin/sh\n")
    emulator.chmod(0o755)
    monkeypatch.setenv("C64TC_VICE", str(emulator))
    _fake_roms(tmp_path / "prefix" / "share" / "vice" / "C64")
    roms = find_roms()
    assert roms is not None and roms.origin == f"VICE ({emulator})"
    monkeypatch.setenv("C64TC_VICE_DATA", str(tmp_path / "built"))  # a VICE built in its source tree
    _fake_roms(tmp_path / "built" / "C64", plain_names=True)
    assert find_roms() is not None and find_roms().paths["basic"].name == "basic"  # type: ignore[union-attr]


def test_no_roms_anywhere_is_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ROMS_ENV, raising=False)
    monkeypatch.delenv("C64TC_VICE", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_roms() is None and find_chargen() is None


# -- c64tc screen -------------------------------------------------------------------------------

@pytest.fixture
def dump(tmp_path: Path) -> dict[str, Path]:
    codes = bytearray(b" " * CELLS)
    codes[0:6] = bytes([0x08, 0x05, 0x0C, 0x0C, 0x0F, 0xA1])  # HELLO, a reverse !
    codes[40:42] = bytes([0x41, 0x5E])
    (tmp_path / "screen.bin").write_bytes(b"\x00\x04" + bytes(codes))  # as VICE's monitor saves it
    (tmp_path / "colours.bin").write_bytes(bytes([7]) * CELLS)
    return {"screen": tmp_path / "screen.bin", "colours": tmp_path / "colours.bin", "folder": tmp_path}


def test_screen_as_text_in_both_sets(dump: dict[str, Path]) -> None:
    result = CliRunner().invoke(screen_command, [str(dump["screen"])])
    assert result.exit_code == 0 and result.output == "HELLO!\n♠π\n" + "\n" * 23
    result = CliRunner().invoke(screen_command, [str(dump["screen"]), "--lowercase", "--ascii"])
    assert result.output.splitlines()[:2] == ["hello!", "A:"]


def test_screen_as_png(dump: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ROMS_ENV, str(dump["folder"] / "no-roms-here"))
    out = dump["folder"] / "shot.png"
    result = CliRunner().invoke(screen_command, [str(dump["screen"]), "--colours", str(dump["colours"]),
                                                 "-o", str(out), "--border", "0", "--background", "1"])
    assert result.exit_code == 1 and "not a folder" in result.output  # --roms/C64TC_ROMS must exist
    monkeypatch.delenv(ROMS_ENV)
    monkeypatch.setenv("PATH", str(dump["folder"]))  # no VICE: the fallback font
    monkeypatch.delenv("C64TC_VICE", raising=False)
    result = CliRunner().invoke(screen_command, [str(dump["screen"]), "--colours", str(dump["colours"]),
                                                 "-o", str(out), "--border", "0", "--background", "1"])
    assert result.exit_code == 0 and "UNSCII" in result.output
    picture = Image.open(out)
    assert picture.size == (384, 272) and picture.getpixel((0, 0)) == 0 and picture.getpixel((32, 35)) == 1
    assert {picture.getpixel((32 + 5 * 8 + x, 35 + y)) for x in range(8) for y in range(8)} <= {1, 7}


def test_screen_errors_are_messages(dump: dict[str, Path]) -> None:
    bad = dump["folder"] / "bad.bin"
    bad.write_bytes(bytes(10))
    result = CliRunner().invoke(screen_command, [str(bad)])
    assert result.exit_code == 1
    assert "bad.bin: error: 10 bytes is not a dump of screen memory" in result.output
    result = CliRunner().invoke(screen_command, [str(dump["screen"]), "--format", "png"])
    assert result.exit_code == 2 and "give -o FILE.png" in result.output
    result = CliRunner().invoke(screen_command, [str(dump["screen"]), "--border", "16"])
    assert result.exit_code == 2


def test_screen_as_ansi(dump: dict[str, Path]) -> None:
    result = CliRunner().invoke(screen_command, [str(dump["screen"]), "--format", "ansi"],
                                env={"COLORTERM": "truecolor"})
    lines = result.output.splitlines()
    assert len(lines) == 29 and ESCAPE.sub("", lines[2]).startswith("    HELLO!")
