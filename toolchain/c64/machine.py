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

import sys
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from toolchain.c64 import kernal
from toolchain.c64.io import CIA1_BASE, SID_BASE, IOArea, Registers
from toolchain.c64.keyboard import Keyboard, UntypableText, text_to_keys, typed_lines
from toolchain.c64.memory import (
    BASIC_ROM,
    JIFFY_CLOCK,
    KERNAL_ROM,
    PORT,
    WATCH_MACHINE,
    MemoryMap,
    power_on_memory,
)
from toolchain.c64.outcome import RunResult, Stop
from toolchain.c64.roms import RomSet
from toolchain.c64.screen import Screen
from toolchain.cpu.core import CPU, HANDLERS, CpuHalted
from toolchain.cpu.translator import MAX_BLOCK_CYCLES, TranslatingCPU
from toolchain.disk.prg import Prg

__all__ = ["C64", "DEFAULT_MAX_CYCLES", "Keyboard", "RunResult", "Stop", "UntypableText", "text_to_keys",
           "typed_lines"]

# BASIC's SYS pushes a return address so that the called code's RTS lands back in the
# interpreter ($E147, after the JMP in the SYS routine at $E12A).
RETURN_TO_BASIC = 0xE147
DEFAULT_MAX_CYCLES = 2_000_000_000  # generous but finite: about 34 minutes of C64 time
CIA_TIMER_A_PAL = 0x4025  # the KERNAL's timer A latch on a PAL C64 ($FDDD): 60 interrupts a second
JIFFIES_A_DAY = 0x4F1A01  # the jiffy clock wraps at 24 hours ($F6BC)

# ROM bytes programs read directly, for a machine without ROM images (BASIC 901226-01,
# KERNAL 901227-03): BASIC's messages, and the hardware vectors (NMI $FE43, RESET
# $FCE2, IRQ/BRK $FF48).
KNOWN_ROM_BYTES = {
    0xA364: bytes([0x0D, 0x4F, 0x4B, 0x0D, 0x00]),  # "\rOK\r"
    0xA369: bytes([0x20, 0x20, 0x45, 0x52, 0x52, 0x4F, 0x52, 0x00]),  # "  ERROR"
    0xFFFA: bytes([0x43, 0xFE, 0xE2, 0xFC, 0x48, 0xFF]),
}


_KNOWN_ROM_ADDRESSES = frozenset(address + offset for address, data in KNOWN_ROM_BYTES.items()
                                 for offset in range(len(data)))


class _Stopped(Exception):
    def __init__(self, stop: Stop, message: str) -> None:
        super().__init__(message)
        self.stop = stop
        self.message = message


