"""6502 core speed, c64tc beside py65 (a 6502 simulator in pure Python), same run.

Three workloads, each executed by both cores instruction for instruction (the counts,
cycles and end states are compared, so both did the same work):

- a tight loop (pure CPU: indexed loads and stores, ADC, compare, branch);
- the first cycles of Klaus Dormann's functional test (../shared/cputests), pure CPU
  over every documented opcode;
- Superhirn II games (build/superhirn2.prg; `python -m toolchain build` makes it),
  played by the automatic answerer of `c64tc verify superhirn`.  On py65 the ROM
  routines the program calls (CHROUT, CHRIN, $AB1E) are the C64 model's own Python
  routines, entered where c64tc enters them: the ROM area holds zeros, so the JSR
  lands on a BRK, which this benchmark's py65 runs as "call the routine, then RTS".
  Both sides thus pay the same Python trap work; py65 pays nothing per instruction
  for it.

Rates are instructions per second of CPU time (time.process_time), medians over
--repeat runs, c64tc and py65 alternating.  The headline is the Superhirn ratio
(goal: 15x py65, issue 25).

Run: python benchmarks/cpu_speed.py [--repeat N] [--games N|all] [--profile]
"""

from __future__ import annotations

import argparse
import functools
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # measure this checkout, not an installed c64tc
    sys.path.insert(0, str(REPO))

from benchmarks.common import (  # noqa: E402
    arguments,
    cpu_seconds,
    median,
    print_machine,
    print_profile,
    rate,
    runs,
)
from toolchain.c64 import kernal  # noqa: E402
from toolchain.c64.machine import C64, RETURN_TO_BASIC, Keyboard  # noqa: E402
from toolchain.c64.run import Session  # noqa: E402
from toolchain.cpu.core import CPU  # noqa: E402
from toolchain.cpu.translator import TranslatingCPU  # noqa: E402
from toolchain.disk import Prg  # noqa: E402
from toolchain.verify import Game  # noqa: E402
from toolchain.verify.superhirn import (  # noqa: E402
    START,
    Answerer,
    all_secrets,
    play,
    secrets_sample,
    superhirn_program,
)

GOAL = 15.0
GAME_MAX_CYCLES = 50_000_000  # as toolchain.verify.superhirn.play
DORMANN = REPO.parent / "shared" / "cputests" / "6502_functional_test.bin"
# LDY #0 : LDX #0 : loop: INX : LDA $2000,X : ADC #1 : STA $2000,X : CPX #0 : BNE loop : DEY : BNE loop :
# JMP $1000
TIGHT_LOOP = bytes([0xA0, 0x00, 0xA2, 0x00, 0xE8, 0xBD, 0x00, 0x20, 0x69, 0x01, 0x9D, 0x00, 0x20,
                    0xE0, 0x00, 0xD0, 0xF3, 0x88, 0xD0, 0xEE, 0x4C, 0x00, 0x10])

try:
    import py65  # type: ignore[import-untyped]
    from py65.devices.mpu6502 import MPU  # type: ignore[import-untyped]
except ImportError:  # the ratio cannot be taken; c64tc's figures are still printed
    MPU = None


def py65_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("py65")
    except PackageNotFoundError:
        return getattr(py65, "__version__", "unknown")


# -- pure CPU workloads -------------------------------------------------------------------------

def _state(pc: int, a: int, x: int, y: int, sp: int, p: int, cycles: int, memory: Any) -> tuple[Any, ...]:
    return pc, a, x, y, sp, p & 0xCF, cycles, bytes(memory)  # B and the unused bit are not registers


def run_c64tc(cpu_class: type[CPU], image: bytes, start: int, max_cycles: int) -> tuple[int, tuple[Any, ...]]:
    """Run from ``start`` for ``max_cycles``; the instructions executed and the end state."""
    cpu = cpu_class(bytearray(image))
    cpu.pc = start
    cpu.run(max_cycles=max_cycles)
    return cpu.instructions, _state(cpu.pc, cpu.a, cpu.x, cpu.y, cpu.sp, cpu.p, cpu.cycles, cpu.memory)


