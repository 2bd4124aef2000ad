"""A C64: the 6502 with the memory map, the chips, the keyboard and the screen.

With ROM images (``--roms``, ``C64TC_ROMS``, or VICE's), the KERNAL and BASIC run as
code on the CPU: every SYS into the ROM, every vector, every table works as on a C64.
Without them, the routines programs call are carried out in Python (see
:mod:`toolchain.c64.kernal`), and a jump to any other ROM address stops the run with
a message naming the routine.  The few ROM bytes programs read directly are where
the C64 has them (BASIC's messages at $A364 "\\rOK\\r" and $A369 "  ERROR", the
hardware vectors); other ROM bytes read 0, with a warning naming the address.

Interrupts: CIA 1's timer A interrupts sixty times a second through ($FFFE): the
KERNAL's IRQ entry, ($0314) and its handler, or a program's.  BRK goes through
($0316) to the warm start: the screen cleared, READY., as on a C64.
"""

from __future__ import annotations

import functools
import pickle
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import cast

from toolchain.c64 import kernal
from toolchain.c64.chips import NEVER
from toolchain.c64.chips.cia import Cia, SerialBusAndUserPort
from toolchain.c64.chips.keyboard import DECODE_TABLE_ADDRESSES, ControlPorts, KeyMatrix, decode_table
from toolchain.c64.chips.power_on import KERNAL_RESET_WRITES
from toolchain.c64.chips.sid import Sid
from toolchain.c64.chips.vic import Vic
from toolchain.c64.drive import Drive, SerialBus
from toolchain.c64.editor import ScreenEditor
from toolchain.c64.io import CIA1, IO_BASE, VIC, IOArea
from toolchain.c64.keyboard import Keyboard, UntypableText, text_to_keys, typed_keys
from toolchain.c64.memory import (
    ARYTAB,
    BASIC_ROM,
    COLOUR_RAM,
    CURLIN,
    CURSOR_BLINK,
    CURSOR_COLUMN,
    FRETOP,
    IRQ_VECTOR,
    JIFFY_CLOCK,
    KERNAL_ROM,
    KEYBOARD_COUNT,
    LINNUM,
    MEMSIZ,
    PORT,
    SCREEN_CELLS,
    SCREEN_COLUMNS,
    SCREEN_ROWS,
    STREND,
    SYS_REGISTERS,
    TXTTAB,
    VARTAB,
    WATCH_MACHINE,
    MemoryMap,
    power_on_memory,
    read_word,
    visible_screen,
    write_word,
)
from toolchain.c64.outcome import RunResult, Stop
from toolchain.c64.roms import RomSet
from toolchain.c64.screen import Screen
from toolchain.cpu.core import CPU, HANDLERS, CpuHalted
from toolchain.cpu.core import IRQ_VECTOR as CPU_IRQ_VECTOR
from toolchain.cpu.opcodes import OPCODES, Mode
from toolchain.cpu.translator import MAX_BLOCK_CYCLES, TranslatingCPU
from toolchain.disk.prg import Prg
from toolchain.display.state import ScreenImage, lowercase_from_d018

__all__ = ["C64", "DEFAULT_MAX_CYCLES", "Keyboard", "RunResult", "Stop", "UntypableText", "text_to_keys",
           "typed_keys"]

# BASIC's SYS pushes a return address so that the called code's RTS lands back in the
# interpreter ($E147, after the JMP in the SYS routine at $E12A).
RETURN_TO_BASIC = 0xE147
CHROUT_ENTRY, CHRIN_ENTRY = 0xFFD2, 0xFFCF
# their vectors, and where they point after power-on (a program may hook them)
CHROUT_VECTOR, CHROUT_ROUTINE, CHRIN_VECTOR, CHRIN_ROUTINE = 0x0326, 0xF1CA, 0x0324, 0xF157
DEFAULT_MAX_CYCLES = 2_000_000_000  # generous but finite: about 34 minutes of C64 time
DIRECT_MODE = 0xFF  # CURLIN's high byte while BASIC runs a direct-mode line
# MSGFLG ($9D): READY. sets bit 7 (direct mode: the KERNAL's control messages), RUN clears
# it ($A474, $A872): so the editor waiting with bit 7 set is BASIC waiting at READY.
MESSAGE_MODE, DIRECT_MODE_MESSAGES = 0x9D, 0x80
# BASIC's start-up message ($E473, $E460) and READY. ($A376), as BASIC 901226-01 prints
# them after a reset: the free bytes (MEMSIZ - TXTTAB) between the two parts
START_UP_BANNER = b"\x93\r    **** COMMODORE 64 BASIC V2 ****\r\r 64K RAM SYSTEM  "
START_UP_FREE = b" BASIC BYTES FREE\r"
READY_MESSAGE = b"\r\nREADY.\r\n"
RESET_VECTOR = 0xFFFC
BOOT_CYCLES = 10_000_000  # a reset reaches READY. after 2.1 million cycles (VICE: tests/data/machine)
# where the ROM's BASIC shows how a program ended (BASIC 901226-01): its error
# routine after JMP ($0300), X the error number; BREAK/END's message, carry set for BREAK
BASIC_ERROR_ROUTINE = 0xA43A
BASIC_BREAK_OR_END = 0xA84B
ERROR_MESSAGES = 0xA326  # the error messages' addresses, by error number (1-30)
# The 6510 takes an interrupt before an instruction when the line was pulled at least two
# cycles before that instruction would start (IOArea.next_pull counts them in), one more
# after a branch taken within its page (VICE 3.10: INTERRUPT_DELAY in interrupt.h,
# interrupt_check_irq_delay in mainc64cpu.c)
_BRANCH_OPCODES = frozenset(code for code, op in OPCODES.items() if op.mode is Mode.REL)
STANDARD_IRQ_HANDLER = 0xEA31  # where ($0314) points after power-on
_STANDARD_IRQ_LOW, _STANDARD_IRQ_HIGH = STANDARD_IRQ_HANDLER & 0xFF, STANDARD_IRQ_HANDLER >> 8
ICR_CIA1 = 0xDC0D  # reading CIA 1's interrupt control register clears its flags
JIFFIES_A_DAY = 0x4F1A01  # the jiffy clock wraps at 24 hours ($F6BC)

# ROM bytes programs read directly, for a machine without ROM images (BASIC 901226-01,
# KERNAL 901227-03): BASIC's messages, and the hardware vectors (NMI $FE43, RESET
# $FCE2, IRQ/BRK $FF48).
KNOWN_ROM_BYTES = {
    0xA364: bytes([0x0D, 0x4F, 0x4B, 0x0D, 0x00]),  # "\rOK\r"
    0xA369: bytes([0x20, 0x20, 0x45, 0x52, 0x52, 0x4F, 0x52, 0x00]),  # "  ERROR"
    0xFFFA: bytes([0x43, 0xFE, 0xE2, 0xFC, 0x48, 0xFF]),
    # the keyboard decode tables, from c64tc's model of the keyboard (its layout is checked
    # against the ROM's tables in tests/test_chips_keyboard.py)
    **{address: decode_table(index) for index, address in enumerate(DECODE_TABLE_ADDRESSES)},
}


_KNOWN_ROM_ADDRESSES = frozenset(address + offset for address, data in KNOWN_ROM_BYTES.items()
                                 for offset in range(len(data)))


