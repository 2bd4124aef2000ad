"""The live screen shows the VIC-II's pictures: a program beyond text (here a hires
bitmap) is drawn through the terminal's graphics, else in sextant cells, which are
named once on standard error after the run; a text program keeps its text cells."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pseudo_terminal import PseudoTerminal
from tests.test_vic_frames import START, program_bytes


def live_run(tmp_path: Path, name: str, graphics: str) -> tuple[int, bytes]:
    """``c64tc run`` of a test program on a pseudo-terminal of 140x50 cells (1120x800
    pixels), read until it ends."""
    program = tmp_path / f"{name}.prg"
    program.write_bytes(program_bytes(name))
    with PseudoTerminal.c64tc("run", str(program), "--sys", str(START), "--max-cycles", "1500000",
                              size=(140, 50), pixels=(1120, 800), screen=None,
                              environment={"C64TC_GRAPHICS": graphics, "TERM": "xterm"}) as terminal:
        return terminal.finish(120), terminal.output


@pytest.mark.parametrize(("graphics", "marker"), [("sixel", b"\x1bP0;1q"), ("kitty", b"\x1b_Ga=T,f=100")])
def test_a_bitmap_is_drawn_through_the_terminals_graphics(tmp_path: Path, graphics: str,
                                                           marker: bytes) -> None:
    status, output = live_run(tmp_path, "bitmap", graphics)
    assert status == 2 and marker in output
    assert b"character cells" not in output


def test_without_graphics_the_cells_draw_it_and_say_so(tmp_path: Path) -> None:
    status, output = live_run(tmp_path, "bitmap", "cells")
    text = output.decode("utf-8", "replace")
    assert status == 2 and any(0x1FB00 <= ord(char) <= 0x1FB3B for char in text)  # block sextants
    assert text.count("the program shows a graphics mode: the live screen drew the VIC-II's frames in "
                      "character cells") == 1


def test_text_stays_text(tmp_path: Path) -> None:
    status, output = live_run(tmp_path, "text", "sixel")
    assert status == 2 and b"\x1bP0;1q" not in output and "@ABCDEFG" in output.decode("utf-8", "replace")
