"""BASIC runner speed, c64tc beside cbmbasic (the C64 BASIC ROM recompiled to native C), same run.

Workload: the Haus vom Nikolaus with the erratum (sources/nikolaus.bas +
nikolaus-errata.bas: 2,244,444 passes of the main loop, 44 solutions), as
`python -m toolchain run sources/nikolaus.bas sources/nikolaus-errata.bas` runs it.
cbmbasic gets the same tokenized program typed in as text (keywords spelled out in
capitals, every other byte as it is in the program) and RUNs it.  Checked in every
run: cbmbasic crunches that text into c64tc's program byte for byte (typed once more
and SAVEd instead of RUN), and both print the 44 solutions of the independent model
(toolchain.verify.nikolaus), line for line.

Times are CPU seconds (c64tc: time.process_time for compiling and running; cbmbasic:
user + system time of the child process), medians over --repeat runs, the two
alternating.  Headline: c64tc's time over cbmbasic's (goal <= 0.25, issue 25; 0.5 was issue 17's).

cbmbasic is found through the CBMBASIC environment variable or on PATH; see
benchmarks/README.md for building it.  Also prints c64tc's compile time for the
longest BASIC listing of ../shared/corpus when it is there.

Run: python benchmarks/basic_speed.py [--repeat N] [--profile]
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # measure this checkout, not an installed c64tc
    sys.path.insert(0, str(REPO))

from benchmarks.common import (  # noqa: E402
    arguments,
    child_cpu_seconds,
    cpu_seconds,
    median,
    print_machine,
    print_profile,
    runs,
)
from toolchain.basic import tokenize  # noqa: E402
from toolchain.basic.detokenizer import split_program  # noqa: E402
from toolchain.basic.runner import Runtime  # noqa: E402
from toolchain.basic.tokens import FIRST_TOKEN, KEYWORDS, LAST_TOKEN, TOKEN_REM  # noqa: E402
from toolchain.c64.machine import C64  # noqa: E402
from toolchain.c64.run import Stop, program_from_prg, run_program  # noqa: E402
from toolchain.disk.prg import Prg  # noqa: E402
from toolchain.verify import nikolaus  # noqa: E402

GOAL = 0.25
PASSES = nikolaus.ERRATUM_END - 2311111 + 1
SOURCES = ("nikolaus.bas", "nikolaus-errata.bas")
HOW_TO_GET = ("get it: fetch github mist64/cbmbasic, run `make` in it (its Makefile builds with -O3), "
              "then CBMBASIC=/path/to/cbmbasic or put it on PATH (see benchmarks/README.md)")
_ANSI = re.compile(rb"\x1b\[[0-9;]*[A-Za-z]")  # cbmbasic's cursor movements on a terminal
_SEGMENT = re.compile(r"\(s(\d+)\)$")  # a compiled segment in the profile: <basic>:328(s24)


@dataclass
class Run:
    seconds: float
    solution_lines: list[str]
    statements: int = 0
    cycles: int = 0  # c64tc's C64 clock at the end (behaviour unchanged: the same each run)


def program() -> bytes:
    """The tokenized program (PRG bytes after the load address)."""
    sources = [(name, (REPO / "sources" / name).read_text()) for name in SOURCES]
    return tokenize(sources)[0].data


def expected_lines() -> list[str]:
    return nikolaus.screen_lines(nikolaus.solutions())


# -- c64tc -------------------------------------------------------------------------------------

def run_c64tc(data: bytes) -> Run:
    start = time.process_time()
    result, machine = run_program(program_from_prg(Prg(0x0801, data), "nikolaus"))
    seconds = time.process_time() - start
    if result.stop is not Stop.END:
        sys.exit(f"c64tc: the program did not end normally: {result}")
    lines = [line for line in machine.screen.transcript().splitlines() if line.startswith("LOESUNG")]
    return Run(seconds, lines, result.statements, result.cycles)


# -- cbmbasic --------------------------------------------------------------------------------------

def find_cbmbasic() -> Path | None:
    named = os.environ.get("CBMBASIC")
    if named:
        path = Path(named)
        if not (path.is_file() and os.access(path, os.X_OK)):
            sys.exit(f"CBMBASIC={named}: not an executable file")
        return path
    found = shutil.which("cbmbasic")
    return Path(found) if found else None


def cbmbasic_version(binary: Path) -> str:
    """The git commit of the checkout the binary was built in, if it is one."""
    folder = binary.resolve().parent
    try:
        commit = subprocess.run(["git", "-C", str(folder), "log", "-1", "--format=%h %cs %s"],
                                capture_output=True, text=True, check=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return f"{binary} (not in a git checkout: commit unknown)"
    return f"{binary}, built from commit {commit}"


def typed_listing(data: bytes) -> bytes:
    """The program as lines to type into the C64's BASIC: each token as its keyword in
    capitals, everything else (text in quotes, REM text, PETSCII control codes such
    as {left} = $9D) as the byte the program holds.  cbmbasic feeds these bytes to the
    ROM's line input unchanged, so crunching gives back the program's bytes."""
    out = bytearray()
    for line in split_program(data, 0x0801):
        out += f"{line.number} ".encode()
        quoted = rest_is_text = False
        for byte in line.body:
            if byte == 0xFF:  # pi: cbmbasic takes byte 255 in its input file for the end of the file
                raise ValueError(f"line {line.number} holds pi ($FF), which cbmbasic cannot read from a file")
            if byte == 0x22:
                quoted = not quoted
            if FIRST_TOKEN <= byte <= LAST_TOKEN and not quoted and not rest_is_text:
                out += KEYWORDS[byte - FIRST_TOKEN].upper().encode()
                rest_is_text = byte == TOKEN_REM
            else:
                out.append(byte)
        out += b"\n"
    return bytes(out)


def check_same_program(binary: Path, data: bytes, folder: Path) -> None:
    """Type the listing into cbmbasic and SAVE it instead of running it: the saved
    program must be c64tc's tokenized program, byte for byte."""
    typed = folder / "typed.bas"
    typed.write_bytes(typed_listing(data) + b'SAVE"SAVED.PRG",8\n')
    subprocess.run([str(binary), typed.name], cwd=folder, capture_output=True, stdin=subprocess.DEVNULL,
                   timeout=60, check=False)
    saved = folder / "SAVED.PRG"
    if not saved.is_file() or saved.read_bytes()[2:] != data:
        sys.exit("cbmbasic does not crunch the typed listing into the same program as c64tc")


