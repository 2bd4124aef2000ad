"""The keyboard matrix and the joysticks on CIA 1 (the Programmer's Reference Guide's
matrix; the KERNAL's decode tables when the ROM is at hand)."""

from __future__ import annotations

import pytest

from tests.conftest import c64_roms
from toolchain.c64.chips.cia import Cia
from toolchain.c64.chips.keyboard import (
    COMMODORE,
    CONTROL,
    DECODE_TABLE_ADDRESSES,
    DEFAULT_HOLD_CYCLES,
    FIRE,
    KEY_PRESSES,
    KEYS,
    LEFT_SHIFT,
    UP,
    ControlPorts,
    KeyMatrix,
    KeyPress,
    decode_table,
)
from toolchain.c64.machine import text_to_keys

pytestmark = pytest.mark.vice_roms  # the ROM comparisons look for the ROMs

DECODE_TABLES = DECODE_TABLE_ADDRESSES  # alone, SHIFT, Commodore, CTRL (KERNAL 901227-03)


def cia1(keyboard: KeyMatrix | None = None) -> tuple[Cia, ControlPorts]:
    ports = ControlPorts(keyboard)
    cia = Cia(ports, "irq")
    cia.write(0x2, 0xFF, 0)  # as the KERNAL sets them: port A outputs, port B inputs
    cia.write(0x3, 0x00, 0)
    return cia, ports


def scan(cia: Cia, row: int, now: int) -> int:
    """What a program reads on port B with one row driven low."""
    cia.write(0x0, ~(1 << row) & 0xFF, now)
    return cia.read(0x1, now)


def test_the_table_is_the_kernals() -> None:
    roms = c64_roms()
    modifiers = {LEFT_SHIFT, (6, 4), CONTROL, COMMODORE}
    for column, table in enumerate(DECODE_TABLES, start=1):
        codes = roms.kernal[table - 0xE000 : table - 0xE000 + 64]
        for position, code in enumerate(codes):
            expected = None if divmod(position, 8) in modifiers or code == 0xFF else code
            assert KEYS[position][column] == expected, f"{KEYS[position][0]} in the table at ${table:04X}"


def test_the_decode_tables_c64tc_serves_are_the_kernals_byte_for_byte() -> None:
    """Without the ROMs, c64tc serves PEEKs of the tables from its model (machine.py)."""
    roms = c64_roms()
    for index, table in enumerate(DECODE_TABLE_ADDRESSES):
        assert decode_table(index) == roms.kernal[table - 0xE000 : table - 0xE000 + 65], f"${table:04X}"


def test_the_matrix_layout() -> None:
    # the Programmer's Reference Guide: left SHIFT is row 1 column 7, A row 1 column 2,
    # RETURN row 0 column 1, SPACE row 7 column 4, RUN/STOP row 7 column 7
    assert KEYS[1 * 8 + 7][0] == "LEFT SHIFT" and KEYS[1 * 8 + 2][0] == "A"
    assert KEY_PRESSES[0x0D] == KeyPress(0, 1, None) and KEY_PRESSES[0x20] == KeyPress(7, 4, None)
    assert KEY_PRESSES[0x03] == KeyPress(7, 7, None)
    assert KEY_PRESSES[0xC1] == KeyPress(1, 2, "shift")  # shifted A
    assert KEY_PRESSES[0x22] == KeyPress(7, 3, "shift")  # " is SHIFT+2
    assert KEY_PRESSES[0x93] == KeyPress(6, 3, "shift")  # CLR
    assert KEY_PRESSES[0xB0] == KeyPress(1, 2, "commodore")  # the Commodore key's graphics
    assert KEY_PRESSES[0x90] == KeyPress(7, 0, "control")  # CTRL+1: black
    assert KEY_PRESSES[0x81] == KeyPress(7, 0, "commodore")  # C=+1: orange


def test_everything_text_input_can_type_has_a_key() -> None:
    typable = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 !\"#$%&'()*+,-./:;<=>?@[]"
    for code in text_to_keys(typable):
        assert code in KEY_PRESSES, hex(code)