@dataclass
class _State:
    """Everything a reset brings back (a verifier plays a thousand games from one)."""

    ram: bytes
    under: bytes
    io: bytes
    shown: dict[int, str]


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
        self.io = IOArea(self.memory, Registers(0x40, bytes(self.map.io[0x000:0x040])),
                         Registers(0x20), Registers(0x10, bytes([0x7F, 0xFF] + [0] * 14)),
                         Registers(0x10, bytes([0x97, 0xFF] + [0] * 14)))
        self.cpu = TranslatingCPU(self.memory, break_on_brk=True, watch=self.map.watch,
                                  on_write=self._on_write, io_read=self.read_io)
        self.cpu.stop_block = self._block_for
        self.screen = Screen(self.memory)
        self.keyboard = keyboard or Keyboard()
        self.output_log = bytearray()  # every byte printed, for --raw and answerers
        self.printer = bytearray()
        self.pending_input: deque[int] = deque()  # the rest of the typed line CHRIN returns
        self.warned: set[int] = set()  # ROM addresses read without a ROM image, warned once
        self.warn: Callable[[str], None] = lambda text: print(f"c64tc: warning: {text}", file=sys.stderr)
        self.brk_address = 0  # where the last BRK was, for the warm start's message
        self._mark_rom_stops()
        self._initial = self._state()

    # -- state ---------------------------------------------------------------------------------
    def _state(self) -> _State:
        return _State(bytes(self.memory), bytes(self.map.under), bytes(self.map.io),
                      {start: self.map.shown(start) for start in self.map.AREAS})

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
        self.cpu.restore_memory(state.ram)
        memory_map.switch(memory_map.port_bits())
        self._mark_rom_stops()
        cpu = self.cpu
        cpu.a = cpu.x = cpu.y = cpu.n = cpu.v = cpu.d = cpu.z = cpu.c = 0
        cpu.i = 1
        cpu.sp = 0xFD
        cpu.cycles = cpu.instructions = 0
        self.screen = Screen(self.memory)
        self.keyboard = keyboard or Keyboard()
        self.output_log.clear()
        self.printer.clear()
        self.pending_input.clear()

    @property
    def keyboard(self) -> Keyboard:
        """What the user types; its buffer is the machine's ($0277, $C6)."""
        return self._keyboard

    @keyboard.setter
    def keyboard(self, keyboard: Keyboard) -> None:
        keyboard.attach(self.memory)
        self._keyboard = keyboard

    # -- memory as a program sees it -------------------------------------------------------------
    def read(self, address: int) -> int:
        """A read by a program (PEEK, a ROM routine): the I/O chips answer for their
        registers; a ROM byte c64tc does not have is 0, with a warning."""
        if 0xD000 <= address < 0xE000:
            return self.read_io(address)
        if (self.roms is None and address not in self.warned and address not in _KNOWN_ROM_ADDRESSES
                and self.map.rom_shown_at(address)):
            self._warn_rom_read(address)
        return self.memory[address]

    def read_io(self, address: int) -> int:
        """The CPU's read of an address that may be in the I/O area."""
        if address >> 12 != 0xD or not self.map.io_shown():
            return self.memory[address]
        return self.io.read(address, self.cpu.cycles)

    def write(self, address: int, value: int) -> None:
        """A write by a program (POKE, a ROM routine): as the CPU's store (translated code
        there is dropped, the port, ROM areas and chips see it)."""
        self.cpu.write(address, value)

    def _warn_rom_read(self, address: int) -> None:
        self.warned.add(address)
        area = "BASIC" if address in BASIC_ROM else ("KERNAL" if address in KERNAL_ROM else "character")
        self.warn(f"a read of ${address:04X} in the {area} ROM gives 0: c64tc has no ROM image "
                  "(--roms DIR, or C64TC_ROMS, gives it the real ones)")

    def _on_write(self, address: int) -> bool:
        """A store to a watched address (the processor port, a ROM area, I/O): True when
        the running block must end (the memory map or the chips' timing changed)."""
        memory_map = self.map
        value = self.memory[address]
        if address <= PORT:
            changed = memory_map.switch(memory_map.port_bits())
            for addresses in changed:
                self.cpu.invalidate_range(addresses)
            if changed:
                self._mark_rom_stops()
            return bool(changed)
        if memory_map.rom_shown_at(address):
            memory_map.under[address] = value  # the RAM under the ROM takes the write
            self.memory[address] = memory_map.rom_byte(address)
            return False
        if 0xD000 <= address < 0xE000 and memory_map.io_shown():
            self.io.write(address, value, self.cpu.cycles)
            return address >= CIA1_BASE or address < SID_BASE  # timers and interrupts may change
        return False

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
        if bytes(stops) != before:
            cpu.flush()

    def _hooks(self) -> list[int]:
        """Addresses where c64tc takes control even when the ROMs run: SYS's return."""
        return [RETURN_TO_BASIC]

    # -- loading and calling ------------------------------------------------------------------
    def load(self, prg: Prg) -> None:
        for offset, byte in enumerate(prg.data):
            address = prg.load_address + offset
            if self.map.watch[address] & WATCH_MACHINE:
                self.write(address, byte)
            else:
                self.memory[address] = byte

    def sys(self, address: int, max_cycles: int = DEFAULT_MAX_CYCLES,
            trace: Callable[[CPU], None] | None = None) -> RunResult:
        """Call ``address`` as BASIC's SYS does and run until the code returns or stops."""
        cpu = self.cpu
        cpu.sp = 0xFA
        cpu.push((RETURN_TO_BASIC - 1) >> 8)
        cpu.push(RETURN_TO_BASIC - 1)
        cpu.pc = address
        return self.run(max_cycles, trace)

    def stop(self, stop: Stop, message: str) -> None:
        """End the run (from a routine): ``stop`` says why."""
        raise _Stopped(stop, message)

    def run(self, max_cycles: int = DEFAULT_MAX_CYCLES,
            trace: Callable[[CPU], None] | None = None) -> RunResult:
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
        try:
            while True:
                now = cpu.cycles
                event = io.next_event(now)
                if event <= now or (io.irq and cpu.i):
                    # an interrupt waits for the I flag: look again after a block
                    event = now + MAX_BLOCK_CYCLES
                horizon = min(limit - margin, event)
                if trace is None:
                    cpu.horizon = horizon
                    pc = cpu.pc
                    while cpu.cycles < horizon:
                        block = blocks.get(pc)
                        if block is None:
                            block = translate(pc)
                        pc = block(cpu)
                if cpu.cycles >= event:
                    self._interrupts()
                    continue
                if trace is None and cpu.cycles < limit - margin:
                    continue
                # one instruction at a time on the interpreter: for the trace, and near
                # the cycle limit so that the limit is exact
                pc = cpu.pc
                if cpu.stops[pc]:
                    cpu.pc = self._enter(pc)
                    continue
                if self.memory[pc] == 0x00 and self.stop_on_brk:
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

    def _interrupts(self) -> None:
        """The chips' time has come: bring them up to date, and take an interrupt they
        raise (an IRQ only while the I flag is clear)."""
        cpu = self.cpu
        self.io.advance(cpu.cycles)
        if self.io.irq and not cpu.i:
            cpu.irq()

    def _block_for(self, pc: int) -> Callable[[CPU], int]:
        """The block the translating CPU runs at a stop address (a ROM routine, SYS's
        return) or a BRK; like every block it returns the PC it leaves with."""
        if self.memory[pc] == 0 and not self.cpu.stops[pc]:
            if self.stop_on_brk:
                def stop_at_brk(cpu: CPU) -> int:
                    raise _Stopped(Stop.BRK, f"BRK at ${pc:04X}")

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
        if pc == RETURN_TO_BASIC:
            raise _Stopped(Stop.RETURNED, "returned to BASIC")
        found = kernal.ROUTINES.get(pc) if self.roms is None else None
        if found is None:
            if self.roms is not None:  # a stop address of c64tc's own in the real ROM
                cpu = self.cpu
                cpu.cycles += HANDLERS[self.memory[pc]](cpu)
                cpu.instructions += 1
                return cpu.pc
            raise _Stopped(Stop.ROM_CALL, f"call to the ROM at {kernal.name_of(pc)}, which c64tc does not "
                           "model without the C64's ROMs (--roms DIR, or C64TC_ROMS, runs the real ones)")
        resume = found[1](self)
        cpu = self.cpu
        if resume is not None:
            return resume
        # return as the routine's RTS would
        low = cpu.pull()
        cpu.cycles += 6
        return ((cpu.pull() << 8 | low) + 1) & 0xFFFF

    # -- what the routines do (kernal.py) -----------------------------------------------------------
    def print_byte(self, byte: int) -> None:
        """CHROUT to the screen: a program that prints ends any typed line still being
        read, so CHRIN's next call waits for a new line (this is why Superhirn II reads
        only the first character of each answer)."""
        self.pending_input.clear()
        self.output_log.append(byte)
        self.screen.output(byte)

    def chrin(self) -> int:
        """CHRIN from the keyboard: the next byte of the typed line, RETURN at its end;
        a new line is typed (and echoed) when the last one is used up."""
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
        return key

    def tick_jiffy_clock(self) -> None:
        """UDTIM ($F69B): the jiffy clock at $A0-$A2 counts sixtieths of a second and
        wraps after 24 hours."""
        memory = self.memory
        clock = (memory[JIFFY_CLOCK] << 16 | memory[JIFFY_CLOCK + 1] << 8 | memory[JIFFY_CLOCK + 2]) + 1
        if clock >= JIFFIES_A_DAY:
            clock = 0
        memory[JIFFY_CLOCK], memory[JIFFY_CLOCK + 1], memory[JIFFY_CLOCK + 2] = (
            clock >> 16, clock >> 8 & 0xFF, clock & 0xFF)

    def warm_start(self) -> str:
        """What BRK ends in on a C64: the screen cleared, READY. (the KERNAL's $FE66 and
        BASIC's warm start); the message says where the BRK was."""
        where = self.brk_address
        self.screen.clear()
        for byte in b"\rREADY.\r":
            self.print_byte(byte)
        return f"BRK at ${where:04X}: the C64's warm start (screen cleared, READY.)"

