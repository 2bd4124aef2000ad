#!/usr/bin/env python3
"""Measure when VICE's screenshots show the cursor after a program ends at READY.

``hi.bas`` is started in VICE 3.10 (headless x64sc, original ROMs, autostart as
``c64tc vice --check`` does it) and VICE's own screenshot (-exitscreenshot) is taken
after N cycles, for N around the moment READY. appears.  For each N the script records
whether the final READY. is on the screen and whether the cell below it (the cursor's)
is drawn reversed: all 64 pixels in the text colour.  Saved: ``blink.json`` (the
sweep) and ``vice-ready.png`` (VICE's screenshot at ``REFERENCE_CYCLES``, in the
first blink phase).  The test that uses them: tests/test_first_hour.py.

    python tests/data/cursor-blink/measure.py      (needs VICE's headless x64sc on the PATH)
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

HERE = Path(__file__).resolve().parent
JIFFY = 16_421  # cycles between two timer IRQs on a PAL C64 (CIA 1 timer A = $4025, $FDDD)
SWEEP = range(4_000_000, 4_800_000, JIFFY)
REFERENCE_CYCLES = 4_200_000
LIGHT_BLUE = (108, 94, 181)  # VICE's palette (pepto-pal), the text colour after the reset
LEFT, TOP = 32, 35  # the text area's corner in VICE's 384x272 picture


def lit_pixels(picture: Image.Image, row: int, column: int) -> int:
    x, y = LEFT + column * 8, TOP + row * 8
    return sum(picture.getpixel((x + i, y + j))[:3] == LIGHT_BLUE for i in range(8) for j in range(8))


def screenshot(cycles: int, folder: Path) -> tuple[list[str], Path]:
    picture = folder / f"{cycles}.png"
    command = [sys.executable, "-m", "toolchain", "vice", "--check", str(HERE / "hi.bas"),
               "--max-cycles", str(cycles), "--screenshot", str(picture)]
    screen = subprocess.run(command, capture_output=True, text=True, check=False).stdout.splitlines()
    return screen, picture


def main() -> None:
    if shutil.which("x64sc") is None:
        raise SystemExit("x64sc (VICE's headless build) is not on the PATH")
    folder = Path(tempfile.mkdtemp(prefix="c64tc-blink-"))
    try:
        sweep = []
        for cycles in [*SWEEP, REFERENCE_CYCLES]:
            screen, picture = screenshot(cycles, folder)
            ready_rows = [row for row, text in enumerate(screen) if text.strip() == "READY."]
            after_program = len(ready_rows) == 3 and screen[ready_rows[-1] - 2].strip() == "HI"
            cursor_row = ready_rows[-1] + 1 if after_program else None
            reversed_cursor = (cursor_row is not None
                               and lit_pixels(Image.open(picture).convert("RGB"), cursor_row, 0) == 64)
            sweep.append({"cycles": cycles, "ready": after_program, "cursor_row": cursor_row,
                          "cursor_reversed": reversed_cursor})
            print(sweep[-1])
            if cycles == REFERENCE_CYCLES:
                shutil.copy(picture, HERE / "vice-ready.png")
        sweep.pop()
        (HERE / "blink.json").write_text(json.dumps({"jiffy_cycles": JIFFY, "sweep": sweep}, indent=1) + "\n")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
