"""The BASIC V2 runner: statements, functions, the stack rules, errors, INPUT and GET,
SYS, and screens measured on a real C64 (VICE 3.10 with the C64 ROMs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import DATA, c64_roms, play_on_terminal
from toolchain.asm import assemble
from toolchain.basic import tokenize, tokenize_text
from toolchain.basic.runner import is_basic_program
from toolchain.basic.runner.contract import Ended
from toolchain.c64.machine import C64
from toolchain.c64.outcome import Stop
from toolchain.c64.run import Keyboard, RunResult, Session, load_program, program_from_prg, run_program
from toolchain.cli import main
from toolchain.disk import Prg
from toolchain.verify import nikolaus

BASIC_DATA = DATA / "basic"
REPO = Path(__file__).resolve().parent.parent


def run_listing(listing: str, typed: str | None = None, max_statements: int | None = None,
                machine: C64 | None = None) -> tuple[RunResult, C64]:
    """Run a listing (petcat text) as c64tc run does."""
    program = program_from_prg(tokenize_text(listing), "<test>")
    return run_program(program, Keyboard(typed), machine, max_statements=max_statements)


def run(listing: str, typed: str | None = None, max_statements: int | None = None,
        machine: C64 | None = None) -> tuple[Stop, str, C64]:
    """Run a listing; the stop, the transcript and the machine."""
    result, machine = run_listing(listing, typed, max_statements, machine)
    return result.stop, machine.screen.transcript(), machine


def lines_of(transcript: str) -> list[str]:
    return [line.rstrip() for line in transcript.splitlines()]


def printed(listing: str, typed: str | None = None) -> list[str]:
    """What the program printed, without the READY. at the end."""
    stop, transcript, _ = run(listing, typed)
    lines = lines_of(transcript)
    assert lines[-1] == "READY.", lines
    return lines[:-2] if lines[-2] == "" else lines[:-1]


# -- screens measured on VICE ---------------------------------------------------------------

ROUNDING_INPUT = "17612.9325|17612.9325|"

@pytest.mark.parametrize(("name", "typed"), [
    ("facts", None),
    ("input", "1,abc|x1|5|7|8|9,10|  hi there  |"),
    ("stack-for", None),  # 9 nested FORs fit, the tenth is ?OUT OF MEMORY
    ("stack-gosub", None),  # 23 nested GOSUBs fit
    ("stack-mixed", None),  # a GOSUB and 9 FORs fit
    ("compare", None),  # 1/3*3=1 is true: the left operand is rounded before comparing
    ("integers", None),  # A%= rounds then floors; AND floors its right operand unrounded
    ("fastpaths", None),  # the runner's shortcuts at their edges: NEXT near 2**32, slices, VAL, arrays
    ("next-edges", None),  # NEXT's shortcut where the variable, not only the sum, reaches 2**32
    ("rounding", ROUNDING_INPUT),  # READ, INPUT and INT(big) as a variable stores them: rounded
    ("shortcuts", None),  # every shortcut's guard at its edges: slices, VAL, subscripts, A%=, + - *
    ("longest-line", None),  # a line of 250 bytes (the most a C64 holds, 255 with its link) runs, lists
])
def test_screen_equals_the_real_c64(name: str, typed: str | None) -> None:
    """The rows after RUN on VICE, program by program: numbers, functions, PRINT
    layout, INPUT's prompts and messages."""
    listing = (BASIC_DATA / f"{name}.bas").read_text()
    expected = (BASIC_DATA / f"{name}.vice.txt").read_text().splitlines()
    _, machine = run_listing(listing, typed)
    screen = [row.rstrip() for row in machine.screen.text().splitlines()]
    assert screen[: len(expected)] == expected


# programs that clear the screen first: BASIC in ROM on c64tc's 6502 (what CI can run)
# shows what VICE showed, so the ROM comparisons of the tests hold where VICE is absent
ROM_SCREENS = [("next-edges", ""), ("rounding", ROUNDING_INPUT), ("longest-line", ""),
               pytest.param("shortcuts", "", marks=pytest.mark.slow)]  # 13 s of the ROM's BASIC


@pytest.mark.parametrize(("name", "typed"), ROM_SCREENS)
def test_basic_in_rom_shows_the_screen_vice_showed(name: str, typed: str) -> None:
    expected = (BASIC_DATA / f"{name}.vice.txt").read_text().splitlines()
    session = Session(load_program(BASIC_DATA / f"{name}.bas"), roms=c64_roms(), boot=True)
    result = session.run(Keyboard(typed), max_cycles=200_000_000)
    assert result.stop in (Stop.END, Stop.ERROR), result.message
    screen = [row.rstrip() for row in session.machine.screen.text().splitlines()]
    assert screen[: len(expected)] == expected


