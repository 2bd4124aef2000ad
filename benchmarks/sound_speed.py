"""How long rendering a minute of the SID's sound takes: c64tc beside sidplayfp (the
C++ player built on the same reSIDfp engine), same run.

The workload is a SID tune made here (a PSID: the play routine, called fifty times a
second, writes all 25 registers every frame, as music players do: three voices
sweeping, their gates flipping every twelve frames, the filter's cutoff moving), a
minute of it:

- c64tc's renderer alone: the minute's SID writes (logged once) fed to
  toolchain.sound.SidSound, which clocks reSIDfp from write to write (44.1 kHz);
- the emulation alone: the tune on c64tc's C64 for a minute of its time, no sound
  asked (the SID only stores its registers);
- c64tc end to end: ``c64tc run TUNE.sid --audio OUT.wav --max-cycles <a minute>``
  (start-up, emulation, rendering, the WAV file), as a child process;
- sidplayfp: ``sidplayfp -t60 -w OUT.wav TUNE.sid``, the same minute into a WAV file.

Times are CPU seconds (this process's, or the child's), medians over --repeat runs,
the sides alternating.  The headline: c64tc's end-to-end time for a minute of sound,
how many times faster than real time that is, and the ratio to sidplayfp.

Run: python benchmarks/sound_speed.py [--repeat N] [--profile]
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
import tempfile
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
from toolchain.asm.assembler import assemble  # noqa: E402
from toolchain.c64.machine import C64  # noqa: E402
from toolchain.c64.outcome import PAL_CLOCK_HZ  # noqa: E402
from toolchain.sound.engine import SidSound  # noqa: E402
from toolchain.sound.psid import load_tune, parse_tune  # noqa: E402

SECONDS = 60
CYCLES = SECONDS * PAL_CLOCK_HZ

PLAYER = """*= $1000
 jmp init
 jmp play
init lda #$1f
 sta $d418
 lda #$f1
 sta $d417
 ldx #2
setup lda pulse,x
 ldy offsets,x
 sta $d403,y
 lda #$09
 sta $d405,y
 lda #$a8
 sta $d406,y
 dex
 bpl setup
 rts
play inc frame
 lda frame
 sta $d416
 ldx #2
voice ldy offsets,x
 clc
 lda low,x
 adc step,x
 sta low,x
 sta $d400,y
 lda high,x
 adc #0
 and #$1f
 ora #$04
 sta high,x
 sta $d401,y
 lda frame
 sta $d402,y
 lda pulse,x
 sta $d403,y
 lda frame
 and #$0c
 cmp #$0c
 lda wave,x
 bcs off
 ora #1
off sta $d404,y
 lda #$09
 sta $d405,y
 lda #$a8
 sta $d406,y
 dex
 bpl voice
 lda frame
 sta $d415
 lda #$f1
 sta $d417
 lda #$1f
 sta $d418
 rts
frame .byt 0
offsets .byt 0, 7, 14
low .byt 0, 80, 160
high .byt 4, 6, 8
step .byt 37, 53, 71
pulse .byt 8, 6, 4
wave .byt $40, $20, $10
"""


def tune_file(folder: Path) -> Path:
    code = assemble(PLAYER, "player.asm").image
    header = b"PSID" + struct.pack(">HHHHHHHI", 2, 0x7C, 0x1000, 0x1000, 0x1003, 1, 1, 0)
    header += b"c64tc sound benchmark".ljust(32, b"\0") + b"c64tc".ljust(32, b"\0") + bytes(32)
    header += struct.pack(">HBBBB", 0x24, 0, 0, 0, 0)  # PAL, 8580
    path = folder / "benchmark.sid"
    path.write_bytes(header + code)
    return path


def write_log(path: Path) -> list[tuple[int, int, int]]:
    """The minute's SID writes (from cycle 0, where the machine starts)."""
    return emulate(path, listen=True)[1]


def emulate(path: Path, listen: bool = False) -> tuple[C64, list[tuple[int, int, int]]]:
    tune = parse_tune(path.read_bytes(), str(path))
    machine = C64()
    machine.cpu.pc = load_tune(machine, tune, 1)
    log: list[tuple[int, int, int]] = []
    if listen:
        machine.io.sid.write_log = log  # type: ignore[attr-defined]
    machine.run(CYCLES)
    return machine, log


def render(log: list[tuple[int, int, int]], start: int) -> int:
    sound = SidSound("8580")
    sound.cycle = sound.start = start
    sound.log = list(log)
    sound.render_to(start + CYCLES)
    return len(sound.samples)


def main() -> None:
    options = arguments(__doc__.splitlines()[0], 3)
    print_machine()
    peer = shutil.which("sidplayfp")
    version = ""  # sidplayfp has no --version: the Debian package's, where there is one
    if peer and shutil.which("dpkg-query"):
        version = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "sidplayfp"], capture_output=True,
                                 text=True, check=False).stdout.strip()
    print("pyresidfp " + __import__("importlib.metadata").metadata.version("pyresidfp")
          + (f"; sidplayfp {version} at {peer}" if peer
             else "; sidplayfp not found (apt-get install sidplayfp): no peer"))
    with tempfile.TemporaryDirectory(prefix="c64tc-sound-bench-") as folder_name:
        folder = Path(folder_name)
        tune = tune_file(folder)
        log = write_log(tune)
        start = 0
        print(f"a minute of the tune: {len(log):,} SID writes, {CYCLES:,} cycles")
        timings: dict[str, list[float]] = {"render": [], "emulate": [], "c64tc": [], "sidplayfp": []}
        for _ in range(options.repeat):
            samples, seconds = cpu_seconds(lambda: render(log, start))
            timings["render"].append(seconds)
            _, seconds = cpu_seconds(lambda: emulate(tune))
            timings["emulate"].append(seconds)
            out = folder / "c64tc.wav"
            done, seconds = child_cpu_seconds([sys.executable, "-m", "toolchain", "run", str(tune), "--audio",
                                               str(out), "--max-cycles", str(CYCLES)], cwd=REPO)
            assert done.returncode == 0, done.stderr.decode()
            timings["c64tc"].append(seconds)
            if peer:
                done, seconds = child_cpu_seconds([peer, "-q", f"-t{SECONDS}", f"-w{folder / 'peer.wav'}",
                                                   str(tune)])
                assert done.returncode == 0, done.stderr.decode()
                timings["sidplayfp"].append(seconds)
        print(f"  c64tc's renderer alone    {runs(timings['render'])} CPU ({samples:,} samples)")
        print(f"  c64tc's emulation alone   {runs(timings['emulate'])} CPU (no sound asked)")
        print(f"  c64tc run --audio         {runs(timings['c64tc'])} CPU (a child process, end to end)")
        if timings["sidplayfp"]:
            print(f"  sidplayfp -w              {runs(timings['sidplayfp'])} CPU")
        end_to_end = median(timings["c64tc"])
        headline = (f"rendering a minute of sound: {end_to_end:.2f} s end to end "
                    f"({SECONDS / end_to_end:.0f}x real time), the renderer alone "
                    f"{median(timings['render']):.2f} s")
        if timings["sidplayfp"]:
            headline += f"; {end_to_end / median(timings['sidplayfp']):.1f}x sidplayfp's time"
        print(headline)
        if options.profile:
            print_profile("the renderer on a minute of writes", lambda: render(log, start))


if __name__ == "__main__":
    main()
