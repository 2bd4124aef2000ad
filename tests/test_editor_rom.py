"""The screen editor port (toolchain/c64/editor.py) against the KERNAL's own editor.

The real KERNAL 901227-03 and BASIC 901226-01 are placed into a 64 KiB memory from
``power_on_memory()`` (no banking: the ROM bytes simply sit at $A000 and $E000) and
run on c64tc's 6502 core; each editor routine is called as a JSR would call it (a
return address to a sentinel pushed, run until the PC gets there).  No interrupt is
ever delivered.  The same start state is given to ``ScreenEditor``, the same bytes or
keys go through both, and after every call the two memories must be equal byte for
byte: screen, colour RAM (4 bits a cell, as the chip keeps them), the line link
table, every editor variable, the keyboard buffer, all of it (but the stack page,
where the ROM keeps its registers).

The ROMs are not part of the project: the tests take them from ../shared/roms
(``tests.conftest.c64_roms``) and skip with the reason when they are absent.  Facts measured here are pinned
without ROMs in tests/test_editor.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import c64_roms
from tests.test_editor import FACTS, Fact, start_memory
from toolchain.c64 import editor as ed
from toolchain.c64.editor import ScreenEditor
from toolchain.c64.keyboard import Keyboard
from toolchain.c64.memory import power_on_memory
from toolchain.c64.roms import RomSet
from toolchain.cpu.core import CPU
from toolchain.cpu.translator import TranslatingCPU

SENTINEL = 0x02A7  # unused RAM the routines return to; never executed
WAIT_FOR_KEY = 0xE5CD  # the editor's loop that polls the keyboard buffer count
COLOUR_MASK = bytes(value & 0x0F for value in range(256))


pytestmark = pytest.mark.vice_roms


@pytest.fixture(scope="module")
def roms() -> RomSet:
    return c64_roms()


class RomEditor:
    """The KERNAL's editor on the 6502 core, working on its own memory."""

    def __init__(self, roms: RomSet, memory: bytearray, keyboard: Keyboard | None = None,
                 translating: bool = True) -> None:
        self.memory = memory
        memory[0xA000:0xC000] = roms.basic
        memory[0xE000:0x10000] = roms.kernal
        self.cpu: CPU = TranslatingCPU(memory) if translating else CPU(memory)
        self.keyboard = keyboard
        if keyboard is not None:
            keyboard.attach(memory)

    def call(self, address: int, a: int = 0, x: int = 0, y: int = 0, carry: bool = False,
             stop: Callable[[CPU], bool] | None = None) -> tuple[int, int, int]:
        cpu = self.cpu
        cpu.sp = 0xFF
        cpu.push((SENTINEL - 1) >> 8)
        cpu.push((SENTINEL - 1) & 0xFF)
        cpu.pc, cpu.a, cpu.x, cpu.y, cpu.c, cpu.i = address, a, x, y, int(carry), 1
        predicate = stop or (lambda cpu: cpu.pc == SENTINEL)
        cpu.run(until=predicate, max_cycles=50_000_000)
        assert predicate(cpu), f"${address:04X} did not return"
        return cpu.a, cpu.x, cpu.y

    def chrout(self, byte: int) -> None:
        self.call(0xE716, a=byte)

    def chrin(self) -> int | None:
        """CHRIN from the keyboard ($F157 with device 0), a key typed whenever the editor
        polls an empty buffer; None when none is left (after the ROM's poll loop ran
        once, as the port leaves it)."""
        cpu = self.cpu
        memory = self.memory
        assert memory[ed.INPUT_DEVICE] == 0
        stop = lambda cpu: cpu.pc in (SENTINEL, WAIT_FOR_KEY)  # noqa: E731
        self.call(0xF157, stop=stop)
        while cpu.pc == WAIT_FOR_KEY:
            if not memory[ed.KEY_COUNT] and self.keyboard is not None:
                self.keyboard.fill(1)
            if not memory[ed.KEY_COUNT]:
                for _ in range(3):  # LDA $C6, STA $CC, STA $0292
                    cpu.step()
                return None
            cpu.step()
            cpu.run(until=stop, max_cycles=50_000_000)
        return cpu.a


