"""The C64's picture: what the VIC-II sees of the machine's memory, and the frames it
draws, recorded from the VIC-II's register writes as the program makes them.

A :class:`FrameRecorder` attached to a machine keeps the VIC-II's write log
(``Vic.write_log``, every write stamped with its cycle) for the frame being drawn and
the one before, and draws a frame only when one is asked for (:meth:`picture`, or
each finished frame for a film).  Without a recorder nothing is logged and nothing is
drawn: a run without pictures costs nothing.

Frames are counted as the VIC-II counts them: a frame begins at raster line 0 (VICE's
start of frame), ``position`` = machine cycle + the VIC-II's ``cycle_offset``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

from toolchain.c64.chips.vic_render import CYCLES_PER_FRAME, HEIGHT, WIDTH, Beam, VideoMemory
from toolchain.c64.io import Ticker

if TYPE_CHECKING:
    from toolchain.c64.chips.cia import Cia
    from toolchain.c64.chips.vic import Vic
    from toolchain.c64.machine import C64

__all__ = ["HEIGHT", "WIDTH", "FrameRecorder", "character_rom", "current_frame", "video_memory"]


def vic_of(machine: C64) -> Vic:
    return cast("Vic", machine.io.vic)


def character_rom(machine: C64) -> bytes:
    """The character ROM the VIC-II shows: the machine's ROM image, else c64tc's
    fallback font in the ROM's layout (upper case set, then lower case)."""
    if machine.roms is not None:
        return machine.roms.chargen
    from toolchain.display.font import fallback_font

    font = fallback_font()
    return font.upper + font.lower


def video_memory(machine: C64, chargen: bytes | None = None, bank: int | None = None) -> VideoMemory:
    """The 16 KiB the VIC-II sees now (the bank CIA 2 selects, or ``bank`` 0-3: its RAM,
    also where the CPU sees a ROM or the I/O area; the character ROM in banks 0 and 2) and
    colour RAM."""
    memory_map = machine.map
    if bank is None:
        bank = cast("Cia", machine.io.cia2).vic_bank() // 0x4000
    start = bank * 0x4000
    ram = bytearray(machine.memory[start : start + 0x4000])
    for area, size in memory_map.AREAS.items():
        low, high = max(area, start), min(area + size, start + 0x4000)
        if low < high and memory_map.shown(area) != "ram":
            ram[low - start : high - start] = memory_map.under[low:high]
    colours = machine.memory[0xD800:0xDC00] if memory_map.io_shown() else memory_map.io[0x800:0xC00]
    full = bytearray(0x10000)
    full[start : start + 0x4000] = ram
    return VideoMemory.of(full, bank, chargen if chargen is not None else character_rom(machine), colours)


def current_frame(machine: C64, chargen: bytes | None = None) -> bytes:
    """A frame drawn from the registers as they are now (no writes during it): the
    picture of a program that sets the VIC-II up and leaves it."""
    beam = Beam(bytearray(vic_of(machine).registers))
    beam.run([], CYCLES_PER_FRAME, video_memory(machine, chargen))
    return bytes(beam.pixels)


Frame = tuple[bytes, list[tuple[int, int, int]], int]  # start registers, writes (seen at), start
# the registers whose change during a frame makes a picture more than a text screen
RASTER_EFFECT_REGISTERS = frozenset({0x11, 0x16, 0x18, 0x20, 0x21, 0x22, 0x23, 0x24})


def beyond_text(registers: bytes | bytearray, bank: int, writes: Sequence[tuple[int, int, int]] = ()
                ) -> str | None:
    """What the VIC-II shows beyond a text screen of the character ROM, or None: a
    bitmap or another mode, sprites, a character set in RAM, a blanked or scrolled
    screen, registers changed during the frame (``writes``)."""
    control, scroll, setup = registers[0x11], registers[0x16], registers[0x18]
    if control & 0x60 or scroll & 0x10:
        return "a graphics mode"
    if not control & 0x10:
        return "a blanked screen"
    if registers[0x15]:
        return "sprites"
    if control & 0x0F != 0x0B or scroll & 0x0F != 0x08:
        return "a scrolled screen"
    if bank in (1, 3) or setup & 0x0E not in (0x04, 0x06):
        return "a character set in RAM"
    if any(register in RASTER_EFFECT_REGISTERS for _, register, _ in writes):
        return "raster effects"
    return None


