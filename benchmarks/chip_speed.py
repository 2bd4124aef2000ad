"""Chip access speed: programs that talk to the VIC-II, SID and CIAs beside the same
work on RAM, and beside VICE's x64sc in warp mode, same run (issue 25).

Three parts, each printing its ratios:

- machine-code loops (benchmarks/chip_programs.py) run with SYS for --cycles cycles
  each on c64tc's own models (the KERNAL's 60 Hz interrupt on): CPU time of each
  chip loop over that of the RAM loop `INC $FB / JMP` (goal: at most 2x);
- BASIC loops of --passes passes: `POKE 53280` over `POKE 828` (goal: at most 1.5x),
  PEEKs of the raster, a CIA timer and the TOD over PEEKs of RAM (goal: at most 2x);
- chip-heavy programs (raster bars, a SID player loop, the border loop, timer reads)
  on c64tc and on `x64sc -default +sound -warp -limitcycles N` (VICE emulates the
  whole machine: the picture too, no sound with +sound; c64tc no picture, no sound):
  cycles per second of CPU time for both (goal: c64tc faster on every program).  The
  program is loaded into VICE at READY. and started by typing SYS49152 (monitor
  commands, as `c64tc vice check` does); VICE's start-up (boot, typing) is taken out
  by running two cycle counts and dividing the difference of cycles by the difference
  of CPU time.  Skipped with the reason when x64sc is not on the PATH (or C64TC_VICE).

Times are CPU seconds (time.process_time; VICE: the child's user + system time),
medians over --repeat runs, the sides alternating.

Run: python benchmarks/chip_speed.py [--repeat N] [--cycles N] [--passes N] [--vice-cycles N] [--profile NAME]
"""

from __future__ import annotations

import argparse
import functools
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # measure this checkout, not an installed c64tc
    sys.path.insert(0, str(REPO))

from benchmarks.chip_programs import (  # noqa: E402
    CHIP_LOOPS,
    RAM_LOOP,
    START,
    VICE_SET,
    BasicLoop,
    Loop,
    basic_loops,
)
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
from toolchain.c64.machine import C64  # noqa: E402
from toolchain.c64.run import Stop, program_from_prg, run_program  # noqa: E402
from toolchain.disk.prg import Prg  # noqa: E402

MACHINE_CODE_GOAL = 2.0
POKE_GOAL = 1.5
PEEK_GOAL = 2.0
VICE_START_CYCLES = 4_000_000  # VICE boots (2.1 M cycles) and types SYS49152 within these


# -- machine code on c64tc ------------------------------------------------------------------------

def machine_with(loop: Loop) -> C64:
    machine = C64()
    start, image = loop.image()
    machine.load(Prg(start, image))
    return machine


def run_loop(loop: Loop, cycles: int) -> tuple[int, int]:
    """The loop for ``cycles`` cycles on a fresh C64 (made before the clock starts);
    the instructions and cycles it ran."""
    machine = machine_with(loop)
    result, seconds = cpu_seconds(lambda: machine.sys(START, max_cycles=cycles))
    if result.stop is not Stop.CYCLE_LIMIT:
        sys.exit(f"{loop.name}: the loop ended: {result}")
    return result.instructions, result.cycles


def timed_loop(loop: Loop, cycles: int) -> float:
    machine = machine_with(loop)
    result, seconds = cpu_seconds(lambda: machine.sys(START, max_cycles=cycles))
    if result.stop is not Stop.CYCLE_LIMIT:
        sys.exit(f"{loop.name}: the loop ended: {result}")
    return seconds


def compare_machine_code(cycles: int, repeat: int) -> dict[str, float]:
    """Each loop's median CPU seconds; prints the ratios to the RAM loop."""
    loops = (RAM_LOOP, *CHIP_LOOPS)
    times: dict[str, list[float]] = {loop.name: [] for loop in loops}
    for _ in range(repeat):
        for loop in loops:
            times[loop.name].append(timed_loop(loop, cycles))
    ram = median(times[RAM_LOOP.name])
    print(f"machine-code loops, {cycles:,} cycles each (CPU time; ratio to the RAM loop, goal <= "
          f"{MACHINE_CODE_GOAL}x):")
    medians = {}
    for loop in loops:
        seconds = median(times[loop.name])
        medians[loop.name] = seconds
        print(f"  {loop.what:55} {runs(times[loop.name])}  {seconds / ram:5.2f}x  "
              f"{rate(cycles / seconds, 'cycles/s')}")
    worst = max(medians[loop.name] / ram for loop in CHIP_LOOPS)
    print(f"  worst chip loop: {worst:.2f}x the RAM loop (goal <= {MACHINE_CODE_GOAL}x)")
    return medians


# -- BASIC on c64tc -------------------------------------------------------------------------------------

def timed_basic(loop: BasicLoop) -> float:
    program = program_from_prg(loop.program(), loop.name)
    (result, _machine), seconds = cpu_seconds(lambda: run_program(program))
    if result.stop is not Stop.END:
        sys.exit(f"{loop.name}: the program did not end normally: {result}")
    return seconds


