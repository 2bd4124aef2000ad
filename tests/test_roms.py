"""The machine with the C64's own ROMs (--roms): KERNAL and BASIC run as code on the
6502 core; c64tc only types keys when the program waits, keeps the transcript and
sees BASIC take over.  What the ROMs do must be what c64tc's Python models do
(tests/data holds screens measured on VICE).  The ROMs come from ../shared/roms
(``tests.conftest.c64_roms``, as CI has them); skipped with the reason without them."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import DATA, REPO, c64_roms
from toolchain.c64.machine import C64
from toolchain.c64.roms import RomSet
from toolchain.c64.run import Keyboard, RunResult, Session, Stop, load_program, program_from_prg, run_program
from toolchain.cli import main
from toolchain.disk import Prg

pytestmark = pytest.mark.vice_roms

SUPERHIRN = Prg.from_bytes((DATA / "superhirn2-mse.bin").read_bytes()[:-1])
SEED_DIALOGUE = "1|1|0|0|1|2|1|2|3|0|4"


@pytest.fixture(scope="module")
def roms() -> RomSet:
    return c64_roms()


def both(program_prg: Prg, typed: str, roms: RomSet, sys_address: int | None = None) -> tuple[C64, C64]:
    """The program run on the real ROMs and on c64tc's models."""
    program = program_from_prg(program_prg, "test", sys_address)
    _, with_roms = run_program(program, Keyboard(typed), machine=C64(roms=roms))
    _, modelled = run_program(program, Keyboard(typed))
    return with_roms, modelled


@pytest.mark.slow  # (the long ROM comparisons run in the slow set, as CI does: issue 21)
def test_superhirn_on_the_real_kernal_shows_what_the_models_show(roms: RomSet) -> None:
    with_roms, modelled = both(SUPERHIRN, SEED_DIALOGUE, roms, 0x3400)
    assert with_roms.screen.transcript() == modelled.screen.transcript()
    assert with_roms.screen.transcript().splitlines()[-1] == "OK"


@pytest.mark.parametrize("name", ["mastermind", pytest.param("foxhunt", marks=pytest.mark.slow)])
def test_basic_prints_and_reads_through_the_real_rom_as_vice_shows(roms: RomSet, name: str) -> None:
    """PRINT and INPUT through the ROM's CHROUT and CHRIN: the screen VICE showed
    (tests/data/basic: the program started on a cleared screen, the same input)."""
    program = load_program(REPO / "sources" / f"{name}.bas")
    typed = (DATA / "basic" / f"{name}.input").read_text().rstrip("\n")
    result, machine = run_program(program, Keyboard(typed), machine=C64(roms=roms))
    assert result.stop is Stop.END, result.message
    expected = (DATA / "basic" / f"{name}.vice.txt").read_text().splitlines()
    assert machine.screen.text_rows()[: len(expected)] == expected


def test_brk_ends_in_the_warm_start_of_the_real_kernal(roms: RomSet) -> None:
    """The KERNAL's own BRK path ($FF48, ($0316), $FE66, BASIC's READY.), as VICE
    shows it (tests/data/machine/brk)."""
    machine = C64(roms=roms)
    machine.load(Prg(0xC000, bytes([0xA9, 0x41, 0x20, 0xD2, 0xFF, 0x00])))
    result = machine.sys(0xC000, 50_000_000)
    assert result.stop is Stop.BRK
    assert result.message == "BRK at $C005: the C64's warm start (screen cleared, READY.)"
    assert machine.screen.text_rows()[:3] == ["", "READY.", ""]


# The jump table entries a program can call without a drive or tape, each with
# parameters in A/X/Y/carry, and what they leave: the real KERNAL and c64tc's models
# must agree on the registers and flags they return.
JUMP_TABLE_CALLS = [
    ("SETLFS", 0xFFBA, 2, 3, 1, 0), ("SETNAM", 0xFFBD, 4, 0x00, 0xC1, 0), ("READST", 0xFFB7, 0, 0, 0, 0),
    ("SETMSG", 0xFF90, 0xC0, 0, 0, 0), ("MEMTOP read", 0xFF99, 0, 0, 0, 1),
    ("MEMBOT read", 0xFF9C, 0, 0, 0, 1),
    ("MEMTOP set", 0xFF99, 0, 0x00, 0x90, 0), ("SETTIM", 0xFFDB, 1, 2, 3, 0), ("RDTIM", 0xFFDE, 0, 0, 0, 0),
    ("SCREEN", 0xFFED, 0, 0, 0, 0), ("IOBASE", 0xFFF3, 0, 0, 0, 0), ("PLOT read", 0xFFF0, 0, 0, 0, 1),
    ("PLOT set", 0xFFF0, 0, 5, 7, 0), ("CHROUT", 0xFFD2, 0x41, 0, 0, 0), ("CLRCHN", 0xFFCC, 0, 0, 0, 0),
    ("CLALL", 0xFFE7, 0, 0, 0, 0), ("SETTMO", 0xFFA2, 0, 0, 0, 0), ("STOP", 0xFFE1, 0, 0, 0, 0),
    ("GETIN", 0xFFE4, 0, 0, 0, 0), ("RESTOR", 0xFF8A, 0, 0, 0, 0),
]


