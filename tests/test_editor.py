"""The screen editor port (toolchain/c64/editor.py) without ROMs: screens measured on VICE
replayed through it, and facts measured on the real KERNAL pinned as literals.

The VICE screens are tests/data/machine's (see its README): each program's output is
printed here as the BASIC interpreter prints it (a number as its digits with a leading
space for the sign and a cursor right after, a PRINT without ; or , ending in RETURN,
"{RETURN}READY.{RETURN}" when the program ends, RETURN after a line typed in direct
mode), and the screen, the colours and the cursor must be VICE's.

``FACTS`` were measured by running the KERNAL 901227-03 on c64tc's 6502 core;
tests/test_editor_rom.py measures every one of them again when the ROMs are there.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import pytest

from tests.conftest import DATA
from toolchain.c64 import editor as ed
from toolchain.c64.editor import ScreenEditor, petscii_to_screen_code, screen_code_to_petscii
from toolchain.c64.keyboard import Keyboard
from toolchain.c64.memory import power_on_memory
from toolchain.c64.screen import screen_codes_to_text

MACHINE = DATA / "machine"
READY = b"\rREADY.\r"


def start_memory() -> bytearray:
    """power_on_memory() with what the KERNAL's initialisation leaves there and it lacks
    (measured by running $E518 on the ROM): the screen as output device ($9A = 3) and
    the start bit of the link table's 26th entry ($F2 = $87)."""
    memory = power_on_memory()
    memory[ed.OUTPUT_DEVICE] = 3
    memory[ed.LDTB1 + 25] = 0x87
    return memory


def number(value: int) -> bytes:
    """A number as BASIC's PRINT prints it on the screen: sign or space, digits, cursor right."""
    return (b" " if value >= 0 else b"") + str(value).encode() + b"\x1d"


def editor_with(keys: bytes = b"") -> ScreenEditor:
    memory = start_memory()
    keyboard = Keyboard()
    keyboard.keys.extend(keys)
    keyboard.attach(memory)
    return ScreenEditor(memory, keyboard)


def print_bytes(editor: ScreenEditor, text: bytes) -> None:
    for byte in text:
        editor.chrout(byte)


def input_line(editor: ScreenEditor) -> bytes | None:
    """A line as BASIC's input routine ($A560) takes it: CHRIN until RETURN."""
    line = bytearray()
    while True:
        byte = editor.chrin()
        if byte is None:
            return None
        if byte == 0x0D:
            return bytes(line)
        line.append(byte)


def vice_screen(name: str) -> tuple[bytes, bytes, tuple[int, int]]:
    facts = json.loads((MACHINE / f"{name}.vice.json").read_text())
    return ((MACHINE / f"{name}.screen.bin").read_bytes(), (MACHINE / f"{name}.colour.bin").read_bytes(),
            (facts["cursor"][0], facts["cursor"][1]))


def assert_screen(editor: ScreenEditor, name: str) -> None:
    codes, colours, cursor = vice_screen(name)
    memory = editor.memory
    ours = bytes(memory[0x0400:0x07E8])
    side_by_side = [f"{screen_codes_to_text(ours[r * 40 : r * 40 + 40]):40}|"
                    f"{screen_codes_to_text(codes[r * 40 : r * 40 + 40])}" for r in range(25)]
    assert ours == codes, "c64tc | VICE\n" + "\n".join(side_by_side)
    assert bytes(c & 15 for c in memory[0xD800:0xDBE8]) == bytes(c & 15 for c in colours)
    assert editor.cursor() == cursor


# -- VICE's screens --------------------------------------------------------------------------
def test_a_two_row_line_scrolls_off_the_top_as_vice_shows() -> None:
    """scroll-two-row-line: 60 characters (a two-row logical line) scrolled away by 30
    short lines: the two rows go together, the cursor row stays 24."""
    editor = editor_with()
    print_bytes(editor, b"\x93" + b"1234567890" * 6 + b"\r")
    for value in range(1, 31):
        print_bytes(editor, number(value) + b"\r")
    print_bytes(editor, b"ROW")
    row = editor.memory[ed.TBLX]
    print_bytes(editor, number(row) + b"\r" + READY)
    assert row == 24
    assert_screen(editor, "scroll-two-row-line")