def tidy(memory: bytearray) -> None:
    """What the comparison leaves out: colour RAM's upper bits (the chip has none) and
    the stack page."""
    memory[0xD800:0xDC00] = memory[0xD800:0xDC00].translate(COLOUR_MASK)
    memory[0x0100:0x0200] = bytes(0x100)


def differences(rom: bytearray, port: bytearray) -> str:
    tidy(rom)
    tidy(port)
    if rom == port:
        return ""
    lines = []
    for address in range(0x10000):
        if rom[address] != port[address]:
            lines.append(f"${address:04X}: ROM ${rom[address]:02X} port ${port[address]:02X}")
    return f"{len(lines)} bytes differ:\n" + "\n".join(lines[:40])


def pair(roms: RomSet, memory: bytearray, keys: bytes = b"") -> tuple[RomEditor, ScreenEditor]:
    """The ROM's editor and the port, each on its own copy of ``memory``."""
    rom_keyboard, port_keyboard = Keyboard(), Keyboard()
    rom_keyboard.keys.extend(keys)
    port_keyboard.keys.extend(keys)
    rom = RomEditor(roms, bytearray(memory), rom_keyboard)
    port_memory = bytearray(memory)
    port_memory[0xA000:0xC000] = roms.basic
    port_memory[0xE000:0x10000] = roms.kernal
    port_keyboard.attach(port_memory)
    return rom, ScreenEditor(port_memory, port_keyboard)


def describe(stream: bytes) -> str:
    return " ".join(f"{byte:02X}" for byte in stream)


# -- the start states --------------------------------------------------------------------------
PRINTABLE = [*range(0x20, 0x22), *range(0x23, 0x80), *range(0xA0, 0x100)]  # all but the quote
CONTROL = [*range(0x00, 0x20), *range(0x80, 0xA0)]
# the codes that do something: colours, character set, SHIFT+C= lock, reverse, HOME/CLR,
# cursor keys, DEL/INST, RETURN and SHIFT+RETURN
MEANINGFUL = [0x05, 0x1C, 0x1E, 0x1F, 0x81, 0x90, *range(0x95, 0xA0), 0x0E, 0x8E, 0x08, 0x09,
              0x12, 0x92, 0x13, 0x93, 0x11, 0x91, 0x1D, 0x9D, 0x14, 0x94, 0x0D, 0x8D]  # fmt: skip
CURSOR_KEYS = [0x11, 0x91, 0x1D, 0x9D]


def _runs(strategy: st.SearchStrategy[int], least: int, most: int) -> st.SearchStrategy[list[int]]:
    return st.lists(strategy, min_size=least, max_size=most)


byte_streams = st.lists(
    st.one_of(
        _runs(st.sampled_from(MEANINGFUL), 1, 3), _runs(st.sampled_from(MEANINGFUL), 1, 3),
        _runs(st.sampled_from(PRINTABLE), 1, 8), _runs(st.sampled_from(PRINTABLE), 1, 8),
        st.just([0x22]), _runs(st.sampled_from(CONTROL), 1, 2),
        _runs(st.sampled_from(range(0x41, 0x5B)), 30, 90),  # long lines
        _runs(st.sampled_from(CURSOR_KEYS), 1, 12),
        _runs(st.sampled_from([0x94, 0x14]), 1, 6),
        st.just([0x0D]),
    ),
    max_size=60,
).map(lambda runs: bytes(byte for run in runs for byte in run))