@pytest.mark.parametrize("name", ["random-arithmetic", "random-trig", "random-exp-log",
                                  "random-conversion"])
def test_random_operands_give_the_real_c64s_digits(name: str) -> None:
    """RND with a fixed seed feeds * / + -, SIN COS ATN SQR, EXP LOG ^ TAN, VAL STR$ INT:
    the last 20 screen rows equal VICE's, every digit (the output scrolls)."""
    listing = (BASIC_DATA / f"{name}.bas").read_text()
    expected = (BASIC_DATA / f"{name}.vice.txt").read_text().splitlines()
    _, machine = run_listing(listing)
    screen = [row.rstrip() for row in machine.screen.text().splitlines()]
    while screen and not screen[-1]:
        screen.pop()
    assert screen[-len(expected):] == expected


def test_print_layout_measured_on_a_c64() -> None:
    assert printed('10 print "ab";:print "cd","ef",:print "gh";tab(20)"ij";spc(3)"kl"\n') == [
        "ABCD      EF        GHIJ   KL"]


def test_a_line_of_exactly_40_characters_leaves_an_empty_line() -> None:
    assert printed(f'10 print "{"x" * 40}"\n20 print "next"\n') == ["X" * 40, "", "NEXT"]


def test_a_number_is_followed_by_cursor_right_not_space() -> None:
    stop, _, machine = run('10 print "abcd":print "{home}";1;\n')
    assert b" 1\x1d" in bytes(machine.output_log)
    # the cursor-right leaves what was on the screen: "C" stays visible after " 1"
    assert machine.screen.text().splitlines()[0].rstrip() == " 1CD"


# -- statements -----------------------------------------------------------------------------

def test_for_next_with_steps_and_nesting() -> None:
    assert printed("10 for i=1 to 3:print i;:next\n"
                   "20 print:for i=10 to 1 step -4:print i;:next i\n"
                   "30 print:for i=1 to 2:for j=1 to 2:print i*10+j;:next j,i\n"
                   "40 print:for i=5 to 1:print i;:next:print \"after\"\n") == [
        " 1  2  3", " 10  6  2", " 11  12  21  22", " 5 AFTER"]


def test_for_on_the_same_variable_drops_the_older_loop_and_everything_above() -> None:
    # the inner FOR I replaces the outer one (and the J loop above it): NEXT J fails
    stop, transcript, _ = run("10 for i=1 to 2:for j=1 to 2\n20 for i=1 to 3:next i\n30 next j\n")
    assert stop is Stop.ERROR
    assert "?NEXT WITHOUT FOR  ERROR IN 30" in lines_of(transcript)


def test_next_without_variable_closes_the_innermost_loop() -> None:
    assert printed("10 for i=1 to 2:for j=1 to 3:next:print i;j;:next\n") == [" 1  4  2  4"]


def test_gosub_return_and_return_drops_loops_opened_in_the_subroutine() -> None:
    assert printed("10 gosub 100:print \"back\":end\n100 for i=1 to 3:return\n") == ["BACK"]
    assert printed("10 for k=1 to 2:gosub 100:next:print \"ok\":end\n100 print k;:return\n") == [
        " 1  2 OK"]


def test_if_then_forms() -> None:
    assert printed("10 if 1 then print \"a\";:print \"b\";\n20 if 0 then print \"no\"\n"
                   "30 if 1 then 50\n40 print \"skipped\"\n50 if 1 goto 70\n60 print \"skipped\"\n"
                   "70 if \"\" then print \"empty\"\n80 print \"end\"\n") == ["ABEND"]


def test_on_goto_and_gosub() -> None:
    assert printed("10 for i=0 to 3:on i goto 20,30\n15 print \"none\";:goto 40\n"
                   "20 print \"one\";:goto 40\n30 print \"two\";\n40 next\n"
                   "50 on 2 gosub 60,70:print \"!\":end\n60 print \"x\";:return\n70 print \"y\";:return\n"
                   ) == ["NONEONETWONONEY!"]


def test_data_read_restore() -> None:
    assert printed('10 read a,b$,c:print a;b$;c\n20 restore:read d:print d\n'
                   '30 data 1.5, "x,y" ,-2e3\n') == [" 1.5 X,Y-2000", " 1.5"]


def test_dim_and_arrays() -> None:
    assert printed("10 dim a(2,3),b$(4):a(2,3)=7:b$(4)=\"s\":print a(2,3);b$(4);c(10);d%(5)\n"
                   ) == [" 7 S 0  0"]