def compare_basic(passes: int, repeat: int) -> None:
    loops = basic_loops(passes)
    times: dict[str, list[float]] = {name: [] for name in loops}
    for _ in range(repeat):
        for name, loop in loops.items():
            times[name].append(timed_basic(loop))
    print(f"BASIC loops, {passes:,} passes each (CPU time, compiling included):")
    for name, loop in loops.items():
        print(f"  {loop.what:60} {runs(times[name])}")
    poke = median(times["poke-border"]) / median(times["poke-ram"])
    peek = median(times["peek-chips"]) / median(times["peek-ram"])
    print(f"  POKE 53280 loop: {poke:.2f}x the POKE 828 loop (goal <= {POKE_GOAL}x)")
    print(f"  PEEKs of the raster, CIA 1's timer A and TOD: {peek:.2f}x the same PEEKs of RAM "
          f"(goal <= {PEEK_GOAL}x)")


# -- VICE --------------------------------------------------------------------------------------------------

def find_vice() -> Path | None:
    from toolchain import vice
    from toolchain.diagnostics import UserError

    try:
        return vice.find_emulator(None)
    except UserError:
        return None


def vice_seconds(emulator: Path, prg_path: Path, cycles: int, folder: Path) -> float:
    """CPU seconds of x64sc running the program until ``cycles`` cycles since power-on."""
    from toolchain import vice

    target = vice.Target(prg_path, None, START, START)
    commands = folder / "start.mon"
    commands.write_text(vice.monitor_commands(target))
    arguments = vice.command_line(emulator, target, commands, headless_cycles=cycles)
    done, seconds = child_cpu_seconds(arguments, env=vice._environment(folder), stdin=None, timeout=3600)
    if b"cycle limit" not in done.stdout.lower() + done.stderr.lower() and done.returncode not in (0, 1):
        sys.exit(f"x64sc ended with status {done.returncode}: {done.stderr.decode(errors='replace')[:300]}")
    return seconds


def compare_vice(cycles: int, repeat: int) -> None:
    emulator = find_vice()
    print(f"chip-heavy programs beside VICE, {cycles:,} cycles each (cycles per second of CPU time; "
          "goal: c64tc faster than x64sc -warp on every program):")
    if emulator is None:
        print("  skipped: VICE's x64sc is not on the PATH (nor in C64TC_VICE); put /opt/vice/bin on the "
              "PATH to take this comparison")
        return
    print(f"  x64sc: {emulator}")
    slower = []
    with tempfile.TemporaryDirectory(prefix="c64tc-chips-") as name:
        folder = Path(name)
        for loop in VICE_SET:
            start, image = loop.image()
            prg_path = folder / f"{loop.name}.prg"
            prg_path.write_bytes(Prg(start, image).to_bytes())
            ours: list[float] = []
            theirs: list[float] = []
            for _ in range(repeat):
                ours.append(timed_loop(loop, cycles))
                state = folder / "state"
                shutil.rmtree(state, ignore_errors=True)
                state.mkdir()
                short = vice_seconds(emulator, prg_path, VICE_START_CYCLES, state)
                long = vice_seconds(emulator, prg_path, VICE_START_CYCLES + cycles, state)
                theirs.append(max(long - short, 1e-6))
            our_rate, their_rate = cycles / median(ours), cycles / median(theirs)
            if our_rate <= their_rate:
                slower.append(loop.name)
            print(f"  {loop.what}:\n    c64tc {rate(our_rate, 'cycles/s'):>18}  {runs(ours)}\n"
                  f"    x64sc {rate(their_rate, 'cycles/s'):>18}  {runs(theirs)} (start-up taken out)\n"
                  f"    c64tc {our_rate / their_rate:.2f}x VICE's speed")
    print("  c64tc is faster than VICE in warp mode on every program" if not slower
          else f"  c64tc is slower than VICE in warp mode on: {', '.join(slower)}")


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cycles", type=int, default=5_000_000, help="cycles each machine-code loop runs")
    parser.add_argument("--passes", type=int, default=30_000,
                        help="passes of each BASIC loop (at most 32,767: I AND 15 needs a 16-bit I)")
    parser.add_argument("--vice-cycles", type=int, default=20_000_000,
                        help="cycles of each program in the comparison with VICE")
    parser.add_argument("--parts", default="code,basic,vice",
                        help="which parts to run: code, basic, vice (comma-separated)")
    parser.add_argument("--loop", help="with --profile: the machine-code loop to profile (default border)")


def main() -> None:
    options = arguments(__doc__.splitlines()[0], default_repeat=3, extra=_options)
    print_machine()
    parts = set(options.parts.split(","))
    if "code" in parts:
        compare_machine_code(options.cycles, options.repeat)
    if "basic" in parts:
        compare_basic(options.passes, options.repeat)
    if "vice" in parts:
        compare_vice(options.vice_cycles, options.repeat)
    if options.profile:
        name = options.loop or "border"
        loop = next((loop for loop in (RAM_LOOP, *CHIP_LOOPS, *VICE_SET) if loop.name == name), None)
        if loop is None:
            sys.exit(f"no loop named {name}")
        print_profile(f"the {name} loop", functools.partial(run_loop, loop, options.cycles))


if __name__ == "__main__":
    main()