def run_py65(image: bytes, start: int, instructions: int) -> tuple[Any, ...]:
    """Run exactly ``instructions`` instructions from ``start`` on py65; the end state."""
    mpu = MPU(memory=list(image), pc=start)
    mpu.sp, mpu.p = 0xFD, 0x34  # c64tc's CPU starts with I set and SP at $FD
    step = mpu.step
    for _ in range(instructions):
        step()
    return _state(mpu.pc, mpu.a, mpu.x, mpu.y, mpu.sp, mpu.p, mpu.processorCycles, mpu.memory)


def compare_pure(name: str, image: bytes, start: int, max_cycles: int, repeat: int) -> None:
    """Time c64tc's two cores and py65 on the same instructions and print the rates."""
    translated: list[float] = []
    interpreted: list[float] = []
    peer: list[float] = []
    instructions = 0
    notes: set[str] = set()
    for _ in range(repeat):
        (instructions, expected), seconds = cpu_seconds(
            functools.partial(run_c64tc, TranslatingCPU, image, start, max_cycles))
        translated.append(seconds)
        (count, reference), seconds = cpu_seconds(functools.partial(run_c64tc, CPU, image, start, max_cycles))
        interpreted.append(seconds)
        if (count, reference) != (instructions, expected):
            sys.exit(f"{name}: c64tc's translating core and interpreter disagree")
        if MPU is not None:
            state, seconds = cpu_seconds(functools.partial(run_py65, image, start, instructions))
            peer.append(seconds)
            registers = "PC A X Y SP P"
            if state[:6] != expected[:6] or state[7] != expected[7]:
                sys.exit(f"{name}: py65 ends in another state after {instructions:,} instructions: "
                         f"{registers} {state[:6]}, c64tc {expected[:6]}")
            if state[6] != expected[6]:
                notes.add(f"same registers and memory at the end, but py65 counts {state[6]:,} cycles "
                          f"where c64tc counts {expected[6]:,} (py65's own cycle table)")
    print(f"{name}, {instructions:,} instructions each:")
    print(f"  c64tc translating core  {rate(instructions / median(translated), 'instr/s'):>16}  "
          f"{runs(translated)} CPU")
    print(f"  c64tc interpreter       {rate(instructions / median(interpreted), 'instr/s'):>16}  "
          f"{runs(interpreted)} CPU")
    if not peer:
        print("  py65: not installed, ratio not taken")
        return
    print(f"  py65                    {rate(instructions / median(peer), 'instr/s'):>16}  {runs(peer)} CPU")
    for note in sorted(notes):
        print(f"  note: {note}")
    print(f"  ratio: translating core {median(peer) / median(translated):.1f}x py65, "
          f"interpreter {median(peer) / median(interpreted):.1f}x py65")


def tight_loop_image() -> bytes:
    memory = bytearray(0x10000)
    memory[0x1000 : 0x1000 + len(TIGHT_LOOP)] = TIGHT_LOOP
    return bytes(memory)


# -- Superhirn II on py65, with the C64 model's routines ------------------------------------------

class _Returned(Exception):
    """The program's RTS reached BASIC ($E147)."""


class _Brk(Exception):
    pass


def _flag_of_p(bit: int) -> Any:
    """A property for one flag of py65's status byte ``p``, as c64tc's CPU has them."""
    def get(self: Py65Registers) -> int:
        return int(self.mpu.p >> bit & 1)

    def set_(self: Py65Registers, value: int) -> None:
        self.mpu.p = self.mpu.p & ~(1 << bit) | (value & 1) << bit

    return property(get, set_)


def _mpu_attribute(name: str) -> Any:
    def get(self: Py65Registers) -> int:
        return int(getattr(self.mpu, name))

    def set_(self: Py65Registers, value: int) -> None:
        setattr(self.mpu, name, value)

    return property(get, set_)