def test_variables_have_two_significant_characters_and_three_kinds() -> None:
    assert printed('10 abc=1:abd=2:ab%=3:ab$="s":print abc;ab%;ab$\n') == [" 2  3 S"]


def test_integer_variables_floor_and_range() -> None:
    assert printed("10 a%=-1.5:b%=7.9:print a%;b%\n") == ["-2  7"]
    stop, transcript, _ = run("10 a%=32768\n")
    assert "?ILLEGAL QUANTITY  ERROR IN 10" in lines_of(transcript)


def test_def_fn_keeps_the_parameter_variable() -> None:
    assert printed("10 x=5:def fn sq(x)=x*x+1:print fn sq(3);x\n") == [" 10  5"]


def test_poke_peek_wait_and_sys_into_assembled_code() -> None:
    program = assemble("*= $c000\n lda $fb\n clc\n adc #1\n sta $fc\n lda #65\n jsr $ffd2\n rts\n")
    machine = C64()
    machine.load(Prg(program.start, program.image))
    stop, transcript, _ = run("10 poke 251,41:sys 49152:print peek(252)\n20 wait 252,2\n",
                                    machine=machine)
    assert stop is Stop.END
    assert lines_of(transcript)[0] == "A 42"


def test_usr_calls_machine_code_with_the_fac() -> None:
    program = assemble("*= $c000\n inc $61\n rts\n")  # doubles the FAC
    machine = C64()
    machine.load(Prg(program.start, program.image))
    stop, transcript, _ = run("10 poke 785,0:poke 786,192:print usr(21)\n", machine=machine)
    assert lines_of(transcript)[0] == " 42"


def test_get_reads_keys_and_empty_when_none() -> None:
    assert printed('10 get a$:get b$:get c:print a$;len(b$);c\n', "x") == ["X 1  0"]


def test_get_waiting_for_a_key_that_never_comes_ends_with_status_3() -> None:
    stop, _, _ = run('10 get a$:if a$="" then 10\n')
    assert stop is Stop.INPUT_EXHAUSTED and stop.exit_status == 3


def test_input_with_nothing_typed_any_more_ends_with_status_3() -> None:
    stop, _, _ = run("10 input a\n")
    assert stop is Stop.INPUT_EXHAUSTED


def test_empty_input_leaves_the_variables() -> None:
    assert printed('10 a=5:input a:print a\n', "|") == ["?", " 5"]


def test_stop_end_run_clr() -> None:
    stop, transcript, _ = run("10 print 1:stop:print 2\n")
    assert stop is Stop.BREAK and "BREAK IN 10" in lines_of(transcript)
    assert printed("10 a=1:clr:print a\n") == [" 0"]


def test_run_clears_variables_and_starts_again() -> None:
    stop, transcript, _ = run("10 print \"x\";:a=a+1:if a<3 then run\n", max_statements=50)
    # RUN clears A, so this never ends: the statement limit stops it
    assert stop is Stop.STATEMENT_LIMIT
    assert lines_of(transcript)[0].startswith("XXX")


def test_list_prints_the_program() -> None:
    # LIST prints RETURN before each line, so an empty row follows HI (the real ROM's too)
    assert printed('10 print "hi":list\n') == ["HI", "", '10 PRINT "HI":LIST']


def test_let_new_pi_st() -> None:
    assert printed("10 let a=2:print a;st;~:new\n20 print \"never\"\n") == [" 2  0  3.14159265"]


def without_drive() -> C64:
    """A C64 without the 1541 VICE's default machine has on device 8 (run --no-drive)."""
    machine = C64()
    machine.bus.detach(8)
    return machine


def test_save_and_verify_without_a_drive_are_clear_errors() -> None:
    for statement in ('save "x",8', 'verify "x",8'):
        stop, transcript, _ = run(f"10 {statement}\n", machine=without_drive())
        assert stop is Stop.ERROR and "?DEVICE NOT PRESENT  ERROR IN 10" in lines_of(transcript)


def test_ti_and_ti_string() -> None:
    assert printed('10 ti$="123456":print ti$;ti>0\n')[0].startswith("123456")


