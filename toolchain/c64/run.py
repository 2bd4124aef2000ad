"""One way to run a program on the emulated C64: load it, prepare the machine, run
it with limits and typed input, and say how it ended.

``c64tc run``, the build's dialogue checks, the verifiers and the tests all come
through here:

* :func:`load_program` reads a PRG (a file, ``-`` or ``IMAGE:NAME``), or a BASIC
  listing with its errata (tokenized and merged as typing them on a C64 would), into
  a :class:`Program` (through :mod:`toolchain.inputs`, which names a file of the
  wrong kind);
* :class:`Session` is a C64 with that program loaded; each :meth:`Session.run`
  starts from the loaded state (a verifier plays a thousand games on one session:
  the machine code's translations and the BASIC program's compilation are kept);
* every run ends in one :class:`~toolchain.c64.outcome.RunResult`.

A BASIC program runs as RUN would, machine code as SYS would.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from toolchain.c64.io import Ticker
from toolchain.c64.machine import C64, DEFAULT_MAX_CYCLES, DIRECT_MODE, Keyboard
from toolchain.c64.memory import CURLIN
from toolchain.c64.outcome import PAL_CLOCK_HZ, RunResult, Stop
from toolchain.c64.roms import RomSet
from toolchain.cpu.core import CPU
from toolchain.diagnostics import UserError
from toolchain.disk.prg import Prg

if TYPE_CHECKING:
    from toolchain.basic.runner import Runtime
    from toolchain.inputs import InputFile

__all__ = ["DEFAULT_MAX_CYCLES", "DEFAULT_RUN_CYCLES", "Keyboard", "Program", "RunResult", "Session", "Stop",
           "load_program", "program_from_prg", "run_program"]


# The one limit of a run's C64 time, BASIC's (as the ROM's interpreter would take it,
# toolchain/basic/runner/costs.py) and machine code's: 100 hours of a PAL C64 (Nikolaus
# takes 68.6 by the cost model, about 64 on the ROM).  The statement groups are a second bound.
DEFAULT_RUN_CYCLES = 100 * 3600 * PAL_CLOCK_HZ


@dataclass(frozen=True)
class TypedLine:
    """Where a BASIC line was typed: the listing (or erratum) and its text line."""

    path: str
    source_line: int


@dataclass(frozen=True)
class Program:
    """A program as LOAD puts it into memory, and how it starts."""

    prg: Prg
    name: str  # for messages: the file it came from
    is_basic: bool
    sys_address: int | None = None  # machine code: where SYS starts it
    typed: Mapping[int, TypedLine] = field(default_factory=dict)  # a listing's lines

    def where_typed(self, line: int | None) -> TypedLine | None:
        """Where BASIC line ``line`` of a listing was typed, for messages an editor can
        jump to."""
        return None if line is None else self.typed.get(line)


def program_from_prg(prg: Prg, name: str, sys_address: int | None = None) -> Program:
    """A PRG as a program: BASIC if its bytes are BASIC lines (loaded at $0801 and
    relinked, as LOAD"NAME",8 does) unless ``sys_address`` says where machine code
    starts."""
    from toolchain.basic.runner import as_loaded

    loaded = as_loaded(prg) if sys_address is None else None
    if loaded is not None:
        return Program(loaded, name, is_basic=True)
    if sys_address is None:
        raise UserError.single(name, f"say where to start: --sys {prg.load_address} "
                               f"(${prg.load_address:04X} is where the program loads)")
    return Program(prg, name, is_basic=False, sys_address=sys_address)


def load_program(path: str | Path | InputFile, errata: Sequence[str | Path] = (),
                 sys_address: int | None = None) -> Program:
    """A program from a file (``-`` standard input, ``IMAGE:NAME`` a file on a disk
    image; or the file read already): a PRG, or a BASIC listing (petcat text) with
    ``errata`` merged over it (the same line number replaces a line, a number alone
    deletes it).  Another kind of file, or a ``sys_address`` that cannot start it, is a
    UserError that says so."""
    from toolchain.inputs import RUNNABLE, Kind, read_program

    given = read_program(path, "run", "a program (a PRG or a BASIC listing)", RUNNABLE, errata)
    name, prg = given.name, given.prg
    if given.kind is Kind.BASIC_LISTING:
        if sys_address is not None:
            raise UserError.single(name, f"--sys starts machine code, but {given.file.shown} is a BASIC "
                                   "listing, which holds none: leave --sys out to RUN it")
        typed = {line.number: TypedLine(line.path, line.source_line) for line in given.lines}
        return Program(prg, name, is_basic=True, typed=typed)
    if sys_address is None:
        if given.kind is Kind.BASIC_PRG:
            return program_from_prg(prg, name)
        load, last = prg.load_address, max(prg.end_address - 1, prg.load_address)
        what = given.file.kind.phrase
        if given.file.kind.kind is not Kind.MACHINE_CODE_PRG:  # binary data read as a PRG
            what += f"; to run it as machine code (a PRG, ${load:04X}-${last:04X})"
        raise UserError.single(name, f"{given.file.shown} is {what}: say where to start: --sys {load} "
                               f"(${load:04X} is where it loads)")
    _check_start(name, prg, sys_address, given.kind is Kind.BASIC_PRG)
    return Program(prg, name, is_basic=False, sys_address=sys_address)


def _check_start(name: str, prg: Prg, sys_address: int, is_basic: bool) -> None:
    """A SYS address in RAM must be in the program (a ROM routine may be called), and
    not in its BASIC lines; a number that means the program's address in hex is
    probably that (``--sys 3400`` for $3400)."""
    from toolchain.basic import split_program
    from toolchain.c64.memory import rom_or_io

    start, end = prg.load_address, prg.end_address  # end: one past the last byte
    if is_basic:
        lines = split_program(prg.data, start, name)
        basic_end = start + (lines[-1].offset - 2 + 4 + len(lines[-1].body) + 1 + 2 if lines else 2)
        if start <= sys_address < basic_end:
            after = (f"; the bytes after them start at ${basic_end:04X} ({basic_end})" if basic_end < end
                     else "; the program has no machine code after them: leave --sys out to RUN it")
            raise UserError.single(name, f"--sys {sys_address} (${sys_address:04X}) starts in the program's "
                                   f"BASIC lines (${start:04X}-${basic_end - 1:04X}){after}")
    if start <= sys_address < end or rom_or_io(sys_address):
        return
    message = (f"--sys {sys_address} (${sys_address:04X}) is outside the program (${start:04X}-"
               f"${max(end - 1, start):04X}): nothing is there to run")
    digits = str(sys_address)
    if len(digits) <= 4 and start <= int(digits, 16) < end:
        message += f"; did you mean --sys ${digits} ({int(digits, 16)})? (numbers are decimal unless $ or 0x)"
    raise UserError.single(name, message)


Progress = Callable[[int, int], None]  # statement groups done, the BASIC line running


class Session:
    """A C64 with ``program`` loaded; every run starts from that state.

    ``boot``: the C64 is switched on first (its start-up screen), and the program is
    started by the command a user types at READY. (``RUN``, ``SYS 13312``).  With the
    ROMs that is the real thing: the reset runs, and BASIC itself runs the command and
    the program (the interpreter in ROM on the 6502 core: exact, slower), and after it
    whatever is typed in direct mode, until BASIC waits at READY. with nothing more
    typed."""

    def __init__(self, program: Program, machine: C64 | None = None, roms: RomSet | None = None,
                 boot: bool = False) -> None:
        self.program = program
        self.machine = machine or C64(roms=roms)
        self.boot = boot
        if boot:
            self.machine.power_on()
        self.machine.load(program.prg)
        if program.is_basic:
            self.machine.loaded_basic(program.prg.end_address)
        self._loaded = self.machine.snapshot()
        self.runtime: Runtime | None = None  # a BASIC program's, once it has run
        self._runs = 0

    def run(self, keyboard: Keyboard | None = None, max_cycles: int = DEFAULT_RUN_CYCLES,
            max_statements: int | None = None, trace: Callable[[CPU], None] | None = None,
            progress: Progress | None = None,
            every: tuple[int, Callable[[], None]] | None = None,
            max_call_cycles: int | None = None) -> RunResult:
        """Run the program: BASIC as RUN would, machine code as SYS would (``trace``
        sees every instruction).  ``max_cycles`` bounds the run's C64 time, BASIC's and
        machine code's; ``max_call_cycles`` also each SYS and USR call of BASIC's.
        ``every``: a callback every so many statement groups (BASIC) or cycles (machine
        code)."""
        machine = self.machine
        if self._runs:
            machine.reset(self._loaded, keyboard)
        elif keyboard is not None:
            machine.keyboard = keyboard
        self._runs += 1
        if self.boot:
            command = "RUN" if self.program.is_basic else f"SYS {self.program.sys_address}"
            if machine.roms is not None:
                return self._run_on_rom_basic(command, max_cycles, trace, every)
            machine.type_command(command)
        if not self.program.is_basic:
            assert self.program.sys_address is not None
            # the SYS typed at READY.: BASIC's main loop marks the line as direct mode
            # (CURLIN's high byte $FF, $A490) before it runs it
            machine.memory[CURLIN + 1] = DIRECT_MODE
            if every is None:
                return machine.sys(self.program.sys_address, max_cycles, trace)
            ticker = Ticker(every[0], every[1], machine.cpu.cycles)
            machine.io.tickers.append(ticker)
            try:
                return machine.sys(self.program.sys_address, max_cycles, trace)
            finally:
                machine.io.tickers.remove(ticker)
        from toolchain.basic.runner import Runtime

        if self.runtime is None:
            self.runtime = Runtime(self.program.prg.data, machine)
        else:
            self.runtime.restart()
        self.runtime.max_cycles = max_cycles
        self.runtime.max_call_cycles = max_call_cycles
        return self.runtime.run(max_statements, progress, every)


    def clock(self) -> int:
        """The C64's clock during a run: the CPU's cycle count, or while the compiled
        runner runs BASIC, the runner's (its cost model of the ROM's interpreter; the
        machine's own clock catches up where a program can notice the time)."""
        machine, runtime = self.machine, self.runtime
        if runtime is None:
            return machine.cpu.cycles
        return runtime.cycle_reached()

    def ready_after_return(self, result: RunResult) -> None:
        """After machine code returned to BASIC (SYS, as typed at READY.): the screen as
        the C64 shows it then, READY. and the cursor below it (BASIC in ROM, after
        ``boot`` with the ROMs, has printed them itself)."""
        if result.stop is Stop.RETURNED and not self.program.is_basic and not (
                self.boot and self.machine.roms is not None):
            self.machine.ready_after_sys()

    def _run_on_rom_basic(self, command: str, max_cycles: int, trace: Callable[[CPU], None] | None,
                          every: tuple[int, Callable[[], None]] | None) -> RunResult:
        """BASIC in ROM runs ``command`` as typed at READY. (and what is typed after)."""
        machine = self.machine
        machine.keyboard.type_first(command.lower())  # unshifted keys: what READY. reads as RUN
        machine.basic_in_rom = True
        machine.python_returns = 0  # from here a return to $E147 is the ROM's SYS's own
        machine.basic_ending = ((Stop.END, "program ended") if self.program.is_basic
                                else (Stop.RETURNED, "returned to BASIC"))
        ticker = Ticker(every[0], every[1], machine.cpu.cycles) if every is not None else None
        if ticker is not None:
            machine.io.tickers.append(ticker)
        try:
            return machine.run(max_cycles, trace)
        finally:
            machine.basic_in_rom = False
            if ticker is not None:
                machine.io.tickers.remove(ticker)


def run_program(program: Program, keyboard: Keyboard | None = None, machine: C64 | None = None,
                max_cycles: int = DEFAULT_RUN_CYCLES, max_statements: int | None = None,
                trace: Callable[[CPU], None] | None = None,
                progress: Progress | None = None,
                max_call_cycles: int | None = None) -> tuple[RunResult, C64]:
    """Run ``program`` once on a fresh C64 (or ``machine``); the result and the machine,
    whose screen shows how it ended."""
    session = Session(program, machine)
    result = session.run(keyboard, max_cycles, max_statements, trace, progress,
                         max_call_cycles=max_call_cycles)
    return result, session.machine
