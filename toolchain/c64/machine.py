"""A small C64: 64 KiB of RAM, the 6502, the screen, the keyboard, and the KERNAL and
BASIC routines programs call, carried out in Python when the CPU reaches their
entry points (the real ROMs are not ours to ship).

Modelled entry points: CHROUT $FFD2, CHRIN $FFCF, GETIN $FFE4, STOP $FFE1, PLOT $FFF0,
CLRCHN $FFCC, and BASIC's string output $AB1E.  ROM bytes that programs read directly
are where the C64 has them: the BASIC messages at $A364 ("\\rOK\\r") and $A369
("  ERROR").  A jump into any other ROM address stops the run with a message naming
it.  Time spent inside the modelled routines is not counted in the cycles (only the
JSR into them and the RTS back are).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from toolchain.c64.memory import power_on_memory, rom_or_io
from toolchain.c64.outcome import RunResult, Stop
from toolchain.c64.screen import Screen
from toolchain.cpu.core import CPU, CpuHalted
from toolchain.cpu.translator import BLOCKS_PER_CHECK, MAX_BLOCK_CYCLES, TranslatingCPU
from toolchain.disk.prg import Prg
from toolchain.petscii import char_to_petscii

CHROUT, CHRIN, GETIN, STOP, PLOT, CLRCHN = 0xFFD2, 0xFFCF, 0xFFE4, 0xFFE1, 0xFFF0, 0xFFCC
STROUT = 0xAB1E
# BASIC's SYS pushes a return address so that the called code's RTS lands back in the
# interpreter ($E147, after the JMP in the SYS routine at $E12A).
RETURN_TO_BASIC = 0xE147

# ROM bytes programs read directly (C64 BASIC ROM 901226-01)
ROM_BYTES = {
    0xA364: bytes([0x0D, 0x4F, 0x4B, 0x0D, 0x00]),  # "\rOK\r"
    0xA369: bytes([0x20, 0x20, 0x45, 0x52, 0x52, 0x4F, 0x52, 0x00]),  # "  ERROR"
}
DEFAULT_MAX_CYCLES = 2_000_000_000  # generous but finite: about 34 minutes of C64 time


class _Stopped(Exception):
    def __init__(self, stop: Stop, message: str) -> None:
        super().__init__(message)
        self.stop = stop
        self.message = message


def typed_lines(script: str) -> list[str]:
    """The lines of typed input: separated by | or line breaks, each ended by RETURN
    (a final | or line break ends the last line, it adds no empty one)."""
    if not script:
        return []
    lines = script.replace("|", "\n").split("\n")
    if script.endswith(("|", "\n")):
        lines.pop()
    return lines


class UntypableText(ValueError):
    """Typed input with a character no C64 key gives."""


def text_to_keys(text: str, strict: bool = True) -> bytes:
    """Typed text to PETSCII key codes: a-z unshifted, A-Z shifted (petcat's rule).  A
    character no key gives is an error (``strict``) or not typed (a player at a
    terminal can press keys a C64 does not have)."""
    keys = bytearray()
    for character in text:
        try:
            keys.append(char_to_petscii(character))
        except ValueError:
            if strict:
                raise UntypableText(f"{character!r} cannot be typed on a C64 (no key gives it)") from None
    return bytes(keys)


class Keyboard:
    """Where typed input comes from: a script, a function, or nothing.

    A script is text with RETURN written as a line break or ``|``.  ``line_source``
    (a function returning the next typed line, or None when there is none) serves
    interactive play and automatic answerers."""

    # polls for a key that find none, in a row, before the program counts as waiting for
    # input that will not come (a game loop polls thousands of times a second)
    IDLE_POLL_LIMIT = 10_000

    def __init__(self, script: str | None = None,
                 line_source: Callable[[], str | None] | None = None,
                 idle_limit: int = IDLE_POLL_LIMIT) -> None:
        self.keys: deque[int] = deque()
        self.idle_limit = idle_limit
        self.idle_polls = 0
        for line in typed_lines(script or ""):
            self.keys.extend(text_to_keys(line))
            self.keys.append(0x0D)
        self.line_source = line_source

    def next_line(self) -> bytes | None:
        """The next line typed (without its RETURN), or None if there is no more input.

        Trailing spaces are dropped: the screen editor hands over the logical line up
        to its last non-space character (measured on VICE: INPUT of "  hi  " gives
        "  HI")."""
        if self.keys:
            line = bytearray()
            while self.keys:
                key = self.keys.popleft()
                if key == 0x0D:
                    break
                line.append(key)
            return bytes(line).rstrip(b" ")
        if self.line_source is not None:
            text = self.line_source()
            return None if text is None else text_to_keys(text, strict=False).rstrip(b" ")
        return None

    def next_key(self) -> int | None:
        """One key for GETIN (and BASIC's GET), or None when nothing is typed."""
        if self.key_waiting():
            self.idle_polls = 0
            return self.keys.popleft()
        self.idle_polls += 1
        return None

    @property
    def exhausted(self) -> bool:
        """Whether the program has polled for a key so often in vain that it waits for
        input that is not there."""
        return self.idle_polls > self.idle_limit

    def key_waiting(self) -> bool:
        """Whether a key can be read now (asking the line source for the next line
        when the typed keys are used up)."""
        if not self.keys and self.line_source is not None:
            text = self.line_source()
            if text is not None:
                self.keys.extend(text_to_keys(text, strict=False))
                self.keys.append(0x0D)
        return bool(self.keys)


class C64:
    def __init__(self, keyboard: Keyboard | None = None) -> None:
        self.memory = power_on_memory()
        for address, data in ROM_BYTES.items():
            self.memory[address : address + len(data)] = data
        rom = [address for address in range(0x10000) if rom_or_io(address)]
        self.cpu = TranslatingCPU(self.memory, stops=rom, break_on_brk=True)
        self.cpu.stop_block = self._block_for
        self.screen = Screen(self.memory)
        self.keyboard = keyboard or Keyboard()
        self.output_log = bytearray()  # every byte printed, for --raw and answerers
        self.pending_input: deque[int] = deque()  # the rest of the typed line CHRIN returns
        self.traps: dict[int, Callable[[], None]] = {
            CHROUT: self._chrout, CHRIN: self._chrin, GETIN: self._getin, STOP: self._stop_key,
            PLOT: self._plot, CLRCHN: lambda: None, STROUT: self._strout,
        }

    def reset(self, memory_image: bytes | bytearray, keyboard: Keyboard | None = None) -> None:
        """Back to a fresh machine holding ``memory_image`` (as after loading a program),
        keeping the CPU's translations of code that is unchanged."""
        self.cpu.restore_memory(memory_image)
        cpu = self.cpu
        cpu.a = cpu.x = cpu.y = cpu.n = cpu.v = cpu.d = cpu.z = cpu.c = 0
        cpu.i = 1
        cpu.sp = 0xFD
        cpu.cycles = cpu.instructions = 0
        self.screen = Screen(self.memory)
        self.keyboard = keyboard or Keyboard()
        self.output_log.clear()
        self.pending_input.clear()

    # -- loading and calling ------------------------------------------------------------------
    def load(self, prg: Prg) -> None:
        self.memory[prg.load_address : prg.end_address] = prg.data

    def sys(self, address: int, max_cycles: int = DEFAULT_MAX_CYCLES,
            trace: Callable[[CPU], None] | None = None) -> RunResult:
        """Call ``address`` as BASIC's SYS does and run until the code returns or stops."""
        cpu = self.cpu
        cpu.sp = 0xFA
        cpu.push((RETURN_TO_BASIC - 1) >> 8)
        cpu.push(RETURN_TO_BASIC - 1)
        cpu.pc = address
        return self.run(max_cycles, trace)

    def run(self, max_cycles: int = DEFAULT_MAX_CYCLES,
            trace: Callable[[CPU], None] | None = None) -> RunResult:
        cpu = self.cpu
        memory = self.memory
        start_cycles, start_instructions = cpu.cycles, cpu.instructions
        limit = cpu.cycles + max_cycles
        blocks = cpu.blocks
        translate = cpu._translate
        # blocks end at ROM addresses; ROM routines, the return to BASIC and BRK are
        # blocks of their own (see _block_for), so the fast loop only looks up and calls
        soft_limit = limit - MAX_BLOCK_CYCLES * BLOCKS_PER_CHECK
        checks = range(BLOCKS_PER_CHECK)
        try:
            while True:
                if trace is None:
                    pc = cpu.pc
                    while cpu.cycles < soft_limit:
                        for _ in checks:
                            block = blocks.get(pc)
                            if block is None:
                                block = translate(pc)
                            pc = block(cpu)
                # one instruction at a time on the interpreter: for the trace, and near
                # the cycle limit so that the limit is exact
                pc = cpu.pc
                if rom_or_io(pc):
                    self._enter_rom(pc)
                    continue
                if memory[pc] == 0x00:
                    raise _Stopped(Stop.BRK, f"BRK at ${pc:04X}")
                if trace is not None:
                    trace(cpu)
                cpu.step()
                if cpu.cycles >= limit:
                    raise _Stopped(Stop.CYCLE_LIMIT,
                                   f"stopped after {cpu.cycles - start_cycles} cycles at ${cpu.pc:04X}")
        except _Stopped as stopped:
            return RunResult(stopped.stop, stopped.message, cpu.cycles - start_cycles,
                             cpu.instructions - start_instructions)
        except CpuHalted as halted:
            return RunResult(Stop.HALTED, str(halted), cpu.cycles - start_cycles,
                             cpu.instructions - start_instructions)

    def _block_for(self, pc: int) -> Callable[[CPU], int]:
        """The block the translating CPU runs at a ROM address or a BRK; like every
        block it returns the PC it leaves with."""
        if self.memory[pc] == 0 and not rom_or_io(pc):
            def brk(cpu: CPU) -> int:
                raise _Stopped(Stop.BRK, f"BRK at ${pc:04X}")

            return brk

        def rom(cpu: CPU) -> int:
            self._enter_rom(pc)
            return cpu.pc

        return rom

    def _enter_rom(self, pc: int) -> None:
        if pc == RETURN_TO_BASIC:
            raise _Stopped(Stop.RETURNED, "returned to BASIC")
        trap = self.traps.get(pc)
        if trap is None:
            raise _Stopped(Stop.ROM_CALL, f"call to ROM address ${pc:04X}, which c64tc does not model "
                           "(modelled: CHROUT, CHRIN, GETIN, STOP, PLOT, CLRCHN, $AB1E)")
        trap()
        # return as the routine's RTS would
        cpu = self.cpu
        low = cpu.pull()
        cpu.pc = ((cpu.pull() << 8 | low) + 1) & 0xFFFF
        cpu.cycles += 6

    # -- the routines ---------------------------------------------------------------------------
    def print_byte(self, byte: int) -> None:
        """CHROUT to the screen: a program that prints ends any typed line still being
        read, so CHRIN's next call waits for a new line (this is why Superhirn II reads
        only the first character of each answer)."""
        self.pending_input.clear()
        self.output_log.append(byte)
        self.screen.output(byte)

    def _chrout(self) -> None:
        self.print_byte(self.cpu.a)
        self.cpu.c = 0

    def _strout(self) -> None:
        address = self.cpu.a | self.cpu.y << 8
        while self.memory[address]:
            self.print_byte(self.memory[address])
            address = (address + 1) & 0xFFFF

    def _chrin(self) -> None:
        if not self.pending_input:
            line = self.keyboard.next_line()
            if line is None:
                raise _Stopped(Stop.INPUT_EXHAUSTED, "the program waits for a typed line, but the "
                               "input is used up")
            for key in line:  # the editor echoes what is typed
                self.screen.output(key)
            self.pending_input.extend(line)
            self.pending_input.append(0x0D)
        key = self.pending_input.popleft()
        if key == 0x0D:
            self.screen.carriage_return()  # the editor moves on when it hands over the RETURN
        self.cpu.a = key
        self.cpu.c = 0

    def _getin(self) -> None:
        key = self.keyboard.next_key()
        if key is None:
            if self.keyboard.exhausted:
                raise _Stopped(Stop.INPUT_EXHAUSTED, "the program waits for a key, but the input is "
                               "used up")
            key = 0
        self.cpu.a = key
        self.cpu.z = int(key == 0)
        self.cpu.c = 0

    def _stop_key(self) -> None:
        self.cpu.z = 0  # the STOP key is never pressed

    def _plot(self) -> None:
        cpu = self.cpu
        if cpu.c:
            cpu.x, cpu.y = self.screen.cursor()
        else:
            self.screen.set_cursor(cpu.x, cpu.y)
