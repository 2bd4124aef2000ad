"""The C64's memory map: one 64 KiB memory that machine code, BASIC and the screen
share, with the ROMs and the I/O area banked in and out by the processor port.

``MemoryMap.ram`` is what the CPU reads: RAM, or the ROM or I/O area that the
processor port ($01: LORAM, HIRAM, CHAREN) shows at $A000, $D000 and $E000.  The RAM
under a ROM keeps its own bytes (``under``): a write to a ROM address goes there,
as on the C64.  The I/O area's storage (colour RAM, the chips' registers as last
written) moves aside while RAM or the character ROM is shown there.  ``watch`` marks
the addresses whose writes need more than a store (the port, ROM areas, I/O
registers; the CPU's translating core adds the bytes of translated code).

Screen memory is plain RAM: the KERNAL's screen editor prints into the page HIBASE
($0288, 648) names, the VIC-II shows the 1 KiB that $D018 (bits 4-7) and CIA 2's
port A ($DD00, bits 0-1: the 16 KiB bank, inverted) select; both are $0400 after
power-on.  Colour RAM is fixed at $D800 (4 bits a cell: the upper bits read 0 on
VICE's x64sc, measured).

Addresses and values: "Mapping the Commodore 64" (Sheldon Leemon, Compute! 1984),
the C64 Programmer's Reference Guide (memory map appendix), Marko Mäkelä's
commented ROM disassembly (mist64/c64ref), and what VICE 3.10 shows with the
original ROMs (tests/data/machine: vectors, cursor, pointers).
"""

from __future__ import annotations

from toolchain.cpu.translator import WATCH_CODE as _WATCH_CODE
from toolchain.cpu.translator import WATCH_MACHINE as _WATCH_MACHINE

MEMORY_SIZE = 0x10000
PAGE = 0x100

# -- areas -----------------------------------------------------------------------------------
BASIC_PROGRAM_START = 0x0801  # where LOAD"NAME",8 puts a BASIC program
BASIC_ROM = range(0xA000, 0xC000)
IO_AREA = range(0xD000, 0xE000)
KERNAL_ROM = range(0xE000, 0x10000)
SCREEN_COLUMNS = 40
SCREEN_ROWS = 25
SCREEN_CELLS = SCREEN_COLUMNS * SCREEN_ROWS
DEFAULT_SCREEN = 0x0400
COLOUR_RAM = 0xD800

# -- the processor port -----------------------------------------------------------------------
PORT_DIRECTION, PORT = 0x00, 0x01
LORAM, HIRAM, CHAREN = 1, 2, 4
POWER_ON_DIRECTION, POWER_ON_PORT = 0x2F, 0x37  # read back as 47 and 55 on VICE
# The lines a read of the port shows where they are inputs: LORAM, HIRAM, CHAREN and the
# cassette switch sense are pulled up (the sense reads 1: no datasette key is pressed),
# the motor line reads 0, and bits 6 and 7, which no pin has, read the charge the last
# store while they were outputs left on them until it fades (VICE 3.10, c64pla.c and
# c64memsc.c: pullup $17; the "capacitor" of bits 6 and 7 fades 350,000 cycles and a
# random fifth more after it was charged there, here after 350,000, seen by the next
# store to the port: the KERNAL's interrupt stores there sixty times a second)
PORT_PULL_UPS = 0x17
PORT_UNUSED_BITS = 0xC0
PORT_CHARGE_CYCLES = 350_000