def test_printer_output_and_unsupported_devices() -> None:
    from toolchain.c64.drive import Printer

    with_printer = C64()
    with_printer.bus.attach(Printer(with_printer.printer))
    result, machine = run_listing('10 open 4,4:print#4,"to";1:cmd 4:print "cmd":close 4\n20 print "screen"\n',
                                  machine=with_printer)
    assert result.stop is Stop.END
    # CMD alone prints an empty line to the file, as the ROM's CMD ends in PRINT
    assert result.printer == b"TO 1 \r\rCMD\r"
    assert lines_of(machine.screen.transcript())[0] == "SCREEN"
    stop, transcript, _ = run('10 open 1,8,15,"i"\n', machine=without_drive())
    assert "?DEVICE NOT PRESENT  ERROR IN 10" in lines_of(transcript)
    stop, transcript, _ = run('10 load "x",8\n', machine=without_drive())
    assert "?DEVICE NOT PRESENT  ERROR IN 10" in lines_of(transcript)


# -- errors as the C64 prints them ----------------------------------------------------------

@pytest.mark.parametrize(("listing", "message"), [
    ("270 for k=2311111 t 4555554\n", "?SYNTAX  ERROR IN 270"),
    ("450 next\n", "?NEXT WITHOUT FOR  ERROR IN 450"),
    ("10 read a\n", "?OUT OF DATA  ERROR IN 10"),
    ("10 goto 99\n", "?UNDEF'D STATEMENT  ERROR IN 10"),
    ("10 print 1/0\n", "?DIVISION BY ZERO  ERROR IN 10"),
    ('10 a="x"\n', "?TYPE MISMATCH  ERROR IN 10"),
    ("10 print 1e38*10\n", "?OVERFLOW  ERROR IN 10"),
    ("10 dim a(3):a(4)=1\n", "?BAD SUBSCRIPT  ERROR IN 10"),
    ("10 dim a(3):dim a(3)\n", "?REDIM'D ARRAY  ERROR IN 10"),
    ("10 return\n", "?RETURN WITHOUT GOSUB  ERROR IN 10"),
    ("10 print chr$(256)\n", "?ILLEGAL QUANTITY  ERROR IN 10"),
    ("10 a$=\"x\":for i=1 to 8:a$=a$+a$:next\n", "?STRING TOO LONG  ERROR IN 10"),
    ("10 print fn a(1)\n", "?UNDEF'D FUNCTION  ERROR IN 10"),
    ("10 cont\n", "?CAN'T CONTINUE  ERROR IN 10"),
    ("10 print#3,1\n", "?FILE NOT OPEN  ERROR IN 10"),
    ("10 read a\n20 data x\n", "?SYNTAX  ERROR IN 20"),  # the DATA line is reported
    ("10 print 1\n20 gosub 10\n", "?OUT OF MEMORY  ERROR IN 20"),
    ("10 dim a(100,100)\n", "?OUT OF MEMORY  ERROR IN 10"),  # 51 005 bytes > 38 911
    ("10 def fn a(x)=fn a(x+1)\n20 print fn a(1)\n", "?OUT OF MEMORY  ERROR IN 20"),
])
def test_error_messages(listing: str, message: str) -> None:
    stop, transcript, _ = run(listing)
    assert stop is Stop.ERROR and stop.exit_status == 1
    lines = lines_of(transcript)
    assert message in lines
    assert lines[lines.index(message) + 1] == "READY."


def test_statements_before_a_syntax_error_run() -> None:
    stop, transcript, _ = run('10 print "before":print "x" 1 (\n')
    assert lines_of(transcript)[0] == "BEFORE"
    assert "?SYNTAX  ERROR IN 10" in lines_of(transcript)


def test_error_in_a_later_line_of_a_superblock_names_that_line() -> None:
    stop, transcript, _ = run("10 a=1\n20 b=2\n30 print 1/0\n")
    assert "?DIVISION BY ZERO  ERROR IN 30" in lines_of(transcript)


# -- programs ------------------------------------------------------------------------------

def test_a_basic_program_saved_elsewhere_is_loaded_at_0801_and_relinked(tmp_path: Path) -> None:
    saved = tokenize_text('10 print "moved"\n20 print peek(2049)+256*peek(2050)\n', load_address=0x1C01)
    assert is_basic_program(saved)
    (tmp_path / "c128.prg").write_bytes(saved.to_bytes())
    result = CliRunner().invoke(main, ["run", str(tmp_path / "c128.prg")])
    assert result.exit_code == 0
    # the first link now points into $08xx, where the second line starts
    assert result.stdout.splitlines()[:2] == ["MOVED", " 2063"]  # $0801 + 14 bytes of line 10


def test_is_basic_program() -> None:
    assert is_basic_program(tokenize_text("10 print 1\n"))
    assert not is_basic_program(Prg(0x3400, b"\x60"))
    assert not is_basic_program(Prg(0x0801, b"\x01\x02\x03"))


