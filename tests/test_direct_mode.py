"""BASIC's direct mode after READY. (issue 14): the lines a program leaves in the keyboard
buffer (the "dynamic keyboard") are read by the screen editor and run as BASIC's main
loop does ($A480): a numbered line enters or deletes a program line (and CLR), anything
else runs as a direct statement.  And BASIC's pointers 43-66 in memory.

The oracle: the same program with the real ROMs (``--boot``: BASIC in ROM runs it and
reads the keyboard buffer itself) ends on the same screen as c64tc's compiled runner
started the same way (the power-on screen without ROMs, RUN typed)."""

from __future__ import annotations

import pytest

from tests.conftest import c64_roms
from toolchain.basic import tokenize_text
from toolchain.c64.machine import C64
from toolchain.c64.outcome import Stop
from toolchain.c64.run import Keyboard, RunResult, Session, program_from_prg


def queue(*lines: str, home: bool = True) -> str:
    """BASIC that prints ``lines`` from the top of a cleared screen and queues HOME and a
    RETURN for each, then ENDs: the C64 types them after READY. (at most 10 keys)."""
    keys = ([19] if home else []) + [13] * len(lines)
    prints = "".join(f'print "{line}":' for line in lines)
    pokes = "".join(f"poke {631 + index},{key}:" for index, key in enumerate(keys))
    return f'print "{{clr}}";:{prints}{pokes}poke 198,{len(keys)}:end'


def run(listing: str, typed: str | None = None, max_statements: int | None = 100_000,
        boot: bool = False, roms: object = None) -> tuple[RunResult, list[str]]:
    """The run's result and its final screen (25 rows)."""
    program = program_from_prg(tokenize_text(listing), "<test>")
    session = Session(program, machine=C64(roms=roms), boot=boot)  # type: ignore[arg-type]
    result = session.run(Keyboard(typed), max_statements=max_statements)
    return result, session.machine.screen.text_rows()


def test_a_numbered_line_is_entered_and_the_program_listed() -> None:
    listing = f"10 {queue('20 ?7', 'list')}\n"
    result, rows = run(listing)
    assert result.stop is Stop.END
    assert rows[:3] == ["20 ?7", "LIST", ""]
    assert rows[3].startswith('10 PRINT "')  # {clr} inside quotes prints as a reverse heart
    assert rows[6:8] == ["20 PRINT7", "READY."]  # ? was crunched into PRINT


def test_list_ranges_and_keywords_as_the_rom_prints_them() -> None:
    listing = (f"10 {queue('list 20-30')}\n"
               '20 rem print"a":goto 10\n'
               '30 if a then print "x"\n'
               "40 end\n")
    _, rows = run(listing)
    assert rows[2] == '20 REM PRINT"A":GOTO 10'  # tokens after REM are spelled out too ($A717)
    assert rows[3] == '30 IF A THEN PRINT "X"'
    assert rows[4] == ""  # the RETURN before line 40, which is then past the end ($A6D4)
    assert rows[5] == "READY."


def test_deleting_a_line_clears_and_goto_keeps_the_variables() -> None:
    listing = (f"10 a=5:{queue('30', 'goto 20')}\n"
               "20 print a*2:end\n"
               '30 print "never"\n')
    result, rows = run(listing)
    assert result.stop is Stop.END
    # each RETURN reads the screen line under the cursor, output overwrites the rows below
    assert rows[:5] == ["30", "GOTO 20", " 0", "READY.", "READY."]  # the line entry did CLR: A is 0
    listing = f"10 a=5:{queue('goto 20')}\n20 print a*2:end\n"
    _, rows = run(listing)
    assert rows[:3] == ["GOTO 20", " 10", "READY."]


def test_cont_after_stop_and_end() -> None:
    listing = (f"10 {queue('cont')[:-4]}:stop\n"
               '20 print "on":end:print "more"\n')
    result, rows = run(listing)
    assert result.stop is Stop.END
    assert rows[:4] == ["CONT", "ON", "BREAK IN 10", "READY."]


def test_an_error_in_direct_mode_has_no_line_and_keeps_the_ending() -> None:
    listing = f"10 {queue('prunt', '?1/0')}\n"
    result, rows = run(listing)
    assert result.stop is Stop.END  # as with the ROMs: a direct statement's error is not the run's
    # the second RETURN reads the empty row under READY., not ?1/0
    assert rows[:5] == ["PRUNT", "?1/0", "?SYNTAX  ERROR", "READY.", ""]