# -- the KERNAL's and BASIC's variables ---------------------------------------------------------
LINNUM = 0x14  # the integer SYS, POKE, PEEK and WAIT convert an address to
TXTTAB, VARTAB, ARYTAB, STREND, FRETOP, FRESPC, MEMSIZ = 0x2B, 0x2D, 0x2F, 0x31, 0x33, 0x35, 0x37
CURLIN, OLDLIN, OLDTXT, DATLIN, DATPTR = 0x39, 0x3B, 0x3D, 0x3F, 0x41
TXTPTR = 0x7A  # CHRGET's pointer into the program (the operand of its LDA)
CHRGET = 0x73
JIFFY_CLOCK = 0xA0  # $A0-$A2, sixtieths of a second, most significant byte first
STOP_KEY = 0x91  # STKEY: $7F while RUN/STOP is held
KEYBOARD_COUNT = 0xC6  # NDX (198): how many keys wait in the keyboard buffer
REVERSE = 0xC7  # RVS: reverse mode on (18) or off (0)
INPUT_ROW, INPUT_COLUMN = 0xC9, 0xCA  # LXSP: where the cursor was when input began
CURSOR_BLINK = 0xCC  # BLNSW: 0 while the cursor blinks (the editor waits for a key)
LINE_POINTER = 0xD1  # PNT: the address of the logical line the cursor is on
CURSOR_COLUMN = 0xD3  # PNTR (211): the cursor's column in its logical line (0-79)
QUOTE_MODE = 0xD4  # QTSW (212)
LINE_LENGTH = 0xD5  # LNMX: the last column of the logical line (39 or 79)
CURSOR_ROW = 0xD6  # TBLX (214): the cursor's physical row
INSERT_COUNT = 0xD8  # INSRT: inserts pending
LINE_LINKS = 0xD9  # LDTB1 $D9-$F2: per row, the screen page of the row, bit 7 set where a
#                    logical line starts (clear: the row continues the row above)
COLOUR_POINTER = 0xF3  # USER: the colour RAM address of the logical line
BASIC_INPUT_BUFFER = 0x0200  # BUF: 89 bytes
KEYBOARD_BUFFER = 0x0277  # KEYD: 631-640
KEYBOARD_BUFFER_SIZE = 10
CURSOR_COLOUR = 0x0286  # COLOR (646)
SCREEN_PAGE = 0x0288  # HIBASE (648): the page the screen editor prints into
MAX_KEYBOARD_BUFFER = 0x0289  # XMAX (649)
SYS_REGISTERS = 0x030C  # SAREG, SXREG, SYREG, SPREG (780-783): A, X, Y, P for SYS
USR_JUMP = 0x0310  # JMP $B248 (?ILLEGAL QUANTITY) until a program sets the address
IRQ_VECTOR, BRK_VECTOR, NMI_VECTOR = 0x0314, 0x0316, 0x0318
BASIC_VECTORS = range(0x0300, 0x030C)  # error, main loop, crunch, list, execute, evaluate

# -- I/O registers ----------------------------------------------------------------------------
VIC_MEMORY_SETUP = 0xD018  # bits 4-7: screen at 1 KiB steps in the bank; bit 1: character set
BORDER_COLOUR = 0xD020
BACKGROUND_COLOUR = 0xD021
CIA2_PORT_A = 0xDD00  # bits 0-1: the VIC-II's 16 KiB bank, inverted

# -- colours ----------------------------------------------------------------------------------
BLUE = 6
LIGHT_BLUE = 14

# -- watch flags: why a write to an address needs more than a store: translated code is
# made from the byte (the CPU's translating core), or it is the processor port, a ROM area,
# an I/O register (the machine)
WATCH_CODE, WATCH_MACHINE = _WATCH_CODE, _WATCH_MACHINE


# The vectors at $0300-$0333 after power-on (BASIC's $E447 copies its six; the KERNAL's
# RESTOR, $FD15, its sixteen), measured on VICE: tests/data/machine/vectors.
BASIC_VECTOR_VALUES = (0xE38B, 0xA483, 0xA57C, 0xA71A, 0xA7E4, 0xAE86)
KERNAL_VECTOR_VALUES = (0xEA31, 0xFE66, 0xFE47, 0xF34A, 0xF291, 0xF20E, 0xF250, 0xF333, 0xF157, 0xF1CA,
                        0xF6ED, 0xF13E, 0xF32F, 0xFE66, 0xF4A5, 0xF5ED)  # fmt: skip
# CHRGET and CHRGOT as BASIC's init ($E3A2) copies them to $0073 (the LDA's operand is
# the text pointer, set by RUN); the RND seed follows at $008B.
CHRGET_CODE = bytes([0xE6, 0x7A, 0xD0, 0x02, 0xE6, 0x7B, 0xAD, 0x00, 0x08, 0xC9, 0x3A, 0xB0, 0x0A, 0xC9, 0x20,
                     0xF0, 0xEF, 0x38, 0xE9, 0x30, 0x38, 0xE9, 0xD0, 0x60])  # fmt: skip