@pytest.mark.slow  # 2,244,444 passes: about 30 s (the build's check runs it to the first solution)
def test_nikolaus_with_the_erratum_prints_the_44_solutions() -> None:
    """2,244,444 passes of the main loop (about 17 s here; cbmbasic needs about 50)."""
    sources = [(str(REPO / "sources" / name), (REPO / "sources" / name).read_text())
               for name in ("nikolaus.bas", "nikolaus-errata.bas")]
    prg = tokenize(sources)[0]
    assert prg.to_bytes() == (DATA / "nikolaus.petcat.prg").read_bytes()
    result, machine = run_program(program_from_prg(prg, "nikolaus"))
    assert result.stop is Stop.END
    lines = lines_of(machine.screen.transcript())
    expected = nikolaus.screen_lines(nikolaus.solutions())
    assert len(expected) == 44
    assert lines == [*expected, "*** ENDE ***", "", "READY."]


@pytest.mark.slow
def test_nikolaus_as_printed_gives_the_same_44() -> None:
    prg = Prg.from_bytes((DATA / "nikolaus-printed.petcat.prg").read_bytes())
    result, machine = run_program(program_from_prg(prg, "nikolaus"))
    assert result.stop is Stop.END
    lines = lines_of(machine.screen.transcript())
    assert lines[:-3] == nikolaus.screen_lines(nikolaus.solutions(nikolaus.PRINTED_END))
    assert nikolaus.solutions(nikolaus.PRINTED_END) == nikolaus.solutions()


# -- the command line ------------------------------------------------------------------------

def test_cli_runs_a_listing_with_errata(tmp_path: Path) -> None:
    (tmp_path / "p.bas").write_text('10 print "old"\n20 print "two"\n')
    (tmp_path / "fix.bas").write_text('10 print "new"\n')
    result = CliRunner().invoke(main, ["run", str(tmp_path / "p.bas"), str(tmp_path / "fix.bas")])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:2] == ["NEW", "TWO"]


def test_cli_runs_a_basic_prg_and_reports_errors_with_status_1(tmp_path: Path) -> None:
    prg = tokenize_text("10 input a\n20 print a*2\n30 print 1/0\n")
    (tmp_path / "p.prg").write_bytes(prg.to_bytes())
    result = CliRunner().invoke(main, ["run", str(tmp_path / "p.prg"), "--input", "21"])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:3] == ["? 21", " 42", ""]
    assert "?DIVISION BY ZERO  ERROR IN 30" in result.stdout
    assert "?DIVISION BY ZERO  ERROR IN 30" in result.stderr


def test_cli_statement_limit_has_status_2(tmp_path: Path) -> None:
    (tmp_path / "loop.bas").write_text("10 goto 10\n")
    result = CliRunner().invoke(main, ["run", str(tmp_path / "loop.bas"), "--max-statements", "1000"])
    assert result.exit_code == 2


def test_interactive_basic_on_a_terminal(tmp_path: Path) -> None:
    (tmp_path / "ask.bas").write_text('10 input "name";n$\n20 print "hello "n$\n30 input a,b\n'
                                      '40 print a*b\n')
    returncode, shown = play_on_terminal(["run", str(tmp_path / "ask.bas")], ["ada", "6,7"])
    assert returncode == 0
    assert shown[:4] == ["NAME? ada", "HELLO ADA", "? 6,7", " 42"]


def test_cli_names_the_listing_line_of_a_run_time_error(tmp_path: Path) -> None:
    (tmp_path / "p.bas").write_text("10 print 1\n20 print \"x\"\n30 print 1/0\n")
    (tmp_path / "fix.bas").write_text("20 print 2 2 (\n")
    result = CliRunner().invoke(main, ["run", str(tmp_path / "p.bas")])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{tmp_path / 'p.bas'}:3:1: error: ?DIVISION BY ZERO  ERROR IN 30")
    result = CliRunner().invoke(main, ["run", str(tmp_path / "p.bas"), str(tmp_path / "fix.bas")])
    # the erratum's line is where line 20 now comes from; "2 2" is 22 to the C64
    assert result.stdout.splitlines()[:2] == [" 1", " 22"]
    assert result.stderr.startswith(f"{tmp_path / 'fix.bas'}:1:1: error: ?SYNTAX  ERROR IN 20")


def test_poke_into_screen_memory_shows_on_the_screen() -> None:
    stop, _, machine = run("10 poke 1424,1:poke 1425,2:poke 55696,2:print peek(1424);peek(1464)\n")
    screen = machine.screen
    assert screen.text().splitlines()[10].startswith("AB")  # row 10: 1024 + 400
    assert screen.colour_at(10, 0) == 2
    assert screen.text().splitlines()[0].rstrip() == " 1  32"