def test_the_keyboard_buffer_types_after_end() -> None:
    # tests/data/machine/keybuffer: three keys without RETURN wait at READY.
    result, rows = run("10 for i=0 to 9:poke 631+i,65+i:next:poke 198,3:end\n")
    assert result.stop is Stop.END and rows[:3] == ["", "READY.", "ABC"]


def test_a_dynamic_keyboard_loop_ends_at_the_statement_limit() -> None:
    listing = f"10 i=i+1:{queue('goto 10')}\n"
    result, rows = run(listing, max_statements=500)
    assert result.stop is Stop.STATEMENT_LIMIT


def test_typed_input_is_not_typed_at_ready() -> None:
    # the VICE measurements type the input only for the program: what is left stays
    result, rows = run('10 print "x"\n', typed="list|")
    assert result.stop is Stop.END and rows[:3] == ["X", "", "READY."]


def test_pointers_read_as_the_rom_keeps_them() -> None:
    # tests/data/machine/pointers, measured on VICE: the same numbers
    listing = ('10 a=1:b%=2:c$="hello":dim d(5),e$(3):f$=c$+"x"\n'
               "20 for i=43 to 56:print peek(i);:next:print\n"
               '30 print "line";peek(57)+256*peek(58)\n'
               '40 read x:print "data";x;peek(63)+256*peek(64);peek(65)+256*peek(66)\n'
               '50 print "cont";peek(61)+256*peek(62)\n'
               "60 data 7,8\n")
    _, rows = run(listing)
    assert rows[:5] == [" 1  8  197  8  232  8  32  9  250  159", "0  160  0  160", "LINE 30",
                        "DATA 7  60  2240", "CONT 2203"]


def test_input_get_and_def_are_illegal_in_direct_mode() -> None:
    """ERRDIR ($B3A6): INPUT after its prompt, GET and GET# at once, DEF after the
    function's name end with ?ILLEGAL DIRECT (VICE: INPUTA typed by the dynamic keyboard;
    BASIC in ROM: the same screens, test_the_screen_is_the_real_roms); INPUT# is allowed."""
    for command, error in (("geta", "ILLEGAL DIRECT"), ("get#1,a$", "ILLEGAL DIRECT"),
                           ("deffna(x)=x", "ILLEGAL DIRECT"), ("input#1,a$", "FILE NOT OPEN")):
        _, rows = run(f"10 {queue(command)}\n")
        assert rows[:4] == [command.upper(), "", f"?{error}  ERROR", "READY."]
    _, rows = run(DIRECT_PROGRAMS["input-prompt"])
    assert rows[:4] == ['INPUT"X";A', "X", "?ILLEGAL DIRECT  ERROR", "READY."]


DIRECT_PROGRAMS = {
    "enter-and-list": f"10 {queue('20 ?7', 'list')}\n",
    "delete-goto": f"10 a=a+1:?a:{queue('30', 'goto 20')}\n20 ?a:end\n30 rem\n",
    "goto-cont": f"10 a=5:{queue('goto 20', 'cont')[:-4]}:stop\n20 ?a:stop\n30 ?\"c\"\n",
    "errors": f"10 {queue('prunt', '?1/0')}\n",
    "zero": f"10 {queue('?1/0')}\n",
    "list-range": f"10 {queue('list -10')}\n20 rem\n",
    "input-prompt": '10 print "{clr}input"chr$(34)"x"chr$(34)";a":poke 631,19:poke 632,13:poke 198,2:end\n',
    "get-def": f"10 {queue('geta', 'deffna(x)=x', home=True)}\n",
}


@pytest.mark.vice_roms
@pytest.mark.parametrize("name", [  # one in the default set, the long rest in the slow set (CI runs both)
    name if name == "delete-goto" else pytest.param(name, marks=pytest.mark.slow)
    for name in sorted(DIRECT_PROGRAMS)])
def test_the_screen_is_the_real_roms(name: str) -> None:
    roms = c64_roms()
    listing = DIRECT_PROGRAMS[name]
    ours, ours_rows = run(listing, boot=True)
    theirs, their_rows = run(listing, boot=True, roms=roms)
    assert ours_rows == their_rows
    assert ours.stop is theirs.stop
