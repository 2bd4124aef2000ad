"""The VIC-II (MOS 6569, PAL) as programs see it: its 47 registers, the raster counter
and the raster interrupt, and the sprite collisions.  The picture itself is drawn by
:mod:`.vic_render` (for pictures, from the write log; for collisions, here).  Not
modelled: the light pen, bad lines (the cycles the VIC takes from the CPU).

Timing: 63 cycles a raster line, 312 lines a frame, 19,656 cycles a frame (the 6569's
datasheet; VICE's viciisc).  The raster line at cycle ``now`` counts from cycle 0 of
the machine, shifted by ``cycle_offset``; as in VICE's x64sc (vicii-cycle.c), line 0
begins one cycle later than the other lines, so the counter shows 311 for the first
cycle of a frame.

Registers read back as VICE 3.10 shows them (measured, see tests/test_chips_vic.py):
unused bits read 1 ($D016 bits 6-7, $D018 bit 0, $D019 bits 4-6, $D01A bits 4-7, the
colour registers $D020-$D02E bits 4-7), $D02F-$D03F read $FF, $D011 bit 7 and $D012
are the raster counter (a write sets the compare line instead), the light pen
$D013/$D014 read 0.

Collisions ($D01E sprite-sprite, $D01F sprite-background) are latched as the chip draws
the sprites: not cycle by cycle here, but when a program reads them (or $D019), or when
their interrupt is due, by drawing (without pixels) the lines the beam has passed since
(:class:`~toolchain.c64.chips.vic_render.Beam`, the register writes replayed where they
happened).  A read returns the bits latched so far and clears them (VICE: in the cycle
after the read); a register going from 0 to non-zero sets its interrupt bit in $D019
(bit 2 sprite-sprite, bit 1 sprite-background).  The drawing starts when sprites are
first switched on; what the chip reads from memory (sprite data, the screen) is read
when the lines are drawn, and after a long time without a look only the last two frames
are drawn.
"""

from __future__ import annotations

import bisect
import functools
import operator
from collections.abc import Callable
from typing import Any, NamedTuple

from toolchain.c64.chips import CYCLES_PER_FRAME, CYCLES_PER_LINE, LINES_PER_FRAME, NEVER, Slotted, Source
from toolchain.c64.chips.vic_render import FIRST_DMA_LINE, LAST_DMA_LINE, Beam, VideoMemory

CONTROL_1, RASTER, LIGHT_PEN_X, LIGHT_PEN_Y = 0x11, 0x12, 0x13, 0x14
CONTROL_2, MEMORY_SETUP, INTERRUPT, INTERRUPT_MASK = 0x16, 0x18, 0x19, 0x1A
SPRITE_SPRITE_COLLISION, SPRITE_DATA_COLLISION = 0x1E, 0x1F
BORDER, LAST_COLOUR = 0x20, 0x2E
SPRITE_ENABLE = 0x15
RASTER_SOURCE = 0x01  # $D019/$D01A bit 0
SPRITE_BACKGROUND_SOURCE, SPRITE_SPRITE_SOURCE = 0x02, 0x04  # bits 1 and 2 (the light pen's never fires)
COLLISION_SOURCES = SPRITE_BACKGROUND_SOURCE | SPRITE_SPRITE_SOURCE
CATCH_UP_FRAMES = 2  # after a long time unseen, only this many frames of collisions are drawn
WATCH_FRAMES = 2  # a program that read the raster this recently gets each stolen cycle where it happens
# a read extends the watch by a frame more than that, and only once the watch has less
# than WATCH_FRAMES left: a program polling the raster starts a new watch once a frame,
# not at every read (each start may move the chip's next event: see compiled_read)
WATCH_EXTENSION = (WATCH_FRAMES + 1) * CYCLES_PER_FRAME