@dataclass(frozen=True)
class StartState:
    """A start for both editors, kept small so that hypothesis shows it readably:
    power_on_memory() with the changes named here."""

    page: int  # HIBASE
    filled: tuple[int, ...]  # rows filled with random screen codes and colours
    continued: tuple[int, ...]  # rows that continue the logical line above
    seed: int  # for the filled rows' bytes
    colour: int
    reverse: int
    quote: int
    autodn: int
    row: int
    column: int

    def memory(self) -> bytearray:
        memory = power_on_memory()
        base = self.page << 8
        memory[ed.HIBASE] = self.page
        if self.page != 0x04:
            memory[0x0400:0x07E8] = bytes(1000)
            memory[base : base + 1000] = b" " * 1000
        for row in range(25):
            memory[ed.LDTB1 + row] = 0x80 | ((base + row * 40) >> 8)
        # LDTB1's 26th entry ($F2) as the ROM's screen clear leaves it (power_on_memory
        # has 0 there): without its start bit the ROM runs past the bottom row into
        # $F3, $F4 and reads code after its row address table as row addresses
        memory[ed.LDTB1 + 25] = 0x80 | ((base + 1000) >> 8)
        generator = random.Random(self.seed)
        for row in self.filled:
            text = bytes(generator.randrange(256) for _ in range(40))
            memory[base + row * 40 : base + row * 40 + 40] = text
            memory[0xD800 + row * 40 : 0xD800 + row * 40 + 40] = bytes(c & 15 for c in reversed(text))
        for row in self.continued:
            memory[ed.LDTB1 + row] &= 0x7F
        memory[ed.COLOR] = self.colour
        memory[ed.RVS], memory[ed.QTSW], memory[ed.AUTODN] = self.reverse, self.quote, self.autodn
        memory[ed.TBLX], memory[ed.PNTR] = self.row, self.column
        return memory


@st.composite
def start_states(draw: st.DrawFn) -> StartState:
    """The cursor anywhere, some rows filled and linked into two-row lines, the modes
    and colour set at random."""
    continued: list[int] = []
    for row in range(1, 25):  # two-row lines: only where the row above starts a line
        if row - 1 not in continued and draw(st.integers(0, 4)) == 0:
            continued.append(row)
    return StartState(
        page=draw(st.sampled_from([0x04, 0x04, 0x08, 0x30, 0xC0])),
        filled=tuple(row for row in range(25) if draw(st.integers(0, 3)) == 0),
        continued=tuple(continued),
        seed=draw(st.integers(0, 2**16)),
        colour=draw(st.integers(0, 15)),
        reverse=draw(st.sampled_from([0, 0, 0x12])),
        quote=draw(st.sampled_from([0, 0, 1])),
        autodn=draw(st.sampled_from([0, 1])),
        row=draw(st.sampled_from([0, 1, 12, 22, 23, 24, 24])),
        column=draw(st.integers(0, 39)),
    )