class FrameRecorder:
    """The VIC-II's frames while a machine runs (see the module's description).
    ``on_frame``: called with each finished frame's pixels (a film); ``None``: frames
    are drawn only when :meth:`picture` asks."""

    def __init__(self, machine: C64, chargen: bytes | None = None,
                 on_frame: Callable[[bytes], None] | None = None) -> None:
        self.machine = machine
        self.chargen = chargen if chargen is not None else character_rom(machine)
        self.on_frame = on_frame
        self.frames = 0
        self.vic: Vic | None = None
        self.ticker: Ticker | None = None
        self.attach()

    # -- the write log -----------------------------------------------------------------------
    def _position(self, cycle: int) -> int:
        assert self.vic is not None
        return cycle + self.vic.cycle_offset

    def attach(self) -> None:
        """Listen to the machine's VIC-II from now on (again after a reset, which brings
        back other chips)."""
        machine = self.machine
        vic = vic_of(machine)
        self.vic = vic
        self.log: list[tuple[int, int, int]] = []
        vic.write_log = self.log
        # the VIC bank: CIA 2's port A writes (cycle, bank address), and the bank before them
        cia2 = cast("Cia", machine.io.cia2)
        self.cia2 = cia2
        self.bank_log: list[tuple[int, int]] = []
        cia2.bank_log = self.bank_log
        self.bank_before = cia2.vic_bank()
        now = self._position(machine.cpu.cycles)
        self.frame_start = now - now % CYCLES_PER_FRAME
        # what the registers were before the recorder came is not known: as they are now
        self.start_registers = bytes(vic.registers)
        self.previous: Frame | None = None
        self.effect_frames = 0  # frames running with writes to the registers raster effects change
        if self.ticker is None:
            self.ticker = Ticker(CYCLES_PER_FRAME, self._frame_ends, machine.cpu.cycles)
            machine.io.tickers.append(self.ticker)
        self.ticker.due = self.frame_start + CYCLES_PER_FRAME - vic.cycle_offset

    def detach(self) -> None:
        if self.vic is not None and self.vic.write_log is self.log:
            self.vic.write_log = None
        if self.cia2.bank_log is self.bank_log:
            self.cia2.bank_log = None
        if self.ticker is not None and self.ticker in self.machine.io.tickers:
            self.machine.io.tickers.remove(self.ticker)
        self.ticker = None

    def _seen(self, log: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
        """Writes as the beam sees them: from the position after the write's cycle."""
        offset = self._position(0) + 1
        return [(cycle + offset, register, value) for cycle, register, value in log]

    def _frame_ends(self) -> None:
        """A frame boundary has passed (the ticker may come a little late: writes after
        the boundary belong to the next frame)."""
        machine = self.machine
        if machine.io.vic is not self.vic:
            self.attach()  # the machine was reset: its chips are new
            return
        boundary = self.frame_start + CYCLES_PER_FRAME
        writes = self._seen(self.log)
        split = 0
        while split < len(writes) and writes[split][0] < boundary:
            split += 1
        frame = (self.start_registers, writes[:split], self.frame_start)
        effects = any(register in RASTER_EFFECT_REGISTERS for _, register, _ in writes[:split])
        self.effect_frames = self.effect_frames + 1 if effects else 0
        registers = bytearray(self.start_registers)
        for _, register, value in writes[:split]:
            registers[register] = value
        self.start_registers = bytes(registers)
        self.previous = frame
        self.frame_start = boundary
        self.log = self.log[split:]
        assert self.vic is not None
        self.vic.write_log = self.log
        self._forget_banks(frame[2])
        self.frames += 1
        if self.on_frame is not None:
            self.on_frame(self._draw([frame], boundary))

    # -- pictures --------------------------------------------------------------------------------
    def _forget_banks(self, start: int) -> None:
        """Keep the bank switches seen from ``start`` on (a frame drawn begins there at the
        earliest), and the bank before them."""
        if self.cia2.bank_log is not self.bank_log:  # (someone else listens now: keep none)
            self.bank_log.clear()
        offset = self._position(0) + 1
        keep = 0
        while keep < len(self.bank_log) and self.bank_log[keep][0] + offset < start:
            self.bank_before = self.bank_log[keep][1]
            keep += 1
        if keep:
            del self.bank_log[:keep]

    def _banks(self, start: int) -> tuple[int, list[tuple[int, int]]]:
        """The bank (0-3) at position ``start`` and the switches after it as (position
        seen, bank); a write that leaves the bank as it was is no switch."""
        offset = self._position(0) + 1
        bank = self.bank_before // 0x4000
        switches: list[tuple[int, int]] = []
        for cycle, address in self.bank_log:
            number = address // 0x4000
            if cycle + offset <= start:
                bank = number
            elif number != (switches[-1][1] if switches else bank):
                switches.append((cycle + offset, number))
        return bank, switches

    def _draw(self, frames: list[Frame], until: int) -> bytes:
        registers, _, start = frames[0]
        beam = Beam(bytearray(registers), start)
        writes = [write for frame in frames for write in frame[1]]
        first, switches = self._banks(start)
        if not switches:
            beam.run(writes, until, video_memory(self.machine, self.chargen, first))
        else:  # a split between VIC banks: each bank's memory as it is now
            memories = {number: video_memory(self.machine, self.chargen, number)
                        for number in {first, *(number for _, number in switches)}}
            beam.run(writes, until, memories[first],
                     [(position, memories[number]) for position, number in switches])
        return bytes(beam.pixels)

    def shows(self) -> str | None:
        """What the VIC-II shows beyond a text screen (see :func:`beyond_text`), or None.
        Raster effects are writes in two frames running: a program that sets its colours
        once is no split screen."""
        vic = vic_of(self.machine)
        writes = self.previous[1] if self.previous is not None and self.effect_frames >= 2 else []
        return beyond_text(vic.registers, cast("Cia", self.machine.io.cia2).vic_bank() // 0x4000, writes)

    def picture(self) -> bytes:
        """The picture as VICE's screen shows it now: the lines of the frame being drawn
        that the beam has passed, the rest from the frame before."""
        machine = self.machine
        if machine.io.vic is not self.vic:
            self.attach()
        now = self._position(machine.cpu.cycles)
        current: Frame = (self.start_registers, self._seen(self.log), self.frame_start)
        frames = [self.previous, current] if self.previous is not None else [current]
        if self.previous is None:  # attached during this frame: its first part as the rest
            frames = [(self.start_registers, [], self.frame_start - CYCLES_PER_FRAME), current]
            registers = bytearray(self.start_registers)
            frames[0] = (bytes(registers), [], self.frame_start - CYCLES_PER_FRAME)
        return self._draw(frames, max(now, frames[-1][2]))
