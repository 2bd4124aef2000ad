"""Monitor speed: single steps beside py65's monitor, and what a conditional watch costs.

Workload: a loop that reads a 256-byte table and stores it elsewhere ($C000: LDA
$0400,X / STA $0500,X / INX / BNE / INY / JMP).

* Steps: c64tc's ``z COUNT`` (VICE's step) and py65mon's ``step`` (one instruction a
  command), both as a whole process fed a script; the figure is the marginal rate,
  (steps of the long script - steps of the short one) / the difference of their CPU
  times, so start-up drops out.  Headline: c64tc's steps/s and its ratio to py65mon's.
  (Issue 21: c64tc took about 1.5 ms a step, ``z ffff`` about 100 s.)
* Watch: ``g`` over the same cycles with no checkpoint, with ``watch load`` on an address
  the loop never reads (the run goes through the interpreter, as every load watch makes
  it), and with a conditional ``watch load`` on the table the loop reads all the time, a
  condition that never holds.  No peer: py65's monitor has no watchpoints.  (Issue 21:
  the conditional watch made ``g`` about 18 times slower than the plain watch run.)

Run: python benchmarks/monitor_speed.py [--repeat N] [--steps N] [--cycles N] [--profile]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # measure this checkout, not an installed c64tc
    sys.path.insert(0, str(REPO))

from benchmarks.common import (  # noqa: E402
    arguments,
    child_cpu_seconds,
    median,
    print_machine,
    print_profile,
    rate,
    runs,
)

LOOP = bytes([0xA2, 0x00,  # $C000 LDX #0
              0xBD, 0x00, 0x04,  # $C002 LDA $0400,X
              0x9D, 0x00, 0x05,  # $C005 STA $0500,X
              0xE8,  # $C008 INX
              0xD0, 0xF7,  # $C009 BNE $C002
              0xC8,  # $C00B INY
              0x4C, 0x00, 0xC0])  # $C00C JMP $C000
SHORT_STEPS = 100


def c64tc(folder: Path, script: str, *options: str) -> list[str]:
    commands = folder / f"commands-{abs(hash(script))}.mon"
    commands.write_text(script)
    return [sys.executable, "-m", "toolchain", "monitor", str(folder / "loop.prg"), "--monitor-commands",
            str(commands), *options]


def py65mon(folder: Path, steps: int) -> tuple[list[str], str] | None:
    found = shutil.which("py65mon") or (Path(sys.executable).parent / "py65mon")
    if not Path(found).exists():
        return None
    script = f"load {folder / 'loop.bin'} c000\nregisters pc=c000\n" + "step\n" * steps + "quit\n"
    return [str(found)], script


def main() -> None:
    def extra(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--steps", type=int, default=5000, help="steps of the long script (default 5000)")
        parser.add_argument("--cycles", type=int, default=1_000_000,
                            help="cycles of each g run (default 1,000,000)")

    options = arguments(__doc__.splitlines()[0], 3, extra)
    print_machine()
    with tempfile.TemporaryDirectory(prefix="c64tc-bench-") as name:
        folder = Path(name)
        (folder / "loop.prg").write_bytes(b"\x00\xc0" + LOOP)
        (folder / "loop.bin").write_bytes(LOOP)
        steps = {"c64tc": [], "py65mon": []}  # type: dict[str, list[float]]
        for _ in range(options.repeat):
            times = []
            for count in (SHORT_STEPS, options.steps):
                done, seconds = child_cpu_seconds(c64tc(folder, f"z {count:x}\nq\n"))
                assert done.returncode == 0, done.stderr
                times.append(seconds)
            steps["c64tc"].append((options.steps - SHORT_STEPS) / max(times[1] - times[0], 1e-9))
            peer_times = []
            for count in (SHORT_STEPS, options.steps):
                peer = py65mon(folder, count)
                if peer is None:
                    break
                done, seconds = child_cpu_seconds(peer[0], input=peer[1].encode())
                peer_times.append(seconds)
            if len(peer_times) == 2:
                marginal = max(peer_times[1] - peer_times[0], 1e-9)
                steps["py65mon"].append((options.steps - SHORT_STEPS) / marginal)
        print(f"\nsteps ({options.steps - SHORT_STEPS:,} marginal, CPU time):")
        print(f"  c64tc z      {rate(median(steps['c64tc']), 'steps/s')}  "
              f"({runs(steps['c64tc'], 'steps/s', digits=4)})")
        if steps["py65mon"]:
            print(f"  py65mon step {rate(median(steps['py65mon']), 'steps/s')}  "
                  f"({runs(steps['py65mon'], 'steps/s', digits=4)})")
            ratio = median(steps["c64tc"]) / median(steps["py65mon"])
            print(f"headline: c64tc steps {ratio:.2f}x as fast as py65mon's")
        else:
            print("py65mon is not installed (pip install '.[bench]'): no ratio")
        cycles = ["--max-cycles", str(options.cycles)]
        scripts = {"g": "g\n", "g, watch load never read": "watch load 9000 90ff\ng\n",
                   "g, watch load on the table if A == $ff": "watch load 0400 04ff if A == $ff\ng\n"}
        seconds: dict[str, list[float]] = {name: [] for name in scripts}
        for _ in range(options.repeat):
            for title, script in scripts.items():
                done, spent = child_cpu_seconds(c64tc(folder, script, *cycles))
                assert b"The run has ended" in done.stdout, done.stdout
                seconds[title].append(spent)
        print(f"\nwatch ({options.cycles:,} cycles, whole process, CPU time):")
        for title, values in seconds.items():
            print(f"  {title:40} {runs(values)}")
        watched, conditional = median(seconds["g, watch load never read"]), \
            median(seconds["g, watch load on the table if A == $ff"])
        print(f"headline: the conditional watch costs {conditional / watched:.2f}x the watch that never "
              "fires")
        if options.profile:
            from click.testing import CliRunner

            from toolchain.cli import main as c64tc_main

            arguments_ = c64tc(folder, scripts["g, watch load on the table if A == $ff"], *cycles)[3:]
            print_profile("the conditional watch", lambda: CliRunner().invoke(c64tc_main, arguments_))


if __name__ == "__main__":
    main()
