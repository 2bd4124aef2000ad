"""Assembler speed, c64tc beside 64tass (C) and Ophis (Python), same run.

Workload: a generated 15,000-line program in the magazine's Profi-Ass dialect (line
numbers, labels without colons, several statements per line, comments, constants,
every addressing mode, expressions, data), and the same program written in 64tass's
and in Ophis's syntax: the same instructions, operands, labels and data, statement
for statement (a line with several statements becomes several lines there).  All
three must assemble to the same bytes; that is checked.

The figure is the marginal rate: (lines of the big program - lines of a small one)
divided by the difference of their CPU times, so process start-up and fixed costs
drop out (c64tc runs in this process, time.process_time; the peers as child
processes, their user + system time).  "Lines" are always the Profi-Ass program's
lines.  Medians over --repeat runs, the assemblers alternating; a fast peer runs
several times per measurement so that each lasts long enough to measure.  Headline:
c64tc's lines/s and its ratio to each peer (goal: 60,000 lines/s, issue 17).

Run: python benchmarks/asm_speed.py [--repeat N] [--lines N] [--profile]
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
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
    rate,
    runs,
)
from toolchain.asm import assemble  # noqa: E402

GOAL = 60_000
SMALL = 100  # lines of the small program whose time is subtracted
MIN_MEASURE = 0.2  # seconds: a peer faster than this runs several times per measurement

PROFI, TASS, OPHIS = 0, 1, 2
# A template is the same text in every dialect, or (Profi-Ass, 64tass, Ophis); in the
# last two "\n" separates the statements that Profi-Ass writes on one line with ":".
# Characters and strings: Profi-Ass types lower case, which is PETSCII $41-$5A, so the
# peers (ASCII) get capitals for the same bytes.  Ophis writes a character as 'A.
_ANY_DIALECT: list[str | tuple[str, str, str]] = [
    "lda #{imm}", "lda {zp}", "lda {zp},x", "lda {abs}", "lda {abs},x", "lda {abs},y",
    "lda ({zp},x)", "lda ({zp}),y", "sta {abs}", "stx {zp},y", "ldy #<{label}", "ldx #>{label}",
    ("asl a", "asl a", "asl"), "rol", "inc {abs},x", "jsr {label}", "jmp ({abs})", "bne {near}", "beq {near}",
    ("cmp #'a'", "cmp #'A'", "cmp #'A"), "adc #%00101010", "sbc {label}-{small}+1", "and #({small}*3+1)/2",
    ("inx:iny:dex", "inx\niny\ndex", "inx\niny\ndex"),
    (".byt {small},{imm},\"t\"", ".byte {small},{imm},\"T\"", ".byte {small},{imm},\"T\""),
    (".wor {label}", ".word {label}", ".word {label}"), (".asc \"hi\"", ".text \"HI\"", ".byte \"HI\""),
    "bit {zp} ; test bit", ("cpx #{imm} : bcc {near}", "cpx #{imm}\nbcc {near}", "cpx #{imm}\nbcc {near}"),
    "ora {abs}+{small}",
]
_TEMPLATES = [t if isinstance(t, tuple) else (t, t, t) for t in _ANY_DIALECT]
_HERE = ("*", "*", "^")  # the address of the current statement


def generate(lines: int, seed: int = 1985) -> tuple[str, str, str]:
    """The program with ``lines`` Profi-Ass lines, in the three dialects."""
    rng = random.Random(seed)
    profi = ["100 sys9*4096", "110 .opt oo", "120 *= $0400", "130 zp1 = $fb", "140 io = $d020"]
    tass = ["* = $0400", "zp1 = $fb", "io = $d020"]
    ophis = [".org $0400", ".alias zp1 $fb", ".alias io $d020"]
    number = 140
    labels: list[str] = []
    while len(profi) < lines:
        number += 1
        kind = rng.random()
        if kind < 0.40:  # comment lines, as common in magazine listings
            comment = f"; {rng.choice(['schleife', 'zaehler', 'ausgabe'])} {number}"
            profi.append(f"{number} {comment}")
            tass.append(comment)
            ophis.append(comment)
            continue
        if kind < 0.50:
            value = rng.randrange(65536)
            profi.append(f"{number} c{number} = {value} ; konstante")
            tass.append(f"c{number} = {value} ; konstante")
            ophis.append(f".alias c{number} {value} ; konstante")
            continue
        label = f"l{number}" if rng.random() < 0.3 else ""
        templates = rng.choice(_TEMPLATES)
        near = labels[-1] if labels and rng.random() < 0.5 else None
        values = {"imm": rng.randrange(256), "zp": rng.choice(["zp1", "$fc", "2"]),
                  "abs": rng.choice(["io", "$c000", "49152", labels[-1] if labels else "io"]),
                  "label": rng.choice(labels) if labels else "io", "small": rng.randrange(1, 9)}
        texts = [template.format(near=near or f"{here}+4", **values)
                 for template, here in zip(templates, _HERE, strict=True)]
        profi.append(f"{number} {label} {texts[PROFI]}".replace("  ", " "))
        for out, text, label_text in ((tass, texts[TASS], label),
                                      (ophis, texts[OPHIS], label and label + ":")):
            statements = text.split("\n")
            out.append(f"{label_text:8} {statements[0]}")
            out.extend(f"{'':8} {statement}" for statement in statements[1:])
        if label:
            labels.append(label)
            labels = labels[-3:]  # keep branches in range
    return tuple("\n".join(program) + "\n" for program in (profi, tass, ophis))  # type: ignore[return-value]


# -- the assemblers ---------------------------------------------------------------------------------

@dataclass
class Peer:
    name: str
    command: Callable[[Path, Path], list[str]]  # (source, output) -> command line
    suffix: str
    dialect: int
    version: str


def find_peers() -> tuple[list[Peer], list[str]]:
    """The peers installed, and a note for each one that is not."""
    peers: list[Peer] = []
    missing: list[str] = []
    tass = shutil.which("64tass")
    if tass:
        version = subprocess.run([tass, "--version"], capture_output=True, text=True, check=False)
        lines = version.stdout.strip().splitlines()
        first_line = lines[0].rstrip("?") if lines else "version unknown"  # it ends in a stray "?"
        peers.append(Peer("64tass", lambda source, output: [tass, "--quiet", "--nostart", "-o", str(output),
                                                             str(source)], ".asm", TASS, first_line))
    else:
        missing.append("64tass: not on PATH (Debian/Ubuntu: apt-get install 64tass)")
    ophis = shutil.which("ophis")
    if ophis:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as package_version

        try:
            ophis_version = f"ophis-asm {package_version('ophis-asm')}"
        except PackageNotFoundError:
            ophis_version = "version unknown"
        peers.append(Peer("Ophis", lambda source, output: [ophis, "-q", "-o", str(output), str(source)],
                          ".oph", OPHIS, ophis_version))
    else:
        missing.append("Ophis: not on PATH (pip install ophis-asm)")
    return peers, missing


def run_peer(peer: Peer, source: Path, times: int) -> tuple[bytes, float]:
    """Assemble ``source`` ``times`` times; the output and the CPU seconds of one run."""
    output = source.with_suffix(".bin")
    total = 0.0
    for _ in range(times):
        done, seconds = child_cpu_seconds(peer.command(source, output), stdin=subprocess.DEVNULL, timeout=600)
        if done.returncode != 0 or not output.is_file():
            message = (done.stdout + done.stderr).decode(errors="replace")[:800]
            sys.exit(f"{peer.name} failed on {source.name} (status {done.returncode}):\n{message}")
        total += seconds
    return output.read_bytes(), total / times


def difference(image: bytes, expected: bytes) -> str:
    pairs = enumerate(zip(image, expected, strict=False))
    first = next((offset for offset, (a, b) in pairs if a != b), min(len(image), len(expected)))
    return f"{len(image)} vs {len(expected)} bytes, first difference at offset {first}"


def c64tc_image(source: str) -> bytes:
    return assemble(source, "generated.asm").image


def main() -> None:
    def extra(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--lines", type=int, default=15_000,
                            help="lines of the big program (default 15,000)")

    options = arguments(__doc__.splitlines()[0], default_repeat=5, extra=extra)
    print_machine()
    peers, missing = find_peers()
    for peer in peers:
        print(f"{peer.name}: {peer.version}")
    for note in missing:
        print(note)
    big, small = generate(options.lines), generate(SMALL)
    lines = options.lines - SMALL
    ours: list[float] = []
    theirs: dict[str, list[float]] = {peer.name: [] for peer in peers}
    with tempfile.TemporaryDirectory(prefix="c64tc-bench-") as folder:
        sources = {}
        for peer in peers:
            for size, program in (("big", big), ("small", small)):
                path = Path(folder) / f"{size}-{peer.name.lower()}{peer.suffix}"
                path.write_text(program[peer.dialect])
                sources[peer.name, size] = path
        expected = {"big": c64tc_image(big[PROFI]), "small": c64tc_image(small[PROFI])}
        times = {}
        for peer in peers:  # check that the peer gives the same bytes; how many runs make a measurement
            for size in ("small", "big"):
                image, seconds = run_peer(peer, sources[peer.name, size], 1)
                if image != expected[size]:
                    sys.exit(f"{peer.name} assembles the {size} program differently from c64tc: "
                             f"{difference(image, expected[size])}")
            times[peer.name] = max(1, math.ceil(MIN_MEASURE / max(seconds, 1e-3)))
        for _ in range(options.repeat):
            _, big_seconds = cpu_seconds(functools.partial(c64tc_image, big[PROFI]))
            _, small_seconds = cpu_seconds(functools.partial(c64tc_image, small[PROFI]))
            ours.append(big_seconds - small_seconds)
            for peer in peers:
                _, big_seconds = run_peer(peer, sources[peer.name, "big"], times[peer.name])
                _, small_seconds = run_peer(peer, sources[peer.name, "small"], times[peer.name])
                theirs[peer.name].append(big_seconds - small_seconds)
    same = ", the same from every assembler" if peers else ""
    print(f"{options.lines:,}-line program ({len(expected['big']):,} bytes{same}) minus a {SMALL}-line one:")
    our_rate = lines / median(ours)
    print(f"  c64tc   {rate(our_rate, 'lines/s'):>18}  {runs(ours)} CPU")
    rates, ratios = [f"c64tc {rate(our_rate, 'lines/s')}"], []
    for peer in peers:
        their_rate = lines / median(theirs[peer.name])
        each = f", {times[peer.name]} runs per measurement" if times[peer.name] > 1 else ""
        print(f"  {peer.name:7} {rate(their_rate, 'lines/s'):>18}  {runs(theirs[peer.name])} CPU{each}")
        rates.append(f"{peer.name} {rate(their_rate, 'lines/s')}")
        ratios.append(f"{our_rate / their_rate:.2g}x {peer.name}")
    comparison = ", ".join(ratios) if ratios else "no peer installed, no ratio taken"
    print(f"\n{', '.join(rates)}: {comparison} (goal {GOAL:,} lines/s) "
          f"[{options.lines:,}-line Profi-Ass program, marginal rate]")
    if options.profile:
        print_profile(f"assembling the {options.lines:,}-line program",
                      functools.partial(c64tc_image, big[PROFI]))


if __name__ == "__main__":
    main()