def _call(machine: C64, address: int, a: int, x: int, y: int, carry: int) -> tuple[int, ...]:
    # JSR address / STA $C100 / STX $C101 / STY $C102 / PHP / PLA / STA $C103 / RTS
    code = bytes([0x20, address & 0xFF, address >> 8, 0x8D, 0x00, 0xC1, 0x8E, 0x01, 0xC1, 0x8C, 0x02, 0xC1,
                  0x08, 0x68, 0x8D, 0x03, 0xC1, 0x60])
    machine.load(Prg(0xC000, code))
    machine.memory[0x030C:0x0310] = bytes([a, x, y, carry])  # SYS's registers, as POKE 780-783 sets them
    result = machine.sys(0xC000, 5_000_000)
    assert result.stop is Stop.RETURNED, result.message
    flags = machine.memory[0xC103]
    return (*machine.memory[0xC100:0xC103], flags & 0x01, flags & 0x02)  # A X Y, carry, zero


@pytest.mark.parametrize(("name", "address", "a", "x", "y", "carry"), JUMP_TABLE_CALLS,
                         ids=[call[0] for call in JUMP_TABLE_CALLS])
def test_every_jump_table_entry_returns_what_the_real_kernal_returns(
        roms: RomSet, name: str, address: int, a: int, x: int, y: int, carry: int) -> None:
    real, modelled = C64(roms=roms), C64()
    assert _call(modelled, address, a, x, y, carry) == _call(real, address, a, x, y, carry)


