#!/usr/bin/env python3
"""Measure on VICE what the screen shows after machine code called by a typed SYS returns.

For each program of PROGRAMS (machine code at $C000), VICE 3.10 with the original ROMs
is switched on; when the editor first waits at READY. the code is written into memory
(as LOAD"X",8,1 would leave it) and ``sys 49152`` is typed; when the editor waits for a
line again (BASIC has printed READY.) the screen is taken.  Saved per program:
``NAME.vice.txt`` (the 25 rows, decoded like c64tc's screen; the cursor's cell as the
character under it: the blink may have reversed it in screen memory) and
``NAME.vice.json`` (the cursor's row 214 and column 211).  The test that uses them:
tests/test_first_hour.py.

    python tests/data/sys-return/measure.py      (needs VICE's headless x64sc on the PATH)
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
sys.path.insert(0, str(REPO))

from toolchain.asm import assemble  # noqa: E402

# (name, Profi-Ass source at $C000): what the program prints before its RTS
PROGRAMS = {
    "prints-a": "*= $c000\n lda #65\n jsr $ffd2\n rts\n",  # a letter, the cursor left after it
    "prints-line": "*= $c000\n lda #72\n jsr $ffd2\n lda #73\n jsr $ffd2\n lda #13\n jsr $ffd2\n rts\n",
    "silent": "*= $c000\n rts\n",  # nothing
}
COMMAND = "sys 49152"
BLINK_PHASE, CHARACTER_UNDER_CURSOR = 0xCF, 0xCE


def _script() -> object:
    """scripts/corpus-vs-vice (a script without .py): its binary-monitor client."""
    path = REPO / "scripts" / "corpus-vs-vice"
    loader = importlib.machinery.SourceFileLoader("corpus_vs_vice", str(path))
    spec = importlib.util.spec_from_loader("corpus_vs_vice", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["corpus_vs_vice"] = module
    loader.exec_module(module)
    return module


def measure(emulator: Path, code: bytes) -> dict:
    cvv: Any = _script()
    state = Path(tempfile.mkdtemp(prefix="c64tc-sysreturn-"))
    try:
        machine = cvv.Vice(emulator, None, state)
        try:
            waits = machine.checkpoint(cvv.EDITOR_WAITS, f"@cpu:${cvv.KEYBOARD_COUNT:02x} == $00")
            deadline = time.monotonic() + 60
            keys = [*cvv.text_to_keys(COMMAND), cvv.RETURN]
            typed = False
            while True:
                stopped = machine.run_until_stopped(deadline)
                if stopped.timed_out or stopped.jammed or waits not in stopped.checkpoints:
                    raise SystemExit(f"VICE stopped unexpectedly: {stopped}")
                if not typed:  # READY. after the reset: the code in memory, the command typed
                    machine.write(0xC000, code)
                    machine.write(cvv.KEYBOARD_BUFFER, bytes(keys))
                    machine.write(cvv.KEYBOARD_COUNT, bytes([len(keys)]))
                    typed = True
                    continue
                if machine.read(cvv.MESSAGE_FLAG, cvv.MESSAGE_FLAG)[0] & 0x80:  # back at READY.
                    break
            codes = bytearray(machine.read(0x0400, 0x07E7, "ram"))
            zero_page = machine.read(0x00, 0xFF)
        finally:
            machine.close()
    finally:
        shutil.rmtree(state, ignore_errors=True)
    row, column = zero_page[214], zero_page[211]
    if zero_page[BLINK_PHASE]:  # the cursor is shown reversed right now: the character under it
        codes[row * 40 + column] = zero_page[CHARACTER_UNDER_CURSOR]
    return {"rows": cvv.screen_rows(bytes(codes)), "cursor_row": row, "cursor_column": column}


def main() -> None:
    found = shutil.which("x64sc")
    if found is None:
        raise SystemExit("x64sc (VICE's headless build) is not on the PATH")
    for name, source in PROGRAMS.items():
        program = assemble(source, f"{name}.asm")
        screen = measure(Path(found), bytes(program.image))
        (HERE / f"{name}.vice.txt").write_text("\n".join(screen.pop("rows")) + "\n")
        (HERE / f"{name}.vice.json").write_text(json.dumps(screen, indent=1) + "\n")
        print(name, screen)


if __name__ == "__main__":
    main()
