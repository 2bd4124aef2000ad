"""The VIC-II's picture, line by line: what the chip draws from memory and its
registers, in VICE's framing (384x272 of the PAL frame, borders included), and the
sprite collisions it latches while drawing.

How the chip works, and the exact positions used here, follow VICE 3.10's cycle-exact
VIC-II (x64sc: ``src/viciisc``, the 8565 of the C64C it emulates by default), read for
the facts and measured against its screenshots (tests/test_vic_frames.py):

* **The beam.** A frame has 312 lines of 63 cycles; in cycle ``r`` (0-62) of a line the
  chip draws the 8 pixels ``8r .. 8r+7`` of that line's 504-pixel buffer (VICE's
  ``dbuf``: pixel ``d`` shows the sprite X coordinate ``d + 112`` for ``d >= 112``,
  ``d - 392`` below).  VICE's screenshot shows pixels 104-487 of lines 16-287, so the
  40-column window (sprite X 24-343) is at x 32-351, the 25-row window (lines 51-250)
  at y 35-234.  A register written by the CPU in cycle ``w`` is seen by the chip from
  cycle ``w + 1``: a colour from pixel ``8(w+1)`` on (the 8565 shows that first pixel
  light grey when it was drawn in the written colour: VICE's "grey dot"), the
  multicolour bit from pixel ``8(w+1)+4``, the bitmap and extended-colour bits from
  ``8(w+2)`` (``vicii-draw-cycle.c``).
* **The sequencer** (``vicii-cycle.c``; Christian Bauer's "The MOS 6567/6569 video
  controller" describes the same): bad lines (lines $30-$F7 whose low 3 bits equal
  YSCROLL, while DEN was set on line $30) fetch 40 screen codes and colours; VC, VCBASE
  and RC count through the rows; the display state fetches graphics from the character
  set or the bitmap, the idle state reads $3FFF ($39FF with ECM) and draws it in black.
  A cell's graphics fetched in cycle ``r`` are shown from pixel ``8(r+2) + XSCROLL``.
* **The borders**: the vertical border flip-flop is cleared on line $33 ($37 with 24
  rows) when DEN is set and set on line $FB ($F7); the main border is cleared in cycle
  16 (40 columns) or 17 (38) and set in cycle 56 (40) or 55 (38), as pixels 136/143 and
  456/447.
* **Sprites**: DMA starts when a line's low 8 bits equal the sprite's Y (cycles 54/55),
  the row counters MCBASE/MC and the Y-expansion flip-flop advance as in VICE, the data
  of a line is shown on the next one (a sprite at Y appears on line Y+1); the sprite
  starts where its X equals the pixel's X coordinate, halts while its own DMA runs
  (sprites 0 and 1 in the right border) and stops at its second DMA cycle.  The sprite
  with the lowest number that has a pixel decides the colour; behind the foreground
  graphics (priority bit) it leaves the background's pixel.  Two sprite pixels on one
  spot latch a sprite-sprite collision ($D01E), a sprite pixel on foreground graphics a
  sprite-background collision ($D01F), also under the border.

Memory is read as it is when the frame is drawn (the chip reads it while the beam
passes; writes to memory are not logged): a program that changes the screen or a
character set during the frame shows the last state.  The VIC bank (CIA 2's port A,
$DD00) is switched where the program switched it, a line at a time (:meth:`Beam.run`'s
``banks``: a split between banks, as VICE shows it).

Pixels are palette indices 0-15, one byte each.  Pure Python: the graphics are built a
line at a time with ``bytes.translate`` and integer masks (Pillow and the standard
library; numpy would be faster for whole planes but is not a dependency, and a frame
takes a few milliseconds this way).
"""

from __future__ import annotations

import bisect
import copy
import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

CYCLES_PER_LINE = 63
LINES_PER_FRAME = 312
CYCLES_PER_FRAME = CYCLES_PER_LINE * LINES_PER_FRAME
LINE_PIXELS = CYCLES_PER_LINE * 8  # 504: the pixels of one line's buffer

# VICE's screenshot: pixels 104-487 of lines 16-287 (measured: the text window at 32, 35)
WIDTH, HEIGHT = 384, 272
FIRST_PIXEL, FIRST_LINE = 104, 16
LAST_PIXEL = FIRST_PIXEL + WIDTH  # exclusive
WINDOW_PIXEL = 136  # the first pixel of the 40-column window (sprite X 24)

# registers
SPRITE_X_MSB, CONTROL_1, CONTROL_2 = 0x10, 0x11, 0x16
SPRITE_ENABLE, SPRITE_Y_EXPAND, MEMORY_SETUP = 0x15, 0x17, 0x18
SPRITE_PRIORITY, SPRITE_MULTICOLOUR, SPRITE_X_EXPAND = 0x1B, 0x1C, 0x1D
BORDER, BACKGROUND = 0x20, 0x21
SPRITE_MULTICOLOUR_0, SPRITE_MULTICOLOUR_1, SPRITE_COLOUR = 0x25, 0x26, 0x27
LAST_COLOUR = 0x2E
GREY_DOT = 0x0F  # the 8565's pixel in the written colour register's place (light grey)
COLOUR_REGISTERS = tuple(range(BORDER, LAST_COLOUR + 1))

# the lines and cycles of the sequencer (VICE viciisc's PAL cycle table, cycles 0-62)
FIRST_DMA_LINE, LAST_DMA_LINE = 0x30, 0xF7
ROWS25_START, ROWS25_STOP, ROWS24_START, ROWS24_STOP = 0x33, 0xFB, 0x37, 0xF7
VERTICAL_BORDER_LINES = frozenset({ROWS25_START, ROWS25_STOP, ROWS24_START, ROWS24_STOP})
UPDATE_VC_CYCLE, MATRIX_FETCH_CYCLE, GRAPHICS_FETCH_CYCLE = 13, 14, 15
MCBASE_CYCLE, DMA_CHECK_CYCLES, EXPAND_CYCLE, DISPLAY_CYCLE = 15, (54, 55), 55, 57
LEFT_BORDER_CHECK = 16  # 40 columns; 38 columns one cycle later
RIGHT_BORDER_CHECK = 55  # 38 columns; 40 columns one cycle later
SPRITE_PENDING_PIXEL = 8 * (DISPLAY_CYCLE + 1) + 4  # the display bits reach the drawing (468)
# where a register write is seen, in pixels after 8 * (the cycle after the write): colours
# at once, the multicolour bit at the fifth pixel, the bitmap/extended bits a cycle later
# (VICE draw_graphics8 on the 8565: vmode16_pipe at pixel 4, vmode11_pipe after pixel 7)
GRAPHICS_REGISTER_DELAY = {CONTROL_1: 8, CONTROL_2: 4, BACKGROUND: 0, BACKGROUND + 1: 0,
                           BACKGROUND + 2: 0, BACKGROUND + 3: 0}