def examples(count: int) -> settings:
    """A few examples in the default run; the slow variants (pytest -m slow) run many."""
    return settings(max_examples=count, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _place(rom: RomEditor, port: ScreenEditor) -> None:
    """Both cursors set from TBLX/PNTR ($E510), so PNT, LNMX and USER agree."""
    assert rom.call(0xE510) == port.call(0xE510)


def run_chrout(roms: RomSet, state: StartState, stream: bytes) -> None:
    rom, port = pair(roms, state.memory())
    _place(rom, port)
    for index, byte in enumerate(stream):
        rom.chrout(byte)
        port.chrout(byte)
        problem = differences(rom.memory, port.memory)
        assert not problem, f"after byte {index} (${byte:02X}) of {describe(stream)}:\n{problem}"


# -- CHROUT ------------------------------------------------------------------------------------
@examples(10)
@given(state=start_states(), stream=byte_streams)
def test_chrout_as_the_rom(roms: RomSet, state: StartState, stream: bytes) -> None:
    run_chrout(roms, state, stream)


@pytest.mark.slow
@examples(2000)
@given(state=start_states(), stream=byte_streams)
def test_chrout_as_the_rom_at_length(roms: RomSet, state: StartState, stream: bytes) -> None:
    run_chrout(roms, state, stream)


# hand-picked streams for what random streams reach rarely
SCENARIOS = {
    "cursor right off the end of a line": b"A" * 39 + b"\x1d\x1d" + b"B" * 45 + b"\x1d" * 40,
    "shift lock and character sets": b"\x08\x0e\x09\x8e\x0e\x08\x09",
    "a line grows at the bottom with a two-row line on top": b"\x13" + b"X" * 60 + b"\r" * 30 + b"Y" * 85,
    "growth pushes rows down (AUTODN)": b"\x13\x11\x11" + b"Z" * 85 + b"\x91\x91\x94\x94" + b"Q" * 10,
    "insert in a full line, and at 79": b"\x13" + b"W" * 79 + b"\x13\x94\x94\x94" + b"\x9d\x9d" + b"\x94" * 5,
    "delete across the row boundary": b"\x13" + b"E" * 50 + b"\x13" + b"\x11" + b"\x14" * 3 + b"\x9d\x14",
    "pi and shifted space": b"\xff\xde\xa0\x7e\x5e",
    "quote mode shows control codes": b'"\x11\x91\x1d\x9d\x12\x13\x93\x05\x0e\x8e\x14\x94 "\x11',
    "insert mode shows control codes": b"ABC\x9d\x9d\x94\x94\x94\x11\x05\x14\x91\x22\x11",
    "scroll with the cursor line two rows": b"\x13" + b"\x11" * 23 + b"M" * 70 + b"\r" * 3,
    "cursor up and left from the top": b"\x13\x91\x9d\x14" + b"P" * 45 + b"\x91\x91\x9d\x9d",
    "clear with reverse": b"\x12AB\x93\x92CD\x12\x0d\x9dEF",
}


# the scenarios where lines grow run with AUTODN both ways (0: PRINT, 1: typing)
GROWING = {"cursor right off the end of a line", "a line grows at the bottom with a two-row line on top",
           "growth pushes rows down (AUTODN)", "insert in a full line, and at 79",
           "scroll with the cursor line two rows"}


@pytest.mark.parametrize(("name", "autodn"), [(name, autodn) for name in SCENARIOS
                                              for autodn in ((0, 1) if name in GROWING else (0,))])
def test_chrout_scenario_as_the_rom(roms: RomSet, name: str, autodn: int) -> None:
    state = StartState(page=4, filled=(0, 1, 5, 23, 24), continued=(1, 23), seed=1, colour=7, reverse=0,
                       quote=0, autodn=autodn, row=24, column=0)
    run_chrout(roms, state, SCENARIOS[name])


# -- CHRIN ---------------------------------------------------------------------------------
TYPABLE = [*range(0x20, 0x22), *range(0x23, 0x60), *range(0xC1, 0xDB)]
key_streams = st.lists(
    st.one_of(
        _runs(st.sampled_from(TYPABLE), 1, 10), _runs(st.sampled_from(TYPABLE), 1, 10),
        st.just([0x22]), _runs(st.sampled_from(CURSOR_KEYS), 1, 8), _runs(st.sampled_from(CURSOR_KEYS), 1, 8),
        _runs(st.sampled_from(MEANINGFUL), 1, 3), st.just([0x0D]), st.just([0x0D]), st.just([0x83]),
        _runs(st.sampled_from(range(0x41, 0x5B)), 30, 90),
    ),
    max_size=40,
).map(lambda runs: bytes(byte for run in runs for byte in run))


def run_chrin(roms: RomSet, state: StartState, printed: bytes, keys: bytes, lines: int = 3,
              output_device: int = 3, blinked: bool = False) -> list[bytes]:
    memory = state.memory()
    memory[ed.OUTPUT_DEVICE] = output_device
    rom, port = pair(roms, memory, keys)
    _place(rom, port)
    for byte in printed:
        rom.chrout(byte)
        port.chrout(byte)
    if blinked:  # the cursor shown: the next jiffy flashes it on
        for memory in (rom.memory, port.memory):
            memory[ed.BLNSW], memory[ed.BLNCT] = 0, 1
        rom.call(BLINK_START, stop=lambda cpu: cpu.pc == BLINK_END)
        port.blink()
    handed: list[bytes] = []
    for _ in range(lines):
        line = bytearray()
        while True:
            expected, got = rom.chrin(), port.chrin()
            context = (f"line {len(handed)} after {bytes(line)!r}, printed {describe(printed)}, "
                       f"keys {describe(keys)}")
            assert got == expected, f"CHRIN gave {got}, the ROM {expected}: {context}"
            problem = differences(rom.memory, port.memory)
            assert not problem, f"{context}:\n{problem}"
            if got is None or got == 0x0D:
                break
            line.append(got)
        handed.append(bytes(line))
        if got is None:
            break
    return handed


@examples(5)
@given(state=start_states(), printed=byte_streams, keys=key_streams)
def test_chrin_as_the_rom(roms: RomSet, state: StartState, printed: bytes, keys: bytes) -> None:
    run_chrin(roms, state, printed, keys)


@pytest.mark.slow
@examples(800)
@given(state=start_states(), printed=byte_streams, keys=key_streams)
def test_chrin_as_the_rom_at_length(roms: RomSet, state: StartState, printed: bytes, keys: bytes) -> None:
    run_chrin(roms, state, printed, keys)


blinked_cases = given(state=start_states(), printed=byte_streams, keys=key_streams,
                      output_device=st.sampled_from([0, 3]))


@examples(3)
@blinked_cases
def test_chrin_after_the_cursor_blinked_as_the_rom(roms: RomSet, state: StartState, printed: bytes,
                                                   keys: bytes, output_device: int) -> None:
    """The cursor shown reversed when the first key comes ($E5D7 puts the character
    back), and output to another device than the screen (RETURN is then echoed)."""
    run_chrin(roms, state, printed, keys, lines=2, output_device=output_device, blinked=True)


@pytest.mark.slow
@examples(200)
@blinked_cases
def test_chrin_after_the_cursor_blinked_as_the_rom_at_length(roms: RomSet, state: StartState, printed: bytes,
                                                             keys: bytes, output_device: int) -> None:
    run_chrin(roms, state, printed, keys, lines=2, output_device=output_device, blinked=True)


# -- the other entry points ----------------------------------------------------------------------
BLINK_START, BLINK_END = 0xEA34, 0xEA61  # the cursor flash in the IRQ handler


entry_point_cases = given(
    state=start_states(), printed=byte_streams,
    calls=st.lists(st.tuples(st.sampled_from([0xE50A, 0xE510, 0xE513, 0xE544, 0xE566, 0xE56C, 0xE9FF,
                                              0xE5B4, 0xE518, BLINK_START]),
                             st.integers(0, 255), st.integers(0, 24), st.integers(0, 79), st.booleans()),
                   min_size=1, max_size=8))


@examples(6)
@entry_point_cases
def test_entry_points_as_the_rom(roms: RomSet, state: StartState, printed: bytes,
                                 calls: list[tuple[int, int, int, int, bool]]) -> None:
    """PLOT (set and read), $E510, $E513, the screen clear, home, the pointers, the line
    clear, taking a key, the initialisation and the cursor blink: memory and the A, X
    and Y they return."""
    run_entry_points(roms, state, printed, calls)


@pytest.mark.slow
@examples(500)
@entry_point_cases
def test_entry_points_as_the_rom_at_length(roms: RomSet, state: StartState, printed: bytes,
                                           calls: list[tuple[int, int, int, int, bool]]) -> None:
    run_entry_points(roms, state, printed, calls)


def run_entry_points(roms: RomSet, state: StartState, printed: bytes,
                     calls: list[tuple[int, int, int, int, bool]]) -> None:
    rom, port = pair(roms, state.memory())
    rom.memory[ed.KEY_COUNT] = port.memory[ed.KEY_COUNT] = 3
    rom.memory[0x0277:0x0282] = port.memory[0x0277:0x0282] = b"ABCDEFGHIJK"
    _place(rom, port)
    for byte in printed:
        rom.chrout(byte)
        port.chrout(byte)
    for address, a, x, y, carry in calls:
        if address == BLINK_START:
            for memory in (rom.memory, port.memory):
                memory[ed.BLNSW], memory[ed.BLNCT] = 0, 1
            rom.call(BLINK_START, stop=lambda cpu: cpu.pc == BLINK_END)
            port.blink()
        else:
            if address == 0xE5B4 and not rom.memory[ed.KEY_COUNT]:
                continue  # with an empty buffer the ROM moves 256 bytes: tested below
            expected = rom.call(address, a, x, y, carry)
            got = port.call(address, a, x, y, carry)
            assert got == expected, f"${address:04X} with A={a} X={x} Y={y} C={carry}: ROM {expected}"
        problem = differences(rom.memory, port.memory)
        assert not problem, f"after ${address:04X} (A={a} X={x} Y={y} C={carry}):\n{problem}"


def test_take_key_from_an_empty_buffer_as_the_rom(roms: RomSet) -> None:
    rom, port = pair(roms, power_on_memory())
    for memory in (rom.memory, port.memory):
        memory[0x0277:0x0378] = bytes(range(256)) + b"\x01"
    assert port.call(0xE5B4) == rom.call(0xE5B4)
    assert not differences(rom.memory, port.memory)


screen_input_cases = given(state=start_states(), printed=byte_streams, row=st.integers(0, 24),
                           column=st.integers(0, 79))


@examples(4)
@screen_input_cases
def test_chrin_from_the_screen_as_the_rom(roms: RomSet, state: StartState, printed: bytes, row: int,
                                          column: int) -> None:
    """CHRIN with the screen as input device ($F16A): the logical line at the cursor."""
    run_screen_input(roms, state, printed, row, column)


@pytest.mark.slow
@examples(300)
@screen_input_cases
def test_chrin_from_the_screen_as_the_rom_at_length(roms: RomSet, state: StartState, printed: bytes, row: int,
                                                    column: int) -> None:
    run_screen_input(roms, state, printed, row, column)


def run_screen_input(roms: RomSet, state: StartState, printed: bytes, row: int, column: int) -> None:
    rom, port = pair(roms, state.memory())
    _place(rom, port)
    for byte in printed:
        rom.chrout(byte)
        port.chrout(byte)
    assert port.set_cursor(row, column) == rom.call(0xE50A, x=row, y=column)[1:]
    for memory in (rom.memory, port.memory):
        memory[ed.INPUT_DEVICE] = 3
    for _ in range(90):
        expected = rom.call(0xF157)[0]
        got = port.chrin_screen()
        assert got == expected
        assert not differences(rom.memory, port.memory)
        if got == 0x0D:
            break


def test_scroll_with_ctrl_held_as_the_rom(roms: RomSet) -> None:
    """CTRL held (CIA 1 port B reads $FB with column 7 driven): the ROM waits, then
    empties the keyboard buffer."""
    state = StartState(page=4, filled=(0, 3), continued=(1,), seed=5, colour=3, reverse=0, quote=0,
                       autodn=0, row=24, column=0)
    rom, port = pair(roms, state.memory())
    for memory in (rom.memory, port.memory):
        memory[0xDC01] = 0xFB
        memory[ed.KEY_COUNT] = 2
    _place(rom, port)
    for byte in b"CTRL\rHELD\r":
        rom.chrout(byte)
        port.chrout(byte)
        assert not differences(rom.memory, port.memory)
    assert port.memory[ed.KEY_COUNT] == 0 and port.memory[0xDC00] == 0x7F


# -- the facts pinned without ROMs ----------------------------------------------------------------
@pytest.mark.parametrize("fact", FACTS, ids=[fact.name for fact in FACTS])
def test_pinned_fact_is_what_the_rom_does(roms: RomSet, fact: Fact) -> None:
    keyboard = Keyboard()
    keyboard.keys.extend(fact.keys)
    memory = start_memory()
    for address, value in fact.setup.items():
        memory[address] = value
    assert fact.run(RomEditor(roms, memory, keyboard)) == fact.expected


def test_start_memory_is_what_the_kernal_initialisation_leaves(roms: RomSet) -> None:
    """The two variables tests/test_editor.py's start memory adds to power_on_memory()
    are the KERNAL's ($E518 on the ROM)."""
    rom = RomEditor(roms, power_on_memory())
    rom.call(0xE518)
    ours = start_memory()
    for address in (ed.OUTPUT_DEVICE, ed.LDTB1 + 25):
        assert rom.memory[address] == ours[address]


@pytest.mark.parametrize("row", [0, 24, 25, 254, 255])
@pytest.mark.parametrize("column", [38, 39, 79])
def test_the_line_increment_as_the_rom(roms: RomSet, row: int, column: int) -> None:
    """$E8B3 at the last column of a row: INC $D6 (TBLX), not past row 25, and from 255
    (a cursor-up from row 0 on a two-row line: $E8A1's DEC) round to 0, as the 6502's INC
    (the slow comparison's random keys found the port raising there)."""
    memory = StartState(page=4, filled=(0,), continued=(), seed=0, colour=0, reverse=0, quote=0, autodn=0,
                        row=0, column=0).memory()
    memory[ed.TBLX], memory[ed.PNTR] = row, column
    rom, port = pair(roms, memory)
    rom.call(0xE8B3)
    port._line_increment()
    assert (port.memory[ed.TBLX], port.memory[ed.PNTR]) == (rom.memory[ed.TBLX], rom.memory[ed.PNTR])