RND_SEED = bytes([0x80, 0x4F, 0xC7, 0x52, 0x58])  # $E3BA, copied to $8B
BASIC_END_OF_RAM = 0xA000  # MEMSIZ: BASIC's top of memory after power-on (38911 bytes free)
# The other variables the start-up sets that a program may read (values measured on
# VICE after power-on, tests/data/machine/power-on.ram.bin; names from Mapping the C64):
# the float/integer conversion vectors, the string stack, the function-call JMP, the
# RUN/STOP key, the tape buffer, "no key" for the keyboard scan, the KERNAL's memory
# bounds, key repeat, the keyboard table vector and the PAL flag.
POWER_ON_VARIABLES: dict[int, int] = {
    0x03: 0xAA, 0x04: 0xB1,  # ADRAY1: float to integer ($B1AA)
    0x05: 0x91, 0x06: 0xB3,  # ADRAY2: integer to float ($B391)
    0x16: 0x19,  # TEMPPT: the temporary string stack is empty
    0x54: 0x4C,  # JMPER: the JMP opcode before a function's address
    0x91: 0xFF,  # STKEY: no RUN/STOP
    0xA2: 0x05,  # the jiffy clock: five interrupts since the RAM test ended (TI is 5 at READY.)
    0xB2: 0x3C, 0xB3: 0x03,  # TAPE1: the tape buffer at $033C
    0xC5: 0x40, 0xCB: 0x40,  # LSTX, SFDX: no key pressed
    0x0281: 0x00, 0x0282: 0x08,  # MEMSTR: the KERNAL's bottom of memory, $0800
    0x0283: 0x00, 0x0284: 0xA0,  # MEMSIZ: the KERNAL's top of memory, $A000
    0x028A: 0x00,  # RPTFLG: only the cursor keys, space and DEL repeat
    0x028B: 0x04, 0x028C: 0x0A,  # KOUNT, DELAY: key repeat speed and delay
    0x028F: 0x48, 0x0290: 0xEB,  # KEYLOG: the keyboard table setup at $EB48
    0x02A6: 0x01,  # PALNTS: a PAL machine
}


def power_on_memory() -> bytearray:
    """The memory a program finds after the C64 has started and BASIC says READY.: a
    cleared screen in the cursor colour, the I/O registers, KERNAL and BASIC variables
    and vectors, CHRGET, an empty program at $0801."""
    memory = bytearray(MEMORY_SIZE)
    memory[PORT_DIRECTION], memory[PORT] = POWER_ON_DIRECTION, POWER_ON_PORT
    for index, value in enumerate(BASIC_VECTOR_VALUES):
        write_word(memory, 0x0300 + 2 * index, value)
    for index, value in enumerate(KERNAL_VECTOR_VALUES):
        write_word(memory, IRQ_VECTOR + 2 * index, value)
    memory[USR_JUMP] = 0x4C
    write_word(memory, USR_JUMP + 1, 0xB248)
    memory[CHRGET : CHRGET + len(CHRGET_CODE)] = CHRGET_CODE
    memory[0x8B : 0x8B + len(RND_SEED)] = RND_SEED
    # BASIC's pointers with an empty program (NEW): program at $0801, top at $A000
    for pointer in (TXTTAB,):
        write_word(memory, pointer, BASIC_PROGRAM_START)
    for pointer in (VARTAB, ARYTAB, STREND):
        write_word(memory, pointer, BASIC_PROGRAM_START + 2)
    for pointer in (FRETOP, MEMSIZ):
        write_word(memory, pointer, BASIC_END_OF_RAM)
    memory[CURSOR_COLOUR] = LIGHT_BLUE
    memory[SCREEN_PAGE] = DEFAULT_SCREEN >> 8
    memory[MAX_KEYBOARD_BUFFER] = KEYBOARD_BUFFER_SIZE
    memory[LINE_LENGTH] = SCREEN_COLUMNS - 1
    memory[CURSOR_BLINK] = 1
    memory[0x9D] = 0x80  # MSGFLG: direct mode shows KERNAL messages (LOADING, ...)
    memory[0x9A] = 3  # DFLTO: output to the screen ($E5A0); input from the keyboard (DFLTN 0)
    # every row starts a logical line; the clear ($E544) sets one entry more, the row
    # after the last, which the scroll and the line input read as a sentinel
    for row in range(SCREEN_ROWS + 1):
        memory[LINE_LINKS + row] = 0x80 | ((DEFAULT_SCREEN + row * SCREEN_COLUMNS) >> 8)
    write_word(memory, LINE_POINTER, DEFAULT_SCREEN)
    write_word(memory, COLOUR_POINTER, COLOUR_RAM)
    memory[DEFAULT_SCREEN : DEFAULT_SCREEN + SCREEN_CELLS] = b" " * SCREEN_CELLS
    memory[COLOUR_RAM : COLOUR_RAM + SCREEN_CELLS] = bytes([LIGHT_BLUE]) * SCREEN_CELLS
    memory[VIC_MEMORY_SETUP] = 0x15
    memory[0xD020] = LIGHT_BLUE
    memory[0xD021] = BLUE
    memory[CIA2_PORT_A] = 0x97
    for address, value in POWER_ON_VARIABLES.items():
        memory[address] = value
    return memory


def read_word(memory: bytearray | bytes, address: int) -> int:
    return memory[address] | memory[(address + 1) & 0xFFFF] << 8


