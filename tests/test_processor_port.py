"""The 6510's processor port at $00/$01 as a read sees it: the data register's output
bits, the input lines (pulled up, the cassette sense 1 with no datasette key pressed,
the motor line 0), and bits 6 and 7's fading charge (VICE 3.10, c64pla.c and
c64memsc.c; the screens below were measured on VICE 3.10 with its ROMs)."""

from __future__ import annotations

import pytest

from tests.conftest import c64_roms
from toolchain.asm.assembler import assemble
from toolchain.basic import tokenize
from toolchain.c64.machine import C64
from toolchain.c64.memory import PORT_CHARGE_CYCLES, ProcessorPort
from toolchain.c64.run import Keyboard, Program, Session, Stop, program_from_prg, run_program
from toolchain.disk.prg import Prg

# IOINIT's $E7 reads back $37; all bits outputs, then bits 6 and 7 inputs keep their
# charge; bits 3-7 inputs: the motor line 0, the cassette write line what it drove
PORT_PROGRAM = """10 print peek(1);peek(0)
20 poke 0,255:poke 1,255:poke 0,47:print peek(1)
30 poke 0,7:print peek(1):poke 0,47:poke 1,55:print peek(1)
"""
ON_VICE = [" 55  47", " 255", " 223", " 247"]  # VICE 3.10, x64sc, its ROMs


def _program() -> Program:
    return program_from_prg(tokenize([("port.bas", PORT_PROGRAM)])[0], "port")


def _printed(rows: list[str]) -> list[str]:
    return [row.rstrip() for row in rows if row.strip() and row.strip() not in ("READY.", "RUN")]


def test_the_port_reads_as_on_vice_without_roms() -> None:
    result, machine = run_program(_program())
    assert result.stop is Stop.END, result.message
    assert _printed(machine.screen.text_rows()) == ON_VICE


@pytest.mark.slow
def test_the_port_reads_as_on_vice_with_basic_in_rom() -> None:
    """The real KERNAL's IOINIT writes $E7: its interrupt then reads the cassette sense
    (bit 4) as 1 and keeps the motor off.  Read back as written, bit 4 was 0: "a key is
    pressed", the motor went on and PEEK(1) gave 7."""
    session = Session(_program(), roms=c64_roms(), boot=True)
    result = session.run(Keyboard(""))
    assert result.stop is Stop.END, result.message
    assert _printed(session.machine.screen.text_rows())[-4:] == ON_VICE


def test_ioinit_from_machine_code_leaves_the_port_reading_37() -> None:
    """IOINIT ($FF84) stores $E7 at $01; a read gives $37 on VICE (tests/data/machine/
    kernal/ioinit.asm says so)."""
    program = assemble("*=$c000\n sei\n jsr $ff84\n lda $01\n sta $c100\n lda $00\n sta $c101\n rts\n",
                       "ioinit.asm")
    machine = C64()
    machine.load(Prg(program.start, bytes(program.image)))
    result = machine.sys(0xC000, max_cycles=100_000)
    assert result.stop is Stop.RETURNED, result.message
    assert (machine.memory[0xC100], machine.memory[0xC101]) == (0x37, 0x2F)


def test_banking_follows_the_data_register_not_what_a_read_gives() -> None:
    """All lines inputs: LORAM, HIRAM and CHAREN pulled up (BASIC, KERNAL, I/O shown);
    outputs again: the data register's bits select, though a read showed the lines."""
    machine = C64()
    machine.write(1, 0x35)  # BASIC and KERNAL out, I/O in
    assert machine.map.shown(0xA000) == "ram" and machine.map.shown(0xE000) == "ram"
    machine.write(0, 0x00)
    assert machine.memory[1] & 7 == 7 and machine.map.shown(0xA000) == "rom"
    machine.write(0, 0x2F)
    assert machine.memory[1] & 7 == 5 and machine.map.shown(0xE000) == "ram"


@pytest.mark.parametrize("after", [0, PORT_CHARGE_CYCLES - 1, PORT_CHARGE_CYCLES])
def test_bits_6_and_7_keep_their_charge_until_it_fades(after: int) -> None:
    port = ProcessorPort(0xEF, 0xC7)  # bits 6 and 7 outputs, driven high
    port.write_data(0xC7, 1_000)
    port.write_direction(0x2F, 2_000)  # now inputs: they keep the charge of the store
    charged = after < PORT_CHARGE_CYCLES
    assert port.read_value(2_000 + after) & 0xC0 == (0xC0 if charged else 0)