def test_cursor_variables_as_vice_shows() -> None:
    """cursor: 211 and 214 after a PRINT ending in ;, the colour 646 after CHR$(28)."""
    editor = editor_with()
    print_bytes(editor, b"ABC")
    column, row = editor.memory[ed.PNTR], editor.memory[ed.TBLX]
    print_bytes(editor, b"\x1cX")
    red = editor.memory[ed.COLOR]
    print_bytes(editor, b"\x9a\r")
    print_bytes(editor, b"COL" + number(column) + b"ROW" + number(row) + b"RED" + number(red) + b"LBLUE"
                + number(editor.memory[ed.COLOR]) + b"\r")
    print_bytes(editor, b"PAGE" + number(4) + b"PORT" + number(55) + b"DDR" + number(47) + b"\r" + READY)
    assert_screen(editor, "cursor")


def test_the_dynamic_keyboard_as_vice_shows() -> None:
    """dynamic-keyboard: HOME and RETURN poked into the keyboard buffer before END run
    the line printed at the top of the screen: the editor reads it back off the screen."""
    editor = editor_with()
    print_bytes(editor, b'\x93?"X":RUN 100\r')
    memory = editor.memory
    memory[0x0277], memory[0x0278], memory[ed.KEY_COUNT] = 0x13, 0x0D, 2
    print_bytes(editor, READY)
    assert input_line(editor) == b'?"X":RUN 100'
    print_bytes(editor, b"\r")  # BASIC ends a line typed in direct mode with RETURN ($AACA)
    print_bytes(editor, b"X\r" + b"LINE" + number(100)[:-1] + b"\r" + READY)
    assert input_line(editor) is None  # waits for a key that is not typed
    assert_screen(editor, "dynamic-keyboard")


def test_rom_cursor_calls_as_vice_shows() -> None:
    """rom-cursor: SYS 58640 ($E510), 59903 ($E9FF), 58726 ($E566), 58732 ($E56C)."""
    editor = editor_with()
    memory = editor.memory
    print_bytes(editor, b"\x93LINE 1\rLINE 2\rLINE 3\rLINE 4\r")
    memory[ed.TBLX], memory[ed.PNTR] = 5, 10
    editor.call(0xE510)
    print_bytes(editor, b"AT 5,10")
    editor.call(0xE9FF, a=0, x=1)
    memory[ed.TBLX], memory[ed.PNTR] = 7, 0
    editor.call(0xE510)
    print_bytes(editor, b"482")  # SYS 48589: BASIC prints A*256+X
    editor.call(0xE566)
    print_bytes(editor, b"HOME")
    memory[ed.TBLX], memory[ed.PNTR] = 9, 0
    editor.call(0xE510)
    print_bytes(editor, b"END\r")
    memory[ed.TBLX], memory[ed.PNTR] = 11, 5
    editor.call(0xE56C)
    print_bytes(editor, b"58732\r" + READY)
    assert_screen(editor, "rom-cursor")


def test_rom_clear_as_vice_shows() -> None:
    editor = editor_with()
    print_bytes(editor, b"THIS IS CLEARED\r")
    editor.call(0xE544)
    print_bytes(editor, b"AFTER CLEAR\r" + READY)
    assert_screen(editor, "rom-clear")


def test_character_set_codes_as_vice_shows() -> None:
    """lowercase: CHR$(14) sets bit 1 of $D018, CHR$(142) clears it (read back 23, 21)."""
    editor = editor_with()
    memory = editor.memory
    print_bytes(editor, b"\x0e\xc8ELLO \xd7ORLD")
    print_bytes(editor, number(memory[0xD018]) + b"\r")
    print_bytes(editor, b"\x8e\xd5PPER")
    print_bytes(editor, number(memory[0xD018]) + b"\r")
    memory[0xD018] = 23
    print_bytes(editor, b"\xd0OKED" + number(memory[0xD018]) + b"\r" + READY)
    assert_screen(editor, "lowercase")


