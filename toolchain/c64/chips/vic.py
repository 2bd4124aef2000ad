"""The VIC-II (MOS 6569, PAL) as programs see it: its 47 registers, the raster counter
and the raster interrupt.  Nothing is drawn: no sprites, collisions, light pen, bad
lines (the cycles the VIC takes from the CPU) or border tricks.

Timing: 63 cycles a raster line, 312 lines a frame, 19,656 cycles a frame (the 6569's
datasheet; VICE's viciisc).  The raster line at cycle ``now`` counts from cycle 0 of
the machine, shifted by ``cycle_offset``; as in VICE's x64sc (vicii-cycle.c), line 0
begins one cycle later than the other lines, so the counter shows 311 for the first
cycle of a frame.

Registers read back as VICE 3.10 shows them (measured, see tests/test_chips_vic.py):
unused bits read 1 ($D016 bits 6-7, $D018 bit 0, $D019 bits 4-6, $D01A bits 4-7, the
colour registers $D020-$D02E bits 4-7), $D02F-$D03F read $FF, $D011 bit 7 and $D012
are the raster counter (a write sets the compare line instead), the collision
registers $D01E/$D01F and the light pen $D013/$D014 read 0.
"""

from __future__ import annotations

from typing import NamedTuple

from toolchain.c64.chips import CYCLES_PER_FRAME, CYCLES_PER_LINE, LINES_PER_FRAME, NEVER

CONTROL_1, RASTER, LIGHT_PEN_X, LIGHT_PEN_Y = 0x11, 0x12, 0x13, 0x14
CONTROL_2, MEMORY_SETUP, INTERRUPT, INTERRUPT_MASK = 0x16, 0x18, 0x19, 0x1A
SPRITE_SPRITE_COLLISION, SPRITE_DATA_COLLISION = 0x1E, 0x1F
BORDER, LAST_COLOUR = 0x20, 0x2E
RASTER_SOURCE = 0x01  # $D019/$D01A bit 0; the others (sprite collisions, light pen) never fire here

# bits that read 1 whatever was written (VICE 3.10, measured; the 6569 has no latch behind them)
_UNUSED_BITS = bytes([0x00] * 0x16 + [0xC0, 0x00, 0x01, 0x70, 0xF0] + [0x00] * 5 + [0xF0] * 15 + [0xFF] * 17)
assert len(_UNUSED_BITS) == 64


# The fast path (see toolchain.c64.chips): the registers whose write only stores the byte
# (the others set the raster compare line or take part in the interrupt), and the raster
# line at {now} as an expression (raster_line's: line 0 starts one cycle late, so the
# frame's first cycle shows the last line, which starts at 311 * 63).
_STORED = frozenset(range(64)) - {CONTROL_1, RASTER, INTERRUPT, INTERRUPT_MASK}
_LINE_EXPRESSION = (f"(({{now}} + {{chip}}.cycle_offset) % {CYCLES_PER_FRAME} "
                    f"or {(LINES_PER_FRAME - 1) * CYCLES_PER_LINE}) // {CYCLES_PER_LINE}")


class MemorySetup(NamedTuple):
    """Where the VIC-II reads the text screen and the character set, as offsets in its
    16 KiB bank (the bank itself comes from CIA 2's port A: :meth:`Cia.vic_bank`).  In
    banks 0 and 2 the VIC sees the character ROM at offsets $1000-$1FFF."""

    screen: int  # $D018 bits 4-7 times 1 KiB
    characters: int  # $D018 bits 1-3 times 2 KiB