def write_word(memory: bytearray, address: int, value: int) -> None:
    memory[address] = value & 0xFF
    memory[(address + 1) & 0xFFFF] = value >> 8 & 0xFF


def rom_or_io(address: int) -> bool:
    """Whether the CPU sees ROM or I/O at ``address`` after power-on (BASIC ROM, I/O,
    KERNAL ROM)."""
    return address >= 0xA000 and (address < 0xC000 or address >= 0xD000)


def visible_screen(memory: bytearray | bytes) -> int:
    """Where the VIC-II reads the screen matrix from: the bank that CIA 2 selects
    ($DD00 bits 0-1, inverted: %11 is bank 0) plus $D018's bits 4-7 times 1 KiB."""
    bank = (3 - (memory[CIA2_PORT_A] & 3)) * 0x4000
    return bank + (memory[VIC_MEMORY_SETUP] >> 4) * 0x400


def lower_case_set(memory: bytearray | bytes) -> bool:
    """Whether the VIC-II shows the lower/upper case character set ($D018 bit 1 with
    the character ROM, as in banks 0 and 2)."""
    return bool(memory[VIC_MEMORY_SETUP] & 0x02)


class Banking:
    """What the processor port shows in the three switchable areas ($A000-$BFFF,
    $D000-$DFFF, $E000-$FFFF), from the port's three low bits (the PLA's table; the
    cartridge lines are high: no cartridge)."""

    __slots__ = ("basic", "kernal", "io", "charset")

    def __init__(self, bits: int) -> None:
        loram, hiram, charen = bits & LORAM, bits & HIRAM, bits & CHAREN
        self.basic = bool(loram and hiram)
        self.kernal = bool(hiram)
        visible = bool(loram or hiram)  # with both low, RAM everywhere
        self.io = visible and bool(charen)
        self.charset = visible and not charen

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Banking) and all(
            getattr(self, name) == getattr(other, name) for name in self.__slots__)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in self.__slots__))


class ProcessorPort:
    """The 6510's port at $00/$01 as a read sees it (VICE 3.10, c64pla.c and
    c64memsc.c): the data register's bits where the direction makes them outputs, the
    lines where it makes them inputs (PORT_PULL_UPS: pulled up, or what an output last
    drove on them where that was 0), the motor line 0, and bits 6 and 7 their charge
    (PORT_UNUSED_BITS).  $01 in memory holds what a read gives; the data register is
    here, and the memory map's banking follows it."""

    def __init__(self, direction: int, data: int) -> None:
        self.direction = direction
        self.data = data
        self.output = data & direction  # what the output lines last drove
        self.charge = 0  # bits 6 and 7 as the last store while they were outputs left them
        self.charged_until = 0

    def state(self) -> tuple[int, int, int, int, int]:
        return self.direction, self.data, self.output, self.charge, self.charged_until

    def restore(self, state: tuple[int, int, int, int, int]) -> None:
        self.direction, self.data, self.output, self.charge, self.charged_until = state

    def _drive(self) -> None:
        self.output = self.output & ~self.direction & 0xFF | self.data & self.direction

    def write_data(self, value: int, now: int) -> None:
        if self.direction & PORT_UNUSED_BITS:  # an output bit 6 or 7 charges its "capacitor"
            bits = self.direction & PORT_UNUSED_BITS
            self.charge = self.charge & ~bits | value & bits
            self.charged_until = now + PORT_CHARGE_CYCLES
        self.data = value
        self._drive()

    def write_direction(self, value: int, now: int) -> None:
        turned_input = self.direction & ~value & PORT_UNUSED_BITS
        if turned_input:  # bit 6 or 7 turned into an input keeps what it drove, for a while
            self.charge = self.charge & ~turned_input | self.data & turned_input
            self.charged_until = now + PORT_CHARGE_CYCLES
        self.direction = value
        self._drive()

    def read_value(self, now: int) -> int:
        if now >= self.charged_until:
            self.charge = 0  # faded
        inputs = ~self.direction & 0xFF
        value = (self.data | inputs) & (self.output | PORT_PULL_UPS)
        value &= ~(inputs & 0x20)  # the motor line as an input reads 0
        unused_inputs = inputs & PORT_UNUSED_BITS
        return value & ~unused_inputs | self.charge & unused_inputs