# the cycles (0-62) in which a sprite's DMA holds BA low: three before its pointer fetch,
# its two fetch cycles (VICE viciisc's PAL cycle table, the BA column); sprites 0-2 in the
# line the DMA is on, 3-7 partly at its end and partly at the next line's start
_SPRITE_BA_END = {0: range(54, 59), 1: range(56, 61), 2: range(58, 63), 3: range(60, 63), 4: range(62, 63)}
_SPRITE_BA_START = {3: range(0, 2), 4: range(0, 4), 5: range(1, 6), 6: range(3, 8), 7: range(5, 10)}
_BAD_LINE_BA = range(11, 54)  # cycles 12-54 of a bad line (counted from 1): BA low for the matrix fetch
STALL_REGISTERS = frozenset({0x11, 0x15, 0x17, *range(1, 16, 2)})  # DEN, YSCROLL; the sprites' enable,
#                                                                   Y expansion and Y positions

# bits that read 1 whatever was written (VICE 3.10, measured; the 6569 has no latch behind them)
_UNUSED_BITS = bytes([0x00] * 0x16 + [0xC0, 0x00, 0x01, 0x70, 0xF0] + [0x00] * 5 + [0xF0] * 15 + [0xFF] * 17)
assert len(_UNUSED_BITS) == 64


# The fast path (see toolchain.c64.chips): the registers whose write only stores the byte
# while no collisions are drawn (the others set the raster compare line, take part in
# the interrupt or move the stolen cycles), and the raster line at {now} as an
# expression (raster_line's: line 0 starts one cycle late, so the frame's first cycle
# shows the last line, which starts at 311 * 63).
_STORED = frozenset(range(64)) - {CONTROL_1, RASTER, INTERRUPT, INTERRUPT_MASK} - STALL_REGISTERS
_LINE_EXPRESSION = (f"(({{now}} + {{chip}}.cycle_offset) % {CYCLES_PER_FRAME} "
                    f"or {(LINES_PER_FRAME - 1) * CYCLES_PER_LINE}) // {CYCLES_PER_LINE}")


class MemorySetup(NamedTuple):
    """Where the VIC-II reads the text screen and the character set, as offsets in its
    16 KiB bank (the bank itself comes from CIA 2's port A: :meth:`Cia.vic_bank`).  In
    banks 0 and 2 the VIC sees the character ROM at offsets $1000-$1FFF."""

    screen: int  # $D018 bits 4-7 times 1 KiB
    characters: int  # $D018 bits 1-3 times 2 KiB