def test_a_pressed_key_connects_its_row_and_column() -> None:
    keyboard = KeyMatrix()
    cia, _ = cia1(keyboard)
    keyboard.press((1, 2))  # A
    assert scan(cia, 1, 0) == 0xFB and scan(cia, 0, 0) == 0xFF
    cia.write(0x0, 0x00, 0)  # all rows: the KERNAL's first look for any key
    assert cia.read(0x1, 0) == 0xFB
    cia.write(0x0, 0xFF, 0)
    assert cia.read(0x1, 0) == 0xFF
    # the other way round: port B drives column 2 low, port A reads row 1
    cia.write(0x2, 0x00, 0)
    cia.write(0x3, 0xFF, 0)
    cia.write(0x1, 0xFB, 0)
    assert cia.read(0x0, 0) == 0xFD
    keyboard.release()
    assert cia.read(0x0, 0) == 0xFF


def test_a_port_b_output_driven_high_stays_high() -> None:
    keyboard = KeyMatrix()
    cia, _ = cia1(keyboard)
    keyboard.press((1, 2))
    cia.write(0x3, 0x04, 0)
    cia.write(0x1, 0x04, 0)
    assert scan(cia, 1, 0) == 0xFF  # VICE c64cia1.c: the key cannot pull it


def test_typed_keys_are_held_then_let_go() -> None:
    typed = [0xC1, 0x0D]  # shifted A, RETURN
    asked = []

    def next_key() -> int | None:
        asked.append(1)
        return typed.pop(0) if typed else None

    keyboard = KeyMatrix(next_key, hold_cycles=1000)
    cia, _ = cia1(keyboard)
    cia.write(0x0, 0x7F, 0)
    assert cia.peek(0x1, 0) == 0xFF and not asked  # a look without side effects takes nothing
    assert scan(cia, 1, 10) == 0x7B  # A and left SHIFT, both in row 1
    assert scan(cia, 1, 1009) == 0x7B and len(asked) == 1
    assert scan(cia, 1, 1010) == 0xFF  # let go after hold_cycles
    assert scan(cia, 0, 2009) == 0xFF and len(asked) == 1  # and up as long again
    assert scan(cia, 0, 2010) == 0xFD  # RETURN
    assert keyboard.typed == [0xC1, 0x0D]
    assert scan(cia, 0, 5000) == 0xFF and scan(cia, 0, 5001) == 0xFF and len(asked) == 4


def test_a_code_no_key_gives_is_taken_without_a_press() -> None:
    typed = [0x61]  # PETSCII $61 comes from no key
    keyboard = KeyMatrix(lambda: typed.pop(0) if typed else None)
    cia, _ = cia1(keyboard)
    cia.write(0x0, 0x00, 0)
    assert cia.read(0x1, 0) == 0xFF and keyboard.typed == [0x61] and not typed


def test_rows_not_driven_take_nothing() -> None:
    typed = [0x41]
    keyboard = KeyMatrix(lambda: typed.pop(0) if typed else None)
    cia, _ = cia1(keyboard)
    cia.write(0x0, 0xFF, 0)
    assert cia.read(0x1, 0) == 0xFF and typed == [0x41]  # no row selected: not a scan


def test_joysticks_pull_their_lines() -> None:
    cia, ports = cia1()
    cia.write(0x0, 0x7F, 0)
    assert (cia.read(0x0, 0), cia.read(0x1, 0)) == (127, 255)
    ports.joystick2 = UP | FIRE
    assert cia.read(0x0, 0) == 0x7F & ~(UP | FIRE)
    ports.joystick2 = 0
    ports.joystick1 = FIRE
    assert cia.read(0x1, 0) == 0xFF & ~FIRE and cia.read(0x0, 0) == 127


def test_the_default_hold_spans_a_keyboard_scan() -> None:
    # the KERNAL scans every 16,422 cycles: a key held (and then up) longer is seen once
    assert 16_422 < DEFAULT_HOLD_CYCLES < 16 * 16_422  # and shorter than the repeat delay