# -- facts measured on the ROM -----------------------------------------------------------------
class Editor(Protocol):
    """What a fact needs of an editor: the port, or the ROM on the CPU (test_editor_rom)."""

    memory: bytearray

    def chrout(self, byte: int) -> None: ...

    def chrin(self) -> int | None: ...

    def call(self, address: int, a: int = 0, x: int = 0, y: int = 0,
             carry: bool = False) -> tuple[int, int, int] | None: ...


def rows(editor: Editor, *numbers: int) -> dict[str, object]:
    codes = bytes(editor.memory[0x0400:0x07E8])
    return {f"row {n}": screen_codes_to_text(codes[n * 40 : n * 40 + 40]).rstrip() for n in numbers}


def variables(editor: Editor, **addresses: int) -> dict[str, object]:
    return {name: editor.memory[address] for name, address in addresses.items()}


def lines(editor: Editor, count: int) -> dict[str, object]:
    found: dict[str, object] = {}
    for index in range(count):
        line = bytearray()
        while True:
            byte = editor.chrin()
            if byte is None or byte == 0x0D:
                break
            line.append(byte)
        found[f"line {index}"] = None if byte is None else bytes(line)
    return found


def links(editor: Editor) -> dict[str, object]:
    return {"links": editor.memory[ed.LDTB1 : ed.LDTB1 + 27].hex(" ")}


def printed(editor: Editor, text: bytes) -> None:
    for byte in text:
        editor.chrout(byte)


@dataclass(frozen=True)
class Fact:
    """What the ROM does in one situation: ``run`` drives an editor and reports what it
    observes, ``keys`` are typed, ``expected`` is what the ROM gave."""

    name: str
    run: Callable[[Editor], dict[str, object]]
    expected: dict[str, object]
    keys: bytes = b""
    setup: dict[int, int] = field(default_factory=dict)


def _fact_scroll(editor: Editor) -> dict[str, object]:
    printed(editor, b"\x93" + b"T" * 60 + b"\r" + b"\r" * 22)
    before = variables(editor, row=ed.TBLX)
    printed(editor, b"\r")  # the two-row line at the top scrolls away at once
    return {**before, **variables(editor, row_after=ed.TBLX, lxsp=ed.LXSP), **rows(editor, 0, 23),
            **links(editor)}


def _fact_take_over(editor: Editor) -> dict[str, object]:
    printed(editor, b"\x93\x11OLDTEXT\x13" + b"A" * 45)
    return {**rows(editor, 0, 1, 2), **links(editor),
            **variables(editor, column=ed.PNTR, row=ed.TBLX, length=ed.LNMX)}


def _fact_typed_growth(editor: Editor) -> dict[str, object]:
    printed(editor, b"\x93\x11OLDTEXT\x13")
    return {**lines(editor, 1), **rows(editor, 0, 1, 2), **links(editor),
            **variables(editor, row=ed.TBLX, autodn=ed.AUTODN, blnsw=ed.BLNSW)}


def _fact_insert_at_79(editor: Editor) -> dict[str, object]:
    printed(editor, b"\x93" + b"I" * 79 + b"\x9d\x94\x13\x94\x94")
    return {**rows(editor, 0, 1, 2), **variables(editor, inserts=ed.INSRT, column=ed.PNTR)}


def _fact_delete_at_column_0(editor: Editor) -> dict[str, object]:
    printed(editor, b"\x93ABC\rDEF\x9d\x9d\x9d\x14")
    return {**rows(editor, 0, 1), **variables(editor, column=ed.PNTR, row=ed.TBLX)}


def _fact_plot_on_second_row(editor: Editor) -> dict[str, object]:
    printed(editor, b"\x93" + b"P" * 45)
    read = editor.call(0xE50A, carry=True)
    placed = editor.call(0xE50A, x=1, y=3)  # row 1 continues row 0: the column is 43
    return {"read": read, "placed": placed, **variables(editor, pnt=ed.PNT, length=ed.LNMX)}


def _fact_input_after_prompt(editor: Editor) -> dict[str, object]:
    printed(editor, b"\x93NAME? ")
    return {**lines(editor, 2), **variables(editor, lxsp_row=ed.LXSP, lxsp_column=ed.LXSP + 1, end=ed.INDX)}


