"""The VIC-II's frames, pixel for pixel against VICE's.

Each program in tests/data/vic/NAME.asm (c64tc's assembler, the Profi-Ass dialect)
sets up a picture and loops with interrupts off: every graphics mode, a character set
in RAM, sprites with every attribute, raster splits of colours and of text and bitmap,
register writes at exact cycles inside lines, a blanked screen, another VIC bank, an
invalid mode, 24 rows and 38 columns with fine scrolling, the collision registers and
interrupt as a program prints them, and the iterations a raster loop counts through a
frame with the cycles bad lines and sprite DMA take (badlines.asm, printed in hex;
badlines-yscroll7.asm with YSCROLL 7, whose last bad line is $F7, and yscroll7.asm
the row that line fetches), and border colour writes on a blanked screen
(border-grey-dots.asm: the 8565's grey dot in a line that is all border), and a
split between VIC banks ($DD00 written in the frame: bank-split.asm), and sprites whose
Y expansion is switched off while they are shown (sprite-expansion-off*.asm, and the
"sprite crunch" of sprite-crunch.asm), and the sprites' priority changed in the middle
of a line, and their multicolour and X expansion bits (sprite-priority-midline.asm,
sprite-attributes-midline.asm) and X (sprite-x-midline.asm), and DEN and RSEL
written in the lines where the vertical border opens and closes
(vertical-border-midline.asm).
VICE's default C64 (``x64sc -default``: a C64C with the 8565 VIC-II) ran each from
READY. (``SYS49152``) and saved its screen when it stopped
(``-exitscreenshot`` with ``-limitcycles``), twice, after 4,000,000 and 4,100,000
cycles: the two frames are the same (the generator refuses otherwise), so the picture
is the program's, not a moment of it.  VICE drew it with the Pepto palette file
(``toolchain.vice.SCREENSHOT_OPTIONS``); its colours are mapped back to palette indices
with that file (VICE's data folder, C64/pepto-pal.vpl) and kept as paletted PNGs in
tests/data/vic/NAME.png.  Regenerate them with ``python -m tests.test_vic_frames`` (VICE
on the PATH).

c64tc runs the same program on its machine (with the C64's ROMs: the pictures show the
character ROM) and draws the frame from the VIC-II's write log; the palette indices must
be equal.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from PIL import Image

from tests.conftest import DATA, c64_roms
from toolchain.asm import assemble
from toolchain.c64.chips.vic_render import HEIGHT, WIDTH

REFERENCES = DATA / "vic"
START = 0xC000
CYCLES = 600_000  # c64tc's run: every program has drawn its picture by then
VICE_CYCLES = (4_000_000, 4_100_000)
PICTURES = ("text", "multicolour-text", "ecm", "bitmap", "bitmap-multicolour", "charset-ram", "scroll",
            "blank", "bank", "invalid", "sprites", "split-colours", "split-modes", "midline", "collisions",
            "badlines", "yscroll7", "badlines-yscroll7", "border-grey-dots", "bank-split",
            "sprite-expansion-off-mid", "sprite-expansion-off", "sprite-crunch", "sprite-priority-midline",
            "sprite-attributes-midline", "sprite-x-midline", "vertical-border-midline")


def program_bytes(name: str) -> bytes:
    """The test program as a PRG (load address first)."""
    source = REFERENCES / f"{name}.asm"
    program = assemble(source.read_text(), str(source))
    assert program.start == START
    return bytes([START & 0xFF, START >> 8]) + program.image


def reference_frame(name: str) -> bytes:
    with Image.open(REFERENCES / f"{name}.png") as picture:
        assert picture.mode == "P" and picture.size == (WIDTH, HEIGHT)
        return picture.tobytes()


def c64tc_frame(name: str, cycles: int = CYCLES) -> bytes:
    from toolchain.c64.machine import C64
    from toolchain.c64.run import Session, program_from_prg
    from toolchain.c64.video import FrameRecorder
    from toolchain.disk.prg import Prg

    prg = Prg.from_bytes(program_bytes(name), f"{name}.prg")
    machine = C64(roms=c64_roms())
    session = Session(program_from_prg(prg, f"{name}.prg", START), machine=machine)
    recorder = FrameRecorder(machine)
    session.run(max_cycles=cycles)
    return recorder.picture()


def differences(expected: bytes, got: bytes) -> str:
    """Where two frames differ, for the assertion message."""
    wrong = [index for index in range(len(expected)) if expected[index] != got[index]]
    if not wrong:
        return "identical"
    rows = sorted({index // WIDTH for index in wrong})
    first = wrong[0]
    return (f"{len(wrong)} pixels differ in rows {rows[0]}-{rows[-1]} ({len(rows)} rows); the first at "
            f"x={first % WIDTH}, y={first // WIDTH}: VICE {expected[first]}, c64tc {got[first]}")


@pytest.mark.parametrize("name", PICTURES)
def test_the_frame_is_vices(name: str) -> None:
    expected, got = reference_frame(name), c64tc_frame(name)
    assert expected == got, differences(expected, got)


def test_the_references_are_not_all_alike() -> None:
    """Each picture shows something of its own (a test that compared blank frames would
    pass by accident)."""
    frames = {name: reference_frame(name) for name in PICTURES}
    assert len(set(frames.values())) == len(PICTURES)
    for name, frame in frames.items():
        if name == "blank":  # the border colour everywhere, and nothing else
            assert set(frame) == {5}
        else:
            assert len(set(frame)) >= 2, name


# -- the measurement on VICE ------------------------------------------------------------------------

def vice_palette(emulator: Path) -> dict[tuple[int, int, int], int]:
    """RGB to palette index, from the palette file VICE drew its screenshots with."""
    from toolchain.vice import data_directory

    folders = [data_directory(emulator), emulator.resolve().parent.parent / "share" / "vice"]
    for folder in folders:
        if folder is not None and (folder / "C64" / "pepto-pal.vpl").is_file():
            lines = (folder / "C64" / "pepto-pal.vpl").read_text().splitlines()
            values = [line.split() for line in lines if line.strip() and not line.startswith("#")]
            return {tuple(int(part, 16) for part in value[:3]): index  # type: ignore[misc]
                    for index, value in enumerate(values)}
    raise FileNotFoundError("VICE's C64/pepto-pal.vpl was not found")


def vice_frame(emulator: Path, prg: bytes, cycles: int) -> bytes:
    """VICE's screen (palette indices) after running ``prg`` from READY. for ``cycles``."""
    from toolchain.vice import SCREENSHOT_OPTIONS, _environment, command_line, monitor_commands, target_for

    with tempfile.TemporaryDirectory(prefix="c64tc-vic-") as folder:
        state = Path(folder)
        program = state / "program.prg"
        program.write_bytes(prg)
        target = target_for(program)
        commands = state / "commands.mon"
        commands.write_text(monitor_commands(target))
        screenshot = state / "screen.png"
        arguments = command_line(emulator, target, commands, headless_cycles=cycles)
        arguments += ["-exitscreenshot", str(screenshot), *SCREENSHOT_OPTIONS]
        subprocess.run(arguments, env=_environment(state), stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300, check=False)
        palette = vice_palette(emulator)
        with Image.open(screenshot) as picture:
            rgb = picture.convert("RGB").tobytes()
        return bytes(palette[(rgb[index], rgb[index + 1], rgb[index + 2])] for index in range(0, len(rgb), 3))


