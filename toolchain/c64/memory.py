"""The C64's memory map: one 64 KiB memory that machine code, BASIC and the screen
share.

Screen memory is plain RAM: the KERNAL's screen editor prints into the page that
HIBASE ($0288, 648) names, and the VIC-II shows the 1 KiB that $D018 (bits 4-7) and
CIA 2's port A ($DD00, bits 0-1: the 16 KiB bank, inverted) select.  Both are $0400
after power-on.  Colour RAM is fixed at $D800.  So ``STA $0400`` in machine code and
``POKE 1024,1`` in BASIC put the same character on the same screen, and PEEK reads
back what either wrote.

The I/O area $D000-$DFFF holds the VIC-II, SID and CIA registers as plain storage,
with the power-on values that programs read (border $D020 light blue, background
$D021 blue, $D018 = $15: screen at $0400, upper case character set).

Addresses and values: "Mapping the Commodore 64" (Sheldon Leemon, Compute! 1984) and
the C64 Programmer's Reference Guide, memory map appendix.
"""

from __future__ import annotations

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

# -- the KERNAL's variables -------------------------------------------------------------------
KEYBOARD_COUNT = 0xC6  # NDX (198): how many keys wait in the keyboard buffer
CURSOR_COLOUR = 0x0286  # COLOR (646)
SCREEN_PAGE = 0x0288  # HIBASE (648): the page the screen editor prints into

# -- I/O registers ----------------------------------------------------------------------------
VIC_MEMORY_SETUP = 0xD018  # bits 4-7: screen at 1 KiB steps in the bank; bit 1: character set
BORDER_COLOUR = 0xD020
BACKGROUND_COLOUR = 0xD021
CIA2_PORT_A = 0xDD00  # bits 0-1: the VIC-II's 16 KiB bank, inverted

# -- colours ----------------------------------------------------------------------------------
BLUE = 6
LIGHT_BLUE = 14

# power-on values (KERNAL init: IOINIT $FDA3 and the screen set-up $E5A0)
_POWER_ON = {VIC_MEMORY_SETUP: 0x15, BORDER_COLOUR: LIGHT_BLUE, BACKGROUND_COLOUR: BLUE,
             CIA2_PORT_A: 0x97, CURSOR_COLOUR: LIGHT_BLUE, SCREEN_PAGE: DEFAULT_SCREEN >> 8}


def rom_or_io(address: int) -> bool:
    """Whether the CPU sees ROM or I/O at ``address`` (BASIC ROM, I/O, KERNAL ROM, as
    the processor port sets them after power-on)."""
    return address >= 0xA000 and (address < 0xC000 or address >= 0xD000)


def power_on_memory() -> bytearray:
    """The memory a program finds after the C64 has started: a cleared screen in the
    cursor colour, the I/O registers and KERNAL variables that say where it is."""
    memory = bytearray(MEMORY_SIZE)
    for address, value in _POWER_ON.items():
        memory[address] = value
    memory[DEFAULT_SCREEN : DEFAULT_SCREEN + SCREEN_CELLS] = b" " * SCREEN_CELLS
    memory[COLOUR_RAM : COLOUR_RAM + SCREEN_CELLS] = bytes([LIGHT_BLUE]) * SCREEN_CELLS
    return memory


def visible_screen(memory: bytearray | bytes) -> int:
    """Where the VIC-II reads the screen matrix from: the bank that CIA 2 selects
    ($DD00 bits 0-1, inverted: %11 is bank 0) plus $D018's bits 4-7 times 1 KiB."""
    bank = (3 - (memory[CIA2_PORT_A] & 3)) * 0x4000
    return bank + (memory[VIC_MEMORY_SETUP] >> 4) * 0x400


def lower_case_set(memory: bytearray | bytes) -> bool:
    """Whether the VIC-II shows the lower/upper case character set ($D018 bit 1 with
    the character ROM, as in banks 0 and 2)."""
    return bool(memory[VIC_MEMORY_SETUP] & 0x02)