def _fact_quote_mode_read_back(editor: Editor) -> dict[str, object]:
    printed(editor, b'\x93"\x13\x05"\x12S\x92\r')
    return lines(editor, 1)


def _fact_three_lines(editor: Editor) -> dict[str, object]:
    return lines(editor, 3)


def _fact_return_on_another_line(editor: Editor) -> dict[str, object]:
    printed(editor, b"\x93LIST\r\rPROMPT? ")
    return lines(editor, 1)


def _fact_clear_line(editor: Editor) -> dict[str, object]:
    printed(editor, b"\x93\x1cRED\rROW 1\rROW 2\x9eYELLOW")
    registers = editor.call(0xE9FF, x=1)
    return {"registers": registers, **rows(editor, 1), "colours": bytes(editor.memory[0xD828:0xD82C]).hex(),
            **variables(editor, pnt=ed.PNT, user=ed.USER + 1)}


def _fact_clear_screen(editor: Editor) -> dict[str, object]:
    printed(editor, b"\x1eX\x93")
    return {**links(editor), **variables(editor, user_low=ed.USER, user_high=ed.USER + 1, length=ed.LNMX,
                                         colour=0xD800)}


def _fact_initialise(editor: Editor) -> dict[str, object]:
    registers = editor.call(0xE518)
    return {"registers": registers, "vic": bytes(editor.memory[0xD000:0xD02F]).hex(),
            **variables(editor, output=ed.OUTPUT_DEVICE, blnsw=ed.BLNSW, blnct=ed.BLNCT, kount=ed.KOUNT,
                        delay=ed.DELAY, keylog=ed.KEYLOG, keylog_high=ed.KEYLOG + 1, end_entry=ed.LDTB1 + 25)}


# the link table after a screen clear: rows 0-25 start lines (bit 7) in pages 4-7 (the
# 26th entry is the row after the last); $F3 (USER) follows
LINKS_CLEAR = "84 84 84 84 84 84 84 85 85 85 85 85 85 86 86 86 86 86 86 86 87 87 87 87 87 87 00"
LINKS_ROW_1_CONTINUES = "84 04 84 84 84 84 84 85 85 85 85 85 85 86 86 86 86 86 86 86 87 87 87 87 87 87 00"

FACTS = [
    Fact("a two-row line at the top scrolls away whole", _fact_scroll,
         {"row": 24, "row_after": 23, "lxsp": 254, "row 0": "", "row 23": "",
          "links": LINKS_CLEAR[:-2] + "98"}),
    Fact("a printed line growing to two rows takes the next row over, its text stays", _fact_take_over,
         {"row 0": "A" * 40, "row 1": "AAAAAXT", "row 2": "", "links": LINKS_ROW_1_CONTINUES, "column": 45,
          "row": 1, "length": 79}),
    Fact("a typed line growing to two rows pushes the rows below down", _fact_typed_growth,
         {"line 0": b"K" * 45, "row 0": "K" * 40, "row 1": "KKKKK", "row 2": "OLDTEXT",
          "links": LINKS_ROW_1_CONTINUES, "row": 1, "autodn": 0, "blnsw": 1},
         keys=b"K" * 45 + b"\r"),
    Fact("INST at the end of a full two-row line does nothing; HOME while inserting shows reversed",
         _fact_insert_at_79,
         {"row 0": "I" * 40, "row 1": "I" * 38 + "SI", "row 2": "", "inserts": 0, "column": 79}),
    Fact("DEL at column 0 goes to the end of the line above and deletes there", _fact_delete_at_column_0,
         {"row 0": "ABC", "row 1": "DEF", "column": 39, "row": 0}),
    Fact("PLOT counts the column in the logical line", _fact_plot_on_second_row,
         {"read": (0, 1, 45), "placed": (0xD8, 1, 43), "pnt": 0, "length": 79}),
    Fact("input begins where the cursor was: the prompt is not read; trailing spaces go",
         _fact_input_after_prompt,
         {"line 0": b"BOB", "line 1": b"  HI", "lxsp_row": 0, "lxsp_column": 14, "end": 14},
         keys=b"BOB\r  HI  \r"),
    Fact("in quote mode a reversed character reads back as its control code", _fact_quote_mode_read_back,
         {"line 0": b'"\x13\x05"S'}, keys=b"\x91\r"),
    Fact("SHIFT+RUN/STOP types LOAD and RUN", _fact_three_lines,
         {"line 0": b"LOAD", "line 1": b"RUN", "line 2": None}, keys=b"\x83"),
    Fact("the dynamic keyboard: RETURN on another line reads it from column 0",
         _fact_return_on_another_line,
         {"line 0": b"LIST"}, keys=b"\x13\r"),
    Fact("$E9FF clears a row in the cursor colour", _fact_clear_line,
         {"registers": (0x20, 1, 0xFF), "row 1": "", "colours": "07070707", "pnt": 40, "user": 0xD8}),
    Fact("the screen clear builds the link table", _fact_clear_screen,
         {"links": LINKS_CLEAR, "user_low": 0, "user_high": 0xD8, "length": 39, "colour": 5}),
    Fact("$E518 initialises the editor and the VIC-II", _fact_initialise,
         {"registers": (0xD8, 1, 0x84),
          "vic": "00" * 16 + "009b370000000800140f0000000000000e060102030400010203040506074c",
          "output": 3, "blnsw": 12, "blnct": 12, "kount": 4, "delay": 10, "keylog": 0x48, "keylog_high": 0xEB,
          "end_entry": 0x87}),
]


