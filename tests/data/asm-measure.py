"""Measure the reference data of the 64tass and ACME dialects with the real assemblers.

    python tests/data/asm-measure.py            # every probe of both dialects
    python tests/data/asm-measure.py acme       # one dialect

Each feature probe (``tests/data/asm-64tass/*.s``, ``tests/data/asm-acme/*.a``) starts
with a comment that names the assembler and its options (``; 64tass -a -C``,
``; acme --cpu 6510``); the PRG that assembler writes is stored beside it as
``NAME.prg``.  The tests compare c64tc's output with these files, and re-run the real
assembler when it is on the PATH to check that the files are still what it writes.
The tools measured: 64tass 1.58.2974 and ACME 0.97 (Debian's packages).
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DIALECTS = {"64tass": (HERE / "asm-64tass", ".s"), "acme": (HERE / "asm-acme", ".a")}


def options_of(source: Path) -> tuple[str, list[str]]:
    """The assembler and its options from a probe's first line."""
    first = source.read_text(encoding="utf-8").splitlines()[0]
    words = shlex.split(first.lstrip(";"))
    return words[0], words[1:]


def real_output(source: Path) -> tuple[bytes | None, str]:
    """What the real assembler writes for a probe (None and its messages when it fails)."""
    tool, options = options_of(source)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out.prg"
        if tool == "64tass":
            command = ["64tass", "-q", *options, source.name, "-o", str(out)]
        else:
            command = ["acme", "-f", "cbm", *options, "-o", str(out), source.name]
        result = subprocess.run(command, cwd=source.parent, capture_output=True, text=True, timeout=60)
        if result.returncode != 0 or not out.exists():
            return None, result.stdout + result.stderr
        return out.read_bytes(), result.stdout + result.stderr


def main(names: list[str]) -> int:
    failed = 0
    for dialect in names or list(DIALECTS):
        folder, suffix = DIALECTS[dialect]
        for source in sorted(folder.glob("*" + suffix)):
            data, messages = real_output(source)
            if data is None:
                print(f"{source.name}: {dialect} fails:\n{messages}")
                failed += 1
                continue
            source.with_suffix(".prg").write_bytes(data)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