class Vic:
    """The VIC-II's registers and raster interrupt (see the module's description)."""

    def __init__(self, cycle_offset: int = 0) -> None:
        self.cycle_offset = cycle_offset
        self.registers = bytearray(64)  # as written (a reset clears them: VICE's vicii_reset)
        self.latched = 0  # $D019 bits 0-3: interrupt sources that fired and are not acknowledged
        self.mask = 0  # $D01A bits 0-3
        self.compare = 0  # the raster compare line ($D011 bit 7, $D012 as written)
        self.time = 0  # the cycle up to which the raster interrupt has been looked for
        #: every register write as (cycle, register, value), in order, while a consumer (a
        #: renderer of the picture) has set a list here; None: nobody listens, no cost
        self.write_log: list[tuple[int, int, int]] | None = None

    # -- the raster ---------------------------------------------------------------------------
    def raster_line(self, now: int) -> int:
        position = (now + self.cycle_offset) % CYCLES_PER_FRAME
        if position == 0:
            return LINES_PER_FRAME - 1  # line 0 starts one cycle late (VICE x64sc)
        return position // CYCLES_PER_LINE

    def _line_start(self, line: int) -> int:
        """The cycle in the frame at which ``line`` begins."""
        return line * CYCLES_PER_LINE if line else 1

    def _next_compare_match(self, after: int) -> int:
        """The first cycle later than ``after`` at which the raster reaches the compare line."""
        if self.compare >= LINES_PER_FRAME:
            return NEVER  # lines 312-511 never come on a PAL VIC-II
        start = self._line_start(self.compare)
        position = (after + self.cycle_offset) % CYCLES_PER_FRAME
        ahead = (start - position - 1) % CYCLES_PER_FRAME + 1
        return after + ahead

    # -- the Chip interface -------------------------------------------------------------------
    def advance(self, now: int) -> None:
        if now <= self.time:
            return
        if not self.latched & RASTER_SOURCE and self._next_compare_match(self.time) <= now:
            self.latched |= RASTER_SOURCE
        self.time = now

    def next_event(self, now: int) -> int:
        if self.mask & RASTER_SOURCE and not self.irq:
            return self._next_compare_match(max(now, self.time))
        return NEVER

    @property
    def irq(self) -> bool:
        return bool(self.latched & self.mask)

    def peek(self, register: int, now: int) -> int:
        register &= 0x3F
        if register == CONTROL_1:
            return (self.registers[CONTROL_1] & 0x7F) | (self.raster_line(now) >> 1 & 0x80)
        if register == RASTER:
            return self.raster_line(now) & 0xFF
        if register == INTERRUPT:
            latched = self.latched
            if not latched & RASTER_SOURCE and now > self.time and self._next_compare_match(self.time) <= now:
                latched |= RASTER_SOURCE
            return 0x70 | latched | (0x80 if latched & self.mask else 0)
        if register == INTERRUPT_MASK:
            return 0xF0 | self.mask
        if register in (LIGHT_PEN_X, LIGHT_PEN_Y, SPRITE_SPRITE_COLLISION, SPRITE_DATA_COLLISION):
            return 0
        return self.registers[register] | _UNUSED_BITS[register]

    def read(self, register: int, now: int) -> int:
        self.advance(now)
        return self.peek(register, now)

    EVENT_READS: frozenset[int] = frozenset()  # a read changes no interrupt
    EVENT_WRITES = frozenset({CONTROL_1, RASTER, INTERRUPT, INTERRUPT_MASK})

    @staticmethod
    def compiled_read(register: int) -> str | None:
        """``read`` as source (see toolchain.c64.chips); $D019 needs the method."""
        if register == RASTER:
            return f"{_LINE_EXPRESSION} & 0xFF"
        if register == CONTROL_1:
            return f"{{chip}}.registers[{CONTROL_1}] & 0x7F | {_LINE_EXPRESSION} >> 1 & 0x80"
        if register == INTERRUPT:
            return None
        if register == INTERRUPT_MASK:
            return "0xF0 | {chip}.mask"
        if register in (LIGHT_PEN_X, LIGHT_PEN_Y, SPRITE_SPRITE_COLLISION, SPRITE_DATA_COLLISION):
            return "0"
        if _UNUSED_BITS[register] == 0xFF:
            return "0xFF"
        return f"{{chip}}.registers[{register}] | {_UNUSED_BITS[register]}"

    @staticmethod
    def compiled_write(register: int) -> str | None:
        """``write`` as source for the registers that only store the byte."""
        if register not in _STORED:
            return None
        return (f"{{chip}}.registers[{register}] = {{value}}\n"
                "if (wl := {chip}.write_log) is not None:\n"
                f"    wl.append(({{now}}, {register}, {{value}}))")

    def write(self, register: int, value: int, now: int) -> None:
        register &= 0x3F
        value &= 0xFF
        if self.write_log is not None:
            self.write_log.append((now, register, value))
        self.advance(now)
        if register == INTERRUPT:
            self.latched &= ~value & 0x0F  # a 1 acknowledges the source
            return
        if register == INTERRUPT_MASK:
            self.mask = value & 0x0F
            return
        self.registers[register] = value
        if register in (CONTROL_1, RASTER):
            line = self.raster_line(now)
            matched = line == self.compare
            self.compare = self.registers[RASTER] | (self.registers[CONTROL_1] & 0x80) << 1
            # the comparison going from no match to match fires, also when the write does it
            # (VICE x64sc checks it every cycle; measured: writing the current line to $D012
            # sets $D019 bit 0 at once)
            if not matched and line == self.compare:
                self.latched |= RASTER_SOURCE

    # -- for the machine ----------------------------------------------------------------------
    def memory_setup(self) -> MemorySetup:
        setup = self.registers[MEMORY_SETUP]
        return MemorySetup(screen=(setup >> 4) * 0x400, characters=(setup >> 1 & 7) * 0x800)

    @property
    def border(self) -> int:
        return self.registers[BORDER] & 0x0F

    @property
    def background(self) -> int:
        return self.registers[BORDER + 1] & 0x0F
