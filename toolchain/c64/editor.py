"""The KERNAL's screen editor ($E500-$EA60, $EC44-$EC77 of KERNAL 901227-03), ported to
Python routine by routine.

c64tc runs programs without the C64's ROMs, so the editor that prints characters,
moves the cursor, scrolls, and reads a typed line back off the screen is modelled
here, and modelled exactly: every variable it has lives where the KERNAL keeps it
in the machine's memory (the cursor in PNT $D1/$D2, PNTR $D3 and TBLX $D6, the line
link table LDTB1 $D9-$F2, the modes in QTSW $D4, RVS $C7, INSRT $D8, the input
state in CRSW $D0, LXSP $C9/$CA and INDX $C8, ...), so a program that PEEKs or
POKEs them, or calls an editor routine with SYS, sees what it would see on a C64.
Nothing is kept in Python except the callbacks the machine hands in.

Each method names the ROM routine it ports; the facts come from Marko Mäkelä's
commented disassembly (mist64/c64ref, c64disasm_en/_mm) and were checked against
the real KERNAL 901227-03 run on c64tc's own 6502 core (tests/test_editor_rom.py:
random PETSCII streams through both, every byte of memory compared).  Two places
where the commented listing shows an older KERNAL and the -03 ROM differs: the
line clear ($E4DA) fills colour RAM with the cursor colour COLOR ($0286), not the
background colour; and reading a line back ($E621) only looks for the start of
the logical line when the cursor has left the row where the input began ($E591).

The editor reaches two chips: the character set bit of the VIC-II's $D018 (PETSCII
14 and 142) and, while scrolling, CIA 1's keyboard matrix (with CTRL held, the ROM
scrolls slowly and then empties the keyboard buffer).  Those go through ``io_read``
and ``io_write`` when the machine gives them (so its chips see them), else straight
to ``memory``.  Colour RAM is written with 4-bit values: the chip keeps 4 bits a cell.

Not here: the keyboard matrix scan and decode of the IRQ ($EA87-$EB47, the $028F
vector to $EB48): c64tc types keys straight into the buffer (toolchain.c64.keyboard).
Where the ROM would read past its row address table (a link table whose 26th entry
$F2 lacks the start bit, rows beyond 27), the port computes row addresses instead.
"""

from __future__ import annotations

from collections.abc import Callable

from toolchain.c64.keyboard import Keyboard, take_key
from toolchain.c64.memory import (
    CURSOR_COLOUR,
    KEYBOARD_BUFFER,
    KEYBOARD_COUNT,
    SCREEN_CELLS,
    SCREEN_COLUMNS,
    SCREEN_PAGE,
    SCREEN_ROWS,
)

# -- the editor's variables (names from the ROM's own documentation) -------------------------
INPUT_DEVICE, OUTPUT_DEVICE = 0x99, 0x9A  # DFLTN, DFLTO: 0 keyboard, 3 screen
KEY_COUNT = KEYBOARD_COUNT  # NDX $C6
RVS = 0xC7  # reverse mode: non-zero prints reversed
INDX = 0xC8  # where the line read back from the screen ends (past its last non-space)
LXSP = 0xC9  # the cursor row ($C9) and column ($CA) where input began
BLNSW = 0xCC  # 0: the cursor blinks (the IRQ flashes it)
BLNCT = 0xCD  # jiffies to the next blink
GDBLN = 0xCE  # the character under the blinking cursor
BLNON = 0xCF  # the cursor is shown reversed now
CRSW = 0xD0  # non-zero while a line is handed out from the screen
PNT = 0xD1  # the address of the logical line the cursor is on
PNTR = 0xD3  # the cursor's column in its logical line, 0-79
QTSW = 0xD4  # quote mode
LNMX = 0xD5  # the last column of the logical line: 39 or 79
TBLX = 0xD6  # the cursor's physical row
DATA = 0xD7  # the last character printed or read
INSRT = 0xD8  # inserted spaces still to fill
LDTB1 = 0xD9  # per row: bit 7 set where a logical line starts, low bits its screen page
USER = 0xF3  # the colour RAM address of the logical line
COLOR = CURSOR_COLOUR  # $0286
GDCOL = 0x0287  # the colour under the blinking cursor
HIBASE = SCREEN_PAGE  # $0288
XMAX = 0x0289  # the keyboard buffer's size
KOUNT, DELAY = 0x028B, 0x028C  # key repeat counters
KEYLOG = 0x028F  # the keyboard decode vector ($EB48)
MODE = 0x0291  # $80: SHIFT+C= may not switch the character set
AUTODN = 0x0292  # non-zero: a line growing to two rows pushes the rows below down
LINTMP = 0x02A5  # the row where a row is inserted (scratch of $E8EA/$E965)

VIC_MEMORY_SETUP = 0xD018
CIA1_PORT_A, CIA1_PORT_B = 0xDC00, 0xDC01

COLUMNS, ROWS = SCREEN_COLUMNS, SCREEN_ROWS
LAST_COLUMN = COLUMNS - 1  # 39
LAST_LOGICAL_COLUMN = 2 * COLUMNS - 1  # 79
RETURN, QUOTE, SPACE = 0x0D, 0x22, 0x20
_SPACES = bytes((SPACE,)) * COLUMNS  # a blank row
SHIFT_RUN_STOP = 0x83
KEYBOARD_DEVICE, SCREEN_DEVICE = 0, 3