def test_wait_for_a_key_and_peek_of_the_key_count() -> None:
    # keys reach the buffer when the program waits for them (as measured on VICE with
    # scripts/corpus-vs-vice's typing): nothing at the first PEEK, Q at the WAIT, and the
    # RETURN typed after q has not come yet at the second PEEK
    listing = '10 print peek(198):wait 198,1:get a$:print a$;peek(198)\n'
    assert printed(listing, "q") == [" 0", "Q 0"]
    stop, _, _ = run("10 wait 198,1\n")
    assert stop is Stop.INPUT_EXHAUSTED


def test_cli_max_cycles_bounds_the_runs_c64_time_basic_and_its_sys(tmp_path: Path) -> None:
    """One limit for the run (issue 22): the POKEs take BASIC's time, the SYS the rest."""
    (tmp_path / "spin.bas").write_text("10 poke 828,76:poke 829,60:poke 830,3:sys 828\n")  # JMP $033C
    result = CliRunner().invoke(main, ["run", str(tmp_path / "spin.bas"), "--max-cycles", "100000"])
    assert result.exit_code == 2
    assert result.stderr.startswith("SYS 828: stopped after ")
    assert ", 100,00" in result.stderr  # the run's cycles: within one instruction of the limit


def test_peek_reads_what_machine_code_wrote_to_the_screen() -> None:
    # machine code at 49152: LDA #$13: STA $0401: LDA #7: STA $D801: RTS
    code = "169,19,141,1,4,169,7,141,1,216,96"
    listing = (f"10 for i=0 to 10:read b:poke 49152+i,b:next\n20 data {code}\n"
               "30 sys 49152:a=peek(1025):b=peek(55297)and15:print:print a;b\n")
    # the S machine code put at (0, 1), then the PEEKs on the next row
    assert printed(listing)[:2] == [" S", " 19  7"]


# -- the C64's own errors, never Python's (issue 12) ----------------------------------------------

def test_a_number_the_rom_cannot_read_is_its_error_when_evaluated() -> None:
    """PRINT "A";1E39: the ROM prints A, then stops at the number (FIN's ?OVERFLOW)."""
    stop, transcript, _ = run('10 print "a";1e39\n20 print "b"\n')
    assert stop is Stop.ERROR
    assert lines_of(transcript)[:3] == ["A", "?OVERFLOW  ERROR IN 10", "READY."]


@pytest.mark.parametrize("expression", ["sqr(-1)", "(-8)^(1/3)", "log(0)", "log(-1)"])
def test_functions_outside_their_domain_are_illegal_quantity(expression: str) -> None:
    stop, transcript, _ = run(f"10 print {expression}\n")
    assert stop is Stop.ERROR and "?ILLEGAL QUANTITY  ERROR IN 10" in lines_of(transcript)


def test_next_adds_as_the_rom_does_beyond_two_to_the_32() -> None:
    """Measured on VICE: the difference lies in the FAC's rounding byte, so the second
    value is 0, not 1 (floats.add's rule; NEXT must not take a shortcut past it)."""
    listing = "10 for i=-4294967295 to 1 step 4294967296:print i:next\n"
    assert printed(listing) == ["-4.2949673E+09", " 0"]


@pytest.mark.parametrize(("options", "message"), [
    (["--input", "3|€"], "'€' cannot be typed on a C64"),
    (["--sys", "65536"], "'65536' is outside $0000-$FFFF"),
    (["--sys", "-1"], "'-1' is not an address"),
    (["--max-cycles", "9" * 30], "is too large"),
    (["--max-statements", "many"], "'many' is not a count"),
])
def test_bad_options_are_messages(tmp_path: Path, options: list[str], message: str) -> None:
    (tmp_path / "p.bas").write_text("10 input a\n")
    result = CliRunner().invoke(main, ["run", str(tmp_path / "p.bas"), *options])
    assert result.exit_code in (1, 2)
    assert message in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(("depth", "works"), [(35, True), (36, False), (5000, False)])
def test_nesting_deeper_than_the_stack_is_out_of_memory(depth: int, works: bool) -> None:
    """Measured on VICE: 35 nested parentheses at the top of a line work, 36 end in
    ?OUT OF MEMORY (a typed line cannot hold that many; a crafted PRG can)."""
    from toolchain.basic.tokenizer import TokenizedLine, link
    from toolchain.basic.tokens import TOKEN

    body = b"A" + bytes([TOKEN["="]]) + b"(" * depth + b"1" + b")" * depth
    lines = [TokenizedLine(10, body, "x", 1), TokenizedLine(20, bytes([TOKEN["PRINT"]]) + b"A", "x", 2)]
    result, machine = run_program(program_from_prg(Prg(0x0801, link(lines)), "deep"))
    screen = lines_of(machine.screen.transcript())
    assert (screen[0] == " 1") is works
    assert (result.stop is Stop.ERROR and "?OUT OF MEMORY  ERROR IN 10" in screen) is not works