class MachineStopped(Exception):
    """The run ends (raised inside it by a routine, a hook, the loop); ``line``: the
    BASIC line of an error or BREAK when BASIC in ROM ran the program."""

    def __init__(self, stop: Stop, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.stop = stop
        self.message = message
        self.line = line


@dataclass
class _State:
    """Everything a reset brings back (a verifier plays a thousand games from one)."""

    ram: bytes
    under: bytes
    io: bytes
    shown: dict[int, str]
    chips: bytes  # the four chips pickled (VIC, SID, CIA 1, CIA 2): a reset unpickles fresh copies
    cpu: tuple[int, int, int, int]  # PC, SP, status, the cycle count (the chips' time)
    port: tuple[int, int, int, int, int]  # the processor port (memory.ProcessorPort.state)


def _rom_images(roms: RomSet | None) -> dict[int, bytes]:
    if roms is not None:
        return {0xA000: roms.basic, 0xD000: roms.chargen, 0xE000: roms.kernal}
    images = {0xA000: bytearray(0x2000), 0xE000: bytearray(0x2000)}
    for address, data in KNOWN_ROM_BYTES.items():
        start = 0xA000 if address < 0xC000 else 0xE000
        images[start][address - start : address - start + len(data)] = data
    return {start: bytes(image) for start, image in images.items()}


class C64:
    def __init__(self, keyboard: Keyboard | None = None, roms: RomSet | None = None,
                 stop_on_brk: bool = False) -> None:
        self.roms = roms
        self.stop_on_brk = stop_on_brk
        self.memory = power_on_memory()
        self.map = MemoryMap(self.memory, _rom_images(roms))
        # the chips as the KERNAL's start-up leaves them (its writes replayed); nothing
        # is typed into the keyboard matrix (typed keys reach the KERNAL's buffer)
        self.io = IOArea(self.memory, Vic(), Sid(), Cia(ControlPorts(KeyMatrix()), "irq", name="CIA 1"),
                         Cia(SerialBusAndUserPort(), "nmi", name="CIA 2"))
        for address, value in KERNAL_RESET_WRITES:
            self.io.write(address, value, 0)
        self.io.visible = self.map.io_shown()
        self.io.on_moved = self._horizon_after_move
        self._connect_video()
        self.nmi_line = False  # an NMI is taken when CIA 2 pulls the line (an edge)
        # an event a chip access moved before the running blocks' horizon (see _events_moved)
        self._due = NEVER
        self._runs = 0  # runs of the CPU under way (an interrupt's handler runs within BASIC's)
        # pass_time's quiet horizons (IOArea.quiet_horizons), worked out when io.changes was this
        self._quiet_until = 0
        self._kernal_until = 0  # the same without CIA 1's events
        self._quiet_changes = -1
        self.cpu = TranslatingCPU(self.memory, break_on_brk=True, watch=self.map.watch,
                                  on_write=self._on_write, io_read=self.read_io, io_access=self.io,
                                  io_write=self._write_io)
        self.cpu.stop_block = self._block_for
        self.cpu.cli_ends_block = True  # (an IRQ waiting for the I flag: see _run)
        self.screen = Screen(self.memory)
        # the KERNAL's screen editor, its state in memory; it reaches the chips ($D018,
        # the keyboard matrix) as a program's reads and writes do
        self.editor = ScreenEditor(self.memory, on_scroll=self.screen.record_scroll,
                                   on_clear=self.screen.record_clear, io_read=self.read_io,
                                   io_write=self.write)
        self.keyboard = keyboard or Keyboard()
        self.output_log = bytearray()  # every byte printed, for --raw and answerers
        self.printer = bytearray()  # the paper of a printer on device 4, when one is attached
        # the serial bus as on VICE's default C64: an empty 1541 on device 8, no printer
        # (drive.py; c64tc run --disk, --printer, --no-drive change that)
        self.bus = SerialBus()
        self.bus.attach(Drive())
        self.warned: set[int] = set()  # ROM addresses read without a ROM image, warned once
        self.warn: Callable[[str], None] = lambda text: print(f"c64tc: warning: {text}", file=sys.stderr)
        self.brk_address = 0  # where the last BRK was, for the warm start's message
        self.brk_seen = False
        # with the ROMs, BASIC itself may run the program (run --boot): the C64 waiting at
        # READY. with nothing more typed ends the run, as its last error or BREAK says
        self.booting = False
        self.basic_in_rom = False
        self.reset_by_program = False  # SYS 64738 without ROM images (restart_without_roms)
        self.basic_ending: tuple[Stop, str] | tuple[Stop, str, int] | None = None
        # calls c64tc made from Python (SYS, a ROM routine, an interrupt of compiled BASIC)
        # whose return to $E147 is still to come: with BASIC in ROM, a return there that
        # is none of these is the ROM's own SYS returning, and BASIC goes on
        self.python_returns = 0
        # set by the compiled BASIC runner: a BASIC error that the machine code it calls
        # raises ($A43A; USR's default vector $B248 is ?ILLEGAL QUANTITY) is the calling
        # statement's error, reported in its line as the ROM's BASIC does
        self.errors_to_caller = False
        self.caller_error: str | None = None
        self.rom_hooks: dict[int, Callable[[], None]] = {
            0xE5CD: self._waits_for_key, 0xF13E: self._polls_for_key, 0xE8F6: self._scrolls,
            0xE544: self._clears, 0xFE66: self._brk, 0xA480: self._back_in_basic,
            BASIC_ERROR_ROUTINE: self._basic_error, BASIC_BREAK_OR_END: self._basic_break_or_end}
        # a debugger's hooks (see set_exec_hook, set_store_hook, pause)
        self.exec_hooks: dict[int, Callable[[int], None]] = {}
        # called at every stop address before its hook or routine (a debugger's look at the
        # instruction before, as a trace's is before every other instruction); may end the
        # run by raising MachineStopped
        self.before_enter: Callable[[int], None] | None = None
        self.store_hooks: dict[int, Callable[[int], None]] = {}
        self._pause: str | None = None
        # the chips were read, written or run by a routine since the traced loop of run()
        # last asked them for their next event (until then that event stands)
        self._chips_touched = True
        self._stops_before_pause = b""
        self._mark_rom_stops()
        self._initial = self._state()

    # -- state ---------------------------------------------------------------------------------
    def _state(self) -> _State:
        io = self.io
        return _State(bytes(self.memory), bytes(self.map.under), bytes(self.map.io),
                      {start: self.map.shown(start) for start in self.map.AREAS},
                      pickle.dumps((io.vic, io.sid, io.cia1, io.cia2), pickle.HIGHEST_PROTOCOL),
                      (self.cpu.pc, self.cpu.sp, self.cpu.p, self.cpu.cycles),
                      self.map.port.state())

    def snapshot(self) -> _State:
        """The machine's memory state, for :meth:`reset` (e.g. after loading a program)."""
        return self._state()

    def reset(self, state: _State, keyboard: Keyboard | None = None) -> None:
        """Back to ``state`` (from :meth:`snapshot`), keeping the CPU's translations of
        code that is unchanged."""
        memory_map = self.map
        for start in memory_map.AREAS:  # the same banking first: then the bytes
            memory_map._shown[start] = state.shown[start]
        memory_map.under[:] = state.under
        memory_map.io[:] = state.io
        self.io.plug(*pickle.loads(state.chips))  # fresh copies: faster than deepcopy
        self._connect_video()
        self.nmi_line = False
        self.cpu.restore_memory(state.ram)
        memory_map.port.restore(state.port)
        memory_map.switch(memory_map.port_bits())
        self.io.visible = memory_map.io_shown()
        self._mark_rom_stops()
        cpu = self.cpu
        cpu.a = cpu.x = cpu.y = 0
        cpu.pc, cpu.sp, cpu.p, cpu.cycles = state.cpu
        cpu.instructions = 0
        self.screen.history.clear()
        self.keyboard = keyboard or Keyboard()
        self.output_log.clear()
        self.printer.clear()
        self.bus.reset()

    def _connect_video(self) -> None:
        """The VIC-II reads the machine's memory (for its sprite collisions)."""
        from toolchain.c64.video import video_memory

        cast(Vic, self.io.vic).video = functools.partial(video_memory, self)

    @property
    def keyboard(self) -> Keyboard:
        """What the user types; its buffer is the machine's ($0277, $C6)."""
        return self._keyboard

    @keyboard.setter
    def keyboard(self, keyboard: Keyboard) -> None:
        keyboard.attach(self.memory)
        self._keyboard = keyboard
        self.editor.keyboard = keyboard

    # -- memory as a program sees it -------------------------------------------------------------
    def read(self, address: int) -> int:
        """A read by a program (PEEK, a ROM routine): the I/O chips answer for their
        registers; a ROM byte c64tc does not have is 0, with a warning."""
        if address < 0xA000:  # RAM whatever the processor port says
            return self.memory[address]
        if 0xD000 <= address < 0xE000:
            return self.read_io(address)
        if (self.roms is None and address not in self.warned and address not in _KNOWN_ROM_ADDRESSES
                and self.map.rom_shown_at(address)):
            self._warn_rom_read(address)
        return self.memory[address]

    def poke(self, address: int, value: int, now: int | None = None) -> None:
        """BASIC's POKE: STA ($14),Y, and the 6502 reads the address before it writes
        there: a chip register whose read does more than give a value sees the read
        first (another read changes nothing and is left out), then the write.  ``now``:
        the cycle of a write the clock has not caught up with (see
        IOArea.ahead_writers), else the CPU's."""
        io = self.io
        if address >> 12 == 0xD and io.visible and self.map.watch[address] == WATCH_MACHINE \
                and not self.store_hooks:
            self.memory[address] = value
            self._chips_touched = True
            if io.write(address, value, self.cpu.cycles if now is None else now, read_first=True):
                self.cpu.leave_block = True
            if io.rescheduling:
                self._events_moved()
            return
        self.read(address)
        self.write(address, value)

    def read_io(self, address: int) -> int:
        """The CPU's read of an address that may be in the I/O area."""
        io = self.io
        if address >> 12 != 0xD or not io.visible:
            return self.memory[address]
        self._chips_touched = True
        value = io.read(address, self.cpu.cycles)
        if io.rescheduling:
            self._events_moved()
        return value

    def only_kernal_interrupts(self) -> bool:
        """Whether an interrupt from now on can be nothing but the KERNAL's standard
        handler in Python (the jiffy clock, the keyboard scan, the cursor blink), which
        leaves the VIC-II, the SID and the CIAs' timers and TOD alone: ($0314) as after
        power-on, no ROM images, no VIC-II interrupt source, no NMI source (CIA 2's run
        a program's handler), no tickers, and nobody watches the stores.  BASIC's
        runner then reads and writes chip registers ahead of the clock
        (:meth:`read_io_ahead`; IOArea.ahead_writers)."""
        return self._kernal_takes_interrupts() and not self.store_hooks and not self.io.tickers

    def _kernal_takes_interrupts(self) -> bool:
        """Whether only the KERNAL's standard handler in Python takes interrupts from now
        on: ($0314) as after power-on, no ROM images, no VIC-II interrupt source, no NMI
        source."""
        memory, io = self.memory, self.io
        # (the attributes of the machine's own chips: this is asked at every BASIC POKE)
        return (memory[IRQ_VECTOR] == _STANDARD_IRQ_LOW and memory[IRQ_VECTOR + 1] == _STANDARD_IRQ_HIGH
                and self.roms is None and not io.vic.mask and not io.cia2.mask)  # type: ignore[attr-defined]

    def read_io_ahead(self, address: int, now: int) -> int | None:
        """A program's read of chip register ``address`` at cycle ``now``, which the
        machine's clock has not reached, where only the KERNAL's handler can interrupt
        in between (:meth:`only_kernal_interrupts`; BASIC's PEEK): what the read gives
        then, with its effects, without bringing the chips there; None where the
        register must be read with the clock there (see compiled_read_ahead in
        :mod:`toolchain.c64.chips`)."""
        io = self.io
        reader = io.ahead_readers[address - IO_BASE] if io.visible and address >> 12 == 0xD else None
        if reader is None or not self.only_kernal_interrupts():
            return None
        self._chips_touched = True
        return reader(io, now)

    def write(self, address: int, value: int) -> None:
        """A write by a program (POKE, a ROM routine): as the CPU's store (translated code
        there is dropped, the port, ROM areas and chips see it)."""
        io = self.io
        if address >> 12 == 0xD and io.visible and self.map.watch[address] == WATCH_MACHINE \
                and not self.store_hooks:
            # a chip register: what the CPU's store would come to, without the way there
            self.memory[address] = value
            if io.write(address, value, self.cpu.cycles):
                self.cpu.leave_block = self._chips_touched = True
            if io.rescheduling:
                self._events_moved()
            return
        self.cpu.write(address, value)

    def _warn_rom_read(self, address: int) -> None:
        self.warned.add(address)
        area = "BASIC" if address in BASIC_ROM else ("KERNAL" if address in KERNAL_ROM else "character")
        self.warn(f"a read of ${address:04X} in the {area} ROM gives 0: c64tc has no ROM image "
                  "(--roms DIR, or C64TC_ROMS, gives it the real ones)")

    def _on_write(self, address: int) -> bool:
        """A store to a watched address (the processor port, a ROM area, I/O): True when
        the running block must end (the memory map or the chips' timing changed)."""
        if address >> 12 == 0xD and self.io.visible:
            return self._write_io(address, self.memory[address])
        memory_map = self.map
        if address <= PORT:
            self._chips_touched = True
            memory_map.port_written(address, self.cpu.cycles)
            changed = memory_map.switch(memory_map.port_bits())
            self.io.visible = memory_map.io_shown()
            for addresses in changed:
                self.cpu.invalidate_range(addresses)
            if changed:
                self._mark_rom_stops()
            return bool(changed)
        if memory_map.rom_shown_at(address):
            memory_map.under[address] = self.memory[address]  # the RAM under the ROM takes the write
            self.memory[address] = memory_map.rom_byte(address)
            return False
        return False

    def _write_io(self, address: int, value: int) -> bool:
        """A store into the I/O area (shown): the chip takes it; True when the running
        block ends after it (a write to the VIC-II or a CIA: the chips' timing may change)."""
        io = self.io
        ends = io.write(address, value, self.cpu.cycles)
        if ends:
            self._chips_touched = True  # (the traced run loop asks the chips again)
        if io.rescheduling:
            self._events_moved()
        return ends

    def _horizon_after_move(self) -> int:
        """A compiled access moved a chip's event: the running blocks' horizon then."""
        self._events_moved()
        return self.cpu.horizon

    def _events_moved(self) -> None:
        """A chip access may have moved the chips' next event (or pulled an interrupt
        line): if it now comes before the horizon of the running blocks, they stop there
        (translated code looks at ``cpu.horizon`` after such accesses) and the run loop
        brings the chips up to date (see :meth:`run`)."""
        cpu, io = self.cpu, self.io
        self._time_stalls()
        if self.nmi_line and not io.nmi:
            # CIA 2's interrupt control register read released the line: its next pull is
            # a new edge, a new NMI (the 6510's NMI input is edge-triggered; an NMI handler
            # that reads $DD0D gets every timer underflow's NMI, as on VICE)
            self.nmi_line = False
        if not self._runs:  # (each run works the horizon out when it starts)
            return
        now = cpu.cycles
        event = io.next_event(now)
        if (io.irq and not cpu.i) or (io.nmi and not self.nmi_line):
            event = now
        if event < cpu.horizon:
            # (an interrupt the program may take exactly: the running blocks stop a block's
            # worth before the event, and the run loop asks the chips again: see _run)
            cpu.horizon = event if self._kernal_takes_interrupts() else max(now, event - MAX_BLOCK_CYCLES)
            self._due = min(self._due, event)
            self._chips_touched = True

    def _time_stalls(self) -> None:
        """The VIC-II takes each of its stalls where it happens while a CIA's timer
        interrupts the CPU often (Vic.steal: else a frame's at once); its next event is
        worked out again when that changes."""
        io = self.io  # (a test's stand-in for a CIA may not say)
        timed = getattr(io.cia1, "interrupts_often", False) or getattr(io.cia2, "interrupts_often", False)
        vic = cast(Vic, io.vic)
        if timed != vic.interrupts_timed:
            vic.interrupts_timed = timed
            io.changed(VIC)

    def _mark_rom_stops(self) -> None:
        """Without ROM images, blocks end at every ROM address the CPU sees (the routines
        are Python's); with them, only where c64tc watches the ROM's code."""
        cpu = self.cpu
        stops = cpu.stops
        before = bytes(stops)
        for start in (0xA000, 0xE000):
            size = 0x2000
            flag = 1 if self.roms is None and self.map.shown(start) == "rom" else 0
            stops[start : start + size] = bytes([flag]) * size
        for address in self._hooks():
            stops[address] = 1
        for address in self.store_hooks:  # a bank switch resets the flags of the areas it changes
            self.map.watch[address] |= WATCH_MACHINE
        if bytes(stops) != before:
            cpu.flush()

    def _hooks(self) -> list[int]:
        """Addresses where c64tc takes control: SYS's return, and with the real ROMs the
        points where it types keys, keeps the transcript, and sees BASIC take over."""
        machine = [RETURN_TO_BASIC, *self.rom_hooks, *kernal.ROM_TRAPS] if self.roms is not None \
            else [RETURN_TO_BASIC]
        return [*machine, *self.exec_hooks]

    # -- with the real ROMs: where c64tc looks in ---------------------------------------------------
    def _waits_for_key(self) -> None:
        """$E5CD, the editor's loop waiting for the keyboard buffer: the next typed line
        arrives (at most ten keys at a time, as the buffer holds).  The first wait after
        a reset ends the boot; BASIC waiting at READY. with nothing more typed ends a
        program that BASIC itself runs."""
        if self.booting:
            self.booting = False
            raise MachineStopped(Stop.READY, "the C64 has started: READY.")
        if self.memory[KEYBOARD_COUNT] == 0 and not self.keyboard.fill_line():
            if self.basic_in_rom and self.memory[MESSAGE_MODE] & DIRECT_MODE_MESSAGES:
                raise MachineStopped(*(self.basic_ending or (Stop.END, "program ended")))
            raise MachineStopped(Stop.INPUT_EXHAUSTED, "the program waits for a typed line, but the input is "
                           "used up")

    def basic_error_in_call(self, number: int) -> None:
        """BASIC's error ``number`` reached in machine code: for the compiled runner the
        call ends with it (:attr:`caller_error`, its name); else nothing happens here."""
        if self.errors_to_caller and not self.basic_in_rom:
            self.caller_error = kernal.BASIC_ERRORS.get(number, "")
            raise MachineStopped(Stop.ERROR, f"?{self.caller_error}  ERROR")

    def _basic_error(self) -> None:
        """$A43A: BASIC reports error X (in a program: the run's ending, unless it goes on)."""
        self.basic_error_in_call(self.cpu.x)
        line = read_word(self.memory, CURLIN)
        if line >> 8 == DIRECT_MODE:
            return
        address = read_word(self.memory, ERROR_MESSAGES + 2 * self.cpu.x)
        name = bytearray()
        for offset in range(40):  # the message's last character has bit 7 set
            byte = self.read((address + offset) & 0xFFFF)
            name.append(byte & 0x7F)
            if byte & 0x80:
                break
        self.basic_ending = (Stop.ERROR, f"?{name.decode('latin-1')}  ERROR IN {line}", line)

    def _basic_break_or_end(self) -> None:
        """$A84B: END (carry clear) or BREAK (carry set: STOP, RUN/STOP) in a program."""
        line = read_word(self.memory, CURLIN)
        if line >> 8 == DIRECT_MODE:  # the end of a typed line: the run ends as it did
            return
        if self.cpu.c:
            self.basic_ending = (Stop.BREAK, f"BREAK IN {line}", line)
        else:
            self.basic_ending = None

    def _polls_for_key(self) -> None:
        """$F13E, GETIN: a key is typed into an empty buffer when the program asks."""
        if self.memory[0x99] or self.memory[KEYBOARD_COUNT]:
            return
        keyboard = self.keyboard
        if keyboard.poll():
            return
        if keyboard.exhausted:
            raise MachineStopped(Stop.INPUT_EXHAUSTED, "the program waits for a key, but the input is "
                                 "used up")

    def _scrolls(self) -> None:
        """$E8F6, the editor's scroll of one row: the row leaving the top is kept for
        the transcript."""
        self.screen.record_scroll(self.editor.row_codes(0))

    def _clears(self) -> None:
        """$E544, clear the screen: its rows are kept for the transcript."""
        self.screen.record_clear([self.editor.row_codes(row) for row in range(SCREEN_ROWS)])

    def _brk(self) -> None:
        self.brk_seen = True

    def _back_in_basic(self) -> None:
        """$A480, BASIC's main loop after READY.: machine code ended in BASIC (when BASIC
        runs the program itself, it goes on: direct mode reads the next line)."""
        if self.basic_in_rom or self.booting:
            return
        if self.brk_seen:
            raise MachineStopped(Stop.BRK, f"BRK at ${self.brk_address:04X}: the C64's warm start (screen "
                           "cleared, READY.)")
        raise MachineStopped(Stop.READY, "the program went to BASIC's READY.")

    def power_on(self) -> None:
        """Switch the C64 on: with the ROMs their reset runs ($FCE2: the chips, the RAM
        test, the editor, BASIC's start-up message) until BASIC waits at READY.;
        without them the screen shows what BASIC prints then (VICE:
        tests/data/machine/power-on)."""
        if self.roms is None:
            free = read_word(self.memory, MEMSIZ) - read_word(self.memory, TXTTAB)
            for byte in START_UP_BANNER + str(free).encode() + START_UP_FREE + READY_MESSAGE:
                self.print_byte(byte)
            return
        cpu = self.cpu
        cpu.pc = self.read(RESET_VECTOR) | self.read(RESET_VECTOR + 1) << 8
        cpu.sp, cpu.i = 0xFD, 1
        self.booting = True
        result = self.run(BOOT_CYCLES)
        if result.stop is not Stop.READY:
            raise MachineStopped(result.stop, f"the C64's reset did not reach READY.: {result.message}")
        self.output_log.clear()  # what the reset printed is not the program's output

    def restart_without_roms(self) -> None:
        """SYS 64738 (the reset at $FCE2) without ROM images: what the KERNAL's and
        BASIC's start-up leave, as :meth:`power_on` shows it.  The start-up clears zero
        page and pages 2 and 3 ($FD50) and sets them again (RESTOR, CINT, BASIC's
        vectors and pointers: the memory of power-on, the jiffy clock and the keyboard
        buffer empty), writes the chips ($FDA3, $E5A0: KERNAL_RESET_WRITES), clears the
        screen and prints the banner, and NEW ($A644) leaves no program (its first two
        bytes zero, the rest of RAM as it was).  VICE: a program's SYS 64738 ends on the
        power-on screen, its colours and the VIC's registers
        (tests/data/machine/sys-reset)."""
        initial = self._initial.ram
        self.write(0, initial[0])  # the processor port first: the banking as after reset
        self.write(1, initial[1])
        self.memory[2:0x400] = initial[2:0x400]
        for address, value in KERNAL_RESET_WRITES:
            self.write(address, value)
        start = read_word(self.memory, TXTTAB)
        self.memory[start : start + 2] = b"\0\0"
        self.reset_by_program = True
        self.power_on()

    def type_command(self, command: str) -> None:
        """A direct-mode command as typed at READY. (RUN, SYS 49152): echoed and ended by
        RETURN, on the screen only (the machine-code or BASIC run follows)."""
        for byte in command.encode("ascii") + b"\r":
            self.editor.chrout(byte)

    def call(self, address: int, a: int = 0, max_cycles: int = DEFAULT_MAX_CYCLES) -> RunResult:
        """A ROM routine called from Python (the BASIC runner's PRINT and INPUT with the
        real ROMs): A set, run until its RTS."""
        self.cpu.a = a
        self._enter_from_basic(address)
        return self.run(max_cycles)

    # -- loading and calling ------------------------------------------------------------------
    def load(self, prg: Prg) -> None:
        for offset, byte in enumerate(prg.data):
            address = prg.load_address + offset
            if self.map.watch[address] & WATCH_MACHINE:
                self.write(address, byte)
            else:
                self.memory[address] = byte

    def loaded_basic(self, end: int) -> None:
        """BASIC's pointers as LOAD"NAME",8 leaves them for a program ending at ``end``
        (one past its last byte): variables, arrays and strings' end right after it
        ($E1AB sets VARTAB from the KERNAL's end address, then CLR), strings at the top."""
        memory = self.memory
        for pointer in (VARTAB, ARYTAB, STREND):
            write_word(memory, pointer, end)
        write_word(memory, FRETOP, read_word(memory, MEMSIZ))

    def sys(self, address: int, max_cycles: int = DEFAULT_MAX_CYCLES,
            trace: Callable[[CPU], None] | None = None) -> RunResult:
        """Call ``address`` as BASIC's SYS does ($E12A) and run until the code returns or
        stops: A, X, Y and the status (so the I flag: interrupts on) from 780-783, the
        address in LINNUM ($14), and the registers stored back there when it returns."""
        self.prepare_sys(address)
        result = self.run(max_cycles, trace)
        self.finish_sys(result)
        return result

    def prepare_sys(self, address: int) -> None:
        """The machine as SYS leaves it before the first instruction at ``address`` (for a
        caller that runs it in steps, such as the monitor; :meth:`sys` does it all)."""
        cpu, memory = self.cpu, self.memory
        cpu.a, cpu.x, cpu.y = memory[SYS_REGISTERS], memory[SYS_REGISTERS + 1], memory[SYS_REGISTERS + 2]
        cpu.p = memory[SYS_REGISTERS + 3]
        memory[LINNUM], memory[LINNUM + 1] = address & 0xFF, address >> 8  # for its JMP ($0014)
        self._enter_from_basic(address)

    def finish_sys(self, result: RunResult) -> None:
        """After the code SYS called has run: what BASIC does when it returns."""
        if result.stop is Stop.RETURNED:  # $E147: PHP, the registers stored, the status PLA'd
            cpu = self.cpu
            self.memory[SYS_REGISTERS : SYS_REGISTERS + 4] = bytes([cpu.a, cpu.x, cpu.y, cpu.p | 0x30])

    def _enter_from_basic(self, address: int) -> None:
        """``address`` called as a subroutine of the interpreter: its RTS comes back to
        BASIC (the stack as a direct-mode SYS leaves it: VICE shows SP $F7 at the
        first instruction of SYS 13312)."""
        cpu = self.cpu
        cpu.sp = 0xF9
        self.python_returns += 1
        cpu.push((RETURN_TO_BASIC - 1) >> 8)
        cpu.push(RETURN_TO_BASIC - 1)
        cpu.pc = address

    def interrupt(self, max_cycles: int = DEFAULT_MAX_CYCLES) -> RunResult:
        """An IRQ while BASIC runs (the compiled runner is no 6502 code): the CPU takes
        it as if interrupted in the interpreter, and the handler's RTI ends the run."""
        cpu = self.cpu
        cpu.pc = RETURN_TO_BASIC
        cpu.i = 0
        self.python_returns += 1
        cpu.irq()
        return self.run(max_cycles)

    def stop(self, stop: Stop, message: str) -> None:
        """End the run (from a routine): ``stop`` says why."""
        raise MachineStopped(stop, message)

    def run(self, max_cycles: int = DEFAULT_MAX_CYCLES,
            trace: Callable[[CPU], None] | None = None) -> RunResult:
        self._runs += 1
        try:
            return self._run(max_cycles, trace)
        finally:
            self._runs -= 1

    def _run(self, max_cycles: int, trace: Callable[[CPU], None] | None) -> RunResult:
        cpu = self.cpu
        start_cycles, start_instructions = cpu.cycles, cpu.instructions
        limit = cpu.cycles + max_cycles
        blocks = cpu.blocks
        translate = cpu._translate
        io = self.io
        # the fast loop runs translated regions up to the next event (an interrupt the
        # chips will raise) or near the cycle limit: a region returns at its first change
        # of block at or past cpu.horizon, so less than one block (MAX_BLOCK_CYCLES) after
        # it; stop addresses (ROM routines, SYS's return) are blocks of their own (see
        # _block_for)
        margin = MAX_BLOCK_CYCLES
        # traced, one instruction at a time: the chips' next event is asked for again only
        # when it has come, or the chips were touched (an I/O read or write, a bank switch,
        # a stop address's routine), or an interrupt is pending: in between, time alone
        # does not move it (asking every instruction made a trace 2-3 times slower).
        #
        # An interrupt the program's own code takes (see _exact_pull) comes before the
        # instruction where the 6510 sees the line pulled: translated code stops at a
        # change of block before the pull, and the interpreter goes on from there, one
        # instruction at a time, to the first instruction boundary at which the 6510 sees
        # it (IOArea.next_pull: a pull already passed stays until the chips are brought up
        # to date there)
        known_event, known_pull, known_seen, irq = -1, NEVER, NEVER, False
        after_branch = False  # the interrupt waits one more instruction (a branch's delay)
        try:
            while True:
                now = cpu.cycles
                if now < known_event and not self._chips_touched and not io.tickers:
                    event = known_event
                else:
                    self._chips_touched = False
                    event = known_event = io.next_event(now)
                    irq = io.irq  # (changes only with the chips: at an event, or touched)
                    if known_pull > now:
                        known_pull, known_seen = self._exact_pull(now)
                pull, seen = known_pull, known_seen
                if event <= now or (irq and cpu.i):
                    # an interrupt waits for the I flag: look again after a block (or at the
                    # chips' next event, if sooner: the VIC-II's stolen cycles)
                    event = now + MAX_BLOCK_CYCLES if event <= now else min(event, now + MAX_BLOCK_CYCLES)
                stepping_from = pull - MAX_BLOCK_CYCLES if pull <= event else NEVER
                horizon = min(limit - margin, event, stepping_from)
                self._due = NEVER
                if trace is None:
                    # a chip access that brings the next event closer lowers cpu.horizon
                    # (and sets _due): see _events_moved
                    cpu.horizon = horizon
                    pc = cpu.pc
                    while cpu.cycles < cpu.horizon:
                        block = blocks.get(pc)
                        if block is None:
                            block = translate(pc)
                        pc = block(cpu)
                due = min(event, self._due)
                if pull <= due:
                    due = seen
                # an IRQ waiting while the I flag was set is taken as soon as it is clear,
                # but after the instruction that follows a CLI or PLP (CPU.i_cleared)
                enabled = cpu.i_cleared or after_branch
                cpu.i_cleared = after_branch = False
                if irq and not cpu.i and not enabled:
                    due = min(due, cpu.cycles if pull > cpu.cycles else seen)
                if cpu.i_restored and self._irq_after_rti():
                    due = cpu.cycles
                if cpu.cycles >= due and not enabled:
                    self._interrupts()
                    known_pull = known_seen = NEVER
                    if cpu.cycles >= limit:  # (an IRQ storm: a line no handler acknowledges)
                        raise MachineStopped(Stop.CYCLE_LIMIT, f"stopped after {cpu.cycles - start_cycles:,} "
                                             f"cycles at ${cpu.pc:04X}")
                    continue
                if trace is None and cpu.cycles < limit - margin and not enabled:
                    if cpu.cycles < stepping_from:
                        continue
                    if cpu.cycles + cpu.block_cycles(cpu.pc) < due:
                        # close to an interrupt, translated code runs on while its block,
                        # and then any block of its region, ends before the interrupt is
                        # due (the interpreter takes over where one may not)
                        cpu.horizon = max(cpu.cycles, due - cpu.region_cycles(cpu.pc))
                        pc = cpu.pc
                        block = blocks.get(pc)
                        if block is None:
                            block = translate(pc)
                        block(cpu)
                        continue
                # one instruction at a time on the interpreter: for the trace, up to an
                # interrupt the program takes, after a CLI, and near the cycle limit so
                # that the limit is exact
                pc = cpu.pc
                if cpu.stops[pc]:
                    self._chips_touched = True  # a routine in Python, a hook: they may
                    cpu.pc = self._enter(pc)
                    if cpu.i_restored and self._irq_after_rti():  # (the KERNAL's exit in Python)
                        self._interrupts()
                        known_pull = known_seen = NEVER
                else:
                    opcode = self.memory[pc]
                    if opcode == 0x00 and self.stop_on_brk:
                        raise MachineStopped(Stop.BRK, f"BRK at ${pc:04X}")
                    if trace is not None:
                        trace(cpu)
                    before = cpu.cycles
                    cpu.step()
                    if cpu.i_restored and self._irq_after_rti():
                        due = cpu.cycles
                    if enabled and irq and not cpu.i:  # the instruction after the CLI has run
                        due = cpu.cycles if pull > cpu.cycles else max(cpu.cycles, seen)
                    # a branch taken within its page: the 6510 looks a cycle later, so an
                    # interrupt seen just then comes after the next instruction
                    after_branch = (due == seen == cpu.cycles and cpu.cycles - before == 3
                                    and opcode in _BRANCH_OPCODES)
                    if cpu.cycles >= due and not cpu.i_cleared and not after_branch:  # the chips' time
                        self._interrupts()
                        known_pull = known_seen = NEVER
                # (also after a stop address: a loop whose every instruction is one, a
                # monitor's conditional breakpoint on it, must end at the limit too)
                if cpu.cycles >= limit:
                    raise MachineStopped(Stop.CYCLE_LIMIT,
                                   f"stopped after {cpu.cycles - start_cycles:,} cycles at ${cpu.pc:04X}")
        except MachineStopped as stopped:
            if stopped.stop is not Stop.BREAK:  # a run that ends: the stolen cycles up to its end
                cpu.cycles += cast(Vic, io.vic).settle(cpu.cycles)  # (a break goes on where it was)
            return RunResult(stopped.stop, stopped.message, cpu.cycles - start_cycles,
                             cpu.instructions - start_instructions, line=stopped.line,
                             printer=bytes(self.printer))
        except CpuHalted as halted:
            cpu.cycles += cast(Vic, io.vic).settle(cpu.cycles)
            return RunResult(Stop.HALTED, str(halted), cpu.cycles - start_cycles,
                             cpu.instructions - start_instructions, printer=bytes(self.printer))

    def _irq_after_rti(self) -> bool:
        """After an RTI that cleared the I flag (CPU.i_restored, set back here): whether an
        IRQ is waiting, which then comes at once, before the next instruction."""
        self.cpu.i_restored = False
        return not self.cpu.i and self.io.irq

    def _exact_pull(self, now: int) -> tuple[int, int]:
        """The next pull of an interrupt line that the CPU takes exactly where a 6510
        would: an NMI, and an IRQ unless only the KERNAL's standard handler in Python can
        take it (then where in the program it comes changes nothing the program can see,
        and it is taken at the next change of block, which is faster): its cycle and
        where the CPU sees it, as IOArea.next_pull gives them, or NEVER twice."""
        return (NEVER, NEVER) if self._kernal_takes_interrupts() else self.io.next_pull(now)

    def _interrupts(self) -> None:
        """The chips' time has come: bring them up to date, and take an interrupt they
        raise (an IRQ only while the I flag is clear; an NMI when CIA 2 pulls its line)."""
        cpu, io = self.cpu, self.io
        self._chips_touched = True
        io.advance(cpu.cycles)
        self._time_stalls()
        stolen = cast(Vic, io.vic).steal(cpu.cycles)  # bad lines and sprite DMA: the CPU waited
        if stolen:
            cpu.cycles += stolen
            io.advance(cpu.cycles)
        nmi = io.nmi
        if nmi and not self.nmi_line:
            cpu.nmi()
        self.nmi_line = nmi
        if io.irq and not cpu.i:
            if self._standard_irq_path():
                self._standard_irq()  # the CPU's part too
            else:
                cpu.irq()

    # the KERNAL's IRQ as c64tc carries it out without the ROMs: the entry, the handler, the
    # acknowledgement and the exit (kernal.py), each a stop address the CPU enters in turn
    STANDARD_IRQ_STOPS = (0xFF48, STANDARD_IRQ_HANDLER, 0xEA7E, 0xEA81)

    def _standard_irq_path(self) -> bool:
        """Whether the IRQ about to be taken goes through the KERNAL's standard path in
        Python: no ROM images, the KERNAL's IRQ vector ($FFFE) at its entry, ($0314) at
        the standard handler, no debugger's hook or pause on the way."""
        return (self.roms is None and read_word(self.memory, CPU_IRQ_VECTOR) == self.STANDARD_IRQ_STOPS[0]
                and read_word(self.memory, IRQ_VECTOR) == STANDARD_IRQ_HANDLER
                and self._pause is None and not self.exec_hooks and self.map.shown(0xE000) == "rom")

    def _standard_irq(self) -> None:
        """The IRQ taken and the standard handler carried out at once: what the CPU does
        taking the IRQ (CPU.irq: the return address and the status pushed, the I flag set,
        seven cycles, the PC at $FF48), then what it would do entering the four stop
        addresses one after the other (what their routines in kernal.py do, the same
        stack, the cycles the ROM's code takes: 219 with the interrupt's seven), without
        four trips through the run loop.  The KERNAL's entry pushes the registers and sees
        no BRK (the B flag is clear in the status an IRQ pushes).  The stack work is done
        here on the stack page itself: one interrupt every frame, and the calls of push
        and pull were half its cost."""
        cpu, io, memory = self.cpu, self.io, self.memory
        # CPU.irq (cpu._interrupt): PC and status pushed, I set, through ($FFFE), which
        # _standard_irq_path found at the KERNAL's entry
        sp = cpu.sp
        pc = cpu.pc
        memory[0x100 + sp] = pc >> 8
        memory[0x100 + ((sp - 1) & 0xFF)] = pc & 0xFF
        memory[0x100 + ((sp - 2) & 0xFF)] = cpu.p
        cpu.i = 1
        cpu.pc = self.STANDARD_IRQ_STOPS[0]
        # the interrupt's seven cycles, kernal.irq_entry's and kernal.irq_handler's
        cpu.cycles += 7 + kernal.IRQ_ENTRY_CYCLES + kernal.STANDARD_HANDLER_CYCLES
        # kernal.irq_entry ($FF48): A, X, Y pushed (the status the IRQ pushed has no B flag:
        # through ($0314), which _standard_irq_path found at the standard handler)
        sp = (sp - 3) & 0xFF
        memory[0x100 + sp] = cpu.a
        memory[0x100 + ((sp - 1) & 0xFF)] = cpu.x
        memory[0x100 + ((sp - 2) & 0xFF)] = cpu.y
        cpu.sp = (sp - 3) & 0xFF
        self.standard_interrupt()  # kernal.irq_handler ($EA31)
        if io.visible:
            # $EA7E's LDA $DC0D as kernal.irq_acknowledge reads it (the run loop works the
            # events out next: no need to look at the horizon here)
            cpu.cycles += kernal.ACKNOWLEDGE_CYCLES
            io.read(ICR_CIA1, cpu.cycles)
        else:
            kernal.irq_acknowledge(self)
        # kernal.irq_exit ($EA81): Y, X, A and the status pulled, RTI
        cpu.cycles += kernal.IRQ_EXIT_CYCLES
        cpu.y = memory[0x100 + ((sp - 2) & 0xFF)]
        cpu.x = memory[0x100 + ((sp - 1) & 0xFF)]
        cpu.a = memory[0x100 + sp]
        cpu.p = memory[0x100 + ((sp + 1) & 0xFF)]
        cpu.sp = (sp + 3) & 0xFF
        cpu.pc = memory[0x100 + ((sp + 3) & 0xFF)] << 8 | memory[0x100 + ((sp + 2) & 0xFF)]

    def pass_time(self, until: int, max_cycles: int = DEFAULT_MAX_CYCLES) -> RunResult | None:
        """The machine's clock moves on to cycle ``until`` while no 6502 code runs (BASIC
        runs in Python): the chips catch up, and each interrupt they raise is taken as in
        the interpreter: the KERNAL's standard handler (the jiffy clock, CIA 1's flags
        read) in Python, a program's handler ($0314 changed) or the real ROM's on the CPU.
        Returns how a program's handler ended when it did not return from the interrupt."""
        cpu, io = self.cpu, self.io
        if io.changes != self._quiet_changes:
            self._quiet_until, self._kernal_until = io.quiet_horizons(cpu.cycles)
            self._quiet_changes = io.changes
        if until < self._quiet_until:
            # nothing but the VIC-II's stolen cycles before the horizon, no chip changed
            # since it was worked out: what the quiet case of _pass_time does, without
            # asking every chip again (BASIC brings the clock up to date at every PEEK)
            self._to_cycle_without_cpu(until)
            self._quiet_changes = io.changes
            return None
        if until < self._kernal_until and self._kernal_handles_interrupts():
            # up to the horizon without CIA 1 nothing happens but CIA 1's timer A
            # interrupts, which the KERNAL's handler takes in Python: counted at once, as
            # _standard_interrupts does (without asking the other chips again)
            acknowledged = getattr(io.cia1, "timer_a_interrupts_acknowledged", None)
            count = None if acknowledged is None else acknowledged(cpu.cycles, until)
            if count is not None:
                io.changed(CIA1)
                if count:
                    self.tick_jiffy_clock(count)
                self._to_cycle_without_cpu(until)
                # CIA 1's next interrupt moved on (its line is not pulled: the last was read)
                self._quiet_until = min(self._kernal_until, io.cia1.next_event(cpu.cycles))
                self._quiet_changes = io.changes
                return None
        return self._pass_time(until, max_cycles)

    def _to_cycle_without_cpu(self, until: int) -> None:
        """The clock to ``until`` with no CPU running: the VIC-II's stolen cycles on the
        way take nothing (a change of its stalls only: the quiet horizons stay)."""
        cpu = self.cpu
        cast(Vic, self.io.vic).start_stalls(max(cpu.cycles, until))
        self.io.changed(VIC)
        cpu.cycles = max(cpu.cycles, until)

    def _pass_time(self, until: int, max_cycles: int) -> RunResult | None:
        cpu, io = self.cpu, self.io
        vic = cast(Vic, io.vic)
        if io.event_of(VIC, cpu.cycles) <= until:
            # no CPU runs up to there: the VIC-II's stolen cycles on the way are no events
            vic.start_stalls(until)
            io.changed(VIC)
        if io.quiet(cpu.cycles, until) or self._standard_interrupts(until):
            # nothing happens on the way (the usual case: BASIC looks at the clock every
            # statement that reads a chip), or only the KERNAL's own interrupts: the chips
            # work out their state from the cycle count when they are next looked at
            cpu.cycles = max(cpu.cycles, until)
            vic.start_stalls(cpu.cycles)
            return None
        while True:
            now = cpu.cycles
            if io.next_event(now) <= now:  # (chips with no event due need no bringing up to date)
                io.advance(now)
            if io.irq:
                if self.roms is None and read_word(self.memory, IRQ_VECTOR) == STANDARD_IRQ_HANDLER:
                    self.standard_interrupt()
                    if io.visible:  # the handler's LDA $DC0D ($EA7E); the events are worked out below
                        io.read(ICR_CIA1, cpu.cycles)
                else:
                    result = self.interrupt(max_cycles)
                    if result.stop is not Stop.RETURNED:
                        return result
                if io.irq:  # nobody clears the line (a raster interrupt the handler does
                    break   # not acknowledge): the C64 would crawl from interrupt to interrupt
            event = io.next_event(cpu.cycles)
            if event > until:
                break
            cpu.cycles = max(cpu.cycles, event)
        cpu.cycles = max(cpu.cycles, until)  # the chips work the rest out when they are looked at
        vic.start_stalls(cpu.cycles)  # no CPU ran: the VIC-II took nothing from it
        return None

    def _kernal_handles_interrupts(self) -> bool:
        """Whether an interrupt is the KERNAL's standard handler's, in Python
        (:meth:`only_kernal_interrupts`), with the cursor not blinking and the I/O area
        shown for its read of CIA 1's flags (see :meth:`_standard_interrupts`)."""
        return bool(self.memory[CURSOR_BLINK]) and self.io.visible and self.only_kernal_interrupts()

    def _standard_interrupts(self, until: int) -> bool:
        """The KERNAL's sixty interrupts a second up to ``until``, all at once, when
        nothing else can interrupt: each (as in :meth:`pass_time`'s loop) ticks the jiffy
        clock and reads CIA 1's flags in the cycle its timer underflows, and the cursor
        does not blink (BLNSW set: nobody waits for a key).  False, and nothing done,
        when that does not hold: a program's handler, the ROMs, the blink, another source."""
        io, cpu = self.io, self.cpu
        if not self._kernal_handles_interrupts() or not io.quiet(cpu.cycles, until, but=CIA1):
            return False
        acknowledged = getattr(io.cia1, "timer_a_interrupts_acknowledged", None)
        count = None if acknowledged is None else acknowledged(cpu.cycles, until)
        if count is None:
            return False
        io.changed(CIA1)
        self.tick_jiffy_clock(count)
        return True

    # -- hooks for a debugger (the monitor) ------------------------------------------------------
    def set_exec_hook(self, address: int, hook: Callable[[int], None] | None) -> None:
        """Call ``hook(address)`` whenever the CPU reaches ``address``, before the instruction
        there runs, in either core (translated blocks end before a stop address; the block
        there calls :meth:`_enter`).  The hook may end the run by raising
        :class:`MachineStopped`: the PC stays at ``address``, and a later :meth:`run` starts
        there (and calls the hook again).  ``None`` removes the hook."""
        self.set_exec_hooks((address,), hook)

    def set_exec_hooks(self, addresses: Iterable[int], hook: Callable[[int], None] | None) -> None:
        """:meth:`set_exec_hook` for many addresses at once (a breakpoint on a range)."""
        stops = self.cpu.stops
        before = bytes(stops)
        for address in addresses:
            if hook is None:
                self.exec_hooks.pop(address, None)
            else:
                self.exec_hooks[address] = hook
            stops[address] = 0  # set again below where the machine itself needs the stop
        self._mark_rom_stops()
        if bytes(stops) != before:
            self.cpu.flush()  # translations that run through (or stop at) the addresses

    def set_store_hook(self, address: int, hook: Callable[[int], None] | None) -> None:
        """Call ``hook(address)`` after every store to ``address`` by the CPU or a routine
        (the machine's write watch).  It runs in the middle of an instruction, with the
        registers of a translated block not yet stored back: to stop the run it calls
        :meth:`pause`, which takes effect before the next instruction.  ``None`` removes it."""
        self.set_store_hooks((address,), hook)

    def set_store_hooks(self, addresses: Iterable[int], hook: Callable[[int], None] | None) -> None:
        """:meth:`set_store_hook` for many addresses at once (a watchpoint on a range: the
        hooks of the I/O area and the translations are brought up to date once, not once
        an address)."""
        memory_map = self.map
        flush = False
        for address in addresses:
            if hook is None:
                self.store_hooks.pop(address, None)
                start = next((s for s, size in memory_map.AREAS.items() if s <= address < s + size), None)
                needed = address <= PORT or (start is not None and memory_map.shown(start) != "ram")
                if not needed:
                    memory_map.watch[address] &= ~WATCH_MACHINE
            else:
                # translated stores to unwatched RAM have no check (translator._Checked)
                flush = flush or not memory_map.watch[address] & WATCH_MACHINE
                self.store_hooks[address] = hook
                memory_map.watch[address] |= WATCH_MACHINE
        hooked = frozenset(hooked for hooked in self.store_hooks if hooked >> 12 == 0xD)
        if hooked != self.io.hooked:  # translated stores into the I/O area see the hooks again
            self.io.hooked = hooked
            flush = True
        if flush:
            self.cpu.flush()
        # the CPU tells the machine about watched stores through on_write: with hooks, through
        # the hooks first (no cost for a run without them)
        self.cpu.on_write = self._on_write_with_hooks if self.store_hooks else self._on_write

    def _on_write_with_hooks(self, address: int) -> bool:
        """_on_write, then the store hook of ``address``; True also when a hook paused."""
        leave = self._on_write(address)
        hook = self.store_hooks.get(address)
        if hook is not None:
            hook(address)
        return leave or self._pause is not None

    def pause(self, message: str) -> None:
        """End the run before the next instruction starts (callable from a store hook or a
        trace, in the middle of an instruction): every address becomes a stop until then,
        and :meth:`run` returns a result with Stop.BREAK and ``message``."""
        if self._pause is None:
            self._pause = message
            self._stops_before_pause = bytes(self.cpu.stops)
            self.cpu.stops[:] = b"\x01" * len(self.cpu.stops)
            self.cpu.flush()

    def cancel_pause(self) -> None:
        """Forget a pause that did not take effect (the run ended first)."""
        if self._pause is not None:
            self.cpu.stops[:] = self._stops_before_pause
            self._pause = None
            self.cpu.flush()

    def _end_pause(self) -> None:
        message = self._pause or ""
        self.cancel_pause()
        raise MachineStopped(Stop.BREAK, message)

    def _machine_stop(self, pc: int) -> bool:
        """Whether the machine itself stops the CPU at ``pc`` (see _mark_rom_stops): SYS's
        return, the points where c64tc looks into the real ROMs, or without them any ROM
        address (c64tc's routines)."""
        if pc == RETURN_TO_BASIC:
            return True
        if self.roms is not None:
            return pc in self.rom_hooks
        return any(start <= pc < start + 0x2000 and self.map.shown(start) == "rom"
                   for start in (0xA000, 0xE000))

    def _run_instruction(self, pc: int) -> int:
        """The instruction at a stop address that has only a hook, on the interpreter (a BRK
        as the machine treats BRKs); the PC after it."""
        cpu = self.cpu
        if self.memory[pc] == 0x00:
            if self.stop_on_brk:
                raise MachineStopped(Stop.BRK, f"BRK at ${pc:04X}")
            self.brk_address = pc
        cpu.cycles += HANDLERS[self.memory[pc]](cpu)
        cpu.instructions += 1
        return cpu.pc

    def _block_for(self, pc: int) -> Callable[[CPU], int]:
        """The block the translating CPU runs at a stop address (a ROM routine, SYS's
        return) or a BRK; like every block it returns the PC it leaves with."""
        if self.memory[pc] == 0 and not self.cpu.stops[pc]:
            if self.stop_on_brk:
                def stop_at_brk(cpu: CPU) -> int:
                    raise MachineStopped(Stop.BRK, f"BRK at ${pc:04X}")

                return stop_at_brk

            def brk(cpu: CPU) -> int:  # BRK as the CPU does it: through ($FFFE)
                self.brk_address = pc
                cpu.cycles += HANDLERS[0x00](cpu)
                cpu.instructions += 1
                return cpu.pc

            return brk

        def enter(cpu: CPU) -> int:
            cpu.pc = self._enter(pc)
            return cpu.pc

        return enter

    def _enter(self, pc: int) -> int:
        """The CPU reached a stop address: SYS returns, or a ROM routine runs in Python;
        the address where the CPU goes on."""
        if self._pause is not None:
            self._end_pause()
        if self.before_enter is not None:
            self.before_enter(pc)
        exec_hook = self.exec_hooks.get(pc)
        if exec_hook is not None:
            exec_hook(pc)
            if not self._machine_stop(pc):
                return self._run_instruction(pc)  # a stop only for the hook: the instruction runs
        if pc == RETURN_TO_BASIC and (self.python_returns or not self.basic_in_rom):
            self.python_returns = max(0, self.python_returns - 1)
            raise MachineStopped(Stop.RETURNED, "returned to BASIC")
        # (BASIC in ROM returning from its own SYS runs on: READY., or the program's next
        # statement)
        # with the real ROMs, the serial bus's routines are c64tc's (as VICE's device traps)
        found = kernal.ROUTINES.get(pc) if self.roms is None else kernal.ROM_TRAPS.get(pc)
        if found is None:
            if self.roms is not None:  # where c64tc looks in, then the ROM's instruction
                hook = self.rom_hooks.get(pc)
                if hook is not None:
                    hook()
                cpu = self.cpu
                cpu.cycles += HANDLERS[self.memory[pc]](cpu)
                cpu.instructions += 1
                return cpu.pc
            raise MachineStopped(Stop.ROM_CALL, f"call to the ROM at {kernal.name_of(pc)}, which c64tc does "
                                 "not model without the C64's ROMs (--roms DIR, or C64TC_ROMS, runs the "
                                 "real ones)")
        resume = found[1](self)
        cpu = self.cpu
        if resume is not None:
            return resume
        # return as the routine's RTS would
        low = cpu.pull()
        cpu.cycles += 6
        return ((cpu.pull() << 8 | low) + 1) & 0xFFFF

    def screen_image(self, cursor_visible: bool = False) -> ScreenImage:
        """The screen as the VIC-II shows it now (for pictures and the live view): the
        matrix where $DD00/$D018 put it, colour RAM, border and background, the
        character set."""
        memory_map = self.map
        start = visible_screen(self.memory)
        codes = bytes(memory_map.ram_byte((start + offset) & 0xFFFF) for offset in range(SCREEN_CELLS))
        colour_store = self.memory if memory_map.io_shown() else None
        if colour_store is not None:
            colours = bytes(colour_store[COLOUR_RAM : COLOUR_RAM + SCREEN_CELLS])
        else:
            colours = bytes(memory_map.io[0x800 : 0x800 + SCREEN_CELLS])
        vic = self.io.vic
        row, column = self.editor.cursor()
        if column >= SCREEN_COLUMNS:  # on the second row of a two-row logical line: TBLX is that row
            column -= SCREEN_COLUMNS
        return ScreenImage(codes, colours, vic.peek(0x20, self.cpu.cycles) & 15,
                           vic.peek(0x21, self.cpu.cycles) & 15,
                           lowercase_from_d018(vic.peek(0x18, self.cpu.cycles)),
                           cursor=(row, column) if row < SCREEN_ROWS and column < SCREEN_COLUMNS else None,
                           cursor_visible=cursor_visible)

    # -- what the routines do (kernal.py) -----------------------------------------------------------
    def chrout(self, byte: int) -> None:
        """CHROUT as a routine in Python calls it: the byte to the output channel (the
        screen, a device on the serial bus)."""
        cpu = self.cpu
        saved = cpu.a
        cpu.a = byte
        kernal.chrout(self)
        cpu.a = saved

    def print_byte(self, byte: int) -> None:
        """CHROUT to the screen as BASIC's PRINT calls it: through the jump table and its
        vector ($FFD2, ($0326)) when a program has hooked it, or with the real ROMs;
        else straight to the screen editor.  A program that prints ends any typed line
        still being read (the editor clears CRSW), so CHRIN's next call waits for a new
        line: why Superhirn II reads only the first character of each answer."""
        if self.roms is not None:
            self.output_log.append(byte)
            self._rom_call(CHROUT_ENTRY, byte)
        elif read_word(self.memory, CHROUT_VECTOR) != CHROUT_ROUTINE:
            self._rom_call(CHROUT_ENTRY, byte)
        else:
            self.screen_output(byte)

    def screen_output(self, byte: int) -> None:
        """The screen editor's output ($E716) of a byte, kept for the transcript."""
        self.output_log.append(byte)
        self.editor.chrout(byte)

    def _rom_call(self, address: int, a: int = 0) -> int:
        """A routine of the real ROM for the BASIC runner; A as it returns."""
        result = self.call(address, a)
        if result.stop is not Stop.RETURNED:
            raise MachineStopped(result.stop, result.message)
        return self.cpu.a

    def read_line(self) -> bytes:
        """A typed line for INPUT (BASIC's INLIN, $A560, without its RETURN): keys typed
        and echoed by the screen editor until RETURN, then the line read back off the
        screen from where the input began (so the prompt is not part of it)."""
        line = bytearray()  # a logical line has 80 characters at most: INLIN's 88 suffice
        through_rom = self.roms is not None or read_word(self.memory, CHRIN_VECTOR) != CHRIN_ROUTINE
        while (byte := self._rom_call(CHRIN_ENTRY) if through_rom else self.chrin()) != 0x0D:
            line.append(byte)
        return bytes(line)

    def cursor_column(self) -> int:
        """The cursor's column in its logical line (POS; PNTR, 211)."""
        return self.memory[CURSOR_COLUMN]

    def chrin(self) -> int:
        """CHRIN from the keyboard ($F157): the next character of the line typed (and
        echoed) when the last one is used up, RETURN at its end; from the screen (the
        input device 3, $F166): the logical line at the cursor read from the cursor on,
        no key waited for (VICE: OPEN 1,3:INPUT#1,A$ on an empty screen reads its
        spaces, prints RETURN and goes on)."""
        if self.memory[kernal.INPUT_DEVICE] == kernal.SCREEN:
            byte = self.editor.chrin_screen()  # the line's characters: it never waits for a key
            return 0x0D if byte is None else byte
        byte = self.editor.chrin()
        if byte is None:
            raise MachineStopped(Stop.INPUT_EXHAUSTED, "the program waits for a typed line, but the input is "
                                 "used up")
        return byte

    def standard_interrupt(self) -> None:
        """What the KERNAL's IRQ handler does before it acknowledges CIA 1 ($EA31-$EA7B):
        the jiffy clock (UDTIM), the cursor blink (while the editor waits for a key).  The
        keyboard scan needs nothing: typed keys reach the buffer when a program waits."""
        self.tick_jiffy_clock()
        self.editor.blink()

    def tick_jiffy_clock(self, jiffies: int = 1) -> None:
        """UDTIM ($F69B), ``jiffies`` times: the jiffy clock at $A0-$A2 counts sixtieths
        of a second and wraps after 24 hours (to 0, from any value at or past it)."""
        memory = self.memory
        clock = (memory[JIFFY_CLOCK] << 16 | memory[JIFFY_CLOCK + 1] << 8 | memory[JIFFY_CLOCK + 2]) + jiffies
        if clock >= JIFFIES_A_DAY:
            before = clock - jiffies
            # the tick that reaches a day (or starts past it) gives 0, the rest count on from there
            first_wrap = max(1, JIFFIES_A_DAY - before)
            clock = (jiffies - first_wrap) % JIFFIES_A_DAY
        memory[JIFFY_CLOCK], memory[JIFFY_CLOCK + 1], memory[JIFFY_CLOCK + 2] = (
            clock >> 16, clock >> 8 & 0xFF, clock & 0xFF)

    def ready_after_sys(self) -> None:
        """What BASIC does when a SYS typed at READY. returns ($E147, then the end of the
        direct-mode line): READY. ($A474: direct mode's messages on, the message at
        $A376 through CHROUT), the cursor waiting at the start of the next line (VICE:
        tests/data/sys-return)."""
        self.memory[MESSAGE_MODE] = DIRECT_MODE_MESSAGES
        for byte in READY_MESSAGE:
            self.print_byte(byte)

    def warm_start(self) -> str:
        """What BRK ends in on a C64: the screen cleared, READY. (the KERNAL's $FE66 and
        BASIC's warm start); the message says where the BRK was."""
        where = self.brk_address
        kernal.restor(self)  # $FE66: RESTOR, then CINT ($E518: the VIC-II, the editor, clear)
        self.editor.initialise()
        for byte in b"\rREADY.\r":
            self.print_byte(byte)
        return f"BRK at ${where:04X}: the C64's warm start (screen cleared, READY.)"