# how the shifter reads the graphics: MCM from the eighth pixel (vmode16_pipe2), BMM a cycle later
READING_DELAY = {CONTROL_1: 8, CONTROL_2: 7}
PRIORITY_DELAY = 6  # $D01B: from the seventh pixel of the cycle it is seen in (VICE draw_sprites8)
ATTRIBUTE_DELAY = 6  # $D01C, $D01D: the same (sprite_expx_bits, update_sprite_mc_bits_8565)


def sprite_dma_cycle(sprite: int) -> int:
    """The cycle of sprite ``sprite``'s pointer fetch (VICE's PAL cycle table: sprites
    0-2 at the end of the line, 3-7 at its start)."""
    return 57 + 2 * sprite if sprite < 3 else 2 * (sprite - 3)


def pixel_of_x(x: int) -> int | None:
    """The line buffer pixel where sprite X coordinate ``x`` is drawn (none for
    $1F8-$1FF, which no cycle of a PAL line reaches)."""
    if x < 392:
        return x + 112
    if x < LINE_PIXELS:
        return x - 392
    return None


# -- pixel tables ------------------------------------------------------------------------------

def _hires(byte: int) -> bytes:
    return bytes(3 if byte & (0x80 >> bit) else 0 for bit in range(8))


def _multicolour(byte: int) -> bytes:
    return bytes(byte >> (6 - 2 * (bit // 2)) & 3 for bit in range(8))


PX_HIRES = [_hires(byte) for byte in range(256)]  # a graphics byte as pixel codes 0/3
PX_HIRES_2 = [bytes(2 if code else 0 for code in codes) for codes in PX_HIRES]  # ... as 0/2
PX_MULTI = [_multicolour(byte) for byte in range(256)]  # as pixel pairs 0-3
REPEAT8 = [bytes([value]) * 8 for value in range(256)]
FOREGROUND = bytes(1 if code & 2 else 0 for code in range(256))  # codes 2 and 3 are foreground
IS_CODE = [bytes(0xFF if code == wanted else 0 for code in range(256)) for wanted in range(4)]
LOW_NYBBLE = bytes(value & 0x0F for value in range(256))
HIGH_NYBBLE = bytes(value >> 4 for value in range(256))
LOW_3_BITS = bytes(value & 0x07 for value in range(256))
ECM_CODE = bytes(value & 0x3F for value in range(256))
NO_GRAPHICS = bytes(40)
STALE_CELL = 40  # in a line's cell plane: the screen code latched on the line before

# VICE's colour table (draw_graphics): for each mode (ECM, BMM, MCM) and pixel code, the
# colour register, or the cell's colour source, or black
CELL_SCREEN, CELL_EXTENDED, CELL_LOW, CELL_HIGH, CELL_COLOUR, CELL_COLOUR_MC, BLACK = range(-7, 0)
COLOUR_SOURCES = (
    (BACKGROUND, BACKGROUND, CELL_COLOUR, CELL_COLOUR),  # standard text
    (BACKGROUND, BACKGROUND + 1, BACKGROUND + 2, CELL_COLOUR_MC),  # multicolour text
    (CELL_LOW, CELL_LOW, CELL_HIGH, CELL_HIGH),  # hires bitmap: the screen code's nybbles
    (BACKGROUND, CELL_HIGH, CELL_LOW, CELL_COLOUR),  # multicolour bitmap
    (CELL_EXTENDED, CELL_EXTENDED, CELL_COLOUR, CELL_COLOUR),  # extended colour: $D021-$D024
    (BLACK,) * 4, (BLACK,) * 4, (BLACK,) * 4)  # the invalid modes
# for each mode, the cell sources it draws and the pixel codes drawn in them (a translate table)
CELL_SOURCES = tuple(
    tuple((source, bytes(0xFF if sources[code] == source else 0 for code in range(4)) + bytes(252))
          for source in sorted(set(sources)) if CELL_EXTENDED <= source < BLACK)
    for sources in COLOUR_SOURCES)
ZEROS = bytes(LINE_PIXELS)
NO_SPRITES: list[tuple[bool, int]] = [(False, 0)] * 8  # no sprite shown in a line
WHOLE_LINE = [(0, LINE_PIXELS)]


@functools.lru_cache(maxsize=4096)
def sprite_pixels(data: int, multicolour: bool, expanded: bool) -> tuple[int, ...]:
    """A sprite row (24 bits) as its pixel codes (0 transparent, 1 multicolour 0, 2 the
    sprite's colour, 3 multicolour 1), doubled when expanded in X."""
    if multicolour:
        pixels = [data >> (22 - 2 * (bit // 2)) & 3 for bit in range(24)]
    else:
        pixels = [(data >> (23 - bit) & 1) << 1 for bit in range(24)]
    if expanded:
        pixels = [pixel for pixel in pixels for _ in (0, 1)]
    while pixels and not pixels[-1]:
        pixels.pop()  # the sprite stops when its shift register is empty
    return tuple(pixels)


# -- what the chip reads -------------------------------------------------------------------------

@dataclass(frozen=True)
class VideoMemory:
    """The 16 KiB the VIC-II sees (its bank of RAM, the character ROM at $1000-$1FFF of
    banks 0 and 2) and colour RAM."""

    bank: bytes  # 16384 bytes
    colours: bytes  # 1024 bytes, low nybbles

    @classmethod
    def of(cls, ram: bytes | bytearray, bank: int, chargen: bytes, colour_ram: bytes | bytearray
           ) -> VideoMemory:
        """``ram``: the 64 KiB of RAM (the RAM under ROMs and the I/O area, not what the
        CPU reads there); ``bank``: 0-3 ($0000, $4000, $8000, $C000)."""
        start = bank * 0x4000
        view = bytearray(ram[start : start + 0x4000])
        if bank in (0, 2):
            view[0x1000:0x2000] = chargen[:0x1000]
        return cls(bytes(view), bytes(colour_ram[:0x400]).translate(LOW_NYBBLE))


# -- the register state within a line ------------------------------------------------------------

class LineRegisters:
    """The registers through one line: ``at(cycle)`` is the state the chip sees in that
    cycle (a write is seen from the cycle after the CPU's)."""

    __slots__ = ("starts", "states", "writes")

    def __init__(self, registers: bytearray, writes: list[tuple[int, int, int]]) -> None:
        """``writes``: (cycle in the line from which it is seen, register, value), in
        order; ``registers`` ends as the state after the line."""
        self.writes = writes
        self.starts = [0]
        self.states = [bytes(registers)]
        for cycle, register, value in writes:
            registers[register] = value
            if self.starts[-1] == cycle:
                self.states[-1] = bytes(registers)
            else:
                self.starts.append(cycle)
                self.states.append(bytes(registers))

    def at(self, cycle: int) -> bytes:
        if len(self.starts) == 1:
            return self.states[0]
        return self.states[bisect.bisect_right(self.starts, cycle) - 1]

    def written(self, registers: Sequence[int]) -> bool:
        return any(register in registers for _, register, _ in self.writes)

    def pixel_states(self, delays: dict[int, int]) -> list[tuple[int, bytes]]:
        """[(pixel, state), ...]: from each pixel on, the registers as the drawing sees
        them, for the registers in ``delays`` (register: pixels after 8 * cycle)."""
        first = self.states[0]
        changes = sorted((8 * cycle + delays[register], index) for index, (cycle, register, _)
                         in enumerate(self.writes) if register in delays)
        if not changes:
            return [(0, first)]
        current = bytearray(first)
        points = [(0, first)]
        for pixel, index in changes:
            _, register, value = self.writes[index]
            current[register] = value
            if points[-1][0] == pixel:
                points[-1] = (pixel, bytes(current))
            else:
                points.append((pixel, bytes(current)))
        return points


# -- sprites ---------------------------------------------------------------------------------------

@dataclass
class SpriteUnit:
    """One sprite's sequencer (VICE's vicii.sprite[i] and its DMA/display bits)."""

    dma: bool = False
    display: bool = False
    mcbase: int = 0
    mc: int = 0
    expand_flop: bool = True
    data: int = 0  # the last row fetched (24 bits)


# -- the beam ------------------------------------------------------------------------------------

@dataclass
class Beam:
    """The VIC-II drawing from ``position`` on (a cycle count that is 0 at a frame's
    first line: frame * 19656 + line * 63 + cycle).  :meth:`run` processes the lines
    up to a position, with the register writes made meanwhile: the visible lines are
    drawn into ``pixels`` (384x272 palette indices) when ``draw``; collisions are
    latched into ``sprite_sprite`` and ``sprite_background``, with the position of the
    first of each while the register was 0."""

    registers: bytearray
    position: int = 0
    draw: bool = True
    grey_dots: bool = True  # the 8565 (VICE x64sc's default C64C); False for the 6569
    pixels: bytearray = field(default_factory=lambda: bytearray(WIDTH * HEIGHT))
    sprite_sprite: int = 0
    sprite_background: int = 0
    sprite_sprite_at: int | None = None
    sprite_background_at: int | None = None
    # the graphics sequencer
    vc: int = 0
    vcbase: int = 0
    rc: int = 0
    idle: bool = True
    allow_bad_lines: bool = False
    vertical_border: bool = True
    main_border: bool = True
    codes: bytes = bytes(40)  # the screen codes and colours of the last bad line
    cell_colours: bytes = bytes(40)
    stale: int = 0  # the screen code latched last (colours the pixels outside the cells)
    sprites: list[SpriteUnit] = field(default_factory=lambda: [SpriteUnit() for _ in range(8)])
    shown: list[tuple[bool, int]] = field(default_factory=lambda: NO_SPRITES)
    sprites_active: bool = False  # a sprite's DMA is on (else its logic has nothing to do)
    checked: int = 0  # the first pixel of the current line not yet checked for collisions

    def __post_init__(self) -> None:
        if not self.draw:
            self.pixels = bytearray()

    def copy(self) -> Beam:
        """An independent beam in the same state (to draw ahead)."""
        twin = copy.copy(self)
        twin.registers = bytearray(self.registers)
        twin.pixels = bytearray(self.pixels)
        twin.sprites = [SpriteUnit(**vars(unit)) for unit in self.sprites]
        return twin

    def run(self, writes: Sequence[tuple[int, int, int]], until: int, memory: VideoMemory,
            banks: Sequence[tuple[int, VideoMemory]] = ()) -> None:
        """Process the lines up to position ``until`` (a line begun is checked for
        collisions up to there, and processed whole by a later call); ``writes``:
        (position from which it is seen, register, value), in order, at least those
        before ``until`` (earlier ones than this beam's position count at once).
        ``banks``: (position from which it is seen, memory), in order: the VIC bank CIA 2
        switched to (a split between banks); a line reads the memory seen in the cycle of
        its first fetch (MATRIX_FETCH_CYCLE), ``memory`` before the first."""
        index = 0
        count = len(writes)
        switches = [position for position, _ in banks]
        while self.position < until:
            end = self.position + CYCLES_PER_LINE
            if banks:
                switch = bisect.bisect_right(switches, self.position + MATRIX_FETCH_CYCLE) - 1
                if switch >= 0:
                    memory = banks[switch][1]
            line_writes = []
            while index < count and writes[index][0] < end:
                seen, register, value = writes[index]
                line_writes.append((max(0, seen - self.position), register, value))
                index += 1
            cycles = until - self.position
            if cycles < CYCLES_PER_LINE:
                saved = self._state()
                self._line(LineRegisters(self.registers, line_writes), memory, cycles)
                self._restore(saved)
                return
            self._line(LineRegisters(self.registers, line_writes), memory, CYCLES_PER_LINE)
            self.position = end
            self.checked = 0

    def _state(self) -> tuple:
        return (bytes(self.registers), self.vc, self.vcbase, self.rc, self.idle, self.allow_bad_lines,
                self.vertical_border, self.main_border, self.codes, self.cell_colours, self.stale,
                [SpriteUnit(**vars(unit)) for unit in self.sprites], self.shown, self.sprites_active)

    def _restore(self, state: tuple) -> None:
        (registers, self.vc, self.vcbase, self.rc, self.idle, self.allow_bad_lines, self.vertical_border,
         self.main_border, self.codes, self.cell_colours, self.stale, self.sprites, self.shown,
         self.sprites_active) = state
        self.registers[:] = registers

    # -- one line ------------------------------------------------------------------------------
    def _line(self, state: LineRegisters, memory: VideoMemory, cycles: int) -> None:
        """One line with its registers ``state``; ``cycles`` < 63: only its first cycles
        are checked for collisions (the caller puts the beam's state back)."""
        line = self.position // CYCLES_PER_LINE % LINES_PER_FRAME
        if line == 0:
            self.vcbase = self.vc = 0
            self.allow_bad_lines = False
        control = state.at(UPDATE_VC_CYCLE)[CONTROL_1]
        if line == FIRST_DMA_LINE and control & 0x10:
            self.allow_bad_lines = True
        bad_line = self.allow_bad_lines and (line & 7) == (control & 7)
        if line == LAST_DMA_LINE:
            # $F7 is the last line that can be bad (Bauer: "RASTER >= $30 and RASTER <=
            # $f7"); VICE's vicii_cycle_start_of_line clears allow_bad_lines as line $F7
            # ends, so YSCROLL 7 has a 25th row fetched there
            self.allow_bad_lines = False
        if bad_line:
            self.idle = False
        if line in VERTICAL_BORDER_LINES:
            vertical_border = self._vertical_border(line, state)
        else:
            vertical_border = self.vertical_border
        # the fetches: a bad line reads the screen codes and colours (cycles 14-53), every
        # line its 40 graphics bytes (15-54)
        self.vc = self.vcbase
        if bad_line:
            self.rc = 0
            matrix = (state.at(MATRIX_FETCH_CYCLE)[MEMORY_SETUP] >> 4) * 0x400
            self.codes = _wrapped(memory.bank, matrix, self.vc)
            self.cell_colours = _wrapped(memory.colours, 0, self.vc)
        graphics, codes, colours = self._fetch(state, memory)
        if not self.idle:
            self.vc = (self.vc + 40) & 0x3FF
        if vertical_border:
            graphics = NO_GRAPHICS  # the border flip-flop keeps the graphics out (VICE: gbuf 0)
        stale_before = self.stale
        if not vertical_border:
            self.stale = codes[39]
        # sprites: this line buffer shows the rows the previous line fetched
        shown = self.shown
        if self.sprites_active or state.at(DMA_CHECK_CYCLES[0])[SPRITE_ENABLE] \
                or state.at(DMA_CHECK_CYCLES[1])[SPRITE_ENABLE]:
            self._sprite_sequencer(line, state, memory)
        borders = self._border_spans(state, vertical_border)
        visible = self.draw and cycles == CYCLES_PER_LINE and FIRST_LINE <= line < FIRST_LINE + HEIGHT
        sprites_on = shown is not NO_SPRITES or self.shown is not NO_SPRITES
        # a line all border is drawn in its colours alone, unless a colour register is
        # written in it: the 8565's grey dot shows in the border too (VICE
        # draw_colors_8565 for $D020), which the general path below draws
        if visible and not sprites_on and borders == WHOLE_LINE and not (
                self.grey_dots and state.written(COLOUR_REGISTERS)):
            whole = bytearray(LINE_PIXELS)
            self._borders(state, borders, whole)
            y = line - FIRST_LINE
            self.pixels[y * WIDTH : (y + 1) * WIDTH] = whole[FIRST_PIXEL:LAST_PIXEL]
        elif visible or sprites_on:
            pixels, foreground, sources = self._graphics(state, graphics, codes, colours, stale_before,
                                                         visible)
            sprite_sources: dict[int, int] = {}
            if sprites_on:
                self._sprites(state, shown, foreground, pixels, sprite_sources, cycles)
            if pixels is not None:
                self._borders(state, borders, pixels)
                if self.grey_dots and state.writes:
                    self._grey_dots(state, pixels, borders, sources, sprite_sources, codes, stale_before)
                y = line - FIRST_LINE
                self.pixels[y * WIDTH : (y + 1) * WIDTH] = pixels[FIRST_PIXEL:LAST_PIXEL]
        # the row counter (cycle 57)
        if self.rc == 7:
            self.idle = True
            self.vcbase = self.vc
        if not self.idle or bad_line:
            self.rc = (self.rc + 1) & 7
            self.idle = False

    def _vertical_border(self, line: int, state: LineRegisters) -> bool:
        """The vertical border flip-flop on one of its lines, as VICE's vicii_cycle checks it
        (vicii-cycle.c): in every cycle, with $D011 as it is then, the first line of the
        window (RSEL's) with DEN set clears it, the line after the window (RSEL's) sets
        it for the next line; the main border takes it at its left check (cycle 16 with
        40 columns, else 17).  Returns the flip-flop as this line's left check sees it;
        ``self.vertical_border`` is left as the next line starts with it."""
        left = LEFT_BORDER_CHECK if state.at(LEFT_BORDER_CHECK)[CONTROL_2] & 0x08 else LEFT_BORDER_CHECK + 1
        border = self.vertical_border
        at_left: bool | None = None
        starts = state.starts
        for index, registers in enumerate(state.states):
            first = starts[index]
            last = starts[index + 1] - 1 if index + 1 < len(starts) else CYCLES_PER_LINE - 1
            control = registers[CONTROL_1]
            opens = line == (ROWS25_START if control & 0x08 else ROWS24_START) and bool(control & 0x10)
            closes = line == (ROWS25_STOP if control & 0x08 else ROWS24_STOP)
            if first <= left and (opens or closes):  # in cycles up to the left check
                border = closes
            if at_left is None and last >= left:
                at_left = border
            if last > left and (opens or closes):  # after it: for the next line
                border = closes
        self.vertical_border = border
        assert at_left is not None
        return at_left

    # -- graphics ------------------------------------------------------------------------------
    def _fetch(self, state: LineRegisters, memory: VideoMemory) -> tuple[bytes, bytes, bytes]:
        """The 40 graphics bytes the line fetches in cycles 15-54, with the screen codes
        and colours drawn with them (both 0 in the idle state).  A fetch sees $D018 as it
        is in its cycle and $D011 as it was the cycle before (the 8565: VICE's
        reg11_delay)."""
        if not any(13 <= cycle <= 54 and register in (CONTROL_1, MEMORY_SETUP)
                   for cycle, register, _ in state.writes):
            setup = state.at(GRAPHICS_FETCH_CYCLE)
            return self._fetch_cells(state.at(GRAPHICS_FETCH_CYCLE - 1)[CONTROL_1], setup[MEMORY_SETUP],
                                     memory, 0, 40)
        parts = []
        first = 0
        key = None
        for cell in range(41):
            cycle = GRAPHICS_FETCH_CYCLE + cell
            now = (state.at(cycle - 1)[CONTROL_1], state.at(cycle)[MEMORY_SETUP]) if cell < 40 else None
            if now != key:
                if key is not None:
                    parts.append(self._fetch_cells(key[0], key[1], memory, first, cell - first)[0])
                key, first = now, cell
        graphics = b"".join(parts)
        if self.idle:
            return graphics, NO_GRAPHICS, NO_GRAPHICS
        return graphics, self.codes, self.cell_colours

    def _fetch_cells(self, control: int, setup: int, memory: VideoMemory, first: int, count: int
                     ) -> tuple[bytes, bytes, bytes]:
        """The graphics bytes of cells ``first`` .. ``first + count - 1``."""
        ecm, bmm = control & 0x40, control & 0x20
        bank = memory.bank
        if self.idle:
            return bytes([bank[0x39FF if ecm else 0x3FFF]]) * count, NO_GRAPHICS, NO_GRAPHICS
        rc, vc = self.rc, self.vc + first
        if bmm:
            base = (setup & 0x08) << 10
            if vc + count <= 0x400 and not ecm:
                start = base | vc << 3 | rc
                graphics = bank[start : start + 8 * count : 8]
            else:
                mask = 0x39FF if ecm else 0x3FFF
                graphics = bytes(bank[(base | ((vc + k) & 0x3FF) << 3 | rc) & mask] for k in range(count))
            return graphics, self.codes, self.cell_colours
        charset = (setup & 0x0E) << 10
        glyph_row = bank[charset + rc : charset + rc + 2048 : 8]
        codes = self.codes[first : first + count]
        return (codes.translate(ECM_CODE) if ecm else codes).translate(glyph_row), self.codes, \
            self.cell_colours

    def _graphics(self, state: LineRegisters, graphics: bytes, codes: bytes, colours: bytes, stale: int,
                  visible: bool) -> tuple[bytearray | None, bytes, tuple[bytes, bytes, list]]:
        """The line's graphics as VICE's draw_graphics8 makes them: the 504 pixels (when
        ``visible``), the foreground (1 per foreground pixel), and what the grey dots
        need (the pixel codes, the latched cells, the colour modes)."""
        latches = self._latches(state)
        cells = _cell_plane(latches)
        # the pixel codes, read as the pipeline's vmode16_pipe2 (MCM, 7 pixels after the
        # write's cycle) and vmode11_pipe (BMM, a cycle later) say
        readings = state.pixel_states(READING_DELAY)
        exact = state.written((CONTROL_2,))
        plane = None
        for index, (pixel, registers) in enumerate(readings):
            end = readings[index + 1][0] if index + 1 < len(readings) else LINE_PIXELS
            codes_here = _pixel_codes(registers[CONTROL_2] & 0x10, registers[CONTROL_1] & 0x20, graphics,
                                      colours, latches, exact)
            plane = codes_here if plane is None else plane[:pixel] + codes_here[pixel:end] + plane[end:]
        assert plane is not None
        if len(readings) > 1:
            plane = self._multicolour_flop(state, plane, graphics, colours, latches)
        foreground = plane.translate(FOREGROUND)
        points = state.pixel_states(GRAPHICS_REGISTER_DELAY)
        modes = [(pixel, _mode_of(registers)) for pixel, registers in points]
        if not visible:
            return None, foreground, (plane, cells, modes)
        tables = _cell_tables(codes, colours, stale)
        pixels = bytearray(LINE_PIXELS)
        for index, (pixel, registers) in enumerate(points):
            end = points[index + 1][0] if index + 1 < len(points) else LINE_PIXELS
            if pixel < end:
                pixels[pixel:end] = _colours(_mode_of(registers), plane, cells, tables, registers)[pixel:end]
        return pixels, foreground, (plane, cells, modes)

    def _latches(self, state: LineRegisters) -> tuple[int, ...]:
        """Where each cell's graphics are latched into the shifter: cell k, fetched in
        cycle 15+k, in the draw of cycle 17+k at the pixel XSCROLL gives as the draw before
        left it (VICE draw_graphics8: xscroll_pipe)."""
        if not state.written((CONTROL_2,)):
            return _regular_latches(state.at(16)[CONTROL_2] & 7)
        return tuple(8 * (17 + cell) + (state.at(min(16 + cell, 54))[CONTROL_2] & 7) for cell in range(40))

    def _multicolour_flop(self, state: LineRegisters, plane: bytes, graphics: bytes, colours: bytes,
                          latches: tuple[int, ...]) -> bytes:
        """Where MCM comes on in the middle of a cell, VICE clears the multicolour flip-flop
        (draw_graphics8, pixel 7): the pixel pairs are read from the next pixel on until
        the next cell's latch sets it again."""
        result = bytearray(plane)
        before = state.states[0][CONTROL_2] & 0x10
        for cycle, register, value in state.writes:
            if register != CONTROL_2:
                continue
            now = value & 0x10
            if now and not before:
                pixel = 8 * cycle + 7
                cell = bisect.bisect_right(latches, pixel) - 1
                if 0 <= cell < 40 and pixel not in latches:
                    bmm = state.at(cycle + 1)[CONTROL_1] & 0x20
                    if bmm or colours[cell] & 8:
                        byte = graphics[cell]
                        end = latches[cell + 1] if cell + 1 < 40 else LINE_PIXELS
                        held = result[pixel - 1]
                        for position in range(pixel, min(end, LINE_PIXELS)):
                            if (position - pixel) & 1:
                                bit = position - latches[cell]
                                held = byte << bit >> 6 & 3 if bit < 8 else 0
                            result[position] = held
            before = now
        return bytes(result)

    # -- borders -----------------------------------------------------------------------------------
    def _border_spans(self, state: LineRegisters, vertical_border: bool) -> list[tuple[int, int]]:
        """The pixels of this line buffer covered by the border: VICE's draw_border8, the
        main border flip-flop cleared in cycle 16 (40 columns) or 17 (38) unless the
        vertical border is on, set in 56 (40) or 55 (38)."""
        main = self.main_border
        if not state.written((CONTROL_2,)) and main:
            wide = state.states[0][CONTROL_2] & 0x08
            if vertical_border:
                return WHOLE_LINE
            return [(0, WINDOW_PIXEL if wide else WINDOW_PIXEL + 7),
                    (8 * (RIGHT_BORDER_CHECK + 2) if wide else 8 * RIGHT_BORDER_CHECK + 7, LINE_PIXELS)]
        spans: list[tuple[int, int]] = []
        border = main  # VICE's border_state: the flip-flop as the drawing saw it last
        for cycle in range(CYCLES_PER_LINE):
            wide = state.at(cycle)[CONTROL_2] & 0x08
            if cycle == (LEFT_BORDER_CHECK if wide else LEFT_BORDER_CHECK + 1) and not vertical_border:
                main = False
            elif cycle == (RIGHT_BORDER_CHECK + 1 if wide else RIGHT_BORDER_CHECK):
                main = True
            first = 8 * cycle
            if border:
                spans.append((first, first + (8 if wide else 7)))
            if not wide and main:
                spans.append((first + 7, first + 8))
            border = main
        self.main_border = main
        return _merge(spans)

    def _borders(self, state: LineRegisters, spans: list[tuple[int, int]], pixels: bytearray) -> None:
        points = state.pixel_states({BORDER: 0})
        for index, (pixel, registers) in enumerate(points):
            end = points[index + 1][0] if index + 1 < len(points) else LINE_PIXELS
            colour = REPEAT8[registers[BORDER] & 0x0F]
            for first, last in spans:
                low, high = max(first, pixel), min(last, end)
                if low < high:
                    pixels[low:high] = (colour * ((high - low + 7) // 8))[: high - low]

    def _grey_dots(self, state: LineRegisters, pixels: bytearray, borders: list[tuple[int, int]],
                   sources: tuple[bytes, bytes, list[tuple[int, int]]], sprite_sources: dict[int, int],
                   codes: bytes, stale: int) -> None:
        """The 8565 draws the first pixel after a colour register write in light grey
        where that pixel is drawn in the written register's colour (VICE
        draw_colors_8565)."""
        for cycle, register, _value in state.writes:
            pixel = 8 * cycle
            if not (BORDER <= register <= LAST_COLOUR and FIRST_PIXEL <= pixel < LAST_PIXEL):
                continue
            if any(first <= pixel < last for first, last in borders):
                source: int | None = BORDER
            elif pixel in sprite_sources:
                source = sprite_sources[pixel]
            else:
                source = _graphics_register(pixel, *sources, codes, stale)
            if source == register:
                pixels[pixel] = GREY_DOT

    # -- sprites -------------------------------------------------------------------------------
    def _sprite_sequencer(self, line: int, state: LineRegisters, memory: VideoMemory) -> None:
        """The sprite logic of this line (VICE vicii_cycle: MCBASE in cycle 15, DMA in
        54/55, Y expansion in 55, the display bits and MC in 57, then the data); the rows
        fetched become ``shown`` (for the next line buffer).  Writes to $D017 in the line
        act where they are seen (:meth:`_expand_writes`)."""
        units = self.sprites
        self.sprites_active = False
        expand_writes = [(cycle, value) for cycle, register, value in state.writes
                         if register == SPRITE_Y_EXPAND]
        expand = state.states[0][SPRITE_Y_EXPAND]
        if expand_writes:
            expand = self._expand_writes(expand_writes, 0, MCBASE_CYCLE, expand)
        for unit in units:
            if unit.expand_flop:
                unit.mcbase = unit.mc
                if unit.mcbase == 63:
                    unit.dma = False
        if expand_writes:
            expand = self._expand_writes(expand_writes, MCBASE_CYCLE + 1, EXPAND_CYCLE, expand)
        for cycle in DMA_CHECK_CYCLES:
            registers = state.at(cycle)
            enable = registers[SPRITE_ENABLE]
            if not enable:
                continue
            for number, unit in enumerate(units):
                if enable >> number & 1 and registers[2 * number + 1] == line & 0xFF and not unit.dma:
                    unit.dma = True
                    unit.mcbase = 0
                    unit.expand_flop = True
        expand = state.at(EXPAND_CYCLE)[SPRITE_Y_EXPAND]
        registers = state.at(DISPLAY_CYCLE)
        enable = registers[SPRITE_ENABLE]
        matrix = (registers[MEMORY_SETUP] >> 4) * 0x400 + 0x3F8
        bank = memory.bank
        shown = []
        for number, unit in enumerate(units):
            if unit.dma and expand >> number & 1:
                unit.expand_flop = not unit.expand_flop
        if expand_writes:
            self._expand_writes(expand_writes, EXPAND_CYCLE + 1, CYCLES_PER_LINE - 1, expand)
        for number, unit in enumerate(units):
            unit.mc = unit.mcbase
            if unit.dma:
                if enable >> number & 1 and registers[2 * number + 1] == line & 0xFF:
                    unit.display = True
                pointer = bank[matrix + number] * 64
                mc = unit.mc
                unit.data = bank[pointer + mc] << 16 | bank[pointer + (mc + 1) % 64] << 8 \
                    | bank[pointer + (mc + 2) % 64]
                unit.mc = (mc + 3) & 0x3F
            else:
                unit.display = False
            shown.append((unit.display, unit.data))
            self.sprites_active = self.sprites_active or unit.dma
        self.shown = shown if any(on for on, _ in shown) else NO_SPRITES

    def _expand_writes(self, writes: list[tuple[int, int]], first: int, last: int, previous: int) -> int:
        """The writes to $D017 seen in cycles ``first`` .. ``last`` of the line (``previous``:
        the register before them; returned as after them).  As VICE's d017_store: a bit
        cleared while its sprite's expansion flip-flop is clear sets the flip-flop (so that
        MCBASE moves on from MC again), and in the cycle before MCBASE is updated (the
        write seen in MCBASE_CYCLE) it also mixes MCBASE into MC, the "sprite crunch":
        MC = (%101010 & (MCBASE & MC)) | (%010101 & (MCBASE | MC)).  Without this a
        sprite whose Y expansion is switched off while its flip-flop is clear never
        moved on to its next row (nor ended)."""
        for cycle, value in writes:
            if not first <= cycle <= last:
                continue
            if value != previous:
                for number, unit in enumerate(self.sprites):
                    if not value >> number & 1 and not unit.expand_flop:
                        if cycle == MCBASE_CYCLE:
                            unit.mc = (0x2A & (unit.mcbase & unit.mc)) | (0x15 & (unit.mcbase | unit.mc))
                        unit.expand_flop = True
            previous = value
        return previous

    def _sprites(self, state: LineRegisters, shown: list[tuple[bool, int]], foreground: bytes,
                 pixels: bytearray | None, sources: dict[int, int], cycles: int) -> None:
        """Draw the sprites of this line buffer and latch their collisions.  ``shown``:
        the rows the previous line fetched (its display bits); from pixel 468 on the
        display bits are this line's, and sprites 0 and 1 show the row fetched in their
        DMA cycles at its end (``self.shown``)."""
        limit = min(LINE_PIXELS, 8 * cycles)
        occupied: dict[int, int] = {}
        # $D01C or $D01D written in the line: the sprites are shifted out pixel by pixel
        attributes = None
        if state.written((SPRITE_MULTICOLOUR, SPRITE_X_EXPAND)):
            attributes = state.pixel_states({SPRITE_MULTICOLOUR: ATTRIBUTE_DELAY,
                                             SPRITE_X_EXPAND: ATTRIBUTE_DELAY})
        values: dict[int, int] = {}
        for number in range(7, -1, -1):
            if len(state.starts) == 1:
                registers = state.states[0]
                start = pixel_of_x(registers[2 * number] | (registers[SPRITE_X_MSB] >> number & 1) << 8)
            else:  # X as it is when the beam gets there
                start = _sprite_start(state, number)
                registers = state.at(start // 8) if start is not None else state.states[0]
            if start is None:
                continue
            dma = sprite_dma_cycle(number)
            halt_from, cut, halt_end = 8 * (dma + 1) + 3, 8 * (dma + 2) + 2, 8 * (dma + 2) + 7
            on, data = shown[number]
            if start >= SPRITE_PENDING_PIXEL:
                on = self.shown[number][0]
            if dma >= 57 and start >= halt_end:
                data = self.shown[number][1]
            if not on or halt_from <= start < halt_end or start >= limit:
                continue
            if attributes is not None:
                run = _sprite_pixels_exact(data, number, start, attributes)
            else:
                run = sprite_pixels(data, bool(registers[SPRITE_MULTICOLOUR] >> number & 1),
                                    bool(registers[SPRITE_X_EXPAND] >> number & 1))
            bit = 1 << number
            end = min(start + len(run), limit)
            if start < halt_from < end:  # halted in its DMA cycles: the last pixel held, then stopped
                held = run[halt_from - start - 1]
                run = run[: halt_from - start] + (held,) * (cut - halt_from)
                end = min(start + len(run), limit)
            for position in range(start, end):
                value = run[position - start]
                if value:
                    occupied[position] = occupied.get(position, 0) | bit
                    values[position] = value  # lower numbers come later: they win
        if not occupied:
            return
        priority = state.at(0)[SPRITE_PRIORITY]
        # $D01B written in the line: VICE's draw_sprites8 takes it (sprite_pri_bits) at the
        # seventh pixel of each cycle, so from pixel 8 * (the cycle it is seen) + 6
        priorities = state.pixel_states({SPRITE_PRIORITY: PRIORITY_DELAY}) \
            if state.written((SPRITE_PRIORITY,)) else None
        checked = self.checked
        new_ss = new_sb = 0
        for position, sprites in occupied.items():
            behind_graphics = foreground[position]
            if position >= checked:
                if sprites & (sprites - 1):
                    if not self.sprite_sprite and not new_ss:
                        self.sprite_sprite_at = self.position + position // 8
                    new_ss |= sprites
                if behind_graphics:
                    if not self.sprite_background and not new_sb:
                        self.sprite_background_at = self.position + position // 8
                    new_sb |= sprites
            if pixels is not None:
                top = (sprites & -sprites).bit_length() - 1
                if priorities is not None:
                    priority = _state_at_pixel(priorities, position)[SPRITE_PRIORITY]
                if not (behind_graphics and priority >> top & 1):
                    register = (SPRITE_MULTICOLOUR_0, SPRITE_COLOUR + top, SPRITE_MULTICOLOUR_1)[
                        values[position] - 1]
                    pixels[position] = state.at(position // 8)[register] & 0x0F
                    sources[position] = register
        self.sprite_sprite |= new_ss
        self.sprite_background |= new_sb
        self.checked = max(checked, limit)


def _sprite_pixels_exact(data: int, number: int, start: int, points: list[tuple[int, bytes]]
                         ) -> tuple[int, ...]:
    """A sprite row's pixel codes from pixel ``start`` on (as :func:`sprite_pixels`) when
    its multicolour or X expansion bit changes while it is shifted out: VICE 3.10's
    draw_sprites for the 8565 (viciisc/vicii-draw-cycle.c, before the SPRITESPLITPATCH
    of later versions), pixel by pixel.  The shifter loads a pixel when the X expansion
    flip-flop is set (two bits in multicolour while the multicolour flip-flop is set, one
    bit in hires), and then shifts; the bits come from $D01C/$D01D at the seventh pixel
    of each cycle (``points``: :meth:`LineRegisters.pixel_states`), where a change of
    the multicolour bit toggles the multicolour flip-flop while the expansion flip-flop
    is clear (update_sprite_mc_bits_8565)."""
    mask = 1 << number
    registers = _state_at_pixel(points, start)
    multicolour = bool(registers[SPRITE_MULTICOLOUR] & mask)
    expand = bool(registers[SPRITE_X_EXPAND] & mask)
    shifter, pixel = data, 0
    expand_flop = multicolour_flop = True  # set when the sprite starts (trigger_sprites)
    pixels: list[int] = []
    for position in range(start, LINE_PIXELS):
        if position & 7 == ATTRIBUTE_DELAY and position != start:
            registers = _state_at_pixel(points, position)
            now = bool(registers[SPRITE_MULTICOLOUR] & mask)
            if now != multicolour and not expand_flop:
                multicolour_flop = not multicolour_flop
            multicolour = now
            expand = bool(registers[SPRITE_X_EXPAND] & mask)
        if not shifter and not pixel:
            break
        if expand_flop:
            if multicolour:
                if multicolour_flop:
                    pixel = shifter >> 22 & 3
                multicolour_flop = not multicolour_flop
            else:
                pixel = (shifter >> 23 & 1) << 1
            shifter = shifter << 1 & 0xFFFFFF
        expand_flop = not expand_flop if expand else True
        pixels.append(pixel)
    while pixels and not pixels[-1]:
        pixels.pop()
    return tuple(pixels)


def _sprite_start(state: LineRegisters, number: int) -> int | None:
    """Where sprite ``number`` starts in a line whose registers change: the first pixel
    whose X coordinate equals the sprite's X as the comparison sees it.  VICE's
    draw_sprites8 compares with sprite_x_pipe, which takes the X registers after the
    pixels of each cycle: the pixels of cycle k see X as it was in cycle k - 1 (a write
    seen in cycle c counts from pixel 8c + 8)."""
    starts, states = state.starts, state.states
    for index, registers in enumerate(states):
        first = 8 * (starts[index] + 1) if index else 0
        last = 8 * (starts[index + 1] + 1) if index + 1 < len(starts) else LINE_PIXELS
        start = pixel_of_x(registers[2 * number] | (registers[SPRITE_X_MSB] >> number & 1) << 8)
        if start is not None and first <= start < last:
            return start
    return None


def _state_at_pixel(points: list[tuple[int, bytes]], pixel: int) -> bytes:
    """The registers from :meth:`LineRegisters.pixel_states` in force at ``pixel``."""
    state = points[0][1]
    for first, registers in points:
        if first > pixel:
            break
        state = registers
    return state


def _mode_of(registers: bytes) -> int:
    """ECM, BMM, MCM as a number 0-7 (VICE's vmode)."""
    return (registers[CONTROL_1] & 0x60 | registers[CONTROL_2] & 0x10) >> 4


def _wrapped(data: bytes, base: int, start: int) -> bytes:
    if start + 40 <= 0x400:
        return data[base + start : base + start + 40]
    return bytes(data[base + ((start + k) & 0x3FF)] for k in range(40))


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for first, last in sorted(spans):
        if merged and first <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


@functools.lru_cache(maxsize=16)
def _regular_latches(xscroll: int) -> tuple[int, ...]:
    return tuple(WINDOW_PIXEL + xscroll + 8 * cell for cell in range(40))


@functools.lru_cache(maxsize=64)
def _cell_plane(latches: tuple[int, ...]) -> bytes:
    """For each pixel of the line, the cell whose screen code and colour are latched
    there: 40 before the first cell (the last line's), then 0-39; the last cell's stay."""
    plane = bytearray([STALE_CELL]) * LINE_PIXELS
    for cell, start in enumerate(latches):
        end = latches[cell + 1] if cell + 1 < 40 else LINE_PIXELS
        plane[start:end] = bytes([cell]) * (end - start)
    return bytes(plane)


def _pixel_codes(mcm: int, bmm: int, graphics: bytes, colours: bytes, latches: tuple[int, ...],
                 exact: bool) -> bytes:
    """The line's 504 pixel codes (0-3) with MCM and BMM as the shifter reads them:
    pairs where MCM is set and the mode is a bitmap or the cell's colour has bit 3, else
    single pixels, 2 where BMM or that bit is set, else 3 (VICE draw_graphics).  Codes 2
    and 3 differ only where MCM's colours meet single pixels (``exact``: the line changes
    MCM); else 3 stands for both."""
    if mcm:
        if bmm:
            parts = list(map(PX_MULTI.__getitem__, graphics))
        else:
            parts = [PX_MULTI[byte] if colour & 8 else PX_HIRES[byte]
                     for byte, colour in zip(graphics, colours, strict=True)]
    elif not exact:
        parts = list(map(PX_HIRES.__getitem__, graphics))
    elif bmm:
        parts = list(map(PX_HIRES_2.__getitem__, graphics))
    else:
        parts = [PX_HIRES_2[byte] if colour & 8 else PX_HIRES[byte]
                 for byte, colour in zip(graphics, colours, strict=True)]
    first = latches[0]
    if latches is _regular_latches(first - WINDOW_PIXEL):
        return ZEROS[:first] + b"".join(parts) + ZEROS[: LINE_PIXELS - first - 320]
    out = [bytes(first)]
    for cell, part in enumerate(parts):
        length = (latches[cell + 1] if cell + 1 < 40 else LINE_PIXELS) - latches[cell]
        out.append(part[:length] if length <= 8 else part + bytes(length - 8))
    return b"".join(out)[:LINE_PIXELS]


def _cell_tables(codes: bytes, colours: bytes, stale: int) -> dict[int, bytes]:
    """Translate tables from the cell plane to the cell colour sources."""
    screen = codes + bytes([stale]) + bytes(215)
    colour = colours + bytes(216)
    return {CELL_LOW: screen.translate(LOW_NYBBLE), CELL_HIGH: screen.translate(HIGH_NYBBLE),
            CELL_COLOUR: colour, CELL_COLOUR_MC: colour.translate(LOW_3_BITS), CELL_SCREEN: screen}


def _colours(mode: int, plane: bytes, cells: bytes, tables: dict[int, bytes], registers: bytes) -> bytes:
    """The line's 504 pixels in ``mode`` (VICE's colour table, COLOUR_SOURCES)."""
    sources = COLOUR_SOURCES[mode]
    result = plane.translate(_constant_table(mode, registers[BACKGROUND : BACKGROUND + 4]))
    cell_sources = CELL_SOURCES[mode]
    if not cell_sources:
        return result
    value = int.from_bytes(result, "big")
    for source, selected in cell_sources:
        if source == CELL_EXTENDED:
            extended = bytes(registers[BACKGROUND + (code >> 6)] & 0x0F for code in range(256))
            colour = cells.translate(tables[CELL_SCREEN].translate(extended))
        else:
            colour = cells.translate(tables[source])
        mask = int.from_bytes(plane.translate(selected), "big")
        value = value & ~mask | int.from_bytes(colour, "big") & mask
    del sources
    return value.to_bytes(LINE_PIXELS, "big")


@functools.lru_cache(maxsize=1024)
def _constant_table(mode: int, backgrounds: bytes) -> bytes:
    """Pixel codes to the colours of the registers ``mode`` draws them in ($D021-$D024)."""
    return bytes(backgrounds[source - BACKGROUND] & 0x0F if source >= 0 else 0
                 for source in COLOUR_SOURCES[mode]) + bytes(252)


def _graphics_register(pixel: int, plane: bytes, cells: bytes, modes: list[tuple[int, int]],
                       codes: bytes, stale: int) -> int | None:
    """The colour register a graphics pixel was drawn in (None: a colour from the
    screen or colour RAM, or black)."""
    mode = modes[0][1]
    for first, mode_here in modes:
        if first <= pixel:
            mode = mode_here
    source = COLOUR_SOURCES[mode][plane[pixel]]
    if source >= 0:
        return source
    if source == CELL_EXTENDED:
        cell = cells[pixel]
        return BACKGROUND + ((codes[cell] if cell < 40 else stale) >> 6)
    return None