class MemoryMap:
    """The memory the CPU sees (``ram``), with the ROMs and the I/O area switched in
    and out as the processor port says.

    ``roms`` maps an area's start ($A000 BASIC, $D000 character ROM, $E000 KERNAL) to
    its bytes; an area without a ROM image shows ``missing[start]`` (zeros with the
    few ROM bytes c64tc knows, see the machine)."""

    AREAS = {0xA000: 0x2000, 0xD000: 0x1000, 0xE000: 0x2000}

    def __init__(self, ram: bytearray, roms: dict[int, bytes]) -> None:
        self.ram = ram
        self.roms = roms
        self.under = bytearray(MEMORY_SIZE)  # RAM hidden under a ROM or the I/O area
        self.io = bytearray(0x1000)  # the I/O area's storage while it is hidden
        self.watch = bytearray(MEMORY_SIZE)
        self.watch[PORT_DIRECTION] = self.watch[PORT] = WATCH_MACHINE
        self.banking = Banking(0)  # all RAM: nothing shown yet
        self._shown: dict[int, str] = {0xA000: "ram", 0xD000: "ram", 0xE000: "ram"}
        # what power_on_memory put at $D000-$DFFF is the I/O area's state; the RAM there
        # (and under the ROMs) starts empty
        self.io[:] = ram[0xD000:0xE000]
        ram[0xD000:0xE000] = bytes(0x1000)
        self.port = ProcessorPort(ram[PORT_DIRECTION], ram[PORT])
        ram[PORT] = self.port.read_value(0)
        self.switch(self.port_bits())

    def port_written(self, address: int, now: int) -> None:
        """The CPU stored at $00 (the data direction) or $01 (the data) at cycle ``now``
        (the byte in memory there): memory at $01 shows what a read gives from now on."""
        port, ram = self.port, self.ram
        if address == PORT:
            port.write_data(ram[PORT], now)
        else:
            port.write_direction(ram[PORT_DIRECTION], now)
        ram[PORT] = port.read_value(now)

    def port_bits(self) -> int:
        """The port's output as the PLA sees it: input lines are pulled high."""
        direction = self.ram[PORT_DIRECTION]
        return (self.port.data & direction | ~direction) & 7

    def shown(self, start: int) -> str:
        """What the area at ``start`` shows: "ram", "rom", "io" or "charset"."""
        return self._shown[start]

    def switch(self, bits: int) -> list[range]:
        """Show what the port bits select; the address ranges whose bytes changed."""
        banking = Banking(bits)
        wanted = {0xA000: "rom" if banking.basic else "ram",
                  0xD000: "io" if banking.io else ("charset" if banking.charset else "ram"),
                  0xE000: "rom" if banking.kernal else "ram"}
        changed = []
        for start, size in self.AREAS.items():
            if wanted[start] != self._shown[start]:
                self._hide(start, size)
                self._show(start, size, wanted[start])
                changed.append(range(start, start + size))
        self.banking = banking
        return changed

    def _hide(self, start: int, size: int) -> None:
        area = self.ram[start : start + size]
        if self._shown[start] == "ram":
            self.under[start : start + size] = area
        elif self._shown[start] == "io":
            self.io[:] = area

    def _show(self, start: int, size: int, what: str) -> None:
        ram = self.ram
        if what == "ram":
            ram[start : start + size] = self.under[start : start + size]
        elif what == "io":
            ram[start : start + size] = self.io
        else:
            ram[start : start + size] = self.roms.get(start, bytes(size))[:size]
        flag = 0 if what == "ram" else WATCH_MACHINE
        watch = self.watch
        for address in range(start, start + size):
            watch[address] = (watch[address] & WATCH_CODE) | flag
        self._shown[start] = what

    def rom_shown_at(self, address: int) -> bool:
        """Whether a ROM (BASIC, KERNAL or the character ROM) is shown at ``address``."""
        start = _AREA_OF_PAGE[address >> 8 & 0xFF]
        return start >= 0 and self._shown[start] in ("rom", "charset")

    def rom_byte(self, address: int) -> int:
        """The byte of the ROM image at ``address`` (0 where there is none)."""
        for start, size in self.AREAS.items():
            if start <= address < start + size:
                image = self.roms.get(start)
                return image[address - start] if image is not None else 0
        return 0

    def io_shown(self) -> bool:
        return self._shown[0xD000] == "io"

    def ram_byte(self, address: int) -> int:
        """The RAM at ``address``, also where a ROM or the I/O area hides it (what the
        VIC-II sees, and what a write to a ROM address changes)."""
        for start, size in self.AREAS.items():
            if start <= address < start + size and self._shown[start] != "ram":
                return self.under[address]
        return self.ram[address]


#: per page of memory, the start of the banked area it lies in (MemoryMap.AREAS), else -1
_AREA_OF_PAGE = tuple(next((start for start, size in MemoryMap.AREAS.items()
                            if start <= page << 8 < start + size), -1) for page in range(256))
