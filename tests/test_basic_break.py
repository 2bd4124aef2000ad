"""c64tc run PROG.bas --break-line N: the BASIC program stops at a line (every time it
reaches it), ``vars`` shows its variables, n/g/break/del/x/q steer the run.

The values ``vars`` shows are compared with what the program itself PRINTs at the same
point, and the order of the variables with the real ROM's variable table (BASIC in ROM
on the CPU core, where the ROMs are installed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.conftest import play_on_terminal
from toolchain.basic.runner import compile_program
from toolchain.basic.runner.contract import LINE_HOOK
from toolchain.cli import main

LOOP = """\
10 a=1.5:b%=-3:c$="hello"
20 for i=1 to 3
30 s=s+i/3
40 print s
50 next
60 print a;b%;c$
70 end
"""


def listing(tmp_path: Path, source: str, name: str = "program.bas") -> Path:
    path = tmp_path / name
    path.write_text(source)
    return path


def run(tmp_path: Path, source: str, commands: str | None, *options: str, typed: str = "") -> Result:
    arguments = ["run", str(listing(tmp_path, source)), "--input", typed, *options]
    if commands is not None:
        script = tmp_path / "commands.txt"
        script.write_text(commands)
        arguments += ["--monitor-commands", str(script)]
    return CliRunner().invoke(main, arguments)


def after(lines: list[str], command: str, occurrence: int = 0) -> list[str]:
    """The lines a command printed, up to the next stop or prompt."""
    starts = [index for index, line in enumerate(lines) if line.endswith(") " + command)]
    start = starts[occurrence]
    end = next((index for index in range(start + 1, len(lines))
                if lines[index].startswith(("(LINE", "BREAK AT LINE"))), len(lines))
    return lines[start + 1 : end]


def printed(lines: list[str]) -> list[str]:
    """What the program printed (its transcript, after the monitor's last command x)."""
    last = max(index for index, line in enumerate(lines) if line.startswith("(LINE") and line.endswith(") x"))
    return [line for line in lines[last + 1 :] if line.strip() and line != "READY."]


def test_a_break_in_a_loop_stops_every_time_and_vars_shows_what_print_prints(tmp_path: Path) -> None:
    result = run(tmp_path, LOOP, "vars s\ng\nvars s\ng\nvars s\nvars\nx\n", "--break-line", "50")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines.count("BREAK AT LINE 50") == 3
    shown = [after(lines, "vars s", occurrence) for occurrence in range(3)]
    assert shown == [["S = .333333333"], ["S = 1"], ["S = 2"]]
    # PRINT S after each stop: " .333333333" (PRINT's space before a positive number)
    assert printed(lines)[:3] == [" " + value[0].removeprefix("S = ") for value in shown]
    assert after(lines, "vars") == ["A = 1.5", "B% = -3", 'C$ = "HELLO"', "I = 3", "S = 2"]
    assert "program ended" in result.stderr


def test_vars_before_anything_is_assigned(tmp_path: Path) -> None:
    result = run(tmp_path, LOOP, "vars\nvars zz\nx\n", "--break-line", "10")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert after(lines, "vars") == ["(no variables yet)"]
    assert after(lines, "vars zz") == ["zz: no such variable (yet)"]


def test_n_g_break_del_and_x_steer_the_run(tmp_path: Path) -> None:
    script = "n\nn\nbreak 40\ng\ndel 30\ng\nbreak\ndel 40\nbreak 20\nx\n"
    result = run(tmp_path, LOOP, script, "--break-line", "10", "--break-line", "30")
    assert result.exit_code == 0, result.output
    stops = [line for line in result.stdout.splitlines() if line.startswith(("BREAK AT", "break lines"))]
    assert stops == [
        "BREAK AT LINE 10",  # the first stop
        "BREAK AT LINE 20",  # n
        "BREAK AT LINE 30",  # n
        "break lines: 10 30 40",
        "BREAK AT LINE 40",  # g: the new break
        "break lines: 10 40",
        "BREAK AT LINE 40",  # g: 30 is gone, 40 again in the loop's second pass
        "break lines: 10 40",
        "break lines: 10",
        "break lines: 10 20",
    ]  # x: no more stops, though line 20 ... and 40 come again
    assert result.stdout.count("1.5 -3 HELLO") == 1  # the program ran to its end


def test_with_the_commands_used_up_the_program_runs_to_its_end(tmp_path: Path) -> None:
    result = run(tmp_path, LOOP, "vars i\n", "--break-line", "40")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("BREAK AT LINE") == 1
    assert "1.5 -3 HELLO" in result.stdout


def test_q_ends_the_run_as_run_stop_does(tmp_path: Path) -> None:
    result = run(tmp_path, LOOP, "g\nq\n", "--break-line", "40")
    assert result.exit_code == 0  # as the machine-code monitor's q: a BREAK
    assert "quit in the monitor at line 40" in result.stderr
    # stopped in the loop's second pass, before its PRINT; the screen as after RUN/STOP there
    assert result.stdout.splitlines()[-5:] == ["(LINE 40) q", " .333333333", "", "BREAK IN 40", "READY."]


def test_arrays_their_dimensions_and_elements(tmp_path: Path) -> None:
    source = """\
10 dim m(2,1),w%(3)
20 for i=0 to 2:m(i,1)=i/4:print m(i,1):next
30 w%(2)=-7.5:n$(4)="x"
40 print w%(2)
50 end
"""
    result = run(tmp_path, source, "vars\nvars m\nvars w%\nvars n$()\nx\n", "--break-line", "50")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    # arrays after the simple variables, each group in the order it was created
    assert after(lines, "vars") == ["I = 3", "DIM M(2,1)", "DIM W%(3)", "DIM N$(10)"]
    elements = after(lines, "vars m")
    assert elements[0] == "DIM M(2,1)"
    output = [line.strip() for line in printed(lines)]
    assert [elements[index] for index in (2, 4, 6)] == [f"M({i},1) = {output[i]}" for i in range(3)]
    assert elements[1::2] == ["M(0,0) = 0", "M(1,0) = 0", "M(2,0) = 0"]
    assert after(lines, "vars w%") == ["DIM W%(3)", "W%(0) = 0", "W%(1) = 0", f"W%(2) = {output[3]}",
                                       "W%(3) = 0"]
    assert output[3] == "-8"  # assigning -7.5 to an integer floors
    assert after(lines, "vars n$()")[5] == 'N$(4) = "X"'


def test_strings_show_their_petscii(tmp_path: Path) -> None:
    source = '10 a$=chr$(147)+"hi"+chr$(193)+chr$(34)+"{red}"+chr$(92)\n20 end\n'
    result = run(tmp_path, source, "vars a$\nx\n", "--break-line", "20")
    assert result.exit_code == 0, result.output
    assert after(result.stdout.splitlines(), "vars a$") == ['A$ = "{clr}HI{SHIFT-A}{$22}{red}£"']


def test_functions_show_their_definition(tmp_path: Path) -> None:
    source = "10 k=2:def fnsq(x)=x*x+k:print fnsq(3)\n20 end\n"
    result = run(tmp_path, source, "vars\nvars fnsq\nx\n", "--break-line", "20")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    # DEF creates the function, then its parameter (the real ROM's order, see below)
    assert after(lines, "vars") == ["K = 2", "FNSQ(X) = X*X+K", "X = 0"]
    assert after(lines, "vars fnsq") == ["FNSQ(X) = X*X+K"]


def test_clr_and_run_remove_the_variables(tmp_path: Path) -> None:
    source = "10 a=1:b$=\"x\"\n20 clr:c=3\n30 end\n"
    result = run(tmp_path, source, "vars\ng\nvars\nx\n", "--break-line", "20", "--break-line", "30")
    lines = result.stdout.splitlines()
    assert after(lines, "vars", 0) == ["A = 1", 'B$ = "X"']
    assert after(lines, "vars", 1) == ["C = 3"]


def test_a_line_inside_a_merged_superblock_stops(tmp_path: Path) -> None:
    """Line 20 falls through from line 10 and is reached by GOTO from line 40: its code
    is inlined in both segments' functions, and each copy carries the hook."""
    source = "10 n=1\n20 print n:n=n+1\n30 if n<4 then 20\n40 end\n"
    module = compile_program(_tokenized(tmp_path, source), line_hooks=True)[1].source
    first_function = module.split("    def s1():")[0]
    assert f"{LINE_HOOK}(10)" in first_function and f"{LINE_HOOK}(20)" in first_function  # merged
    result = run(tmp_path, source, "vars n\ng\nvars n\ng\nvars n\ng\nx\n", "--break-line", "20")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines.count("BREAK AT LINE 20") == 3
    assert [after(lines, "vars n", index) for index in range(3)] == [["N = 1"], ["N = 2"], ["N = 3"]]


def _tokenized(tmp_path: Path, source: str) -> bytes:
    from toolchain.c64.run import load_program

    return load_program(listing(tmp_path, source, "tokenize.bas")).prg.data


def test_without_break_lines_nothing_is_compiled_in_and_nothing_stops(tmp_path: Path) -> None:
    assert LINE_HOOK not in compile_program(_tokenized(tmp_path, LOOP))[1].source
    result = run(tmp_path, LOOP, None)
    assert result.exit_code == 0 and "BREAK" not in result.stdout


@pytest.mark.parametrize(("options", "message"), [
    (["--break-line", "300"], "--break-line 300: line 300 is not in the program (its lines: 10-70)"),
    (["--break-line", "20", "--monitor"], "with --break-line the BASIC program stops at its lines"),
    (["--break-line", "20", "--boot"], "with --boot the program runs as the C64 starts it"),
], ids=["no such line", "monitor", "boot"])
def test_break_lines_that_cannot_be(tmp_path: Path, options: list[str], message: str) -> None:
    result = run(tmp_path, LOOP, None, *options)
    assert result.exit_code == 2 and message in result.output


def test_machine_code_has_no_lines(tmp_path: Path) -> None:
    prg = tmp_path / "code.prg"
    prg.write_bytes(bytes([0x00, 0xC0, 0x60]))
    result = CliRunner().invoke(main, ["run", str(prg), "--sys", "49152", "--break-line", "10"])
    assert result.exit_code == 2
    assert "--break-line stops a BASIC program at a line; " in result.output
    assert "runs as machine code" in result.output


def test_a_script_s_mistakes_are_reported_before_anything_runs(tmp_path: Path) -> None:
    result = run(tmp_path, LOOP, "vars\ndel 20 30\nbreak 300\nbreak x\n", "--break-line", "20")
    assert result.exit_code == 1
    script = tmp_path / "commands.txt"
    assert [line for line in result.output.splitlines() if ": error: " in line] == [
        f"{script}:2:5: error: del takes one line number",
        f"{script}:3:7: error: line 300 is not in the program (its lines: 10-70)",
        f"{script}:4:7: error: break takes one line number",
    ]
    assert "BREAK AT LINE" not in result.output


def test_commands_from_standard_input(tmp_path: Path) -> None:
    arguments = ["run", str(listing(tmp_path, LOOP)), "--break-line", "60", "--monitor-commands", "-"]
    result = CliRunner().invoke(main, arguments, input="vars c$\nx\n")
    assert result.exit_code == 0, result.output
    assert after(result.stdout.splitlines(), "vars c$") == ['C$ = "HELLO"']


def test_typed_commands_on_a_terminal(tmp_path: Path) -> None:
    """On a terminal the commands are typed at the prompt (a mistake is said and the
    session goes on), and what the program printed shows before each stop."""
    program = listing(tmp_path, LOOP)
    status, shown = play_on_terminal(["run", str(program), "--break-line", "50"],
                                     ["vars s", "g", "fly", "vars i", "x"])
    assert status == 0
    assert shown[:9] == [" .333333333", "BREAK AT LINE 50", "(LINE 50) vars s", "S = .333333333",
                         "(LINE 50) g", " 1", "BREAK AT LINE 50", "(LINE 50) fly",
                         "?SYNTAX  ERROR"]  # not a command: a BASIC statement, as the C64 reads it
    assert shown[9:11] == ["(LINE 50) vars i", "I = 2"]


def test_monitor_commands_with_basic_need_break_lines(tmp_path: Path) -> None:
    result = run(tmp_path, LOOP, "vars\n")
    assert result.exit_code == 2 and "give --break-line LINE" in result.output


# Variables in the order the C64 creates them: assigned (not read: B=A+C creates B
# only), a subroutine's before the rest of the calling line's, DEF's function then its
# parameter, INPUT with an empty answer none; arrays apart, in their own order.
ORDER = """\
10 gosub 100:b=a+c:x$=y$
20 def fnf(p)=p*2
30 q(3)=1:dim r%(2):input i$
40 get g$:read d:e%=d
50 if 0 then w=1
60 end
100 n%=5:return
200 data 7
"""
ORDER_SHOWN = ["N% = 5", "B = 0", 'X$ = ""', "FNF(P) = P*2", "P = 0", 'G$ = ""', "D = 7", "E% = 7",
               "DIM Q(10)", "DIM R%(2)"]


def test_variables_in_the_order_the_c64_creates_them(tmp_path: Path) -> None:
    result = run(tmp_path, ORDER, "vars\nx\n", "--break-line", "60", typed="|")
    assert result.exit_code == 0, result.output
    assert after(result.stdout.splitlines(), "vars") == ORDER_SHOWN


@pytest.mark.vice_roms
def test_the_order_is_the_real_rom_s(tmp_path: Path) -> None:
    """BASIC in ROM runs the same program; its variable table (VARTAB $2D .. ARYTAB
    $2F, 7 bytes a variable; arrays up to STREND $31, each with its length) lists the
    names in the same order."""
    from tests.conftest import c64_roms
    from toolchain.c64.machine import Keyboard
    from toolchain.c64.run import Session, load_program

    roms = c64_roms()
    session = Session(load_program(listing(tmp_path, ORDER)), roms=roms, boot=True)
    assert session.run(Keyboard("|")).message == "program ended"
    memory = session.machine.memory

    def word(address: int) -> int:
        return memory[address] | memory[address + 1] << 8

    def name(address: int) -> str:
        first, second = memory[address], memory[address + 1]
        letters = chr(first & 0x7F) + (chr(second & 0x7F) if second & 0x7F else "")
        suffix = {(0, 0): "", (1, 1): "%", (0, 1): "$", (1, 0): ""}[(first >> 7, second >> 7)]
        return ("FN" if (first >> 7, second >> 7) == (1, 0) else "") + letters + suffix

    names = []
    address = word(0x2D)
    while address < word(0x2F):
        names.append(name(address))
        address += 7
    while address < word(0x31):
        names.append(name(address))
        address += word(address + 2)
    assert names == [shown.removeprefix("DIM ").split()[0].split("(")[0] for shown in ORDER_SHOWN]


# -- BASIC statements at a break (issue 26, item 8) -----------------------------------------------------

STATEMENTS = """\
10 dim a$(5):for i=1 to 3
20 a$(i)="n"+str$(i)
30 print i;a$(i);a$(3)
40 next
50 print "end";i
"""


def test_print_and_assignments_at_a_break_see_and_change_the_program_s_variables(tmp_path: Path) -> None:
    """PRINT (and ?) show the values the program has, as its own PRINT would; an
    assignment changes them for the program, which goes on with them after g."""
    result = run(tmp_path, STATEMENTS, 'print i*2\n? a$(1);"/";a$(2)\ni=2\na$(3)="x"\nprint a$(3)\ng\nx\n',
                 "--break-line", "30")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert after(lines, "print i*2") == [" 2"]  # the program's own PRINT of 2 says " 2 "
    assert after(lines, '? a$(1);"/";a$(2)') == ["N 1/"]
    assert after(lines, "i=2") == [] and after(lines, 'a$(3)="x"') == []
    assert after(lines, "print a$(3)") == ["X"]
    # the program goes on with the values given at the break: line 30 prints i=2, a$(2) (not
    # set: line 20 ran for i=1) and a$(3)="X"; its next round sets a$(3) again
    assert [line for line in lines if line.strip()][-4:] == [" 2 X", " 3 N 3N 3", "END 4", "READY."]


def test_statements_at_a_break_error_as_basic_does_and_the_run_goes_on(tmp_path: Path) -> None:
    """A mistake is BASIC's error in direct mode (no line number), and the program is
    still stopped there: g goes on."""
    result = run(tmp_path, STATEMENTS, 'print i*\nprint "a"+1\nprint a$(9)\ni$=1\ng\nx\n',
                 "--break-line", "30")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert after(lines, "print i*") == ["?SYNTAX  ERROR"]
    assert after(lines, 'print "a"+1') == ["?TYPE MISMATCH  ERROR"]
    assert after(lines, "print a$(9)") == ["?BAD SUBSCRIPT  ERROR"]
    assert after(lines, "i$=1") == ["?TYPE MISMATCH  ERROR"]
    assert "END 4" in lines  # the program ran to its end
    assert result.stderr.startswith("program ended")


def test_a_statement_longer_than_the_screen_editor_takes_is_refused(tmp_path: Path) -> None:
    """The screen editor ends a logical line at column 79, so a typed line holds 80
    characters at most: 80 run, 81 are refused (written to the input buffer at $0200 they
    would run over the KERNAL's tables and vectors from $0259, found by the fuzz test:
    the next PRINT then looped through a broken BRK vector)."""
    longest, too_long = 'print "' + "x" * 72 + '"', '? "x";' + "(" * 74 + "1"
    assert (len(longest), len(too_long)) == (80, 81)
    result = run(tmp_path, STATEMENTS, f"{longest}\n{too_long}\ng\nx\n", "--break-line", "30")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert after(lines, longest) == ["X" * 72]
    assert after(lines, too_long) == ["a line typed on a C64 holds at most 80 characters (two screen rows); "
                                      "this one has 81"]
    assert "END 4" in lines


def test_statements_that_would_leave_the_break_are_refused(tmp_path: Path) -> None:
    result = run(tmp_path, STATEMENTS, "goto 50\nnext i\n50 print 1\ncont\nx\n", "--break-line", "30")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert after(lines, "goto 50")[0].startswith("GOTO would leave the stopped program")
    assert after(lines, "next i")[0].startswith("NEXT would leave the stopped program")
    assert after(lines, "50 print 1")[0].startswith("a numbered line would change the program")
    assert lines.count("BREAK AT LINE 30") == 2  # cont goes on, as g: to the next stop
    assert "END 4" in lines


def test_statements_typed_on_a_terminal(tmp_path: Path) -> None:
    program = listing(tmp_path, STATEMENTS)
    status, shown = play_on_terminal(["run", str(program), "--break-line", "30"],
                                     ["print i*2", "i=3", "print a$(", "x"])
    assert status == 0
    assert shown[:7] == ["BREAK AT LINE 30", "(LINE 30) print i*2", " 2", "(LINE 30) i=3",
                         "(LINE 30) print a$(", "?SYNTAX  ERROR", "(LINE 30) x"]
    assert shown[7:9] == [" 3", "END 4"]  # i=3: the loop's last round (a$(3) not set yet)


def test_help_fits_80_columns(tmp_path: Path) -> None:
    result = run(tmp_path, STATEMENTS, "help\nx\n", "--break-line", "30")
    shown = after(result.stdout.splitlines(), "help")
    assert any(line.startswith("STATEMENT") for line in shown)
    assert max(len(line) for line in shown) <= 80


def test_list_and_functions_at_a_break(tmp_path: Path) -> None:
    """LIST prints the program as the C64 lists it; DEF typed at the break is
    ?ILLEGAL DIRECT, as in the C64's direct mode ($B3A6), and a function the program
    defined works on the program's variables."""
    program = STATEMENTS.replace("10 dim a$(5)", "10 def fn t(x)=x*3:dim a$(5)")
    result = run(tmp_path, program, "list 20-30\ndef fn u(x)=x*2\nprint fn t(i)\nprint fn u(i)\nx\n",
                 "--break-line", "30")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert after(lines, "list 20-30") == ['20 A$(I)="N"+STR$(I)', "30 PRINT I;A$(I);A$(3)"]
    assert after(lines, "def fn u(x)=x*2") == ["?ILLEGAL DIRECT  ERROR"]
    assert after(lines, "print fn t(i)") == [" 3"]
    assert after(lines, "print fn u(i)") == ["?UNDEF'D FUNCTION  ERROR"]