def run_cbmbasic(binary: Path, listing: Path) -> Run:
    done, seconds = child_cpu_seconds([str(binary), str(listing)], stdin=subprocess.DEVNULL, timeout=3600)
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace")[:500]
        sys.exit(f"cbmbasic ended with status {done.returncode}: {message}")
    text = _ANSI.sub(b"", done.stdout).decode("latin-1")
    lines = [line.strip() for line in text.replace("\r", "\n").split("\n")]
    return Run(seconds, [line for line in lines if line.startswith("LOESUNG")])


def check(who: str, run: Run, expected: list[str]) -> None:
    if run.solution_lines != expected:
        pairs = zip(run.solution_lines, expected, strict=False)
        differ = next((f"{a!r} vs {b!r}" for a, b in pairs if a != b),
                      f"{len(run.solution_lines)} lines vs {len(expected)}")
        sys.exit(f"{who} does not print the model's {len(expected)} solutions: {differ}")


# -- main -----------------------------------------------------------------------------------------

def compile_figure() -> None:
    basic = REPO.parent / "shared" / "corpus" / "basic"
    listings = sorted(basic.glob("*.txt"), key=lambda path: path.stat().st_size) if basic.is_dir() else []
    if not listings:
        print("compile time: ../shared/corpus/basic is not there, skipped")
        return
    biggest = listings[-1]
    prg = tokenize([(str(biggest), biggest.read_text(errors="replace"))])[0]
    runtime, seconds = cpu_seconds(lambda: Runtime(prg.data, C64()))
    print(f"c64tc compiles {biggest.name} ({len(prg.data):,} bytes, {len(runtime.segments)} segments) "
          f"in {seconds * 1000:.1f} ms")


def main() -> None:
    options = arguments(__doc__.splitlines()[0], default_repeat=2)
    print_machine()
    binary = find_cbmbasic()
    print(f"cbmbasic: {cbmbasic_version(binary)}" if binary else f"cbmbasic: not found; {HOW_TO_GET}")
    data = program()
    expected = expected_lines()
    ours: list[Run] = []
    theirs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="c64tc-bench-") as folder:
        listing = Path(folder) / "nikolaus.bas"
        listing.write_bytes(typed_listing(data))
        if binary is not None:
            check_same_program(binary, data, Path(folder))
        for _ in range(options.repeat):
            ours.append(run_c64tc(data))
            check("c64tc", ours[-1], expected)
            if binary is not None:
                theirs.append(run_cbmbasic(binary, listing))
                check("cbmbasic", theirs[-1], expected)
    our_seconds = [run.seconds for run in ours]
    print(f"Nikolaus with the erratum: {PASSES:,} passes, {len(expected)} solutions (both print the "
          f"model's), {ours[0].statements:,} statement groups and {ours[0].cycles:,} cycles of C64 time "
          "in c64tc")
    print(f"  c64tc     {runs(our_seconds)} CPU")
    workload = f"[Nikolaus with the erratum, {len(expected)} solutions]"
    if theirs:
        their_seconds = [run.seconds for run in theirs]
        print(f"  cbmbasic  {runs(their_seconds)} CPU")
        ratio = median(our_seconds) / median(their_seconds)
        print(f"\nc64tc {median(our_seconds):.1f} s, cbmbasic {median(their_seconds):.1f} s CPU: "
              f"{ratio:.2f}x cbmbasic's time (goal <= {GOAL}x) {workload}")
    else:
        print(f"\nc64tc {median(our_seconds):.1f} s CPU: ratio not taken, cbmbasic not found ({HOW_TO_GET}); "
              f"goal <= {GOAL}x cbmbasic's time {workload}")
    compile_figure()
    if options.profile:
        profile_c64tc(data)


def profile_c64tc(data: bytes) -> None:
    """The profile of c64tc's run; the program's compiled segments (``<basic>:328(s24)``)
    get the BASIC line they start in."""
    segment_lines = Runtime(data, C64()).segment_lines  # compiling is deterministic

    def annotate(line: str) -> str:
        return _SEGMENT.sub(lambda m: f"(s{m[1]}, starts in BASIC line {segment_lines[int(m[1])]})", line)

    print_profile("Nikolaus with the erratum", functools.partial(run_c64tc, data), annotate)


if __name__ == "__main__":
    main()