def test_cli_runs_the_roms_it_is_given(roms: RomSet, tmp_path: Path) -> None:
    (tmp_path / "sh.prg").write_bytes(SUPERHIRN.to_bytes())
    folder = roms.paths["kernal"].parent
    result = CliRunner().invoke(main, ["run", str(tmp_path / "sh.prg"), "--sys", "13312",
                                       "--input", SEED_DIALOGUE, "--roms", str(folder)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-3:] == ["OK", "", "READY."]  # OK's RETURN, then READY.'s
    assert "(the C64's ROMs, from --roms)" in result.stderr


# -- the C64 switched on: run --boot, BASIC itself running the program ----------------------------

def test_boot_runs_the_reset_to_the_power_on_screen_vice_shows(roms: RomSet) -> None:
    machine = C64(roms=roms)
    machine.power_on()
    data = DATA / "machine"
    assert machine.screen.codes() == (data / "power-on.screen.bin").read_bytes()
    colours = bytes(value & 0x0F for value in machine.memory[0xD800 : 0xD800 + 1000])
    assert colours == (data / "power-on.colour.bin").read_bytes()


def _booted(source: str, typed: str, roms: RomSet, tmp_path: Path) -> tuple[RunResult, C64]:
    listing = tmp_path / "program.bas"
    listing.write_text(source)
    session = Session(load_program(listing), roms=roms, boot=True)
    return session.run(Keyboard(typed)), session.machine


@pytest.mark.parametrize(("source", "typed", "stop", "message"), [
    pytest.param('10 input a$:print a$;len(a$)\n', "xyz|", Stop.END, "program ended", marks=pytest.mark.slow),
    ('10 print "a"\n20 x=1/0\n', "", Stop.ERROR, "?DIVISION BY ZERO  ERROR IN 20"),
    ('10 print "a"\n20 stop\n', "", Stop.BREAK, "BREAK IN 20"),
    pytest.param('10 input a$\n', "", Stop.INPUT_EXHAUSTED,
                 "the program waits for a typed line, but the input is used up", marks=pytest.mark.slow),
], ids=["end", "error", "break", "input"])
def test_basic_in_rom_ends_as_its_last_words_say(roms: RomSet, tmp_path: Path, source: str, typed: str,
                                                  stop: Stop, message: str) -> None:
    result, machine = _booted(source, typed, roms, tmp_path)
    assert (result.stop, result.message) == (stop, message)
    assert machine.screen.text_rows()[5:7] == ["READY.", "RUN"]  # typed at the start-up screen


@pytest.mark.parametrize("name", ["dynamic-keyboard", pytest.param("keybuffer", marks=pytest.mark.slow)])
def test_direct_mode_after_the_program_is_basic_s_own(roms: RomSet, name: str) -> None:
    """Keys a program leaves in the keyboard buffer are read by BASIC's direct mode after
    READY.: the screen VICE showed (which started the program on a cleared screen: here
    the start-up screen and RUN come first, seven rows)."""
    program = load_program(DATA / "machine" / f"{name}.bas")
    session = Session(program, roms=roms, boot=True)
    result = session.run(Keyboard(""))
    assert result.stop is Stop.END, result.message
    expected = [row for row in (DATA / "machine" / f"{name}.vice.txt").read_text().splitlines()]
    shown = session.machine.screen.text_rows()
    start = 0 if name == "dynamic-keyboard" else 7  # the program clears the screen itself
    assert shown[start : start + 8] == expected[:8]


def test_a_hooked_chrout_vector_prints_as_on_the_real_rom(roms: RomSet, tmp_path: Path) -> None:
    from tests.test_c64 import CHROUT_HOOK

    listing = tmp_path / "hook.bas"
    listing.write_text(CHROUT_HOOK)
    program = load_program(listing)
    _, with_roms = run_program(program, machine=C64(roms=roms))
    _, modelled = run_program(program)
    assert with_roms.screen.transcript() == modelled.screen.transcript() == "AABB\n\nCD\n\nREADY.\n"


def test_an_error_in_rom_basic_names_where_the_line_was_typed(roms: RomSet, tmp_path: Path) -> None:
    """BASIC in ROM ends with the C64's message and the line; the summary names the
    listing's line, as the compiled runner's does."""
    listing = tmp_path / "z.bas"
    listing.write_text('10 print "a"\n20 print 1/0\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(listing), "--boot", "--input", "",
                                       "--roms", str(roms.paths["kernal"].parent)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{listing}:2:1: error: ?DIVISION BY ZERO  ERROR IN 20: ")


# BASIC errors raised by machine code: USR's vector after power-on ($B248), a JMP to
# BASIC's ?SYNTAX ($AF08), error X through $A437
ERRORS_IN_MACHINE_CODE = {
    "usr": "10 print usr(1)\n",
    "syntax": '10 print "a";\n20 sys 44808\n',
    "error x": "10 poke 781,19:sys 42039\n",
}


@pytest.mark.parametrize("name", sorted(ERRORS_IN_MACHINE_CODE))
def test_a_basic_error_in_called_machine_code_ends_the_calling_line_as_on_the_real_rom(
        roms: RomSet, tmp_path: Path, name: str) -> None:
    """BASIC in ROM reports the error in the line that called the machine code; the
    compiled runner does the same, on the ROMs and on c64tc's models."""
    from tests.conftest import basic_in_rom, printed_rows

    source = ERRORS_IN_MACHINE_CODE[name]
    in_rom, rom_rows = basic_in_rom(source, tmp_path)
    assert in_rom.stop is Stop.ERROR
    listing = tmp_path / "called.bas"
    listing.write_text(source)
    for machine in (C64(roms=roms), C64()):
        result, ran = run_program(load_program(listing), machine=machine)
        assert (result.stop, result.message) == (in_rom.stop, in_rom.message)
        assert printed_rows(ran) == rom_rows


def test_a_basic_error_in_machine_code_started_with_sys_shows_as_on_the_real_rom(roms: RomSet) -> None:
    """Machine code started as a typed SYS that jumps to BASIC's ?SYNTAX ERROR: the
    message without a line (direct mode), READY."""
    code = Prg(0xC000, bytes([0xA9, 0x41, 0x20, 0xD2, 0xFF, 0x4C, 0x08, 0xAF]))  # LDA #"A", CHROUT, JMP $AF08
    with_roms, modelled = both(code, "", roms, 0xC000)
    assert with_roms.screen.transcript() == modelled.screen.transcript()
    assert modelled.screen.transcript().endswith("A\n?SYNTAX  ERROR\nREADY.\n")


def test_basics_error_entries_and_messages_are_the_roms(roms: RomSet) -> None:
    """The error messages c64tc's models print are the ROM's table's, and each entry
    point the models know loads its error number and jumps to ERROR ($A437)."""
    from toolchain.c64.kernal import BASIC_ERRORS, ERROR_ENTRIES

    basic = roms.basic

    def word(address: int) -> int:
        return basic[address - 0xA000] | basic[address - 0xA000 + 1] << 8

    for number, name in BASIC_ERRORS.items():
        address, text = word(0xA326 + 2 * number), bytearray()
        while not text or not text[-1] & 0x80:
            text.append(basic[address - 0xA000])
            address += 1
        assert bytes(byte & 0x7F for byte in text).decode("ascii") == name
    for entry, number in ERROR_ENTRIES.items():
        code = basic[entry - 0xA000 : entry - 0xA000 + 5]
        assert code[:2] == bytes([0xA2, number]), f"${entry:04X}"  # LDX #number
        # then JMP $A437, or ERROR itself follows
        assert entry + 2 == 0xA437 or code[2:] == bytes([0x4C, 0x37, 0xA4]), f"${entry:04X}"
