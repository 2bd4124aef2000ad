"""What pictures cost: a run with the VIC-II's frames recorded beside the same run
without, and how fast the renderer draws a frame.

- Superhirn II games (build/superhirn2.prg; `python -m toolchain build` makes it),
  played by the automatic answerer of `c64tc verify superhirn`: without pictures (the
  VIC-II's write log off, nothing drawn: the stolen cycles of its bad lines are counted a
  frame at a time); with a frame recorder attached (the write log kept, a frame's end
  noted, nothing drawn); and with the game's final picture drawn too, as
  `c64tc run --screenshot` does.  The peer of the recorded run is the run without: the
  headline is their ratio (goal: 1.0, pictures cost only when drawn).
- The renderer: the frames of the VIC-II test programs (tests/data/vic), drawn again and
  again; frames per second of CPU time (a PAL C64 shows 50.1).

Rates are CPU seconds (time.process_time), medians over --repeat runs, the two runs
alternating.

Run: python benchmarks/picture_cost.py [--repeat N] [--games N] [--profile]
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # measure this checkout, not an installed c64tc
    sys.path.insert(0, str(REPO))

from benchmarks.common import arguments, cpu_seconds, median, print_machine, print_profile  # noqa: E402
from toolchain.asm import assemble  # noqa: E402
from toolchain.c64.machine import C64  # noqa: E402
from toolchain.c64.run import Session, program_from_prg  # noqa: E402
from toolchain.c64.video import FrameRecorder, current_frame  # noqa: E402
from toolchain.disk import Prg  # noqa: E402
from toolchain.verify.superhirn import play, secrets_sample, superhirn_program  # noqa: E402

PROGRAMS = REPO / "tests" / "data" / "vic"


def games(prg: Prg, secrets: list[str], record: bool, draw: bool) -> int:
    """Play the games; ``record``: a frame recorder attached; ``draw``: each game's final
    frame drawn."""
    session = Session(superhirn_program(prg))
    drawn = 0
    for secret in secrets:
        recorder = FrameRecorder(session.machine) if record else None
        play(session, secret)
        if recorder is not None:
            if draw:
                drawn += len(recorder.picture())
            recorder.detach()
    return drawn


def frames(names: list[str], count: int) -> int:
    """Draw each program's frame ``count`` times (the machine run once, outside the time)."""
    machines = []
    for name in names:
        source = PROGRAMS / f"{name}.asm"
        program = assemble(source.read_text(), str(source))
        prg = Prg(program.start, program.image)
        machine = C64()
        Session(program_from_prg(prg, name, program.start), machine=machine).run(max_cycles=300_000)
        machines.append(machine)

    def draw() -> int:
        return sum(len(current_frame(machine)) for machine in machines for _ in range(count))

    return cpu_seconds(draw)[1]  # type: ignore[return-value]


def main() -> None:
    options = arguments(__doc__.splitlines()[0], 3,
                        lambda parser: parser.add_argument("--games", type=int, default=40,
                                                           help="Superhirn games a run (default 40)"))
    print_machine()
    built = REPO / "build" / "superhirn2.prg"
    if not built.exists():
        sys.exit(f"{built} is missing: run `python -m toolchain build` first")
    prg = Prg.from_bytes(built.read_bytes())
    secrets = secrets_sample(options.games)
    runs: dict[str, list[float]] = {"without": [], "recorded": [], "drawn": []}
    for _ in range(options.repeat):
        runs["without"].append(cpu_seconds(lambda: games(prg, secrets, False, False))[1])
        runs["recorded"].append(cpu_seconds(lambda: games(prg, secrets, True, False))[1])
        runs["drawn"].append(cpu_seconds(lambda: games(prg, secrets, True, True))[1])
    plain, recorded, drawn = (median(runs[kind]) for kind in ("without", "recorded", "drawn"))
    print(f"Superhirn II, {options.games} games:")
    for label, kind, seconds in (("without pictures      ", "without", plain),
                                 ("recorded, not drawn   ", "recorded", recorded),
                                 ("a picture drawn a game", "drawn", drawn)):
        print(f"  {label} {seconds:.3f} s (runs {', '.join(f'{s:.3g}' for s in runs[kind])}) CPU")
    names = sorted(path.stem for path in PROGRAMS.glob("*.asm"))
    seconds = frames(names, 5)
    rate = len(names) * 5 / seconds
    print(f"renderer: {len(names) * 5} frames of {len(names)} test programs in {seconds:.2f} s: "
          f"{rate:.1f} frames/s CPU ({1000 / rate:.1f} ms a frame)")
    if options.profile:
        print_profile("Superhirn II with a picture a game", lambda: games(prg, secrets, True, True))
    print(f"\nrecording costs {recorded / plain:.2f}x the run without, a picture a game "
          f"{drawn / plain:.2f}x [Superhirn II, {options.games} games] (goal 1.0x for recording)")


if __name__ == "__main__":
    main()
