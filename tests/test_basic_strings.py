"""Strings in the C64's memory: what FRE(0) tells after a garbage collection, which
variables and strings take room, and the stack of three string temporaries
(?FORMULA TOO COMPLEX).

The references: VICE 3.10's screens of the programs in tests/data/basic/strings-*.bas
(measured with ``c64tc vice --check``; strings-full-*: the final screen after RUN),
and BASIC in ROM itself, run on c64tc's 6502 with the ROMs from ../shared/roms (as CI
has them), on the same programs and on the expressions below.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import DATA, c64_roms
from toolchain.basic import tokenize_text
from toolchain.c64.outcome import Stop
from toolchain.c64.run import Keyboard, Session, load_program, program_from_prg, run_program

BASIC_DATA = DATA / "basic"

# name, the keys typed; the slow one runs BASIC's garbage collection some 60 times
WORKLOADS = [
    pytest.param("strings-garbage", "", marks=pytest.mark.slow, id="garbage"),  # 20 x 251 bytes dropped
    pytest.param("strings-copies", "", id="copies"),  # LET copies, literals and DATA do not
    pytest.param("strings-input", "yes,no|x|", id="input"),  # INPUT, GET, STR$, TI$
    pytest.param("strings-made", "", id="made"),  # reading a variable does not make it
    pytest.param("strings-many", "", marks=pytest.mark.slow, id="many"),  # 300 live strings, 251-byte ones
]


@pytest.mark.parametrize(("name", "typed"), WORKLOADS)
def test_fre_after_strings_is_what_vice_shows(name: str, typed: str) -> None:
    listing = (BASIC_DATA / f"{name}.bas").read_text()
    expected = (BASIC_DATA / f"{name}.vice.txt").read_text().splitlines()
    result, machine = run_program(program_from_prg(tokenize_text(listing), name), Keyboard(typed))
    assert result.stop is Stop.END, result.message
    assert [row.rstrip() for row in machine.screen.text().splitlines()][: len(expected)] == expected


@pytest.mark.parametrize(("name", "typed"), [
    pytest.param("strings-copies", "", id="copies"), pytest.param("strings-input", "yes,no|x|", id="input"),
    pytest.param("strings-made", "", id="made"),
    pytest.param("strings-many", "", marks=pytest.mark.slow, id="many")])
def test_basic_in_rom_shows_what_vice_shows(name: str, typed: str) -> None:
    """The same programs on BASIC in ROM (what CI can run): the reference holds there."""
    expected = (BASIC_DATA / f"{name}.vice.txt").read_text().splitlines()
    session = Session(load_program(BASIC_DATA / f"{name}.bas"), roms=c64_roms(), boot=True)
    result = session.run(Keyboard(typed), max_cycles=400_000_000)
    assert result.stop is Stop.END, result.message
    assert [row.rstrip() for row in session.machine.screen.text().splitlines()][: len(expected)] == expected



# the string space fills up: 100-byte strings kept in an array, made by concatenation
# or by a function (LEFT$, STR$), until the strings in use and the new one no longer fit
FULL = [pytest.param("strings-full-concat", id="concatenation"),
        pytest.param("strings-full-functions", id="functions"),
        pytest.param("strings-full-str", id="str")]  # STR$ into array elements, after 34 K of copies


@pytest.mark.parametrize("name", FULL)
def test_out_of_memory_for_strings_where_vice_stops(name: str) -> None:
    listing = (BASIC_DATA / f"{name}.bas").read_text()
    expected = (BASIC_DATA / f"{name}.vice.txt").read_text().splitlines()
    result, machine = run_program(program_from_prg(tokenize_text(listing), name), Keyboard(""))
    error = next(row for row in expected if row.startswith("?"))
    assert (result.stop, result.message) == (Stop.ERROR, error)
    assert [row.rstrip() for row in machine.screen.text().splitlines()][: len(expected)] == expected


@pytest.mark.parametrize("name", FULL)
def test_basic_in_rom_runs_out_of_string_space_where_vice_does(name: str) -> None:
    expected = (BASIC_DATA / f"{name}.vice.txt").read_text().splitlines()
    session = Session(load_program(BASIC_DATA / f"{name}.bas"), roms=c64_roms(), boot=True)
    result = session.run(Keyboard(""), max_cycles=400_000_000)
    assert result.stop is Stop.ERROR, result.message
    rows = [row.rstrip() for row in session.machine.screen.text().splitlines()]
    assert rows[rows.index("RUN") + 1:][: len(expected)] == expected

# -- the three string temporaries ------------------------------------------------------------------

TOO_COMPLEX = "?FORMULA TOO COMPLEX  ERROR"
# statements and whether BASIC in ROM stops them with ?FORMULA TOO COMPLEX (measured on
# BASIC in ROM: test_the_rom_agrees_on_every_statement runs them all again there), with
# B$..F$ holding one letter each
STATEMENTS = [
    ('a$="a"+("b"+("c"+"d"))', True), ('a$="a"+("b"+("c"+d$))', False), ('a$="a"+"b"+"c"+"d"+"e"', False),
    ('a$=b$+(c$+(d$+(e$+f$)))', False), ('a$="a"+(b$+("c"+(d$+"e")))', False),
    ('a$="a"+("b"+(c$+"d"))', False), ('a$="a"+("b"+left$("c",1))', False),
    ('a$="a"+("b"+("c"+ti$))', True), ('a$=str$(1)+(str$(2)+(str$(3)+str$(4)))', True),
    ('a$=chr$(65)+(chr$(66)+(chr$(67)+chr$(68)))', True), ('a$="a"+("b"+str$(asc("c"+d$)))', False),
    ('a$=mid$("a",1)+(mid$("b",1)+(mid$("c",1)+mid$("d",1)))', True),
    ('a$=mid$("a",1)+(mid$("b",1)+(mid$("c",1)+d$))', False),
    ('print len("a"+("b"+("c"+"d")))', True), ('print mid$("abc",len("a"+("b"+"c")))', True),
    ('print left$("a"+("b"+"c"),1)', False), ('print "a"<("b"<("c"+"d"))', True),
    ('print ("a"+"b")+(("c"+"d")+("e"+"f"))', True), ('print "a"+"b"+("c"+("d"+"e"))', True),
    ('print "a"+"b"+("c"+("d"+("e"+"f")))', True), ('print "a";"b";"c";"d"', False),
    ('a="a"+("b"+("c"+"d"))', True), ('print -("a"+("b"+("c"+"d")))', True),
    ('if "a"+("b"+("c"+"d"))="" then print', True), ('a$(1)="a"+("b"+("c"+"d"))', True),
]
SETUP = 'b$="b":c$="c":d$="d":e$="e":f$="f"'


def outcome(result_message: str) -> bool:
    return result_message.startswith(TOO_COMPLEX)


@pytest.mark.parametrize(("statement", "too_complex"), STATEMENTS)
def test_formula_too_complex_as_basic_in_rom(statement: str, too_complex: bool) -> None:
    listing = f'10 {SETUP}\n20 print "x";:{statement}\n30 print "ok"\n'
    result, machine = run_program(program_from_prg(tokenize_text(listing), "t"))
    if too_complex:
        assert (result.stop, result.message) == (Stop.ERROR, f"{TOO_COMPLEX} IN 20")
        assert machine.screen.transcript().startswith("X\n?FORMULA")  # what comes before it runs
    else:
        assert (result.stop, result.message) == (Stop.END, "program ended")


def test_the_rom_agrees_on_every_statement(tmp_path: Path) -> None:
    """Every statement of the table typed in direct mode after a program set B$..F$:
    BASIC in ROM answers ?FORMULA TOO COMPLEX ERROR where the table says so, and runs
    the rest."""
    listing = tmp_path / "setup.bas"
    listing.write_text(f"10 {SETUP}\n")
    typed = "".join(f'{statement}:print "ok"|' for statement, _ in STATEMENTS)
    session = Session(load_program(listing), roms=c64_roms(), boot=True)
    session.run(Keyboard(typed), max_cycles=100_000_000)
    shown = session.machine.screen.transcript().splitlines()
    answers = [line for line in shown if line == "OK" or line.startswith("?")]
    assert [answer.startswith(TOO_COMPLEX) for answer in answers] == [too for _, too in STATEMENTS]


# the program prints a line with a literal on a cleared screen, queues HOME and RETURN:
# BASIC reads that line at READY. and runs it in direct mode (the dynamic keyboard)
TYPED_LITERAL = ('10 q$=chr$(34):a$="hello":c$=a$:f=fre(0)\n'
                 '20 print "{clr}b$=";q$;"hello";q$;":print f-fre(0)"\n'
                 "30 poke 631,19:poke 632,13:poke 198,2:end\n")


def test_a_literal_of_a_typed_line_is_copied_one_of_the_program_is_not() -> None:
    """A literal in a program line stays in the program's text (A$ and C$ take no string
    space); one in a typed line lies in the input buffer and LET copies it into string
    space: B$="HELLO" typed takes 7 + 5 bytes.  As BASIC in ROM shows it."""
    program = program_from_prg(tokenize_text(TYPED_LITERAL), "t")
    session = Session(program, roms=c64_roms(), boot=True)
    session.run(Keyboard(""), max_cycles=20_000_000)
    ours = Session(program, boot=True)
    result = ours.run(Keyboard(""))
    assert result.stop is Stop.END, result.message
    rows = ours.machine.screen.text_rows()
    expected = ['B$="HELLO":PRINT F-FRE(0)', " 12", "READY."]
    assert rows[:3] == session.machine.screen.text_rows()[:3] == expected