# The low byte of each row's address ($ECF0), and the three bytes the ROM reads as
# rows 25-27: the code after the table ($ED09).  The ROM addresses those rows when a
# line runs past the bottom row: when the table's 26th entry ($F2) has no start bit
# (the screen clear sets it), $F3/$F4 (USER) serve as entries 26 and 27.
_ROW_LOW = bytes([(row * COLUMNS) & 0xFF for row in range(ROWS)] + [0x09, 0x40, 0x2C])

# The page bits of the rows when they lie one after the other from HIBASE; byte masks
_CONTIGUOUS = bytes(((row * COLUMNS) >> 8) for row in range(ROWS))
_PAGE_BITS = bytes(value & 3 for value in range(256))
_START_BIT = bytes(value & 0x80 for value in range(256))
_WITHOUT_START_BIT = bytes(value & 0x7F for value in range(256))

# The PETSCII colour codes in colour order ($E8DA): black, white, red, cyan, purple,
# green, blue, yellow, orange, brown, light red, dark grey, grey, light green, light
# blue, light grey.
COLOUR_CODES = bytes([0x90, 0x05, 0x1C, 0x9F, 0x9C, 0x1E, 0x1F, 0x9E,
                      0x81, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0x9B])  # fmt: skip
_COLOUR_OF = {code: colour for colour, code in enumerate(COLOUR_CODES)}

# What SHIFT+RUN/STOP types ($ECE7): LOAD, RETURN, RUN, RETURN.
AUTO_LOAD_RUN = b"LOAD\rRUN\r"

# The VIC-II's registers $D000-$D02E as the editor's initialisation ($E5A0) writes them
# ($ECB9): sprites off at 0,0, $D011 $9B (screen on, 25 rows), raster compare $37,
# $D016 $08, $D018 $14 (screen $0400, upper case), all interrupts acknowledged and
# off, border light blue, background blue, the extra colours 1-4 and 0, sprite
# colours 1-7 and $4C (the table's last byte is the L of LOAD).
VIC_INITIAL = bytes([0] * 16 + [0x00, 0x9B, 0x37, 0x00, 0x00, 0x00, 0x08, 0x00, 0x14, 0x0F, 0x00, 0x00, 0x00,
                     0x00, 0x00, 0x00, 0x0E, 0x06, 0x01, 0x02, 0x03, 0x04, 0x00,
                     0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x4C])  # fmt: skip
assert len(VIC_INITIAL) == 0x2F

#: the editor's entry points that programs call, by address (``ScreenEditor.call``)
ENTRY_POINTS = {
    0xE50A: "PLOT: read (carry set) or set the cursor",
    0xE510: "place the cursor at the row in 214 and column in 211",
    0xE513: "read the cursor",
    0xE518: "initialise the screen and keyboard",
    0xE544: "clear the screen",
    0xE566: "home the cursor",
    0xE56C: "set the line pointers for the cursor's row and column",
    0xE5B4: "take a key from the keyboard buffer",
    0xE632: "input a character from the screen or keyboard",
    0xE716: "output a character to the screen",
    0xE8EA: "scroll the screen up",
    0xE9FF: "clear the screen row in X",
}


def petscii_to_screen_code(byte: int, reverse: bool = False) -> int | None:
    """The screen code $E716 prints for a printable PETSCII character (None for a
    control code): $20-$5F keep bits 0-5, $60-$7F lose bit 5, $A0-$FE become
    $60-$7E ... and $FF is pi ($5E)."""
    if 0x20 <= byte < 0x80:
        code = byte & 0xDF if byte >= 0x60 else byte & 0x3F
    elif byte >= 0xA0:
        code = ((byte & 0x7F) if byte != 0xFF else 0x5E) | 0x40
    else:
        return None
    return code | 0x80 if reverse else code


def screen_code_to_petscii(code: int, quote: bool = False) -> int:
    """The PETSCII character the editor reads back for a screen code ($E63A): bit 6
    gives bit 7, bit 5 clear gives bit 6; in quote mode a reversed character gives a
    control code ($E64C).  Pi (read as $DE) is handed out as $FF ($E67C)."""
    value = _read_back(code, quote)
    return 0xFF if value == 0xDE else value


def _read_back(code: int, quote: bool) -> int:
    value = code & 0x3F
    if code & 0x40:
        value |= 0x80
    if not (code & 0x80 and quote) and not code & 0x20:
        value |= 0x40
    return value


def _copy(memory: bytearray, target: int, source: int) -> None:
    """40 bytes from ``source`` to ``target`` (addresses wrap at 64 KiB as the 6502's do)."""
    if target + COLUMNS <= 0x10000 and source + COLUMNS <= 0x10000:
        memory[target : target + COLUMNS] = memory[source : source + COLUMNS]
    else:
        for column in range(COLUMNS - 1, -1, -1):
            memory[(target + column) & 0xFFFF] = memory[(source + column) & 0xFFFF]


