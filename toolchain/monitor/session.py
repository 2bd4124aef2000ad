"""A monitor session on a C64 that runs machine code: checkpoints, stepping, and the
commands, with VICE's letters and output (see :mod:`toolchain.monitor.display`).

How it stops the CPU (see the hooks in :mod:`toolchain.c64.machine`):

* a breakpoint is an exec hook at its address: translated blocks end before it and
  the hook decides, before the instruction runs, whether to stop;
* ``watch store`` is a store hook: it sees the store in the middle of the instruction
  and pauses the machine, which stops before the next instruction; the instruction
  that stored is found from where the CPU was;
* ``watch load`` and ``ret`` look at every instruction before it runs (the run's
  trace, so the run goes through the interpreter, about twenty times slower): loads
  are the data an instruction reads through its operand (with the pointer bytes of
  an indirect mode), not opcode fetches or the stack;
* ``z`` sets a hook at the PC that pauses the machine after the instruction, and hooks
  at the interrupt vectors' targets (an interrupt taken first is stepped into, as in
  VICE); ``n`` over a JSR stops at the return address with the stack as it was; ``n``
  over anything else steps, and goes on through an interrupt that came in between.

Every run is bounded by the session's cycle limit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum

from toolchain.c64 import kernal
from toolchain.c64.chips import CYCLES_PER_FRAME, CYCLES_PER_LINE
from toolchain.c64.chips.vic import Vic
from toolchain.c64.machine import C64, DEFAULT_MAX_CYCLES, MachineStopped
from toolchain.c64.memory import visible_screen
from toolchain.c64.outcome import RunResult, Stop
from toolchain.cpu.core import CPU
from toolchain.diagnostics import UserError
from toolchain.display.charset import strip_row
from toolchain.monitor import display
from toolchain.monitor.commands import CommandError, MemoryCommands
from toolchain.monitor.instructions import (
    JSR,
    READS_DATA,
    RTI,
    RTS,
    data_reads,
    data_writes,
    decode,
    next_address,
)
from toolchain.monitor.labels import Labels
from toolchain.monitor.syntax import COMMANDS, Command, EvaluationError, Expression

__all__ = ["Checkpoint", "CommandError", "Monitor"]

IRQ_VECTOR, NMI_VECTOR = 0xFFFE, 0xFFFA


@dataclass
class Checkpoint:
    """A breakpoint (exec) or a watchpoint (load, store), as VICE numbers them."""

    number: int
    start: int
    end: int
    operations: frozenset[str]  # exec, load, store
    condition: Expression | None = None
    enabled: bool = True
    ignore: int = 0
    hits: int = 0
    temporary: bool = False  # until: deleted when hit

    def covers(self, address: int) -> bool:
        return (address - self.start) % 0x10000 <= (self.end - self.start) % 0x10000

    def addresses(self) -> Iterable[int]:
        return ((self.start + offset) & 0xFFFF for offset in range((self.end - self.start) % 0x10000 + 1))

    def info(self) -> str:
        """As VICE lists it (print_checkpoint_info)."""
        kind = "WATCH" if self.operations & {"load", "store"} else ("UNTIL" if self.temporary else "BREAK")
        where = f"C:${self.start:04x}" + (f"-${self.end:04x}" if self.end != self.start else "")
        operations = "".join(f" {name}" for name in ("load", "store", "exec") if name in self.operations)
        text = f"{kind}: {self.number}  {where}  (Stop on{operations})"
        if not self.enabled:
            text += " disabled"
        if self.condition is not None:
            text += f"\n\tCondition: {self.condition.shown()}"
        return text + "\n"


class _Mode(Enum):
    GO = "go"
    STEP = "step"  # z
    NEXT = "next"  # n over an instruction that is not a JSR
    NEXT_OVER = "next over"  # n over a JSR
    RETURN = "return"  # ret


@dataclass
class _Stopped:
    """Why the last run stopped."""

    reasons: set[str] = field(default_factory=set)
    stores: list[tuple[int, int]] = field(default_factory=list)  # (address, the CPU's PC then)
    loads: list[tuple[int, int]] = field(default_factory=list)  # (address, the instruction's PC)


class _Values:
    """What an expression reads: the machine now, the labels."""

    def __init__(self, monitor: Monitor, pc: int | None = None) -> None:
        self.monitor = monitor
        self.pc = pc

    def register(self, name: str) -> int:
        cpu = self.monitor.cpu
        if name == "PC":
            return cpu.pc if self.pc is None else self.pc
        if name in ("RL", "CY"):
            line, cycle = self.monitor.raster()
            return line if name == "RL" else cycle
        return {"A": cpu.a, "X": cpu.x, "Y": cpu.y, "SP": cpu.sp, "FL": cpu.p}[name]

    def label(self, name: str) -> int | None:
        return self.monitor.labels.address(name)

    def memory(self, bank: str, address: int) -> int:
        return self.monitor.peek(address, bank)


class Monitor(MemoryCommands):
    """A monitor on ``machine``, whose CPU is where the program starts (after
    :meth:`C64.prepare_sys`).  ``write`` prints the monitor's output; ``show_output``
    (interactive sessions) shows what the program printed before the monitor speaks."""

    def __init__(self, machine: C64, labels: Labels | None = None, write: Callable[[str], None] = print,
                 max_cycles: int = DEFAULT_MAX_CYCLES, show_output: Callable[[], None] | None = None) -> None:
        self.machine = machine
        self.cpu = machine.cpu
        self.labels = labels or Labels()
        self.write = write
        self.show_output = show_output
        self.checkpoints: dict[int, Checkpoint] = {}
        self._next_number = 1
        self.start_cycles, self.start_instructions = self.cpu.cycles, self.cpu.instructions
        self.limit = self.cpu.cycles + max_cycles
        self.stopwatch_start = self.cpu.cycles
        self.dot = self.cpu.pc
        self.result: RunResult | None = None  # how the run ended, once it has
        self.quit = False
        self.left = False  # x (or reset) let the program run on, and it ended
        # the running state the hooks look at
        # the addresses the machine's hooks are on: the checkpoints' (the sets of
        # _checkpoint_addresses), the running mode's (a step, n's target), the stores'
        self._hooked_checkpoints: frozenset[int] = frozenset()
        self._hooked_extra: frozenset[int] = frozenset()
        self._store_hooked: frozenset[int] = frozenset()
        self._load_watched = bytearray(0x10000)
        self._loads_watched = False  # any byte of _load_watched set (not scanned for each step)
        self._addresses_cache: tuple[tuple[object, ...], tuple[frozenset[int], frozenset[int], bytearray,
                                                              bool]] | None = None
        self._resume: tuple[int, int] | None = None  # where the last stop in a hook was
        self._step: tuple[int, int] | None = None  # pause after the instruction at (pc, cycles)
        self._interrupt_entries: set[int] = set()
        self._target: tuple[int, int] | None = None  # stop at (pc, sp)
        self._return_sp: int | None = None
        self._after_return = False
        self._stopped = _Stopped()
        self._writing = False
        self.bank = "cpu"  # the view of memory the commands use (VICE's bank)
        self.assemble_at: int | None = None  # in assemble mode: where the next instruction goes

    # -- what the monitor shows -----------------------------------------------------------------
    def peek(self, address: int, bank: str = "cpu") -> int:
        """A byte as the monitor reads it, without side effects: the CPU's view (the chips'
        registers where the I/O area is shown), or RAM, ROM, I/O regardless of banking."""
        machine = self.machine
        address &= 0xFFFF
        in_io = 0xD000 <= address < 0xE000
        if bank == "ram":
            return machine.map.ram_byte(address)
        if bank == "rom" and (0xA000 <= address < 0xC000 or address >= 0xD000):
            return machine.map.rom_byte(address)
        if bank == "io" and in_io or bank == "cpu" and in_io and machine.map.io_shown():
            return machine.io.peek(address, self.cpu.cycles)
        return machine.memory[address]

    def raster(self) -> tuple[int, int]:
        """The raster line and the cycle in it (VICE's LIN and CYC)."""
        vic = self.machine.io.vic
        assert isinstance(vic, Vic)
        cycles = self.cpu.cycles
        line = vic.raster_line(cycles)
        position = (cycles + vic.cycle_offset) % CYCLES_PER_FRAME
        return line, (position - (line * CYCLES_PER_LINE if line else 1)) % CYCLES_PER_FRAME

    def registers(self) -> display.Registers:
        return display.registers_of(self.cpu)

    def stopwatch(self) -> int:
        return self.cpu.cycles - self.stopwatch_start

    def _label_of(self, address: int) -> str | None:
        return self.labels.name(address)

    def register_line(self, address: int | None = None) -> str:
        """The instruction at the PC (or ``address``) with the registers and the cycles;
        without ROM images, a ROM routine c64tc carries out is named instead."""
        where = self.cpu.pc if address is None else address
        routine = self._routine_at(where)
        if routine is not None:
            return display.register_dump_text(f".C:{where:04x}  [{routine}: c64tc's routine, no ROM image]",
                                              self.registers(), self.stopwatch()) + "\n"
        return display.register_dump_at(self.peek, where, self.registers(), self.stopwatch(),
                                        self._label_of) + "\n"

    def _routine_at(self, address: int) -> str | None:
        """Without ROM images: the name of the routine c64tc runs in Python at a ROM
        address (the CPU stops at every ROM address shown then)."""
        machine = self.machine
        in_rom = 0xA000 <= address < 0xC000 or address >= 0xE000
        if machine.roms is not None or not in_rom or not machine.map.rom_shown_at(address):
            return None
        found = kernal.ROUTINES.get(address)
        return found[0] if found is not None else kernal.name_of(address)

    def prompt(self) -> str:
        if self.assemble_at is not None:  # VICE's assemble mode: the address the next line goes to
            return f".{self.assemble_at:04x}  "
        return f"(C:${self.dot:04x}) "

    def opening(self) -> str:
        """What the monitor shows when it opens before the first instruction."""
        return self.register_line()

    # -- commands ---------------------------------------------------------------------------------
    def execute(self, command: Command) -> bool:
        """Carry out ``command``; False when the session is over (q, or x after the run
        has ended).  A mistake is a CommandError."""
        handler = getattr(self, f"_do_{command.name}")
        if self.result is not None and command.name in ("goto", "step", "next", "return", "exit", "until"):
            if command.name == "exit":
                return False
            self.write(f"The run has ended: {self.result.message}; nothing more runs.\n")
            return True
        handler(command)
        return not (self.quit or self.left)

    def _value(self, expression: Expression, values: _Values | None = None) -> int:
        try:
            return expression.evaluate(values or _Values(self))
        except EvaluationError as exc:
            raise CommandError(exc.message, exc.column) from None

    def _address(self, expression: Expression) -> int:
        value = self._value(expression)
        if not 0 <= value <= 0xFFFF:
            raise CommandError(f"${value & 0xFFFFFFFF:X} is not an address ($0000-$FFFF)", expression.column)
        return value

    def _byte(self, expression: Expression, what: str) -> int:
        value = self._value(expression)
        if not 0 <= value <= 0xFF:
            raise CommandError(f"{what} takes a byte ($00-$FF), not ${value & 0xFFFFFFFF:X}",
                               expression.column)
        return value

    def _count(self, expression: object, default: int = 1) -> int:
        if expression is None:
            return default
        assert isinstance(expression, Expression)
        value = self._value(expression)
        if not 0 <= value <= 0xFFFFFFFF:
            raise CommandError(f"{value} is not a count", expression.column)
        return value

    def _do_registers(self, command: Command) -> None:
        assignments = command.args["assignments"]
        assert isinstance(assignments, list)
        if not assignments:
            line, cycle = self.raster()
            self.write(display.registers_table(self.registers(), self.peek(0), self.peek(1), line, cycle,
                                               self.stopwatch()))
            return
        cpu = self.cpu
        for register, expression, _column in assignments:
            if register == "PC":
                cpu.pc = self._address(expression)
            elif register == "FL":
                cpu.p = self._byte(expression, "FL")
            else:
                setattr(cpu, register.lower(), self._byte(expression, register))

    def _range(self, command: Command) -> tuple[int, int | None]:
        start, end = command.args["start"], command.args["end"]
        first = self.dot if start is None else self._address(start)  # type: ignore[arg-type]
        return first, None if end is None else self._address(end)  # type: ignore[arg-type]

    def _do_mem(self, command: Command) -> None:
        start, end = self._range(command)
        count = display.MEMORY_BYTES if end is None else (end - start) % 0x10000 + 1
        rows, self.dot = display.memory_rows(self.view, start, count)
        self.write("".join(row + "\n" for row in rows))

    def _do_disass(self, command: Command) -> None:
        start, end = self._range(command)
        lines, self.dot = display.disassembly(self.view, start, end, self._label_of, self._label_of)
        self.write("".join(line + "\n" for line in lines))

    def _do_screen(self, command: Command) -> None:
        """VICE's ``sc``: the text screen where the VIC-II shows it, one row a line (the
        text as c64tc reads it, in the character set shown, where VICE writes every
        letter in lower case)."""
        start = visible_screen(self.machine.memory)
        self.write(f"Displaying 40x25 screen at ${start:04x}:\n")
        for row, text in enumerate(self.machine.screen.text_rows()):
            self.write(strip_row(f"*C:{(start + row * 40) & 0xFFFF:04x}  {text}") + "\n")

    def _do_enter_data(self, command: Command) -> None:
        address = self._address(command.args["address"])  # type: ignore[arg-type]
        data = command.args["data"]
        assert isinstance(data, list)
        values = [self._byte(expression, ">") for expression in data]
        for offset, value in enumerate(values):
            self.poke(address + offset, value)

    def _do_keybuf(self, command: Command) -> None:
        from toolchain.c64.keyboard import RETURN, text_to_keys

        text = str(command.args["text"])
        keys = bytearray()
        plain = ""
        index = 0
        while index < len(text):  # VICE's escapes: \n is RETURN, \xNN a key code
            if text.startswith("\\n", index):
                keys += text_to_keys(plain) + bytes([RETURN])
                plain, index = "", index + 2
            elif text.startswith("\\x", index) and len(text) >= index + 4:
                try:
                    code = int(text[index + 2 : index + 4], 16)
                except ValueError:
                    raise CommandError(f"'{text[index:index + 4]}' is not a key code (\\x0d)") from None
                keys += text_to_keys(plain) + bytes([code])
                plain, index = "", index + 4
            else:
                plain += text[index]
                index += 1
        try:
            keys += text_to_keys(plain)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self.machine.keyboard.keys.extendleft(reversed(keys))  # typed now, before the rest of --input

    def _do_add_label(self, command: Command) -> None:
        self.labels.add(str(command.args["label"]), self._address(command.args["address"]))  # type: ignore[arg-type]

    def _do_load_labels(self, command: Command) -> None:
        try:
            self.labels.load(str(command.args["file"]))
        except UserError as exc:
            raise CommandError(exc.report()) from None

    def _do_show_labels(self, command: Command) -> None:
        self.write(self.labels.listing())

    def _do_help(self, command: Command) -> None:
        self.write(_HELP)

    def _do_stopwatch(self, command: Command) -> None:
        if command.args["reset"]:
            self.stopwatch_start = self.cpu.cycles
            self.write("Stopwatch reset to 0.\n")
        else:
            self.write(f"Stopwatch: {self.stopwatch():>10} cycles\n")

    # -- checkpoints --------------------------------------------------------------------------------
    def add_checkpoint(self, start: int, end: int | None, operations: Iterable[str],
                       condition: Expression | None = None, temporary: bool = False) -> Checkpoint:
        checkpoint = Checkpoint(self._next_number, start, start if end is None else end,
                                frozenset(operations), condition, temporary=temporary)
        self.checkpoints[checkpoint.number] = checkpoint
        self._next_number += 1
        return checkpoint

    def _do_break(self, command: Command, default: Iterable[str] = ("exec",)) -> None:
        start, end = command.args["start"], command.args["end"]
        if start is None:
            self._list_checkpoints()
            return
        operations = command.args["operations"] or list(default)
        assert isinstance(operations, list)
        condition = command.args["condition"]
        if condition is not None:
            assert isinstance(condition, Expression)
            condition = self._bound(condition)
        first = self._address(start)  # type: ignore[arg-type]
        last = None if end is None else self._address(end)  # type: ignore[arg-type]
        added = self.add_checkpoint(first, last, operations, condition)
        self.write(Checkpoint(added.number, added.start, added.end, added.operations).info())
        if condition is not None:
            self.write(f"Setting checkpoint {added.number} condition to: {condition.shown()}\n")

    def _do_watch(self, command: Command) -> None:
        self._do_break(command, ("load", "store"))

    def _bound(self, expression: Expression) -> Expression:
        try:
            return expression.bound(_Values(self))
        except EvaluationError as exc:
            raise CommandError(exc.message, exc.column) from None

    def _list_checkpoints(self) -> None:
        if not self.checkpoints:
            self.write("No breakpoints are set\n")
        for number in sorted(self.checkpoints):
            self.write(self.checkpoints[number].info())

    def _checkpoint(self, expression: object) -> Checkpoint | None:
        assert isinstance(expression, Expression)
        number = self._value(expression)
        found = self.checkpoints.get(number)
        if found is None:
            self.write(f"#{number} not a valid checkpoint\n")
        return found

    def _do_delete(self, command: Command) -> None:
        if command.args["number"] is None:
            self.write("Deleting all checkpoints\n")
            self.checkpoints.clear()
        elif (checkpoint := self._checkpoint(command.args["number"])) is not None:
            del self.checkpoints[checkpoint.number]
        if not self.checkpoints:
            self._next_number = 1  # VICE numbers from 1 again

    def _switch(self, command: Command, enabled: bool) -> None:
        if command.args["number"] is None:
            self.write(f"Set all checkpoints to state: {'enabled' if enabled else 'disabled'}\n")
            for each in self.checkpoints.values():
                each.enabled = enabled
        elif (checkpoint := self._checkpoint(command.args["number"])) is not None:
            checkpoint.enabled = enabled

    def _do_enable(self, command: Command) -> None:
        self._switch(command, True)

    def _do_disable(self, command: Command) -> None:
        self._switch(command, False)

    def _do_ignore(self, command: Command) -> None:
        if (checkpoint := self._checkpoint(command.args["number"])) is not None:
            checkpoint.ignore = self._count(command.args["count"])
            self.write(f"Will ignore the next {checkpoint.ignore} hits of checkpoint #{checkpoint.number}\n")

    def _do_condition(self, command: Command) -> None:
        condition = command.args["condition"]
        assert isinstance(condition, Expression)
        condition = self._bound(condition)
        if (checkpoint := self._checkpoint(command.args["number"])) is not None:
            checkpoint.condition = condition
            self.write(f"Setting checkpoint {checkpoint.number} condition to: {condition.shown()}\n")

    def _fires(self, checkpoint: Checkpoint, pc: int | None = None) -> bool:
        """A hit counts: the condition holds, and no ignores are left."""
        if checkpoint.condition is not None and not self._value(checkpoint.condition, _Values(self, pc)):
            return False
        if checkpoint.ignore:
            checkpoint.ignore -= 1
            return False
        checkpoint.hits += 1
        return True

    def _hit_header(self, checkpoint: Checkpoint, operation: str, address: int) -> str:
        line, cycle = self.raster()
        # mon_breakpoint.c: "#%d (%s %5s %04x) " and " %3u/$%03x, %3u/$%02x"
        return (f"#{checkpoint.number} (Stop on {operation:>5} {address:04x}) "
                f" {line:3d}/${line:03x}, {cycle:3d}/${cycle:02x}\n")

    # -- running ----------------------------------------------------------------------------------
    def _do_goto(self, command: Command) -> None:
        address = command.args["address"]
        if address is not None:
            self.cpu.pc = self._address(address)  # type: ignore[arg-type]
        self._run(_Mode.GO)

    def _do_exit(self, command: Command) -> None:
        self._run_on()

    def _run_on(self) -> None:
        """Leave the monitor: the program runs on, the monitor opens again only when a
        checkpoint fires; a run that ends so ends the session (no prompt comes back)."""
        self._run(_Mode.GO)
        if self.result is not None:
            self.left = True

    def _do_until(self, command: Command) -> None:
        address = command.args["address"]
        if address is None:
            self._list_checkpoints()
            return
        checkpoint = self.add_checkpoint(self._address(address), None, ("exec",), temporary=True)  # type: ignore[arg-type]
        self.write(checkpoint.info())
        self._run(_Mode.GO)

    def _do_quit(self, command: Command) -> None:
        self.quit = True

    def _do_step(self, command: Command) -> None:
        count = self._count(command.args["count"])
        if command.args["count"] is not None:
            self.write(f"Stepping through the next {count} instruction(s).\n")
        for _ in range(count):
            if self._run(_Mode.STEP, quiet=True) != "stopped":
                return
        self._show_stop()

    def _do_next(self, command: Command) -> None:
        count = self._count(command.args["count"])
        if command.args["count"] is not None:
            self.write(f"Nexting through the next {count} instruction(s).\n")
        for _ in range(count):
            mode = _Mode.NEXT_OVER if self.machine.memory[self.cpu.pc] == JSR else _Mode.NEXT
            if self._run(mode, quiet=True) != "stopped":
                return
        self._show_stop()

    def _do_return(self, command: Command) -> None:
        self._run(_Mode.RETURN)

    def _show_stop(self) -> None:
        if self.show_output is not None:
            self.show_output()
        self.write(self.register_line())

    def _run(self, mode: _Mode, quiet: bool = False) -> str:
        """Run the machine in ``mode`` until the monitor stops it or the run ends: "ended",
        "hit" (a checkpoint fired, and was shown) or "stopped" (a step, ret, Ctrl-C: the
        line of the PC is shown, unless ``quiet``)."""
        cpu = self.cpu
        pc, sp = cpu.pc, cpu.sp
        self._step = self._target = self._return_sp = None
        self._interrupt_entries = set()
        self._after_return = False
        predicted = None
        if mode in (_Mode.STEP, _Mode.NEXT):
            self._step = (pc, cpu.cycles)
            predicted = next_address(self.peek, pc, {"n": cpu.n, "v": cpu.v, "z": cpu.z, "c": cpu.c}, sp)
            if mode is _Mode.STEP:  # an interrupt taken before the instruction is stepped into
                self._interrupt_entries = {self._word(IRQ_VECTOR), self._word(NMI_VECTOR)}
        elif mode is _Mode.NEXT_OVER:
            self._target = ((pc + 3) & 0xFFFF, sp)
        elif mode is _Mode.RETURN:
            self._return_sp = sp
        while True:
            stopped = self._run_once(mode is _Mode.RETURN)
            if stopped is None:
                return "ended"
            hit = self._report_watches(stopped) or "break" in stopped.reasons
            if mode is _Mode.NEXT and "step" in stopped.reasons and cpu.pc != predicted:
                # an interrupt came in after the instruction: n goes on through its handler
                self._step = None
                assert predicted is not None
                self._target = (predicted, (cpu.sp + 3) & 0xFF)
                stopped.reasons.discard("step")
            if hit or stopped.reasons - {"watch"}:
                break
        self._step = self._target = self._return_sp = None
        self._interrupt_entries = set()
        self.dot = cpu.pc
        if hit:
            return "hit"
        if not quiet:
            self._show_stop()
        return "stopped"

    def _word(self, address: int) -> int:
        return self.peek(address) | self.peek(address + 1) << 8

    def _run_once(self, traced: bool) -> _Stopped | None:
        """One machine run with the hooks in place: why the monitor stopped it, or None
        when the run ended (the result is kept)."""
        machine, cpu = self.machine, self.cpu
        self._stopped = _Stopped()
        self._sync_hooks()
        remaining = self.limit - cpu.cycles
        if remaining <= 0:
            self._ended(RunResult(Stop.CYCLE_LIMIT, ""))
            return None
        trace = self._trace if traced or self._loads_watched else None
        try:
            result = machine.run(remaining, trace)
        finally:
            machine.cancel_pause()
        stopped = self._stopped
        if result.stop is Stop.BREAK and stopped.reasons:
            return stopped
        self._ended(result)
        return None

    def _ended(self, result: RunResult) -> None:
        cpu = self.cpu
        message = result.message
        if result.stop is Stop.CYCLE_LIMIT:
            message = f"stopped after {cpu.cycles - self.start_cycles:,} cycles at ${cpu.pc:04X}"
        self.result = RunResult(result.stop, message, cpu.cycles - self.start_cycles,
                                cpu.instructions - self.start_instructions)
        self.machine.finish_sys(self.result)
        self._remove_hooks()
        self.dot = cpu.pc
        if self.show_output is not None:
            self.show_output()
        self.write(f"The run has ended: {message}.\n")

    def interrupt(self) -> None:
        """Stop the running program before its next instruction (Ctrl-C)."""
        self._stopped.reasons.add("interrupted")
        self.machine.pause("interrupted")

    def finish(self) -> RunResult:
        """The session is over: the program runs on to its end without the monitor (if it
        has not ended yet); how the run ended."""
        if self.quit and self.result is None:
            cpu = self.cpu
            self._remove_hooks()
            return RunResult(Stop.BREAK, f"quit in the monitor at ${cpu.pc:04X}",
                             cpu.cycles - self.start_cycles, cpu.instructions - self.start_instructions)
        if self.result is None:
            self.checkpoints.clear()
            self.write = lambda text: None  # closed: nothing more is shown
            self._run(_Mode.GO)
        assert self.result is not None
        return self.result

    # -- the hooks ----------------------------------------------------------------------------------
    def _sync_hooks(self) -> None:
        """The machine's hooks for the checkpoints and the running mode: what changed since
        the last sync.  A step, and a conditional watchpoint's run at every store, sync
        each time: checkpoints that stay as they were (the same sets, see
        _checkpoint_addresses) cost nothing then, however much memory they cover."""
        machine = self.machine
        checkpoint_execs, stores, loads, loaded = self._checkpoint_addresses()
        extra = set(self._interrupt_entries)
        if self._step is not None:
            extra.add(self._step[0])
        if self._target is not None:
            extra.add(self._target[0])
        if checkpoint_execs is self._hooked_checkpoints:  # only the running mode's few addresses
            gone = {address for address in self._hooked_extra - extra if address not in checkpoint_execs}
            new = {address for address in extra - self._hooked_extra if address not in checkpoint_execs}
        else:
            before, after = self._hooked_checkpoints | self._hooked_extra, checkpoint_execs | extra
            gone, new = set(before - after), set(after - before)
        if gone:
            machine.set_exec_hooks(gone, None)
        if new:
            machine.set_exec_hooks(new, self._on_exec)
        if stores is not self._store_hooked:
            if self._store_hooked - stores:
                machine.set_store_hooks(self._store_hooked - stores, None)
            if stores - self._store_hooked:
                machine.set_store_hooks(stores - self._store_hooked, self._on_store)
        self._hooked_checkpoints, self._hooked_extra = checkpoint_execs, frozenset(extra)
        self._store_hooked = stores
        self._load_watched = loads
        self._loads_watched = loaded
        machine.before_enter = self._settle_loads if loaded else None

    def _checkpoint_addresses(self) -> tuple[frozenset[int], frozenset[int], bytearray, bool]:
        """The addresses of the enabled checkpoints: exec, store, and a map of the load
        ones.  Kept while the checkpoints stay as they are: a step (or a conditional
        checkpoint's run) syncs the hooks every time, and a range covers up to 64 KiB."""
        key = tuple((c.number, c.start, c.end, c.operations) for c in self.checkpoints.values() if c.enabled)
        if self._addresses_cache is not None and self._addresses_cache[0] == key:
            return self._addresses_cache[1]
        execs: set[int] = set()
        stores: set[int] = set()
        loads = bytearray(0x10000)
        loaded = False
        for checkpoint in self.checkpoints.values():
            if not checkpoint.enabled:
                continue
            for address in checkpoint.addresses():
                if "exec" in checkpoint.operations:
                    execs.add(address)
                if "store" in checkpoint.operations:
                    stores.add(address)
                if "load" in checkpoint.operations:
                    loads[address] = 1
                    loaded = True
        found = (frozenset(execs), frozenset(stores), loads, loaded)
        self._addresses_cache = (key, found)
        return found

    def _remove_hooks(self) -> None:
        self.machine.set_exec_hooks(self._hooked_checkpoints | self._hooked_extra, None)
        self.machine.set_store_hooks(self._store_hooked, None)
        self._hooked_checkpoints = self._hooked_extra = self._store_hooked = frozenset()
        self._load_watched = bytearray(0x10000)
        self._loads_watched = False
        self.machine.before_enter = None
        self.machine.cancel_pause()

    def _stop_here(self, reason: str) -> None:
        cpu = self.cpu
        self._stopped.reasons.add(reason)
        self._resume = (cpu.pc, cpu.cycles)
        raise MachineStopped(Stop.BREAK, "the monitor stopped the run")

    def _on_exec(self, pc: int) -> None:
        """An exec hook: the CPU is about to run the instruction at ``pc``."""
        cpu = self.cpu
        here = (pc, cpu.cycles)
        if self._step is not None and here == self._step:
            self._stopped.reasons.add("step")
            self.machine.pause("step")  # after this instruction
            self._before_instruction(pc)
            return
        if here != self._resume and self._check_exec(pc):
            self._stopped.reasons.add("break")
        if self._step is not None and pc in self._interrupt_entries:
            self._stopped.reasons.add("step")
        if self._target is not None and (pc, cpu.sp) == self._target:
            self._stopped.reasons.add("next")
        if self._stopped.reasons - {"watch"}:
            self._stop_here(next(iter(self._stopped.reasons)))
        self._before_instruction(pc)

    def _check_exec(self, pc: int) -> bool:
        """The breakpoints at ``pc``: each one that fires is shown; whether any did."""
        stop = False
        for checkpoint in sorted(self.checkpoints.values(), key=lambda c: (c.start, c.number)):
            if not (checkpoint.enabled and "exec" in checkpoint.operations and checkpoint.covers(pc)):
                continue
            if not self._fires(checkpoint):
                continue
            if not stop and self.show_output is not None:
                self.show_output()
            stop = True
            self.write(self._hit_header(checkpoint, "exec", pc) + self.register_line())
            if checkpoint.temporary:
                del self.checkpoints[checkpoint.number]
        return stop

    def _trace(self, cpu: CPU) -> None:
        self._before_instruction(cpu.pc)

    def _settle_loads(self, pc: int) -> None:
        """The watched loads of the instruction before, now that it has run: its
        checkpoints' conditions see the registers after it (VICE checks a watchpoint after
        the instruction, mon_breakpoint.c), as a stop there would; one that fires stops
        the run before this instruction, else it runs on (stopping only to look made a
        conditional watch on a busy range many times slower).  With the machine pausing
        anyway (a step, a store watch) the stop reports them."""
        stopped = self._stopped
        if not stopped.loads:
            return
        loads, stopped.loads = stopped.loads, []
        if self._report_watches(_Stopped(loads=loads)):
            stopped.reasons.add("break")
            raise MachineStopped(Stop.BREAK, "the monitor stopped the run")

    def _before_instruction(self, pc: int) -> None:
        """What ``ret`` and the load watchpoints look at before an instruction runs."""
        cpu = self.cpu
        self._settle_loads(pc)
        if self._return_sp is not None:
            if self._after_return and cpu.sp > self._return_sp:
                self._stop_here("return")
            self._after_return = self.machine.memory[pc] in (RTS, RTI)
        if not (self._loads_watched and READS_DATA[self.peek(pc)]):
            return
        reads = data_reads(self.peek, pc, cpu.x, cpu.y)
        watched = [address for address in reads if self._load_watched[address]]
        if watched:  # looked at before the next instruction (_settle_loads)
            self._stopped.loads.extend((address, pc) for address in watched)
            if self.machine.stop_on_brk:  # a BRK next would end the run before that look
                self.machine.pause("watch")

    def _on_store(self, address: int) -> None:
        """A store hook: the byte at ``address`` was just written (mid-instruction)."""
        if self._writing:
            return
        self._stopped.stores.append((address, self.cpu.pc))
        self._stopped.reasons.add("watch")
        self.machine.pause("watch")

    def _storing_instruction(self, address: int, start: int) -> int:
        """The instruction that stored to ``address``: it ends where the CPU stopped.  A
        translated block keeps the PC at its start while it runs, so its instructions are
        followed from there; else the instruction just before the PC that writes there."""
        cpu, following = self.cpu, self.cpu.pc
        pc = start
        for _ in range(64):  # a block's straight line
            length = decode(self.peek, pc).length
            if (pc + length) & 0xFFFF == following:
                if address in data_writes(self.peek, pc, cpu.x, cpu.y, cpu.sp):
                    return pc
                break
            pc = (pc + length) & 0xFFFF
        for length in (3, 2, 1):
            candidate = (following - length) & 0xFFFF
            if decode(self.peek, candidate).length == length and address in data_writes(
                    self.peek, candidate, cpu.x, cpu.y, cpu.sp):
                return candidate
        return following

    def _report_watches(self, stopped: _Stopped) -> bool:
        """The watchpoints the stores and loads of the stop hit: each one that fires is
        shown with the instruction that made the access; whether any did."""
        fired = False
        shown: set[tuple[int, str, int]] = set()
        accesses = [("store", address, self._storing_instruction(address, start))
                    for address, start in stopped.stores]
        accesses += [("load", address, pc) for address, pc in stopped.loads]
        for operation, address, pc in accesses:
            for checkpoint in sorted(self.checkpoints.values(), key=lambda c: (c.start, c.number)):
                key = (checkpoint.number, operation, address)
                if (key in shown or not checkpoint.enabled or operation not in checkpoint.operations
                        or not checkpoint.covers(address)):
                    continue
                shown.add(key)
                if not self._fires(checkpoint, pc):
                    continue
                if not fired and self.show_output is not None:
                    self.show_output()
                fired = True
                self.write(self._hit_header(checkpoint, operation, address) + self.register_line(pc))
        return fired


HELP_WIDTH = 80  # a terminal's width: every help line fits


def _help() -> str:
    """The commands, one a line where it fits in 80 columns, else the syntax on a line
    and its meaning below, indented (wrapped at 80)."""
    import textwrap

    rows = [
        ("registers|r [REG = VALUE, ...]", "show the registers, or set A X Y SP PC FL"),
        ("mem|m [ADDRESS [ADDRESS]]", "show memory"),
        ("disass|d [ADDRESS [ADDRESS]]", "disassemble"),
        ("a ADDRESS [INSTRUCTION [: INSTRUCTION]...]", "assemble; with one instruction or none, "
         "assemble mode: the prompt shows the next address, an empty line ends it"),
        ("fill|f START END DATA", "fill memory with bytes and \"text\", repeated"),
        ("hunt|h START END DATA", "find bytes and \"text\" (xx: any byte)"),
        ("compare|c START END DEST", "show the bytes that differ"),
        ("move|t START END DEST", "copy memory (the ranges may overlap)"),
        ("> ADDRESS BYTE ...", "write memory"),
        ("step|z [COUNT]", "run one instruction (into subroutines)"),
        ("next|n [COUNT]", "run one instruction, a JSR with its subroutine"),
        ("return|ret", "run until after the RTS or RTI that leaves this routine"),
        ("goto|g [ADDRESS]", "run (from ADDRESS)"),
        ("until|un ADDRESS", "run until ADDRESS (a breakpoint used once)"),
        ("exit|x", "leave the monitor: the program runs on (a checkpoint opens it again)"),
        ("quit|q", "end the run here"),
        ("reset [0|1]", "reset the C64 (the chips, the CPU from $FFFC) and let it run"),
        ("break|bk [load|store|exec] [ADDRESS [ADDRESS] [if COND]]", "set or list checkpoints"),
        ("watch|w [load|store] ADDRESS [ADDRESS] [if COND]", "stop at a load or store"),
        ("delete|del [N], enable|en [N], disable|dis [N]", "delete, enable, disable checkpoints"),
        ("condition|cond N if COND, ignore N [COUNT]", "a checkpoint's condition, hits to ignore"),
        ("save|s \"FILE\" DEVICE START END", "save memory as a PRG (its load address first)"),
        ("load|l \"FILE\" DEVICE [ADDRESS]", "load a PRG (at ADDRESS instead of its own)"),
        ("bsave|bs \"FILE\" DEVICE START END, bload|bl \"FILE\" DEVICE ADDRESS", "the same without a "
         "load address; DEVICE 0 is a file here (load: also IMAGE:NAME), 8 the disk in drive 8"),
        ("io [ADDRESS]", "the chips' registers; with an address, that chip's state"),
        ("bank [cpu|ram|rom|io]", "the memory the commands see (default: the CPU's)"),
        ("screen|sc", "the text screen"),
        ("keybuf TEXT", "type TEXT (\\n is RETURN)"),
        ("add_label|al ADDRESS .NAME, load_labels|ll \"FILE\", show_labels|shl", "labels"),
        ("stopwatch|sw [reset]", "cycles since the start (or the reset)"),
    ]
    column = 34
    lines = []
    for syntax, meaning in rows:
        if len(syntax) < column and column + len(meaning) <= HELP_WIDTH:
            lines.append(f"{syntax:<{column}}{meaning}")
            continue
        lines.extend(textwrap.wrap(syntax, HELP_WIDTH, subsequent_indent="  "))
        lines.extend(textwrap.wrap(meaning, HELP_WIDTH, initial_indent=" " * 4, subsequent_indent=" " * 4))
    lines += ["Numbers are hex ($c000 or c000; +49152 decimal, %1010 binary); .name is a label.",
              "COND: A X Y PC SP FL RL CY, numbers, @cpu:ADDRESS;",
              "      == != < > <= >= && || + - * / & |"]
    return "\n".join(lines) + "\n"


_HELP = _help()
assert set(COMMANDS) >= {"registers", "mem", "disass", "step", "next", "goto"}