class Vic(Slotted):
    """The VIC-II's registers and raster interrupt (see the module's description)."""

    __slots__ = ("cycle_offset", "registers", "latched", "mask", "compare", "time", "write_log", "video",
                 "beam", "pending", "predicted", "stalls_counted", "watched_until", "interrupts_timed",
                 "stall_writes", "_next_stall_cache", "_frames_stalls")

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
        #: what the chip reads from memory now (the machine sets it; not pickled)
        self.video: Callable[[], VideoMemory] | None = None
        # the collisions: a beam drawing without pixels from when sprites were first on,
        # the writes it has not seen yet (as the beam sees them: position, register, value)
        self.beam: Beam | None = None
        self.pending: list[tuple[int, int, int]] = []
        self.predicted: tuple[tuple[int, int, int], int] | None = None  # (key, cycle)
        # the cycles taken from the CPU: counted up to this cycle; where each happens while the
        # program watches the raster (until this cycle)
        self.stalls_counted = 0
        self.watched_until = 0
        #: another chip interrupts the CPU often (Cia.interrupts_often: the machine sets this),
        #: so each stall is taken where it happens (see steal)
        self.interrupts_timed = False
        # the writes that decide the stolen cycles (DEN, YSCROLL, the sprites' enable, Y and Y
        # expansion) of the last frames, as (cycle seen, register, old value, new value)
        self.stall_writes: list[tuple[int, int, int, int]] = []
        self._next_stall_cache: tuple[int, tuple[int, int] | None] | None = None  # (asked after, answer)
        self._frames_stalls: dict[int, tuple[list[int], list[int]]] = {}  # by frame, until a write

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["video"] = None  # the machine's memory: connected again after a reset
        state["predicted"] = None
        state["_next_stall_cache"] = None
        state["_frames_stalls"] = {}
        return state

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
        if self.mask & COLLISION_SOURCES and self.beam is not None:
            self._collisions_until(now)
        self.time = now

    def next_interrupt(self, now: int) -> int:
        """The next event but the stolen cycles: where the VIC-II may pull its line."""
        event = NEVER
        if not self.irq:  # a pulled line stays pulled until the program acknowledges it
            if self.mask & RASTER_SOURCE:
                event = self._next_compare_match(max(now, self.time))
            if self.mask & COLLISION_SOURCES and self.beam is not None:
                event = min(event, self._next_collision(max(now, self.time)))
        return event

    def next_event(self, now: int) -> int:
        event = self.next_interrupt(now)
        stall = self._stall_event(now)
        if stall is not None:  # the CPU waits (the machine asks :meth:`steal`)
            event = min(event, max(stall, now + 1))
        return event

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
        if register in (SPRITE_SPRITE_COLLISION, SPRITE_DATA_COLLISION):
            if self.beam is None:
                return 0
            self._collisions_until(now)
            beam = self.beam
            return beam.sprite_sprite if register == SPRITE_SPRITE_COLLISION else beam.sprite_background
        if register in (LIGHT_PEN_X, LIGHT_PEN_Y):
            return 0
        return self.registers[register] | _UNUSED_BITS[register]

    def read(self, register: int, now: int) -> int:
        register &= 0x3F
        if register in (CONTROL_1, RASTER) and self.watched_until < now + WATCH_FRAMES * CYCLES_PER_FRAME:
            self.watched_until = now + WATCH_EXTENSION
        if self.beam is not None and register in (INTERRUPT, SPRITE_SPRITE_COLLISION, SPRITE_DATA_COLLISION):
            self._collisions_until(now)
        self.advance(now)
        value = self.peek(register, now)
        if register in (SPRITE_SPRITE_COLLISION, SPRITE_DATA_COLLISION) and self.beam is not None:
            # cleared in the cycle after the read: what that cycle draws is cleared with it
            self._collisions_until(now + 1)
            if register == SPRITE_SPRITE_COLLISION:
                self.beam.sprite_sprite = 0
                self.beam.sprite_sprite_at = None
            else:
                self.beam.sprite_background = 0
                self.beam.sprite_background_at = None
            self.predicted = None
        return value

    # never bound again after __init__: the CPU's translated code keeps them as locals
    # (toolchain.c64.io.IOArea.plug)
    FIXED_ATTRIBUTES = ("registers", "cycle_offset")
    # ... and evaluated once as a region starts: the beam that draws the collisions comes
    # only with a write of $D015 through ``write`` (which ends the region: ENDS_BLOCK in
    # toolchain.c64.io), and never goes
    # the write log too: its consumers set it between runs, and the picture's frame ticker
    # (toolchain.c64.video) at an event, between regions
    REGION_CONSTANTS = {"{chip}.beam is None": "beamless", "{chip}.write_log": "write_log"}

    # reading the flags or the collisions while collisions are drawn latches them (an
    # interrupt may come; the raster's source says itself when its watch starts); any
    # write while collisions are drawn moves their prediction
    EVENT_READS = frozenset({INTERRUPT, SPRITE_SPRITE_COLLISION, SPRITE_DATA_COLLISION})

    @staticmethod
    def compiled_read(register: int) -> Source | str | None:
        """``read`` as source (see toolchain.c64.chips); $D019 needs the method.  Reading
        the raster marks the program as watching it: when it starts watching, its stolen
        cycles come where they happen, a change of the chip's next event."""
        if register in (RASTER, CONTROL_1):
            # the watch first, then the event worked out again with it
            watch = (f"if {{chip}}.watched_until < {{now}} + {WATCH_FRAMES * CYCLES_PER_FRAME}:\n"
                     f"    {{chip}}.watched_until = {{now}} + {WATCH_EXTENSION}\n    {{changed}}")
            if register == RASTER:
                return Source(f"{_LINE_EXPRESSION} & 0xFF", before=watch)
            return Source(f"{{chip}}.registers[{CONTROL_1}] & 0x7F | {_LINE_EXPRESSION} >> 1 & 0x80",
                          before=watch)
        if register == INTERRUPT:
            return None
        if register == INTERRUPT_MASK:
            return "0xF0 | {chip}.mask"
        if register in (SPRITE_SPRITE_COLLISION, SPRITE_DATA_COLLISION):
            return Source("0", guard="{chip}.beam is None")  # nothing drawn, nothing collided
        if register in (LIGHT_PEN_X, LIGHT_PEN_Y):
            return "0"
        if _UNUSED_BITS[register] == 0xFF:
            return "0xFF"
        return f"{{chip}}.registers[{register}] | {_UNUSED_BITS[register]}"

    @staticmethod
    def compiled_poll(register: int, kind: str) -> str | None:
        """A loop that polls ``register`` until it reads (or stops reading) a value, as
        source (see toolchain.c64.io.IOArea.poll_source): the raster ($D012) compared with
        a value, :meth:`raster_polls`; the raster's bit 8 ($D011 bit 7),
        :meth:`raster_high_polls`."""
        if register == RASTER and kind == "compare":
            return "{chip}.raster_polls"
        if register == CONTROL_1 and kind == "sign":
            return "{chip}.raster_high_polls"
        return None

    def raster_polls(self, now: int, horizon: int, value: int, step: int, until_equal: bool) -> int:
        """How many reads of $D012 by a polling loop, one every ``step`` cycles from cycle
        ``now`` (the read's cycle as the compiled read takes it), can be left out: reads
        that give ``value`` (``until_equal`` False: the loop waits while the raster shows
        it) or any other value (True: it waits for it), and change nothing (the watch of
        compiled_read stays as it is), each followed by a check of the CPU's ``horizon``
        that lets the loop go on (``now`` plus the skipped reads' cycles stays below it).
        The read after them is the loop's own: it gives what these reads would have left
        in the registers and flags.  Needs ``step`` below 63 (a line is 62 cycles or more
        long: a loop this fast cannot miss one)."""
        reads = (horizon - now - 1) // step  # the horizon checks after them pass
        unwatched = self.watched_until - WATCH_FRAMES * CYCLES_PER_FRAME - now  # (compiled_read)
        if unwatched < 0 or reads <= 0:
            return 0
        reads = min(reads, unwatched // step + 1)
        position = (now + self.cycle_offset) % CYCLES_PER_FRAME
        line = position // CYCLES_PER_LINE if position else LINES_PER_FRAME - 1  # (raster_line)
        if until_equal:
            if line & 0xFF == value:
                return 0
            # the nearest line with that low byte: its first cycle (line 0 begins one late)
            ahead = min((self._line_start(candidate) - position) % CYCLES_PER_FRAME
                        for candidate in (value, value + 0x100) if candidate < LINES_PER_FRAME)
        else:
            if line & 0xFF != value:
                return 0
            following = line + 1 if line < LINES_PER_FRAME - 1 else 0
            ahead = (self._line_start(following) - position) % CYCLES_PER_FRAME
        return min(reads, -(-ahead // step))

    def raster_high_polls(self, now: int, horizon: int, value: int, step: int, until_equal: bool) -> int:
        """As :meth:`raster_polls`, for a loop that polls bit 7 of $D011 (the raster's bit
        8): the reads left out are those whose bit 7 differs from ``value``'s (``until_equal``
        True: it waits for lines 256-311) or is the same (False: it waits for line 0)."""
        reads = (horizon - now - 1) // step
        unwatched = self.watched_until - WATCH_FRAMES * CYCLES_PER_FRAME - now
        if unwatched < 0 or reads <= 0:
            return 0
        reads = min(reads, unwatched // step + 1)
        position = (now + self.cycle_offset) % CYCLES_PER_FRAME
        line = position // CYCLES_PER_LINE if position else LINES_PER_FRAME - 1
        wanted = bool(value & 0x80) if until_equal else not value & 0x80  # bit 8 of the line ending the loop
        if (line >= 0x100) == wanted:
            return 0
        ahead = ((0x100 * CYCLES_PER_LINE if wanted else self._line_start(0)) - position) % CYCLES_PER_FRAME
        return min(reads, -(-ahead // step))

    @staticmethod
    def compiled_read_ahead(register: int) -> Source | str | None:
        """A read ahead of the machine's clock (see toolchain.c64.chips): the KERNAL's
        interrupt handler leaves the VIC-II alone, so the registers whose source holds
        always; the raster's watch moves only the stolen cycles.  Not the interrupt
        flags and the collisions (their reads latch and release)."""
        found = Vic.compiled_read(register)
        if register in Vic.EVENT_READS or isinstance(found, Source) and found.guard:
            return None
        return found

    @staticmethod
    def compiled_write(register: int) -> Source | None:
        """``write`` as source for the registers that only store the byte, while no
        collisions are drawn (then the write goes to the beam too: the method)."""
        if register not in _STORED:
            return None
        return Source(f"{{chip}}.registers[{register}] = {{value}}\n"
                      "if {chip}.write_log is not None:\n"
                      f"    {{chip}}.write_log.append(({{now}}, {register}, {{value}}))",
                      guard="{chip}.beam is None")

    def write(self, register: int, value: int, now: int) -> None:
        register &= 0x3F
        value &= 0xFF
        if self.write_log is not None:
            self.write_log.append((now, register, value))
        self.advance(now)
        if self.beam is not None:
            self.pending.append((now + self.cycle_offset + 1, register, value))
            self.predicted = None
            if len(self.pending) > 4096:  # nobody looks: draw what is due (or skip the old frames)
                self._collisions_until(now)
        elif register == SPRITE_ENABLE and value:
            self._start_collisions(now)
            assert self.beam is not None
            self.pending.append((now + self.cycle_offset + 1, register, value))
        if register == INTERRUPT:
            self.latched &= ~value & 0x0F  # a 1 acknowledges the source
            return
        if register == INTERRUPT_MASK:
            self.mask = value & 0x0F
            return
        if register in STALL_REGISTERS and value != self.registers[register]:
            self._stall_write(now, register, value)
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

    # -- collisions ---------------------------------------------------------------------------
    def _start_collisions(self, now: int) -> None:
        """Sprites come on: from now on the beam draws them (from this frame's start, with
        the registers as they are, so that the sequencer is where the chip's is)."""
        position = now + self.cycle_offset
        self.beam = Beam(bytearray(self.registers), position - position % CYCLES_PER_FRAME, draw=False)
        self.pending = []

    def _memory(self) -> VideoMemory:
        if self.video is None:
            return VideoMemory(bytes(0x4000), bytes(0x400))  # a chip alone: nothing to see
        return self.video()

    def _collisions_until(self, now: int) -> None:
        """Draw (for collisions) what the beam has passed before the read in cycle ``now``
        (the draws of the cycles up to and including it), and set the interrupt bits."""
        beam = self.beam
        assert beam is not None
        until = now + self.cycle_offset + 1
        if until <= beam.position + beam.checked // 8:
            return
        oldest = until - CATCH_UP_FRAMES * CYCLES_PER_FRAME
        if beam.position < oldest:
            self._skip_to(oldest - oldest % CYCLES_PER_FRAME)
        before_ss, before_sb = beam.sprite_sprite, beam.sprite_background
        beam.run(self.pending, until, self._memory())
        self.pending = [write for write in self.pending if write[0] >= beam.position]
        if beam.sprite_sprite and not before_ss:
            self.latched |= SPRITE_SPRITE_SOURCE
        if beam.sprite_background and not before_sb:
            self.latched |= SPRITE_BACKGROUND_SOURCE

    def _skip_to(self, position: int) -> None:
        """Nobody looked for long: the beam starts again at ``position`` (a frame's start),
        the writes before it applied."""
        beam = self.beam
        assert beam is not None
        registers = beam.registers
        for seen, register, value in self.pending:
            if seen < position:
                registers[register] = value
        fresh = Beam(registers, position, draw=False)
        fresh.sprite_sprite, fresh.sprite_background = beam.sprite_sprite, beam.sprite_background
        self.beam = fresh
        self.pending = [write for write in self.pending if write[0] >= position]

    def _next_collision(self, now: int) -> int:
        """The cycle at which a collision will set an interrupt bit that is enabled and not
        set: the beam drawn ahead (a copy) for up to a frame; if none comes in that time,
        a frame later, to look again (the program may have changed the sprites' memory)."""
        beam = self.beam
        assert beam is not None
        wanted = self.mask & COLLISION_SOURCES & ~self.latched
        if beam.sprite_sprite:
            wanted &= ~SPRITE_SPRITE_SOURCE
        if beam.sprite_background:
            wanted &= ~SPRITE_BACKGROUND_SOURCE
        if not wanted:
            return NEVER
        key = (now, len(self.pending), wanted)
        if self.predicted is not None and self.predicted[0][1:] == key[1:] and self.predicted[1] > now:
            return self.predicted[1]
        ahead = beam.copy()  # from where the beam is (a collision already due: now)
        ahead.sprite_sprite = ahead.sprite_background = 0
        ahead.sprite_sprite_at = ahead.sprite_background_at = None
        end = now + self.cycle_offset + CYCLES_PER_FRAME
        ahead.run(self.pending, end, self._memory())
        found: list[int] = []
        for at, source in ((ahead.sprite_sprite_at, SPRITE_SPRITE_SOURCE),
                           (ahead.sprite_background_at, SPRITE_BACKGROUND_SOURCE)):
            if wanted & source and at is not None:
                found.append(at)
        cycle = min(found) - self.cycle_offset if found else now + CYCLES_PER_FRAME
        cycle = max(cycle, now + 1)
        self.predicted = (key, cycle)
        return cycle

    # -- the cycles taken from the CPU ------------------------------------------------------------
    def start_stalls(self, now: int) -> None:
        """Time up to cycle ``now`` passed without the CPU (BASIC's runner used it): the
        cycles taken from the CPU are counted from there."""
        self.stalls_counted = now

    def steal(self, now: int) -> int:
        """The cycles the VIC-II took from the CPU between the last count and ``now``, the
        CPU's cycle count (which then moves on by them, into more of them, maybe):
        bad lines (BA low in cycles 12-54 for the screen's codes) and sprite DMA (three
        cycles before each sprite's fetches and the two of them), each run of BA low as
        one stall from its first cycle (VICE: the CPU stops at its first read once BA is
        low; the up to three writes it may still make are not told apart here).

        While the program watches the raster (it read $D011/$D012 in the last two or three
        frames: WATCH_EXTENSION, or has the raster interrupt on) or a CIA's timer
        interrupts it often (``interrupts_timed``), each stall is taken where it begins (the
        machine asks at each: :meth:`next_event`); else a frame's stalls are all taken at
        its last one, an event a frame (an event for each would slow every program down by
        half): the CPU's time is right at each frame's end, and nothing but the raster or
        such interrupts can tell where in the frame it waited (a thousand cycles taken at
        once swallowed an NMI every thousand cycles: tests/data/machine/kernal/nmi-repeat).
        :meth:`settle` takes those of a frame begun when a run stops."""
        total = 0
        while True:
            stall = self._next_stall(self.stalls_counted)
            if stall is None or stall[0] > now + total:  # none waits to be taken
                self.stalls_counted = max(self.stalls_counted, now + total)
                return total
            if self._precise(stall[0]):
                total += stall[1]
                self.stalls_counted = stall[0] + stall[1]
                continue
            frame, starts, lengths, index = self._frame_of(stall[0])
            if frame * CYCLES_PER_FRAME + starts[-1] - self.cycle_offset > now + total:
                return total  # the frame's last stall has not come yet
            total += sum(lengths[index:])
            self.stalls_counted = (frame + 1) * CYCLES_PER_FRAME - self.cycle_offset

    def settle(self, now: int) -> int:
        """When a run stops: the stalls up to ``now`` not taken yet (a frame's, taken at
        its end while nobody watches the raster)."""
        total = 0
        while True:
            stall = self._next_stall(self.stalls_counted)
            if stall is None or stall[0] > now + total:
                self.stalls_counted = max(self.stalls_counted, now + total)
                return total
            total += stall[1]
            self.stalls_counted = stall[0] + stall[1]

    def _precise(self, cycle: int) -> bool:
        """Whether the stall at ``cycle`` is taken where it happens (see :meth:`steal`)."""
        return cycle < self.watched_until or bool(self.mask & RASTER_SOURCE) or self.interrupts_timed

    def _frame_of(self, cycle: int) -> tuple[int, list[int], list[int], int]:
        """The frame of the stall at ``cycle``, its stalls, and that stall's index."""
        frame, within = divmod(cycle + self.cycle_offset, CYCLES_PER_FRAME)
        starts, lengths = self._frame_stalls(frame)
        return frame, starts, lengths, bisect.bisect_left(starts, within)

    def _stall_event(self, now: int) -> int | None:
        """When the machine must ask :meth:`steal` next: the next stall's start, or its
        frame's last stall while nobody watches the raster."""
        stall = self._next_stall(max(now, self.stalls_counted))
        if stall is None:
            return None
        if self._precise(stall[0]):
            return stall[0]
        frame, starts, _lengths, _index = self._frame_of(stall[0])
        return frame * CYCLES_PER_FRAME + starts[-1] - self.cycle_offset

    def _next_stall(self, after: int) -> tuple[int, int] | None:
        """The first stall (cycle, length) beginning at or after cycle ``after`` (in this
        frame or the next: a frame without stalls has no bad lines and no sprites)."""
        cached = self._next_stall_cache
        if cached is not None and cached[0] <= after:
            asked, answer = cached
            if answer is None and after < asked + CYCLES_PER_FRAME:
                return None  # nothing has changed since: still none
            if answer is not None and after <= answer[0]:
                return answer  # the same stall
        found = self._find_stall(after)
        self._next_stall_cache = (after, found)
        return found

    def _find_stall(self, after: int) -> tuple[int, int] | None:
        position = after + self.cycle_offset
        frame, within = divmod(position, CYCLES_PER_FRAME)
        for look in (frame, frame + 1):
            starts, lengths = self._frame_stalls(look)
            index = bisect.bisect_left(starts, within if look == frame else 0)
            if index < len(starts):
                return look * CYCLES_PER_FRAME + starts[index] - self.cycle_offset, lengths[index]
        return None

    def _stall_write(self, now: int, register: int, value: int) -> None:
        """A write that may move stolen cycles: kept for the frames it concerns."""
        seen = now + self.cycle_offset + 1
        frame = seen // CYCLES_PER_FRAME
        oldest = (frame - 1) * CYCLES_PER_FRAME
        writes = self.stall_writes
        if writes and writes[0][0] < oldest:
            self.stall_writes = writes = [write for write in writes if write[0] >= oldest]
        writes.append((seen, register, self.registers[register], value))
        self._next_stall_cache = None
        self._frames_stalls = {}

    def _registers_at(self, position: int) -> bytearray:
        """The registers as they were at ``position`` (as far as the kept writes tell)."""
        registers = bytearray(self.registers)
        for seen, register, old, _new in reversed(self.stall_writes):
            if seen <= position:
                break
            registers[register] = old
        return registers

    def _frame_stalls(self, frame: int) -> tuple[list[int], list[int]]:
        """Frame ``frame``'s stalls: their starts (cycles in the frame) and lengths."""
        cached = self._frames_stalls.get(frame)
        if cached is not None:
            return cached
        if len(self._frames_stalls) > 8:
            self._frames_stalls.clear()
        cached = self._frames_stalls[frame] = self._compute_frame_stalls(frame)
        return cached

    def _compute_frame_stalls(self, frame: int) -> tuple[list[int], list[int]]:
        start = frame * CYCLES_PER_FRAME
        kept = self.stall_writes
        if not kept or all(write[0] <= start for write in kept):
            # no write kept from the frame's start on (the usual case: a frame's schedule is
            # asked for as it comes): the registers as they are, no writes during it
            return _stall_schedule(bytes(_STALL_REGISTERS_OF(self.registers)), ())
        registers = self._registers_at(start)
        writes = tuple((seen - start, register, value) for seen, register, _old, value in self.stall_writes
                       if start < seen < start + CYCLES_PER_FRAME)
        return _stall_schedule(bytes(registers[register] for register in _STALL_REGISTER_ORDER), writes)

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


_STALL_REGISTER_ORDER = tuple(sorted(STALL_REGISTERS))
_STALL_REGISTERS_OF = operator.itemgetter(*_STALL_REGISTER_ORDER)  # (more than one: a tuple)


@functools.lru_cache(maxsize=256)
def _stall_schedule(registers: bytes, writes: tuple[tuple[int, int, int], ...]
                    ) -> tuple[list[int], list[int]]:
    """A frame's stalls (starts in the frame, lengths) from the registers at its start
    (those of ``_STALL_REGISTER_ORDER``) and the writes during it (cycle in the frame seen,
    register, value): DEN on line $30 allows bad lines for the frame; each line's YSCROLL
    picks them; sprite DMA runs from the line its Y matches for 21 lines (42 expanded)."""
    state = dict(zip(_STALL_REGISTER_ORDER, registers, strict=True))
    index = 0
    busy = 0  # bit p: BA low in cycle p of the frame
    bad_bits = sum(1 << cycle for cycle in _BAD_LINE_BA)
    end_bits = [sum(1 << cycle for cycle in _SPRITE_BA_END.get(number, ())) for number in range(8)]
    start_bits = [sum(1 << cycle for cycle in _SPRITE_BA_START.get(number, ())) for number in range(8)]
    allow = False
    dma_until = [0] * 8
    for line in range(LINES_PER_FRAME):
        base = line * CYCLES_PER_LINE
        if line == FIRST_DMA_LINE:
            allow = bool(state[CONTROL_1] & 0x10)
        while index < len(writes) and writes[index][0] <= base + 54:
            _seen, register, value = writes[index]
            state[register] = value
            index += 1
            if line == FIRST_DMA_LINE and register == CONTROL_1 and value & 0x10:
                allow = True  # DEN at any cycle of line $30
        if allow and line >= FIRST_DMA_LINE and line & 7 == state[CONTROL_1] & 7:
            busy |= bad_bits << base
        if line == LAST_DMA_LINE:
            allow = False  # after the line: $F7 can be bad (YSCROLL 7; vic_render's Beam._line)
        enable = state[SPRITE_ENABLE]
        if not enable and not any(dma_until):
            continue
        for number in range(8):
            if line >= dma_until[number] and enable >> number & 1 and state[2 * number + 1] == line & 0xFF:
                dma_until[number] = line + (42 if state[0x17] >> number & 1 else 21)
            if line < dma_until[number]:
                busy |= end_bits[number] << base
                busy |= start_bits[number] << (base + CYCLES_PER_LINE)
    busy &= (1 << CYCLES_PER_FRAME) - 1
    starts: list[int] = []
    lengths: list[int] = []
    beginnings = busy & ~(busy << 1)
    while beginnings:
        first = (beginnings & -beginnings).bit_length() - 1
        beginnings &= beginnings - 1
        run = busy >> first
        starts.append(first)
        lengths.append((~run & (run + 1)).bit_length() - 1)  # the run of ones from bit 0
    return starts, lengths
