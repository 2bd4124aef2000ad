"""The C64's keyboard matrix and joysticks, as CIA 1's ports see them.

The 64 keys sit where 8 row lines (CIA 1 port A, $DC00) cross 8 column lines (port B,
$DC01): a pressed key connects its row and its column, so a program that drives a row
low reads the pressed keys of that row as 0 bits on port B (the C64 Programmer's
Reference Guide, "Reading the keyboard"; the KERNAL's decode tables at $EB81 are
indexed row * 8 + column, tests/test_chips_keyboard.py checks the table below against
them when the ROM is at hand).  RESTORE is not in the matrix (it pulls the NMI line)
and is not modelled; SHIFT LOCK is the left SHIFT held down.

Joystick 2 pulls port A's lines, joystick 1 port B's (bit 0 up, 1 down, 2 left, 3
right, 4 fire; low when pressed): idle, every line is high ($DC00 reads 127 with the
KERNAL's $7F written, $DC01 255: measured on VICE).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from toolchain.c64.chips import Slotted, Source, set_slots

if TYPE_CHECKING:
    from toolchain.c64.chips.cia import Cia

# -- the matrix ---------------------------------------------------------------------------------
# Each position row * 8 + column, the key's name and the PETSCII code the KERNAL gives
# for it alone, with SHIFT, with the Commodore key and with CTRL (None: no code; the
# KERNAL's tables at $EB81, $EBC2, $EC03, $EC78 of KERNAL 901227-03; the matrix layout
# as in the Programmer's Reference Guide).
_: None = None
KEYS: tuple[tuple[str, int | None, int | None, int | None, int | None], ...] = (
    # row 0
    ("INST/DEL", 0x14, 0x94, 0x94, _), ("RETURN", 0x0D, 0x8D, 0x8D, _), ("CRSR RIGHT", 0x1D, 0x9D, 0x9D, _),
    ("F7", 0x88, 0x8C, 0x8C, _), ("F1", 0x85, 0x89, 0x89, _), ("F3", 0x86, 0x8A, 0x8A, _),
    ("F5", 0x87, 0x8B, 0x8B, _), ("CRSR DOWN", 0x11, 0x91, 0x91, _),
    # row 1
    ("3", 0x33, 0x23, 0x96, 0x1C), ("W", 0x57, 0xD7, 0xB3, 0x17), ("A", 0x41, 0xC1, 0xB0, 0x01),
    ("4", 0x34, 0x24, 0x97, 0x9F), ("Z", 0x5A, 0xDA, 0xAD, 0x1A), ("S", 0x53, 0xD3, 0xAE, 0x13),
    ("E", 0x45, 0xC5, 0xB1, 0x05), ("LEFT SHIFT", _, _, _, _),
    # row 2
    ("5", 0x35, 0x25, 0x98, 0x9C), ("R", 0x52, 0xD2, 0xB2, 0x12), ("D", 0x44, 0xC4, 0xAC, 0x04),
    ("6", 0x36, 0x26, 0x99, 0x1E), ("C", 0x43, 0xC3, 0xBC, 0x03), ("F", 0x46, 0xC6, 0xBB, 0x06),
    ("T", 0x54, 0xD4, 0xA3, 0x14), ("X", 0x58, 0xD8, 0xBD, 0x18),
    # row 3
    ("7", 0x37, 0x27, 0x9A, 0x1F), ("Y", 0x59, 0xD9, 0xB7, 0x19), ("G", 0x47, 0xC7, 0xA5, 0x07),
    ("8", 0x38, 0x28, 0x9B, 0x9E), ("B", 0x42, 0xC2, 0xBF, 0x02), ("H", 0x48, 0xC8, 0xB4, 0x08),
    ("U", 0x55, 0xD5, 0xB8, 0x15), ("V", 0x56, 0xD6, 0xBE, 0x16),
    # row 4
    ("9", 0x39, 0x29, 0x29, 0x12), ("I", 0x49, 0xC9, 0xA2, 0x09), ("J", 0x4A, 0xCA, 0xB5, 0x0A),
    ("0", 0x30, 0x30, 0x30, 0x92), ("M", 0x4D, 0xCD, 0xA7, 0x0D), ("K", 0x4B, 0xCB, 0xA1, 0x0B),
    ("O", 0x4F, 0xCF, 0xB9, 0x0F), ("N", 0x4E, 0xCE, 0xAA, 0x0E),
    # row 5
    ("+", 0x2B, 0xDB, 0xA6, _), ("P", 0x50, 0xD0, 0xAF, 0x10), ("L", 0x4C, 0xCC, 0xB6, 0x0C),
    ("-", 0x2D, 0xDD, 0xDC, _), (".", 0x2E, 0x3E, 0x3E, _), (":", 0x3A, 0x5B, 0x5B, 0x1B),
    ("@", 0x40, 0xBA, 0xA4, 0x00), (",", 0x2C, 0x3C, 0x3C, _),
    # row 6
    ("POUND", 0x5C, 0xA9, 0xA8, 0x1C), ("*", 0x2A, 0xC0, 0xDF, _), (";", 0x3B, 0x5D, 0x5D, 0x1D),
    ("CLR/HOME", 0x13, 0x93, 0x93, _), ("RIGHT SHIFT", _, _, _, _), ("=", 0x3D, 0x3D, 0x3D, 0x1F),
    ("UP ARROW", 0x5E, 0xDE, 0xDE, 0x1E), ("/", 0x2F, 0x3F, 0x3F, _),
    # row 7
    ("1", 0x31, 0x21, 0x81, 0x90), ("LEFT ARROW", 0x5F, 0x5F, 0x5F, 0x06), ("CTRL", _, _, _, _),
    ("2", 0x32, 0x22, 0x95, 0x05), ("SPACE", 0x20, 0xA0, 0xA0, _), ("COMMODORE", _, _, _, _),
    ("Q", 0x51, 0xD1, 0xAB, 0x11), ("RUN/STOP", 0x03, 0x83, 0x83, _),
)
assert len(KEYS) == 64

LEFT_SHIFT, RIGHT_SHIFT, CONTROL, COMMODORE = (1, 7), (6, 4), (7, 2), (7, 5)
MODIFIER_KEYS = {"shift": LEFT_SHIFT, "commodore": COMMODORE, "control": CONTROL}

# where the KERNAL keeps the four tables (KERNAL 901227-03): alone, SHIFT, Commodore, CTRL
DECODE_TABLE_ADDRESSES = (0xEB81, 0xEBC2, 0xEC03, 0xEC78)


def decode_table(modifier_index: int) -> bytes:
    """The KERNAL's decode table for one modifier (0 alone, 1 SHIFT, 2 Commodore, 3
    CTRL) as the ROM holds it: 64 codes by matrix position, $FF where a key gives
    none, and an $FF after them (programs that read the tables, such as keyboard
    drivers and synthesizer listings, PEEK them).  In the first three tables the
    modifier keys hold their bit of SHFLAG ($028D: SHIFT 1, Commodore 2, CTRL 4); the
    CTRL table has $FF there (KERNAL 901227-03, compared in tests/test_chips_keyboard.py)."""
    flags = {LEFT_SHIFT: 1, RIGHT_SHIFT: 1, COMMODORE: 2, CONTROL: 4} if modifier_index < 3 else {}
    codes = bytearray()
    for position, key in enumerate(KEYS):
        code = key[1 + modifier_index]
        assert not isinstance(code, str)  # the name is key[0]
        codes.append(flags.get(divmod(position, 8), 0xFF if code is None else code))
    return bytes(codes) + b"\xff"



class KeyPress(NamedTuple):
    """Where a PETSCII code is typed: the key (row = port A bit, column = port B bit) and
    the modifier held with it (``None``, ``"shift"``, ``"commodore"``, ``"control"``)."""

    row: int
    column: int
    modifier: str | None


def _key_presses() -> dict[int, KeyPress]:
    """PETSCII code -> the simplest way to type it: alone, else with SHIFT, with the
    Commodore key, with CTRL (the first position in the matrix wins)."""
    presses: dict[int, KeyPress] = {}
    for shift_index, modifier in enumerate((None, "shift", "commodore", "control"), start=1):
        for position, key in enumerate(KEYS):
            code = key[shift_index]
            if isinstance(code, int) and code not in presses:
                presses[code] = KeyPress(position // 8, position % 8, modifier)
    return presses


KEY_PRESSES: dict[int, KeyPress] = _key_presses()

# A typed key is held this long, then all keys are up for as long again: the KERNAL scans
# the keyboard sixty times a second (every 16,421 cycles on a PAL C64), and takes a key
# when a scan finds it down after one that found it up, so both need at least one scan.
DEFAULT_HOLD_CYCLES = 40_000


class KeyMatrix(Slotted):
    """Keys held down in the matrix.

    ``next_key`` gives the next typed PETSCII code (None when nothing is typed).  When a
    program scans the matrix (drives a row low and reads the columns, or the other way
    round) while no key is down and the previous key has been up for ``hold_cycles``, the
    matrix takes the next typed key and holds it (with SHIFT, the Commodore key or CTRL
    when its code needs one) for ``hold_cycles``.  A code no key gives (PETSCII $61-$7A,
    $8E, ...) is taken and not typed.  :meth:`press` and :meth:`release` hold keys by hand."""

    __slots__ = ("next_key", "hold_cycles", "held", "held_until", "up_until", "typed", "idle")

    def __init__(self, next_key: Callable[[], int | None] | None = None,
                 hold_cycles: int = DEFAULT_HOLD_CYCLES) -> None:
        self.next_key = next_key
        self.hold_cycles = hold_cycles
        self.held: list[tuple[int, int]] = []  # (row, column) of the keys down now
        self.held_until = -1  # typed keys are let go at this cycle
        self.up_until = -1  # ... and the next is taken from this cycle on
        self.typed: list[int] = []  # the codes taken from next_key, in order (for tests and traces)

    idle: bool  # no key held and none to type (kept by __setattr__ for the fast path's guard)

    __setstate__ = set_slots  # (a copy from a snapshot sets its slots past the hook below)

    def __setattr__(self, name: str, value: object) -> None:
        # ``held`` is replaced, never emptied in place (a key taken is appended to a new list)
        object.__setattr__(self, name, value)
        if name in ("held", "next_key"):
            object.__setattr__(self, "idle", not getattr(self, "held", None)
                               and getattr(self, "next_key", None) is None)

    def press(self, *keys: tuple[int, int]) -> None:
        """Hold these keys (row, column) until :meth:`release`."""
        self.held = list(keys)
        self.held_until = 1 << 62

    def release(self) -> None:
        self.held = []
        self.held_until = -1

    def _update(self, now: int, scanning: bool) -> None:
        if self.held and now >= self.held_until:
            self.held = []
        if self.held or not scanning or self.next_key is None or now < self.up_until:
            return
        code = self.next_key()
        if code is None:
            return
        self.typed.append(code)
        self.held_until = now + self.hold_cycles
        self.up_until = self.held_until + self.hold_cycles
        press = KEY_PRESSES.get(code)
        if press is not None:
            self.held = [(press.row, press.column)]
            if press.modifier is not None:
                self.held.append(MODIFIER_KEYS[press.modifier])

    def columns_low(self, rows_driven: int, now: int, scanning: bool = True) -> int:
        """Port B bits pulled low when port A drives ``rows_driven`` (1 = high)."""
        if rows_driven & 0xFF == 0xFF:
            if self.held and now >= self.held_until:
                self.held = []
            return 0
        self._update(now, scanning)
        low = 0
        for row, column in self.held:
            if not rows_driven >> row & 1:
                low |= 1 << column
        return low

    def rows_low(self, columns_driven: int, now: int, scanning: bool = True) -> int:
        """Port A bits pulled low when port B drives ``columns_driven``."""
        if columns_driven & 0xFF == 0xFF:
            return 0
        self._update(now, scanning)
        low = 0
        for row, column in self.held:
            if not columns_driven >> column & 1:
                low |= 1 << row
        return low


UP, DOWN, LEFT, RIGHT, FIRE = 0x01, 0x02, 0x04, 0x08, 0x10


class ControlPorts(Slotted):
    """CIA 1's ports: the keyboard matrix and the two joysticks.  ``joystick1`` and
    ``joystick2`` hold the directions and fire pressed (UP | FIRE ...), 0 when idle."""

    __slots__ = ("keyboard", "joystick1", "joystick2")

    def __init__(self, keyboard: KeyMatrix | None = None) -> None:
        self.keyboard = keyboard if keyboard is not None else KeyMatrix()
        self.joystick1 = 0  # on port B, with the keyboard's columns
        self.joystick2 = 0  # on port A, with the rows

    # what the pins' source reads, fixed while a translated region runs (see Cia's
    # REGION_CONSTANTS): the joysticks and the matrix's idleness change only from
    # outside the CPU's code (a test, the live screen's keys, typed text: at a ticker,
    # a KERNAL routine in Python), or in the matrix's own methods, which the guard
    # sends the reads to while it is not idle (there it may become idle, never the other
    # way round, so a region that took it as not idle only reads through them longer)
    REGION_CONSTANTS = {"{chip}.ports.keyboard.idle": "keyboard_idle",
                        "(~{chip}.ports.joystick1 & 0xFF)": "joystick1_pins",
                        "(~{chip}.ports.joystick2 & 0xFF)": "joystick2_pins"}

    def compiled_pins(self, port: int) -> Source | None:
        """Port A's (0) or B's (1) pins as source for the fast path (toolchain.c64.chips;
        ``{chip}`` is the CIA): while no key is held and none is waiting to be typed, a
        scan of the matrix pulls no line and changes nothing (KeyMatrix.rows_low and
        columns_low), so the pins are what the joysticks pull alone; else the method."""
        return Source(f"(~{{chip}}.ports.joystick{2 - port} & 0xFF)", guard="{chip}.ports.keyboard.idle")

    def pins_a(self, cia: Cia, now: int, scanning: bool) -> int:
        low = self.keyboard.rows_low(cia.port_b_level, now, scanning) | self.joystick2
        return ~low & 0xFF

    def pins_b(self, cia: Cia, now: int, scanning: bool) -> int:
        low = self.keyboard.columns_low(cia.port_a_level, now, scanning)
        # a port B bit driven high as an output stays high against a key (VICE c64cia1.c,
        # read_ciapb); a joystick pulls it all the same
        low &= ~(cia.ddrb & cia.prb)
        return ~(low | self.joystick1) & 0xFF