def port_for(fact: Fact) -> ScreenEditor:
    editor = editor_with(fact.keys)
    for address, value in fact.setup.items():
        editor.memory[address] = value
    return editor


@pytest.mark.parametrize("fact", FACTS, ids=[fact.name for fact in FACTS])
def test_fact_measured_on_the_rom(fact: Fact) -> None:
    assert fact.run(port_for(fact)) == fact.expected


# -- conversions and hooks ------------------------------------------------------------------------
def test_screen_codes_of_printable_characters() -> None:
    assert [petscii_to_screen_code(b) for b in (0x41, 0x20, 0x40, 0x5F, 0x60, 0x7F, 0xA0, 0xC1, 0xFF)] == \
        [0x01, 0x20, 0x00, 0x1F, 0x40, 0x5F, 0x60, 0x41, 0x5E]
    assert petscii_to_screen_code(0x41, reverse=True) == 0x81
    assert petscii_to_screen_code(0x0D) is None and petscii_to_screen_code(0x93) is None


def test_screen_codes_read_back() -> None:
    # letters, digits, graphics; pi; a reversed character outside and inside quotes
    assert [screen_code_to_petscii(c) for c in (0x01, 0x31, 0x41, 0x60, 0x5E, 0x81)] == \
        [0x41, 0x31, 0xC1, 0xA0, 0xFF, 0x41]
    assert screen_code_to_petscii(0x93, quote=True) == 0x13
    assert screen_code_to_petscii(0xD1, quote=True) == 0x91


def test_the_hooks_see_the_rows_that_go() -> None:
    scrolled: list[bytes] = []
    cleared: list[list[bytes]] = []
    editor = editor_with()
    editor.on_scroll = scrolled.append
    editor.on_clear = cleared.append
    print_bytes(editor, b"\x93" + b"W" * 50 + b"\r" + b"\r" * 23)
    assert [screen_codes_to_text(row).rstrip() for row in scrolled] == ["W" * 40, "W" * 10]
    assert editor.cursor() == (23, 0)  # the two rows went at once
    print_bytes(editor, b"AB\x93")
    assert len(cleared) == 2 and len(cleared[1]) == 25
    assert screen_codes_to_text(cleared[1][23]).rstrip() == "AB"


def test_input_runs_out() -> None:
    """No more typed keys while the editor waits: None, the cursor left blinking, and
    the next call waits again."""
    editor = editor_with(b"HI")
    assert editor.chrin() is None
    assert editor.memory[ed.BLNSW] == 0 and editor.memory[ed.AUTODN] == 0
    assert editor.chrin() is None
    assert screen_codes_to_text(bytes(editor.memory[0x0400:0x0402])) == "HI"