def test_printer_writes_what_device_4_got(tmp_path: Path) -> None:
    listing = tmp_path / "p.bas"
    listing.write_text('10 open 4,4:print#4,"to the printer";1:cmd 4:print "listed"\n20 print#4:close 4\n'
                       '30 print "done"\n', encoding="utf-8")
    printed = tmp_path / "printer.txt"
    result = CliRunner().invoke(main, ["run", str(listing), "--printer", str(printed)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "DONE"
    # the bytes as sent (PETSCII; RETURN ends a line; CMD itself prints an empty PRINT's
    # RETURN, as the ROM's CMD goes on into PRINT)
    assert printed.read_bytes() == b"TO THE PRINTER 1 \r\rLISTED\r\r"


def test_a_program_that_takes_over_basics_statement_vector_is_told_it_runs_without_it(tmp_path: Path) -> None:
    """IGONE ($0308) is called for every statement by the ROM's interpreter: a program
    that points it elsewhere extends BASIC; compiled BASIC says so once and goes on."""
    listing = tmp_path / "p.bas"
    listing.write_text('10 poke 776,0:poke 777,192:print "on"\n20 print "still"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(listing), "--no-roms"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:2] == ["ON", "STILL"]
    assert result.stderr.count("it extends BASIC") == 1
    assert "statement vector ($0308) at $C000" in result.stderr and "--roms DIR --boot" in result.stderr


def test_a_program_that_takes_over_basics_error_vector_is_told_it_runs_without_it(tmp_path: Path) -> None:
    """IERROR ($0300) takes every error and END ($E386): a program pointing it at its own
    code traps them, which compiled BASIC does not follow; it says so once."""
    listing = tmp_path / "p.bas"
    listing.write_text('10 poke 768,0:poke 769,192:print "on"\n20 print 1/0\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(listing), "--no-roms"])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:3] == ["ON", "", "?DIVISION BY ZERO  ERROR IN 20"]
    told = "BASIC's error vector ($0300) at $C000: it takes over BASIC's errors and END"
    assert result.stderr.count(told) == 1


# -- errors are what they are (issue 21): the ROM's errors where the C64 has them, c64tc's
# own failures as failures -----------------------------------------------------------------

@pytest.mark.parametrize(("depth", "message"), [
    (5, "?DIVISION BY ZERO  ERROR IN 20"),  # 6 nested calls fit: the sixth divides by zero
    (6, "?OUT OF MEMORY  ERROR IN 20"),  # the seventh call finds the 6502 stack full
])
def test_nested_functions_fill_the_stack_where_the_rom_does(depth: int, message: str) -> None:
    """Measured with BASIC in ROM (the same program below, on c64tc's 6502): each call
    of FN A takes 28 bytes of the 6502 stack here."""
    listing = f"10 def fn a(x)=1/x+fn a(x-1)\n20 n={depth}:print fn a(n)\n"
    result, _ = run_listing(listing)
    assert (result.stop, result.message) == (Stop.ERROR, message)


@pytest.mark.parametrize("depth", [5, 6])
def test_nested_functions_on_basic_in_rom(depth: int, tmp_path: Path) -> None:
    listing = tmp_path / "fn.bas"
    listing.write_text(f"10 def fn a(x)=1/x+fn a(x-1)\n20 n={depth}:print fn a(n)\n")
    session = Session(load_program(listing), roms=c64_roms(), boot=True)
    rom = session.run(Keyboard(""))
    ours, _ = run_listing(listing.read_text())
    assert (ours.stop, ours.message) == (rom.stop, rom.message)


def test_a_recursion_error_in_c64tc_is_not_out_of_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """A RecursionError that is not the program's FN calls is a bug of c64tc: it must
    surface, not print ?OUT OF MEMORY."""
    from toolchain.basic.runner import runtime

    def broken(self: runtime.Runtime) -> float:
        raise RecursionError("c64tc's own")

    monkeypatch.setattr(runtime.Runtime, "free", broken)
    with pytest.raises(RecursionError, match="c64tc's own"):
        run_listing("10 print fre(0)\n")


def test_a_crash_of_the_loader_is_not_machine_code(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolchain.basic.runner import loader

    def broken(*arguments: object) -> None:
        raise IndexError("c64tc's own")

    monkeypatch.setattr(loader, "split_program", broken)
    with pytest.raises(IndexError, match="c64tc's own"):
        loader.as_loaded(tokenize_text("10 print 1\n"))


@pytest.mark.parametrize("method", ["after_load", "loaded_in_direct_mode"])
def test_a_crash_of_the_compiler_after_load_is_not_a_rom_call(monkeypatch: pytest.MonkeyPatch,
                                                               method: str) -> None:
    """LOAD compiles what it loaded: a compiler crash is c64tc's bug, not 'bytes that are
    not BASIC' (Stop.ROM_CALL, which the VICE comparison took for a jam)."""
    from toolchain.basic.runner import runtime

    machine = C64()
    rt = runtime.Runtime(tokenize_text("10 print 1\n").data, machine)
    loaded = tokenize_text("10 print 2\n").data
    machine.memory[0x0801 : 0x0801 + len(loaded)] = loaded

    def broken(*arguments: object, **keywords: object) -> None:
        raise KeyError("c64tc's own")

    monkeypatch.setattr(runtime, "compile_program", broken)
    with pytest.raises(KeyError, match="c64tc's own"):
        getattr(rt, method)()


def test_bytes_that_are_not_basic_after_load_are_an_unmodelled_stop() -> None:
    """What LOAD put at $0801 that has no BASIC line structure: c64tc cannot run it (a
    C64 would run whatever its bytes say), and says so."""
    from toolchain.basic.runner import runtime

    machine = C64()
    rt = runtime.Runtime(tokenize_text("10 print 1\n").data, machine)
    machine.memory[0x0801:0xA002] = b"\x01" * (0xA002 - 0x0801)  # no zero: no line ends
    with pytest.raises(Ended) as raised:
        rt.after_load()
    assert raised.value.stop is Stop.ROM_CALL and "not a BASIC program" in raised.value.message


def test_vice_s_jam_is_not_c64tc_s_unmodelled_rom_call() -> None:
    """scripts/corpus-vs-vice: a run c64tc stopped because it cannot model something has
    not ended as a jam on VICE did."""
    from tests.test_corpus_screens import load_tool

    tool = load_tool()
    assert Stop.ROM_CALL not in tool.AGREEING_ENDS["jam"]


# -- line numbers as LINGET reads them ($A96B) --------------------------------------------------

def as_on_basic_in_rom(prg: Prg, tmp_path: Path, max_statements: int = 10_000) -> None:
    """The program ends as BASIC in ROM (c64tc's 6502, the ROMs from ../shared/roms) ends
    it, having printed the same."""
    path = tmp_path / "program.prg"
    path.write_bytes(prg.to_bytes())
    session = Session(load_program(path), roms=c64_roms(), boot=True)
    rom = session.run(Keyboard(""), max_cycles=30_000_000)
    shown = session.machine.screen.transcript().splitlines()
    rom_lines = shown[shown.index("RUN") + 1 :]
    ours, machine = run_program(load_program(path), Keyboard(""), max_statements=max_statements)
    assert (ours.stop, ours.message) == (rom.stop, rom.message)
    assert machine.screen.transcript().splitlines() == rom_lines


GOTO = bytes([0x89])


@pytest.mark.parametrize("body", [
    GOTO + b"9" * 5000,  # Python's int() refuses it: ?SYNTAX ERROR, as LINGET stops above 63999
    GOTO + b"64000", GOTO + b"6400 0", GOTO + b"99999",
    GOTO + b"0" * 4990 + b"20:",  # leading zeros count for nothing: line 20, then READY.
], ids=["5000-digits", "64000", "6400-0", "99999", "zeros"])
def test_goto_reads_its_line_number_as_linget(body: bytes, tmp_path: Path) -> None:
    program = Prg(0x0801, tokenize_text("20 print 2\n").data)
    line_20 = program.data[4:-2]  # the number and body of line 20, its zero
    first = body + b"\0"
    data = (0x0801 + 4 + len(first)).to_bytes(2, "little") + (10).to_bytes(2, "little") + first
    data += (0x0801 + len(data) + 2 + len(line_20)).to_bytes(2, "little") + line_20 + b"\0\0"
    as_on_basic_in_rom(Prg(0x0801, data), tmp_path)


def test_spaces_between_the_digits_of_a_line_number_are_skipped(tmp_path: Path) -> None:
    """CHRGET skips spaces: GOTO 3 0 goes to line 30."""
    as_on_basic_in_rom(tokenize_text('10 goto 3 0\n20 print "twenty":end\n30 print "thirty"\n'), tmp_path)