class Py65Registers:
    """The attributes of c64tc's CPU that the C64 model's routines use, kept in a py65 MPU,
    so the same :class:`~toolchain.c64.machine.C64` object (screen, keyboard, output log,
    its trap routines) serves a py65 run."""

    c, z, i, d, v, n = (_flag_of_p(0), _flag_of_p(1), _flag_of_p(2), _flag_of_p(3), _flag_of_p(6),
                        _flag_of_p(7))
    a, x, y, sp, pc = (_mpu_attribute("a"), _mpu_attribute("x"), _mpu_attribute("y"), _mpu_attribute("sp"),
                       _mpu_attribute("pc"))
    cycles = _mpu_attribute("processorCycles")
    # what the machine sets on its CPU where a chip access moves the chips' next event or
    # a store must end a translated block (a routine's store into colour RAM, say): py65
    # runs no blocks and has no horizon, so nothing reads them here
    horizon = 0
    leave_block = False

    def __init__(self, mpu: Any) -> None:
        self.mpu = mpu
        self.instructions = 0

    def push(self, value: int) -> None:
        self.mpu.stPush(value)

    def pull(self) -> int:
        return int(self.mpu.stPop())

    def write(self, address: int, value: int) -> None:
        """A routine's store (the screen editor scrolling): py65 has no memory map, the
        bytes go straight into the memory both sides share."""
        self.mpu.memory[address] = value


if MPU is not None:
    class TrappingMPU(MPU):  # type: ignore[misc,valid-type]
        """py65's NMOS 6502 where a BRK in the ROM area calls the C64 model's routine
        for that address and returns as its RTS would (6 cycles, as c64tc counts)."""

        instruct = list(MPU.instruct)

        def __init__(self, machine: C64) -> None:
            super().__init__(memory=[0] * 0x10000)
            self.machine = machine
            self.trap_calls = 0

        def _brk_or_routine(self) -> None:
            address = (self.pc - 1) & 0xFFFF  # type: ignore[has-type]
            if address == RETURN_TO_BASIC:
                raise _Returned
            found = kernal.ROUTINES.get(address) if address >= 0xA000 else None
            if found is None:
                raise _Brk(f"BRK at ${address:04X}")
            resume = found[1](self.machine)
            self.trap_calls += 1
            if resume is not None:  # a jump table entry going through its vector, as c64tc counts it
                self.pc = resume
                self.processorCycles -= 7  # py65 adds BRK's 7 cycles after this
                return
            self.pc = (self.stPopWord() + 1) & 0xFFFF
            self.processorCycles -= 1  # py65 adds BRK's 7 cycles after this; the RTS takes 6

        instruct[0x00] = _brk_or_routine