def vice_or_skip() -> Path:
    from toolchain.diagnostics import UserError
    from toolchain.vice import find_emulator

    try:
        return find_emulator()
    except UserError:
        pytest.skip("VICE's x64sc is not on the PATH (the stored frames are tested without it)")


@pytest.mark.vice_roms
def test_vice_still_draws_the_stored_frame() -> None:
    """The reference data is VICE's: a fresh measurement of one program gives it again."""
    emulator = vice_or_skip()
    assert vice_frame(emulator, program_bytes("sprites"), VICE_CYCLES[0]) == reference_frame("sprites")


def main(names: list[str]) -> int:
    """Measure the frames on VICE and store them (the two cycle limits must agree)."""
    from toolchain.display.png import frame_image
    from toolchain.vice import find_emulator

    emulator = find_emulator(os.environ.get("C64TC_VICE"))
    for name in names or PICTURES:
        prg = program_bytes(name)
        first, second = (vice_frame(emulator, prg, cycles) for cycles in VICE_CYCLES)
        if first != second:
            print(f"{name}: VICE's frames after {VICE_CYCLES[0]} and {VICE_CYCLES[1]} cycles differ "
                  f"({differences(first, second)}): not stored", file=sys.stderr)
            return 1
        frame_image(first).save(REFERENCES / f"{name}.png", optimize=True)
        print(f"{name}: stored")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