class ScreenEditor:
    """The screen editor working on ``memory`` (the 64 KiB the CPU sees) and reading
    keys from ``keyboard`` (attached to the same memory).

    ``on_scroll(row)`` gets the 40 screen codes of each row about to scroll off the
    top; ``on_clear(rows)`` the 25 rows a screen clear is about to wipe.  ``io_read``
    and ``io_write`` reach the chips (see the module's description)."""

    def __init__(self, memory: bytearray, keyboard: Keyboard | None = None, *,
                 on_scroll: Callable[[bytes], None] | None = None,
                 on_clear: Callable[[list[bytes]], None] | None = None,
                 io_read: Callable[[int], int] | None = None,
                 io_write: Callable[[int, int], None] | None = None) -> None:
        self.memory = memory
        self.keyboard = keyboard
        self.on_scroll = on_scroll
        self.on_clear = on_clear
        self.io_read = io_read
        self.io_write = io_write
        # what the last scroll ($E8EA) leaves for a program that called it: the link of
        # the bottom row its last pass read (the ROM's Y), the keyboard row of CTRL's
        # column (CTRL held: the pause, Y 0; the ROM's carry is its CMP #$FB)
        self.scroll_bottom_link = 0
        self.scroll_keys = 0xFF

    # -- the chips --------------------------------------------------------------------------
    def _read_io(self, address: int) -> int:
        return self.io_read(address) if self.io_read is not None else self.memory[address]

    def _write_io(self, address: int, value: int) -> None:
        if self.io_write is not None:
            self.io_write(address, value)
        else:
            self.memory[address] = value

    # -- where a row is ---------------------------------------------------------------------
    def row_address(self, row: int) -> int:
        """Where the editor prints row ``row`` (0-24): the page in HIBASE plus the row."""
        return (self.memory[HIBASE] << 8) + row * COLUMNS

    def _row_pointer(self, row: int) -> None:
        """$E9F0: PNT := the address of physical row ``row`` (its page from LDTB1)."""
        m = self.memory
        m[PNT] = _ROW_LOW[row] if row < len(_ROW_LOW) else (row * COLUMNS) & 0xFF
        m[PNT + 1] = (m[(LDTB1 + row) & 0xFF] & 3) | m[HIBASE]

    def _colour_pointer(self) -> None:
        """$EA24: USER := the colour RAM address that belongs to PNT."""
        m = self.memory
        m[USER] = m[PNT]
        m[USER + 1] = (m[PNT + 1] & 3) | 0xD8

    def _line(self) -> int:
        return self.memory[PNT] | self.memory[PNT + 1] << 8

    def _colours(self) -> int:
        return self.memory[USER] | self.memory[USER + 1] << 8

    def _put(self, code: int, colour: int) -> None:
        """$EA13: the character and its colour at the cursor (the blink countdown is
        set to 2 so the cursor does not flash over it at once)."""
        m = self.memory
        m[BLNCT] = 2
        self._colour_pointer()
        column = m[PNTR]
        m[(self._line() + column) & 0xFFFF] = code
        m[(self._colours() + column) & 0xFFFF] = colour & 0x0F

    # -- rows and the link table ----------------------------------------------------------------
    def clear_line(self, row: int) -> tuple[int, int, int]:
        """$E9FF: row ``row`` blank, in the cursor colour (PNT and USER left pointing at
        it).  Returns A, X, Y as the ROM leaves them."""
        m = self.memory
        self._row_pointer(row)
        self._colour_pointer()
        line, colours = self._line(), self._colours()
        colour = m[COLOR] & 0x0F
        if line + COLUMNS <= 0x10000 and colours + COLUMNS <= 0x10000:  # one slice each
            m[line : line + COLUMNS] = _SPACES
            m[colours : colours + COLUMNS] = bytes((colour,)) * COLUMNS
            return SPACE, row, 0xFF
        for column in range(COLUMNS):  # a row that wraps past $FFFF
            m[(line + column) & 0xFFFF] = SPACE
            m[(colours + column) & 0xFFFF] = colour
        return SPACE, row, 0xFF

    def _copy_row(self, target: int, source: int) -> None:
        """$E9C8: physical row ``source`` (characters and colours) onto ``target``; PNT and
        USER point at ``target``."""
        m = self.memory
        self._row_pointer(target)
        self._colour_pointer()
        line, colours = self._line(), self._colours()
        source_page = (m[(LDTB1 + source) & 0xFF] & 3) | m[HIBASE]
        source_line = source_page << 8 | _ROW_LOW[source]
        source_colours = ((source_page & 3) | 0xD8) << 8 | _ROW_LOW[source]
        _copy(m, line, source_line)
        _copy(m, colours, source_colours)

    def row_codes(self, row: int) -> bytes:
        """The 40 screen codes of row ``row`` where the editor prints."""
        start = self.row_address(row)
        if start + COLUMNS <= 0x10000:
            return bytes(self.memory[start : start + COLUMNS])
        return bytes(self.memory[(start + column) & 0xFFFF] for column in range(COLUMNS))

    def _emit_scrolled_row(self) -> None:
        if self.on_scroll is not None:
            self.on_scroll(self.row_codes(0))

    def scroll(self) -> int:
        """$E8EA: the screen up by one logical line (two rows when the top line has two),
        the link table with it; the cursor row, the input row (LXSP) and the row marker
        follow.  With CTRL held the ROM waits a little and empties the keyboard
        buffer.  Returns the cursor row (the ROM's X)."""
        m = self.memory
        while True:
            m[TBLX] = (m[TBLX] - 1) & 0xFF
            m[LXSP] = (m[LXSP] - 1) & 0xFF
            m[LINTMP] = (m[LINTMP] - 1) & 0xFF
            self._emit_scrolled_row()
            base = m[HIBASE] << 8
            if m[LDTB1 : LDTB1 + ROWS].translate(_PAGE_BITS) == _CONTIGUOUS and not base & 0x300 \
                    and base + SCREEN_CELLS <= 0x10000:
                # the rows lie one after the other (as always unless a program changed
                # the table's page bits): one move does what the row-by-row copy does
                last = SCREEN_CELLS - COLUMNS
                m[base : base + last] = m[base + COLUMNS : base + SCREEN_CELLS]
                m[0xD800 : 0xD800 + last] = m[0xD800 + COLUMNS : 0xD800 + SCREEN_CELLS]
            else:
                for row in range(ROWS - 1):
                    self._copy_row(row, row + 1)
            self.clear_line(ROWS - 1)
            # each row takes the start bit of the row below; the bottom row starts a line
            starts = int.from_bytes(m[LDTB1 + 1 : LDTB1 + ROWS].translate(_START_BIT), "big")
            pages = int.from_bytes(m[LDTB1 : LDTB1 + ROWS - 1].translate(_WITHOUT_START_BIT), "big")
            m[LDTB1 : LDTB1 + ROWS - 1] = (starts | pages).to_bytes(ROWS - 1, "big")
            self.scroll_bottom_link = m[LDTB1 + ROWS - 1]  # $E91C's last LDY $DA,X
            m[LDTB1 + ROWS - 1] |= 0x80
            if m[LDTB1] & 0x80:
                break
        m[TBLX] = (m[TBLX] + 1) & 0xFF
        m[LINTMP] = (m[LINTMP] + 1) & 0xFF
        # the CTRL key (column 7 driven, row 2 read): the ROM slows down, then drops
        # the typed-ahead keys
        self._write_io(CIA1_PORT_A, 0x7F)
        self.scroll_keys = self._read_io(CIA1_PORT_B)
        self._write_io(CIA1_PORT_A, 0x7F)
        if self.scroll_keys == 0xFB:
            m[KEY_COUNT] = 0
        return m[TBLX]

    def _insert_row(self) -> None:
        """$E965: open a blank row below the cursor's logical line and link it to that
        line (the rows below move down, the bottom row is lost; at the bottom of the
        screen, scroll instead)."""
        self._open_row_after(self.memory[TBLX])

    def _open_row_after(self, row: int) -> None:
        """$E967, entered with X = ``row``."""
        m = self.memory
        row = (row + 1) & 0xFF
        while not m[(LDTB1 + row) & 0xFF] & 0x80:
            row = (row + 1) & 0xFF
        m[LINTMP] = row
        if row > ROWS - 1:
            self.scroll()
            m[TBLX] = (m[TBLX] - 1) & 0xFF
            self._link_row((m[LINTMP] - 1) & 0xFF)
            return
        for target in range(ROWS - 1, row, -1):
            self._copy_row(target, target - 1)
        self.clear_line(row)
        for above in range(ROWS - 2, max(row, 1) - 1, -1):  # the start bits move down a row
            m[LDTB1 + above + 1] = (m[LDTB1 + above + 1] & 0x7F) | (m[LDTB1 + above] & 0x80)
        self._link_row(row)

    def _link_row(self, row: int) -> None:
        """$E6DA: physical row ``row`` continues the logical line above it, the row after
        it starts a line; the line is 40 columns longer; PNT at the line's start."""
        m = self.memory
        m[(LDTB1 + row) & 0xFF] &= 0x7F
        m[(LDTB1 + row + 1) & 0xFF] |= 0x80
        m[LNMX] = (m[LNMX] + COLUMNS) & 0xFF
        self._line_start(row)

    def _line_start(self, row: int) -> int:
        """$E6ED: PNT := the first row of the logical line holding ``row``; that row."""
        m = self.memory
        while row != 0 and not m[(LDTB1 + row) & 0xFF] & 0x80:
            row -= 1
        self._row_pointer(row)
        return row

    # -- the cursor ---------------------------------------------------------------------------
    def set_pointers(self) -> tuple[int, int, int]:
        """$E56C: from the cursor row (TBLX) and column (PNTR): PNT at the start of the
        logical line, the column counted from there (+40 on a continuation row), LNMX
        its last column, USER its colour RAM.  Returns A, X, Y as the ROM leaves them."""
        m = self.memory
        row, column = m[TBLX], m[PNTR]
        while not m[(LDTB1 + row) & 0xFF] & 0x80:
            column = (column + COLUMNS) & 0xFF
            m[PNTR] = column
            row = (row - 1) & 0xFF
            if row & 0x80:
                break
        self._row_pointer(row)
        length = LAST_COLUMN
        row = (row + 1) & 0xFF
        while not m[(LDTB1 + row) & 0xFF] & 0x80:
            length = (length + COLUMNS) & 0xFF
            row = (row + 1) & 0xFF
            if row & 0x80:
                break
        m[LNMX] = length
        self._colour_pointer()
        return m[USER + 1], row, m[(LDTB1 + row) & 0xFF]

    def home(self) -> tuple[int, int, int]:
        """$E566: the cursor to row 0, column 0."""
        self.memory[PNTR] = self.memory[TBLX] = 0
        return self.set_pointers()

    def clear_screen(self) -> tuple[int, int, int]:
        """$E544: every row a logical line of its own in the page HIBASE names, all rows
        blank in the cursor colour, the cursor home."""
        m = self.memory
        if self.on_clear is not None:
            self.on_clear([self.row_codes(row) for row in range(ROWS)])
        address = (m[HIBASE] | 0x80) << 8
        for row in range(ROWS + 1):  # the 26th entry is the row after the last one
            m[LDTB1 + row] = (address >> 8) & 0xFF
            address += COLUMNS
        m[LDTB1 + ROWS + 1] = 0xFF  # the ROM's end mark, at $F3 (USER, set again below)
        for row in range(ROWS - 1, -1, -1):
            self.clear_line(row)
        return self.home()

    def cursor(self) -> tuple[int, int]:
        """$E513 (PLOT with the carry set): the cursor's row and its column in the
        logical line (40-79 on the second row of a two-row line)."""
        return self.memory[TBLX], self.memory[PNTR]

    def set_cursor(self, row: int, column: int) -> tuple[int, int]:
        """$E50A (PLOT with the carry clear): the cursor to ``row``, ``column`` (bytes, as
        the X and Y registers give them); the row and column as PLOT returns them."""
        self.memory[TBLX] = row & 0xFF
        self.memory[PNTR] = column & 0xFF
        return self.place_cursor()

    def place_cursor(self) -> tuple[int, int]:
        """$E510: the pointers set for the row in TBLX (214) and column in PNTR (211),
        then the cursor read as PLOT does."""
        self.set_pointers()
        return self.cursor()

    # -- moving the cursor on -------------------------------------------------------------------
    def _line_increment(self) -> None:
        """$E8B3: at the last column of a physical row (39 or 79) the cursor row goes
        one down (not past row 25)."""
        m = self.memory
        if m[PNTR] in (LAST_COLUMN, LAST_LOGICAL_COLUMN) and m[TBLX] != ROWS:
            # INC $D6 ($E8C8): a row of 255 (cursor-up from row 0 on a two-row line,
            # $E8A1's DEC) wraps to 0
            m[TBLX] = (m[TBLX] + 1) & 0xFF

    def _line_decrement(self) -> None:
        """$E8A1: at column 0 or 40 the cursor row goes one up."""
        m = self.memory
        if m[PNTR] in (0, COLUMNS):
            m[TBLX] = (m[TBLX] - 1) & 0xFF

    def _advance(self) -> None:
        """$E6B6: the cursor one column on; past the end of a one-row line the line
        grows to two rows (the next row taken over, or a blank row inserted while
        keys are typed: AUTODN), past the end of a two-row line a new line starts."""
        m = self.memory
        wrapped_row = m[TBLX] if m[PNTR] in (LAST_COLUMN, LAST_LOGICAL_COLUMN) else 0  # $E8B3's X
        self._line_increment()
        m[PNTR] = column = (m[PNTR] + 1) & 0xFF
        length = m[LNMX]
        if length >= column:
            return
        if length == LAST_LOGICAL_COLUMN:
            m[TBLX] = (m[TBLX] - 1) & 0xFF
            self._newline()
            m[PNTR] = 0
            return
        if m[AUTODN]:
            self._open_row_after(wrapped_row)
            return
        row = m[TBLX]
        if row >= ROWS:
            self.scroll()
            m[TBLX] = row = (m[TBLX] - 1) & 0xFF
        self._link_row(row)

    def _newline(self) -> None:
        """$E87C: the cursor to the start row of the next logical line, scrolling at the
        bottom (the input row LXSP is halved: the ROM's way of forgetting it)."""
        m = self.memory
        m[LXSP] >>= 1
        row = m[TBLX]
        while True:
            row = (row + 1) & 0xFF
            if row == ROWS:
                row = self.scroll()
            if m[(LDTB1 + row) & 0xFF] & 0x80:
                break
        m[TBLX] = row
        self.set_pointers()

    def _back_to_previous_line(self) -> bool:
        """$E701: the cursor to the last column of the logical line above; False (and
        the column 0) on the top row, where the ROM leaves the routine that called."""
        m = self.memory
        row = m[TBLX]
        if row == 0:
            m[PNTR] = 0
            return False
        m[TBLX] = row - 1
        self.set_pointers()
        m[PNTR] = m[LNMX]
        return True

    def _finish(self) -> None:
        """$E6A8: while inserted spaces remain, quote mode is off."""
        m = self.memory
        if m[INSRT]:
            m[QTSW] >>= 1

    # -- CHROUT to the screen -------------------------------------------------------------------
    def chrout(self, byte: int) -> None:
        """$E716: print one PETSCII byte on the screen as the KERNAL does."""
        m = self.memory
        m[DATA] = byte
        m[CRSW] = 0
        if 0x20 <= byte < 0x80:  # printable, the common case: kept inline
            code = byte & 0xDF if byte >= 0x60 else byte & 0x3F
            if code == QUOTE:
                m[QTSW] ^= 1
            if m[RVS]:
                code |= 0x80
            if m[INSRT]:
                m[INSRT] -= 1
            m[BLNCT] = 2
            low, high = m[PNT], m[PNT + 1]
            m[USER] = low
            m[USER + 1] = colour_page = (high & 3) | 0xD8
            column = m[PNTR]
            m[((high << 8 | low) + column) & 0xFFFF] = code
            m[(colour_page << 8 | low) + column] = m[COLOR] & 0x0F
            if column != LAST_COLUMN and column != LAST_LOGICAL_COLUMN and column < m[LNMX]:
                m[PNTR] = column + 1
            else:
                self._advance()
            if m[INSRT]:
                m[QTSW] >>= 1
            return
        if byte < 0x80:
            self._control(byte)
        else:
            self._shifted(byte)

    def _print_reversed(self, code: int) -> None:
        """$E697: a control code shown as its reversed character (quote or insert mode)."""
        self._print(code | 0x80)

    def _print(self, code: int) -> None:
        """$E699-$E6A8: the screen code at the cursor in the cursor colour, one column on."""
        m = self.memory
        if m[INSRT]:
            m[INSRT] -= 1
        self._put(code, m[COLOR])
        self._advance()
        self._finish()

    def _control(self, byte: int) -> None:
        """$E72A-$E7D1: RETURN and the unshifted control codes $00-$1F."""
        m = self.memory
        if byte == RETURN:
            self._return()
            return
        if m[INSRT]:
            self._print_reversed(byte)
            return
        if byte == 0x14:  # DEL
            self._delete()
            return
        if m[QTSW]:
            self._print_reversed(byte)
            return
        if byte == 0x12:  # RVS ON
            m[RVS] = byte
        elif byte == 0x13:  # HOME
            self.home()
        elif byte == 0x1D:  # cursor right
            self._cursor_right()
            return
        elif byte == 0x11:  # cursor down
            self._cursor_down()
            return
        else:
            self._set_colour(byte)
            if byte == 0x0E:  # lower/upper case set
                self._write_io(VIC_MEMORY_SETUP, self._read_io(VIC_MEMORY_SETUP) | 0x02)
            elif byte == 0x08:  # SHIFT+C= may not switch the set
                m[MODE] |= 0x80
            elif byte == 0x09:
                m[MODE] &= 0x7F
        self._finish()

    def _shifted(self, byte: int) -> None:
        """$E7D4-$E879: the characters $80-$FF: shifted printables, SHIFT+RETURN and
        the shifted control codes."""
        m = self.memory
        code = byte & 0x7F
        if code == 0x7F:
            code = 0x5E
        if code >= 0x20:
            if m[RVS]:
                self._print(code | 0x40 | 0x80)
            else:
                self._print(code | 0x40)
            return
        if code == RETURN:
            self._return()
            return
        if m[QTSW]:
            self._print_reversed(code | 0x40)
            return
        if code == 0x14:  # INST
            self._insert()
            return
        if m[INSRT]:
            self._print_reversed(code | 0x40)
            return
        if code == 0x11:  # cursor up
            row = m[TBLX]
            if row:
                m[TBLX] = row - 1
                if m[PNTR] >= COLUMNS:
                    m[PNTR] -= COLUMNS
                else:
                    self.set_pointers()
        elif code == 0x12:  # RVS OFF
            m[RVS] = 0
        elif code == 0x1D:  # cursor left
            column = m[PNTR]
            if column == 0:
                self._back_to_previous_line()
            else:
                self._line_decrement()
                m[PNTR] = column - 1
        elif code == 0x13:  # CLR
            self.clear_screen()
        else:
            self._set_colour(byte)
            if byte == 0x8E:  # upper case/graphics set
                self._write_io(VIC_MEMORY_SETUP, self._read_io(VIC_MEMORY_SETUP) & 0xFD)
        self._finish()

    def _set_colour(self, byte: int) -> None:
        """$E8CB: a colour code sets the cursor colour."""
        colour = _COLOUR_OF.get(byte)
        if colour is not None:
            self.memory[COLOR] = colour

    def _return(self) -> None:
        """$E891: RETURN (and SHIFT+RETURN) on output: insert, reverse and quote mode
        off, the cursor to the start of the next logical line."""
        m = self.memory
        m[INSRT] = m[RVS] = m[QTSW] = m[PNTR] = 0
        self._newline()

    def _cursor_right(self) -> None:
        """$E796: one column on; from the end of the logical line to the next line."""
        m = self.memory
        column = m[PNTR]
        self._line_increment()
        m[PNTR] = (column + 1) & 0xFF
        if column >= m[LNMX]:
            m[TBLX] = (m[TBLX] - 1) & 0xFF
            self._newline()
            m[PNTR] = 0
        self._finish()

    def _cursor_down(self) -> None:
        """$E7B1: one physical row down, in the same logical line when it has one more
        row, else to the next logical line (keeping the column in the row)."""
        m = self.memory
        column = m[PNTR] + COLUMNS
        m[TBLX] = (m[TBLX] + 1) & 0xFF
        length = m[LNMX]
        if column <= length:
            m[PNTR] = column & 0xFF
        else:
            m[TBLX] = (m[TBLX] - 1) & 0xFF
            column &= 0xFF
            while True:
                column -= COLUMNS
                if column < 0:
                    break
                m[PNTR] = column
                if column == 0:
                    break
            self._newline()
        self._finish()

    def _delete(self) -> None:
        """$E750: DEL: the characters right of the cursor move one left and the line
        ends in a space; at column 0 the cursor goes to the end of the line above and
        deletes its last character."""
        m = self.memory
        column = m[PNTR]
        if column == 0:
            if not self._back_to_previous_line():
                self._finish()
                return
            column = m[PNTR]
        else:
            self._line_decrement()
            column -= 1
            m[PNTR] = column
            self._colour_pointer()
            line, colours = self._line(), self._colours()
            end = m[LNMX]
            while True:
                column = (column + 1) & 0xFF
                previous = (column - 1) & 0xFF
                m[(line + previous) & 0xFFFF] = m[(line + column) & 0xFFFF]
                m[(colours + previous) & 0xFFFF] = m[(colours + column) & 0xFFFF]
                if column == end:
                    break
        m[(self._line() + column) & 0xFFFF] = SPACE
        m[(self._colours() + column) & 0xFFFF] = m[COLOR] & 0x0F
        self._finish()

    def _insert(self) -> None:
        """$E7F2: INST: a space opens at the cursor (the line grows by a row when its
        last column is taken, unless it has two rows already)."""
        m = self.memory
        end = m[LNMX]
        if m[(self._line() + end) & 0xFFFF] != SPACE or end == m[PNTR]:
            if end == LAST_LOGICAL_COLUMN:
                self._finish()
                return
            self._insert_row()
        end = m[LNMX]
        self._colour_pointer()
        line, colours = self._line(), self._colours()
        cursor = m[PNTR]
        column = end
        while True:
            column = (column - 1) & 0xFF
            following = (column + 1) & 0xFF
            m[(line + following) & 0xFFFF] = m[(line + column) & 0xFFFF]
            m[(colours + following) & 0xFFFF] = m[(colours + column) & 0xFFFF]
            if column == cursor:
                break
        m[(line + cursor) & 0xFFFF] = SPACE
        m[(colours + cursor) & 0xFFFF] = m[COLOR] & 0x0F
        m[INSRT] = (m[INSRT] + 1) & 0xFF
        self._finish()

    # -- the keyboard and CHRIN -------------------------------------------------------------
    def take_key(self) -> int:
        """$E5B4 (see :func:`toolchain.c64.keyboard.take_key`)."""
        return take_key(self.memory)

    def chrin(self) -> int | None:
        """CHRIN with the keyboard as the input device ($F157): the cursor is noted as
        where the input begins (LXSP), then $E632.  One byte a call: the first call
        waits for a typed line (echoing each key) and every call hands out the next
        character of it from the screen, RETURN last.  None when the typed input is
        used up while the editor waits for a key (the run stops: input exhausted)."""
        m = self.memory
        m[LXSP + 1] = m[PNTR]
        m[LXSP] = m[TBLX]
        return self.input_character()

    def chrin_screen(self) -> int | None:
        """CHRIN with the screen as the input device ($F16A): the logical line at the
        cursor, from the cursor on."""
        m = self.memory
        m[CRSW] = SCREEN_DEVICE
        m[INDX] = m[LNMX]
        return self.input_character()

    def input_character(self) -> int | None:
        """$E632: the next character of the line being handed out, or (when none is)
        wait for keys until RETURN and start handing out the line."""
        if not self.memory[CRSW]:
            from_screen = self._wait_for_line()
            if from_screen is None:
                return None
            if not from_screen:
                return self._end_of_line()
        return self._read_screen_character()

    def _wait_for_line(self) -> bool | None:
        """$E5CD-$E630: keys from the buffer, each echoed, until RETURN; then the line is
        found on the screen.  Whether to read its characters (False: it is empty from
        where input began, RETURN at once); None when no key comes."""
        m = self.memory
        keyboard = self.keyboard
        while True:
            # the cursor blinks and the screen does not grow rows while the buffer is
            # empty; while keys wait both are off (AUTODN: a typed line that grows
            # pushes the rows below down)
            if not m[KEY_COUNT] and keyboard is not None:
                keyboard.wait_for_key()
            count = m[KEY_COUNT]
            m[BLNSW] = m[AUTODN] = count
            if not count:
                return None
            if m[BLNON]:  # the cursor was shown: put back the character under it
                colour = m[GDCOL]
                m[BLNON] = 0
                self._put(m[GDBLN], colour)
            key = self.take_key()
            if key == SHIFT_RUN_STOP:
                m[KEY_COUNT] = len(AUTO_LOAD_RUN)
                m[KEYBOARD_BUFFER : KEYBOARD_BUFFER + len(AUTO_LOAD_RUN)] = AUTO_LOAD_RUN
                continue
            if key == RETURN:
                break
            self.chrout(key)
        # RETURN: the line ends after its last non-space character
        end = m[LNMX]
        m[CRSW] = end
        line = self._line()
        while m[(line + end) & 0xFFFF] == SPACE:
            end = (end - 1) & 0xFF
            if not end:
                break
        m[INDX] = (end + 1) & 0xFF
        m[AUTODN] = m[PNTR] = m[QTSW] = 0
        input_row = m[LXSP]
        if input_row & 0x80:
            return True
        row = m[TBLX]
        if row != input_row:  # $E591: the cursor left the input's row
            row = self._line_start(row)
        if row != input_row:
            return True  # another line: all of it, from column 0
        m[PNTR] = m[LXSP + 1]  # the input's own line: from where the input began
        return m[PNTR] < m[INDX]

    def _read_screen_character(self) -> int:
        """$E63A-$E683: the character at the cursor's column read back as PETSCII (quote
        mode followed), the column one on; RETURN at the line's end."""
        m = self.memory
        column = m[PNTR]
        code = m[(self._line() + column) & 0xFFFF]
        m[DATA] = (code << 1) & 0xFF
        character = _read_back(code, bool(m[QTSW]))
        m[PNTR] = (column + 1) & 0xFF
        if character == QUOTE:
            m[QTSW] ^= 1
        if column == m[INDX]:
            return self._end_of_line()
        m[DATA] = character
        return 0xFF if character == 0xDE else character

    def _end_of_line(self) -> int:
        """$E65D: the line is handed out: RETURN (printed when the screen is not the
        output device's other half: input from the screen, or output elsewhere)."""
        m = self.memory
        m[CRSW] = 0
        if m[INPUT_DEVICE] == SCREEN_DEVICE or m[OUTPUT_DEVICE] != SCREEN_DEVICE:
            self.chrout(RETURN)
        m[DATA] = RETURN
        return RETURN

    # -- the cursor blink (the editor's part of the IRQ, $EA34-$EA60) -------------------------
    def blink(self) -> None:
        """One jiffy of the cursor flash: every 20th jiffy while BLNSW is 0, the
        character under the cursor is shown reversed in the cursor colour, or put back
        with its own colour."""
        m = self.memory
        if m[BLNSW]:
            return
        m[BLNCT] = (m[BLNCT] - 1) & 0xFF
        if m[BLNCT]:
            return
        m[BLNCT] = 20
        column = m[PNTR]
        shown = m[BLNON] & 1
        m[BLNON] >>= 1
        colour = m[GDCOL]
        code = m[(self._line() + column) & 0xFFFF]
        if not shown:
            m[BLNON] = (m[BLNON] + 1) & 0xFF
            m[GDBLN] = code
            self._colour_pointer()
            m[GDCOL] = m[(self._colours() + column) & 0xFFFF]
            colour = m[COLOR]
            code = m[GDBLN]
        m[(self._line() + column) & 0xFFFF] = code ^ 0x80
        m[(self._colours() + column) & 0xFFFF] = colour & 0x0F

    # -- initialisation ------------------------------------------------------------------------
    def initialise(self, vic: bool = True) -> tuple[int, int, int]:
        """$E518 (CINT's editor part): screen output and keyboard input as the default
        devices, the VIC-II's registers ($E5A0, unless ``vic`` is False: the machine
        initialises its chip itself), the keyboard variables, light blue, the screen
        cleared and the cursor home."""
        m = self.memory
        m[OUTPUT_DEVICE] = SCREEN_DEVICE
        m[INPUT_DEVICE] = KEYBOARD_DEVICE
        if vic:
            for register in range(len(VIC_INITIAL) - 1, -1, -1):
                self._write_io(0xD000 + register, VIC_INITIAL[register])
        m[MODE] = 0
        m[BLNON] = 0
        m[KEYLOG] = 0x48
        m[KEYLOG + 1] = 0xEB
        m[XMAX] = m[DELAY] = 10
        m[COLOR] = 14
        m[KOUNT] = 4
        m[BLNCT] = m[BLNSW] = 12
        return self.clear_screen()

    # -- entry by address ----------------------------------------------------------------------
    def call(self, address: int, a: int = 0, x: int = 0, y: int = 0,
             carry: bool = False) -> tuple[int, int, int] | None:
        """Run the editor routine at ``address`` (one of :data:`ENTRY_POINTS`) with the
        registers a program gives it; A, X and Y as the routine returns them, or None
        when $E632 waits for keys that are not typed.  KeyError for other addresses."""
        m = self.memory
        if address == 0xE50A:
            if carry:
                return (a, *self.cursor())
            m[TBLX], m[PNTR] = x & 0xFF, y & 0xFF
            address = 0xE510
        if address == 0xE510:
            registers = self.set_pointers()
            return (registers[0], *self.cursor())
        if address == 0xE513:
            return (a, *self.cursor())
        if address == 0xE518:
            return self.initialise()
        if address == 0xE544:
            return self.clear_screen()
        if address == 0xE566:
            return self.home()
        if address == 0xE56C:
            return self.set_pointers()
        if address == 0xE5B4:
            count = m[KEY_COUNT]
            key = self.take_key()
            return key, count, key
        if address == 0xE632:
            character = self.input_character()
            return None if character is None else (character, x, y)
        if address == 0xE716:
            self.chrout(a & 0xFF)
            return a, x, y
        if address == 0xE8EA:
            # $E8EA pushes $AC-$AF and pulls them back at the end ($E958-$E962): A is
            # $AC; Y the bottom row's link (0 after CTRL's pause, $E94B-$E954)
            row = self.scroll()
            return m[0xAC], row, 0 if self.scroll_keys == 0xFB else self.scroll_bottom_link
        if address == 0xE9FF:
            return self.clear_line(x & 0xFF)
        raise KeyError(f"${address:04X} is not a screen editor entry point")