class Py65Superhirn:
    """Superhirn II games on py65, with the same machine model and answerer as c64tc."""

    def __init__(self, prg: Prg) -> None:
        self.machine = C64()
        self.machine.load(prg)
        self.loaded = self.machine.snapshot()
        self.own_cpu = self.machine.cpu
        self.mpu = TrappingMPU(self.machine)
        # py65 works on the machine's own memory (a bytearray, where the routines read and
        # write); its default is a list, which it indexes at about the same speed
        self.mpu.memory = self.machine.memory
        self.registers = Py65Registers(self.mpu)

    def play_all(self, secrets: list[str]) -> list[Game]:
        return [self.play(secret) for secret in secrets]

    def play(self, secret: str) -> Game:
        machine, mpu = self.machine, self.mpu
        machine.cpu = self.own_cpu  # the reset puts back memory, banking and c64tc's registers
        answerer = Answerer(machine, secret)
        machine.reset(self.loaded, Keyboard(line_source=answerer))
        machine.cpu = self.registers  # type: ignore[assignment]
        mpu.a = mpu.x = mpu.y = 0
        mpu.p = 0x34  # I set, as c64tc's reset leaves it
        mpu.processorCycles = 0
        mpu.trap_calls = 0
        mpu.sp = 0xFA
        mpu.stPushWord(RETURN_TO_BASIC - 1)
        mpu.pc = START
        step = mpu.step
        count = -1
        outcome = "instruction limit reached"
        try:
            for count in range(GAME_MAX_CYCLES // 2):  # noqa: B007  (count is read after the loop)
                step()
        except _Returned:
            tail = bytes(machine.output_log[-8:])
            outcome = "OK" if b"OK" in tail else "ERROR" if b"ERROR" in tail else "returned"
        except Exception as stopped:  # a BRK, or input used up: reported as the outcome
            outcome = str(stopped)
        return Game(secret, answerer.guesses, outcome, count - mpu.trap_calls, mpu.processorCycles)


def c64tc_games(prg: Prg, secrets: list[str]) -> list[Game]:
    session = Session(superhirn_program(prg))  # the games share the translated code, as in verify
    return [play(session, secret) for secret in secrets]


@dataclass
class Rates:
    """Instructions per second of CPU time, medians; ``peer`` is None without py65."""

    ours: float
    peer: float | None

    @property
    def ratio(self) -> float | None:
        return None if self.peer is None else self.ours / self.peer


def compare_superhirn(prg: Prg, secrets: list[str], repeat: int) -> Rates:
    ours: list[float] = []
    peer: list[float] = []
    games: list[Game] = []
    for _ in range(repeat):
        games, seconds = cpu_seconds(functools.partial(c64tc_games, prg, secrets))
        ours.append(seconds)
        if MPU is not None:
            simulator = Py65Superhirn(prg)
            their, seconds = cpu_seconds(functools.partial(simulator.play_all, secrets))
            peer.append(seconds)
            # the cycles differ by 7 per 60 Hz interrupt: c64tc's SYS runs with interrupts on,
            # as on a C64 (the KERNAL's handler is c64tc's Python); py65 has no interrupts
            differ = [f"c64tc {a} / py65 {b}" for a, b in zip(games, their, strict=True)
                      if (a.case, a.guesses, a.outcome, a.instructions)
                      != (b.case, b.guesses, b.outcome, b.instructions)]
            if differ:
                sys.exit(f"py65 plays {len(differ)} games differently, e.g. {differ[0]}")
    instructions = sum(game.instructions for game in games)
    solved = sum(game.outcome == "OK" for game in games)
    side = " on each side" if peer else ""
    print(f"Superhirn II, {len(secrets)} games ({solved} solved; {instructions:,} instructions, "
          f"{sum(game.cycles for game in games):,} cycles{side}):")
    print(f"  c64tc  {rate(instructions / median(ours), 'instr/s'):>16}  {runs(ours)} CPU")
    if not peer:
        return Rates(instructions / median(ours), None)
    print(f"  py65   {rate(instructions / median(peer), 'instr/s'):>16}  {runs(peer)} CPU")
    return Rates(instructions / median(ours), instructions / median(peer))


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", default="150",
                        help="Superhirn secrets to play: a number (a fixed random sample) or 'all' (1296)")
    parser.add_argument("--dormann-cycles", type=int, default=10_000_000,
                        help="cycles of Dormann's functional test to run (the whole test is about 96 M)")
    parser.add_argument("--prg", type=Path, default=REPO / "build" / "superhirn2.prg",
                        help="the assembled Superhirn II (default build/superhirn2.prg)")


def main() -> None:
    options = arguments(__doc__.splitlines()[0], default_repeat=3, extra=_options)
    print_machine()
    if MPU is None:
        print("py65: not installed, so no ratio can be taken (pip install py65, or pip install '.[bench]')")
    else:
        print(f"py65 {py65_version()}")
    secrets = all_secrets() if options.games == "all" else secrets_sample(int(options.games))

    compare_pure("tight loop", tight_loop_image(), 0x1000, 6_000_000, options.repeat)
    if DORMANN.is_file():
        compare_pure(f"Dormann's functional test, first {options.dormann_cycles:,} cycles",
                     DORMANN.read_bytes(), 0x0400, options.dormann_cycles, options.repeat)
    else:
        print(f"Dormann's functional test: {DORMANN} is not there (../shared/cputests), skipped")

    if not options.prg.is_file():
        print(f"{options.prg} is not there: build it with `python -m toolchain build`")
        sys.exit(1)
    prg = Prg.from_bytes(options.prg.read_bytes())
    rates = compare_superhirn(prg, secrets, options.repeat)
    workload = f"[Superhirn II, {len(secrets)} games]"
    if rates.peer is None or rates.ratio is None:
        print(f"\nc64tc {rate(rates.ours, 'instr/s')}: ratio not taken, py65 is not installed "
              f"(pip install py65, or pip install '.[bench]'); goal {GOAL:.0f}x py65 {workload}")
    else:
        print(f"\nc64tc {rate(rates.ours, 'instr/s')}, py65 {rate(rates.peer, 'instr/s')}: "
              f"{rates.ratio:.1f}x py65 (goal {GOAL:.0f}x) {workload}")
    if options.profile:
        print_profile(f"Superhirn II, {len(secrets)} games", lambda: c64tc_games(prg, secrets))


if __name__ == "__main__":
    main()
