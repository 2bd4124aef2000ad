"""The machine-language monitor (c64tc monitor, run --monitor): VICE's commands and
output formats, breakpoints and watchpoints on the translating core, stepping, the
scripted form, and mistakes as messages.

The expected lines marked VICE were printed by VICE 3.10's monitor (x64sc, its remote
monitor) on the same program: Superhirn II loaded at $3400 with the labels of
``c64tc asm --vice-labels``, started with SYS 13312 and the article's dialogue typed.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.conftest import DATA, REPO
from toolchain.c64.machine import C64, MachineStopped, Stop
from toolchain.c64.run import Keyboard, Session, program_from_prg
from toolchain.cli import main
from toolchain.disk import Prg
from toolchain.monitor import Labels, Monitor
from toolchain.monitor.display import disassembly, memory_rows, vice_ascii
from toolchain.monitor.syntax import Expression, MonitorSyntaxError, Number, parse_line

DIALOGUE = "1|1|0|0|1|2|1|2|3|0|4"
SUPERHIRN_BYTES = (DATA / "superhirn2-mse.bin").read_bytes()[:-1]  # the MSE dump's PRG


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Superhirn II assembled from its source, with its VICE label file."""
    folder = tmp_path_factory.mktemp("superhirn")
    prg, labels = folder / "superhirn2.prg", folder / "superhirn2.labels"
    result = CliRunner().invoke(main, ["asm", str(REPO / "sources" / "superhirn2.asm"), "-o", str(prg),
                                       "--vice-labels", str(labels), "-q"])
    assert result.exit_code == 0, result.output
    assert prg.read_bytes() == SUPERHIRN_BYTES
    return prg, labels


def monitor(built: tuple[Path, Path], tmp_path: Path, script: str, *options: str,
            typed: str | None = DIALOGUE) -> Result:
    commands = tmp_path / "commands.mon"
    commands.write_text(script)
    prg, labels = built
    arguments = ["monitor", str(prg), "--labels", str(labels), "--monitor-commands", str(commands), *options]
    if typed is not None:
        arguments += ["--input", typed]
    return CliRunner().invoke(main, arguments)


def after(output: str, command: str) -> list[str]:
    """The lines a command printed: those after its echo, up to the next prompt."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.endswith(") " + command))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("(C:$")), len(lines))
    return lines[start + 1 : end]


def registers_of(line: str) -> str:
    """A register dump line without the cycles (VICE counts them from power-on; both enter
    SYS with SP $F7, so the stack pointer is compared)."""
    instruction, state = line.split(" - ")
    fields = state.split()
    return f"{instruction} - {' '.join(fields[:5])}"


# -- the acceptance test ------------------------------------------------------------------------

def test_the_scripted_monitor_stops_at_the_check_of_3436_and_shows_what_vice_shows(
        built: tuple[Path, Path], tmp_path: Path) -> None:
    """The article's dialogue ends with the guess 3436: stop where the program starts
    checking that candidate (pos1-pos4 hold one bit per digit) and print the registers,
    the candidate's first digit and the screen, as VICE's monitor did at that point."""
    result = monitor(built, tmp_path, "break .liloop if (@cpu:.pos1 == $04) && (@cpu:.pos2 == $08) && "
                     "(@cpu:.pos3 == $04) && (@cpu:.pos4 == $20)\ng\nr\nm .pos1 .pos1\nsc\nx\n")
    assert result.exit_code == 0, result.output
    output = result.stdout
    assert after(output, "break .liloop if (@cpu:.pos1 == $04) && (@cpu:.pos2 == $08) && (@cpu:.pos3 == $04) "
                 "&& (@cpu:.pos4 == $20)") == [
        "BREAK: 1  C:$353b  (Stop on exec)",  # VICE
        "Setting checkpoint 1 condition to: ( @default:$0352 == $04 ) && ( @default:$035c == $08 ) && "
        "( @default:$0366 == $04 ) && ( @default:$0370 == $20 )"]  # VICE
    hit = after(output, "g")
    assert hit[0].startswith("#1 (Stop on  exec 353b) ")
    assert registers_of(hit[1]) == (  # VICE
        ".C:353b  AE 3E 03    LDX .runde     - A:00 X:05 Y:00 SP:f7 ..-.....")
    table = after(output, "r")
    assert table[0] == "  ADDR A  X  Y  SP 00 01 NV-BDIZC LIN CYC  STOPWATCH"  # VICE
    assert table[1].startswith(".;353b 00 05 00 f7 2f 37 00100000 ")  # VICE
    assert after(output, "m .pos1 .pos1") == [">C:0352  04" + " " * 51 + "d"]  # VICE
    screen = after(output, "sc")
    assert screen[0] == "Displaying 40x25 screen at $0400:"  # VICE
    assert [row[9:] for row in screen[1:16]] == ["1234", "1", "1", "2211", "0", "0", "4333", "1", "2",
                                                  "3344", "1", "2", "3435", "3", "0"]  # VICE
    assert output.rstrip().endswith("3436\n4\nOK\n\nREADY.")  # x: the program goes on to the end
    assert result.stderr.startswith("returned to BASIC: 153,122 instructions")


# -- VICE's formats --------------------------------------------------------------------------------

VICE_MEMORY = [  # m 3400
    ">C:3400  a9 93 20 d2  ff a9 01 8d  3e 03 8d 52  03 8d 5c 03   .. R..a.>c.rc.\\c",
    ">C:3410  8d 66 03 8d  70 03 8d 53  03 0a 8d 5d  03 0a 8d 67   .Fc.Pc.scj.]cj.G",
    ">C:3420  03 0a 8d 71  03 a9 df a0  35 20 1e ab  20 ac 35 c0   cj.Qc.. 5 ^. .5.",
    ">C:3430  ff d0 01 60  4c 3b 35 ad  52 03 29 20  d0 06 0e 52   .Pa.l;5.rc) Pfnr",
    ">C:3440  03 4c 3b 35  a9 01 8d 52  03 ad 5c 03  29 20 d0 06   cl;5.a.rc.\\c) Pf",
    ">C:3450  0e 5c 03 4c  3b 35 a9 01  8d 5c 03 ad  66 03 29 20   n\\cl;5.a.\\c.Fc) ",
    ">C:3460  d0 06 0e 66  03 4c 3b 35  a9 01 8d 66  03 ad 70 03   PfnFcl;5.a.Fc.Pc",
    ">C:3470  29 20 d0 06  0e 70 03 4c  3b 35 a9 6b  a0 a3 20 1e   ) PfnPcl;5.K . ^",
    ">C:3480  ab 60 a9 00  9d 84 03 ad  52 03 3d 52  03 f0 03 fe   ...@..c.rc=rc.c.",
]
VICE_DISASSEMBLY = [  # d after 'm 3400 3420': a screenful from $3421, labels on lines of their own
    ".C:3421  0A          ASL A", ".C:3422  8D 71 03    STA $0371", ".C:3425  A9 DF       LDA #$DF",
    ".C:3427  A0 35       LDY #$35", ".C:3429  20 1E AB    JSR .strout", ".C:342c  20 AC 35    JSR .antwort",
    ".C:342f  C0 FF       CPY #$FF", ".C:3431  D0 01       BNE .l0", ".C:3433  60          RTS",
    ".C:3434   .l0:", ".C:3434  4C 3B 35    JMP .liloop", ".C:3437   .grloop:",
    ".C:3437  AD 52 03    LDA .pos1", ".C:343a  29 20       AND #$20", ".C:343c  D0 06       BNE .massn1",
    ".C:343e  0E 52 03    ASL .pos1", ".C:3441  4C 3B 35    JMP .liloop", ".C:3444   .massn1:",
    ".C:3444  A9 01       LDA #$01", ".C:3446  8D 52 03    STA .pos1",
]
VICE_DISASSEMBLY_L9 = [  # d .l9: zero-page labels, the data after the code
    ".C:35c8   .l9:", ".C:35c8  9D 7A 03    STA .schwarze,X", ".C:35cb  A9 0D       LDA #$0D",
    ".C:35cd  20 D2 FF    JSR .chrout", ".C:35d0  20 CF FF    JSR .chrin", ".C:35d3  38          SEC",
    ".C:35d4  E9 30       SBC #$30", ".C:35d6  9D 8E 03    STA .weisse,X", ".C:35d9  A9 0D       LDA #$0D",
    ".C:35db  20 D2 FF    JSR .chrout", ".C:35de  60          RTS", ".C:35df   .text:",
    ".C:35df  31 32       AND ($32),Y", ".C:35e1  33 34       RLA ($34),Y", ".C:35e3  00          BRK",
    ".C:35e4  A9 00       LDA #$00", ".C:35e6  85 6A       STA .alt", ".C:35e8  85 6C       STA .neu",
    ".C:35ea  A9 04       LDA #$04", ".C:35ec  85 6B       STA $6B", ".C:35ee  A9 34       LDA #$34",
    ".C:35f0  85 6D       STA $6D",
]


def test_memory_and_disassembly_read_as_in_vice(built: tuple[Path, Path], tmp_path: Path) -> None:
    result = monitor(built, tmp_path, "m 3400\nm 3400 3420\nd\nd .l9\nd 3400 3410\nq\n")
    assert result.exit_code == 0, result.output
    output = result.stdout
    assert after(output, "m 3400") == VICE_MEMORY
    assert after(output, "m 3400 3420") == VICE_MEMORY[:2] + [">C:3420  03" + " " * 51 + "c"]
    assert after(output, "d") == VICE_DISASSEMBLY
    assert after(output, "d .l9") == VICE_DISASSEMBLY_L9
    assert after(output, "d 3400 3410") == [  # VICE: the instruction starting at the end is shown
        ".C:3400  A9 93       LDA #$93", ".C:3402  20 D2 FF    JSR .chrout", ".C:3405  A9 01       LDA #$01",
        ".C:3407  8D 3E 03    STA .runde", ".C:340a  8D 52 03    STA .pos1", ".C:340d  8D 5C 03    STA .pos2",
        ".C:3410  8D 66 03    STA .pos3"]
    prompts = [line.split(")")[0] for line in output.splitlines() if line.startswith("(C:$")]
    assert prompts == ["(C:$3400", "(C:$3490", "(C:$3421", "(C:$3449", "(C:$35f2", "(C:$3413"]  # VICE's dot


def test_vice_text_of_bytes() -> None:
    """charset_p_toascii as VICE's monitor uses it: control codes as letters."""
    assert "".join(vice_ascii(b) for b in (0x01, 0x41, 0xC1, 0x93, 0x20, 0x5C, 0x60, 0xA0, 0xE1, 0x00)) == \
        "aaA. \\. .@"


def test_memory_rows_and_disassembly_wrap_at_ffff() -> None:
    memory = bytearray(0x10000)
    memory[0xFFFF], memory[0] = 0x20, 0xD2
    rows, after_rows = memory_rows(memory.__getitem__, 0xFFFE, 3)
    assert rows == [">C:fffe  00 20 d2" + " " * 45 + "@ R"] and after_rows == 1  # VICE: text at column 62
    lines, next_address = disassembly(memory.__getitem__, 0xFFFF, 0xFFFF, lambda a: None, lambda a: None)
    assert lines == [".C:ffff  20 D2 00    JSR $00D2"] and next_address == 2


# -- stepping --------------------------------------------------------------------------------------

def test_step_into_a_kernal_routine_and_over_a_subroutine(built: tuple[Path, Path], tmp_path: Path) -> None:
    """z follows JSR $FFD2 into the ROM (without ROM images c64tc's CHROUT runs there,
    and is named), and out again; n runs a JSR with its subroutine as one step."""
    result = monitor(built, tmp_path, "z\nz\nz\nz\nbreak 342c\nx\nn\nq\n")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == ".C:3400  A9 93       LDA #$93       - A:00 X:00 Y:00 SP:f7 ..-.....          0"
    assert lines[2] == ".C:3402  20 D2 FF    JSR .chrout    - A:93 X:00 Y:00 SP:f7 N.-.....          2"
    assert lines[4].startswith(".C:ffd2  [CHROUT: c64tc's routine, no ROM image] - A:93 X:00 Y:00 SP:f5 ")
    assert lines[6].startswith(".C:f1ca  [CHROUT: ")  # ($0326), the CHROUT vector
    assert lines[8].startswith(".C:3405  A9 01       LDA #$01       - A:93 X:00 Y:00 SP:f7 N.-.....")
    hit = after(result.stdout, "x")
    # STROUT ($AB1E) before it returns with A the last character, Y the length, Z and
    # the carry of its CMP #$0D: the same line as with the C64's ROMs (--roms)
    assert registers_of(hit[1]) == ".C:342c  20 AC 35    JSR .antwort   - A:34 X:00 Y:04 SP:f7 ..-...ZC"
    over = after(result.stdout, "n")  # antwort ends with LDA #$0D, JSR chrout, RTS
    assert over[0].startswith(".C:342f  C0 FF       CPY #$FF       - A:0D X:01 Y:04 SP:f7 ")
    assert "1234" in result.stdout.split("(C:$342c) n")[1]  # the program printed on the way


def test_step_counts_are_hex_and_ret_runs_to_the_end_of_the_routine(
        built: tuple[Path, Path], tmp_path: Path) -> None:
    """blacks for 1111 against 1234 (one black): 2 + 4 + 3 + 3 + 3 instructions and its
    RTS make 16, so z 10 ends after listart's JSR, as ret does from inside."""
    result = monitor(built, tmp_path, "break .blacks\ng\nz 10\ng\nz\nret\nq\n")
    assert result.exit_code == 0, result.output
    stepped = after(result.stdout, "z 10")
    assert stepped[0] == "Stepping through the next 16 instruction(s)."  # VICE: counts are hex too
    assert stepped[1].startswith(".C:3541  BD 84 03    LDA .cschwarze,X - A:00 X:01 Y:04 SP:f7 ")
    returned = after(result.stdout, "ret")
    assert returned[0].startswith(".C:3541  BD 84 03    LDA .cschwarze,X - A:00 X:01 ")
    assert "SP:f7" in returned[0]


def test_next_counts_and_until(built: tuple[Path, Path], tmp_path: Path) -> None:
    result = monitor(built, tmp_path, "n 3\nun .liloop\nbk\nq\n")
    assert result.exit_code == 0, result.output
    assert after(result.stdout, "n 3") == [
        "Nexting through the next 3 instruction(s).",
        ".C:3407  8D 3E 03    STA .runde     - A:01 X:00 Y:00 SP:f7 ..-.....         16"]
    until = after(result.stdout, "un .liloop")
    assert until[0] == "UNTIL: 1  C:$353b  (Stop on exec)"
    assert until[1].startswith("#1 (Stop on  exec 353b) ")
    assert after(result.stdout, "bk") == ["No breakpoints are set"]  # until's checkpoint is gone


# -- checkpoints -----------------------------------------------------------------------------------

def test_a_register_condition_stops_at_the_answer_with_three_blacks(
        built: tuple[Path, Path], tmp_path: Path) -> None:
    result = monitor(built, tmp_path, "break .l9 if A == 3\nbk\ng\nsc\nq\n")
    assert result.exit_code == 0, result.output
    assert after(result.stdout, "bk") == ["BREAK: 1  C:$35c8  (Stop on exec)", "\tCondition: A == $03"]
    hit = after(result.stdout, "g")
    # l9 follows CMP #4, BNE: A = 3 makes N set and C clear
    assert registers_of(hit[1]) == ".C:35c8  9D 7A 03    STA .schwarze,X - A:03 X:05 Y:04 SP:f5 N.-....."
    rows = [row[9:] for row in after(result.stdout, "sc")[1:]]
    assert rows[12:14] == ["3435", "3"] and rows[14] == ""
    assert result.stderr.startswith("quit in the monitor at $35C8: ")


def test_watch_store_shows_the_instruction_that_stored(built: tuple[Path, Path], tmp_path: Path) -> None:
    """STA, and INC (a read-modify-write: one hit) found from where the CPU stopped."""
    result = monitor(built, tmp_path, "watch store .runde\ng\ng\n"
                     "watch store .weisse+1 if @cpu:.weisse+1 == 2\ng\nq\n")
    assert result.exit_code == 0, result.output
    assert after(result.stdout, "watch store .runde") == ["WATCH: 1  C:$033e  (Stop on store)"]  # VICE
    first = after(result.stdout, "g")
    assert first[0].startswith("#1 (Stop on store 033e) ")  # VICE
    assert registers_of(first[1]) == (  # VICE
        ".C:3407  8D 3E 03    STA .runde     - A:01 X:00 Y:00 SP:f7 ..-.....")
    output = result.stdout
    second = output.split("(C:$340a) g\n")[1].splitlines()
    assert second[0].startswith("#1 (Stop on store 033e) ")
    assert second[1].startswith(".C:359e  EE 3E 03    INC .runde     - A:31 X:01 Y:04 SP:f7 ..-....C")
    assert second[2] == "(C:$35a1) watch store .weisse+1 if @cpu:.weisse+1 == 2"
    third = output.split("(C:$35a1) g\n")[1].splitlines()
    assert third[0].startswith("#1 (Stop on store 033e) ")  # the next round comes first
    assert "runde" in third[1]


def test_watch_store_condition_and_load(built: tuple[Path, Path], tmp_path: Path) -> None:
    result = monitor(built, tmp_path, "watch store .weisse+1 .weisse+8 if A == 2\ng\n"
                     "watch load .schwarze+3\ng\nq\n")
    assert result.exit_code == 0, result.output
    stores = after(result.stdout, "g")
    assert stores[0].startswith("#1 (Stop on store 0391) ")  # round 3: 2 whites
    assert registers_of(stores[1]) == ".C:35d6  9D 8E 03    STA .weisse,X  - A:02 X:03 Y:04 SP:f5 ..-....C"
    loads = result.stdout.split("(C:$35d9) g\n")[1].splitlines()
    assert loads[0].startswith("#2 (Stop on  load 037d) ")
    assert loads[1].startswith(".C:3544  DD 7A 03    CMP .schwarze,X - ")
    assert loads[2] == "(C:$3547) q"


def test_delete_enable_disable_ignore_condition(built: tuple[Path, Path], tmp_path: Path) -> None:
    result = monitor(built, tmp_path, "break .antwort\nbreak .l9\ndis 1\nbk\nignore 2 1\ncond 2 if X == 2\n"
                     "del 7\nen\ng\ndel 1\ndel 2\nbreak .liloop\nq\n")
    assert result.exit_code == 0, result.output
    output = result.stdout
    assert after(output, "bk") == ["BREAK: 1  C:$35ac  (Stop on exec) disabled",  # VICE
                                   "BREAK: 2  C:$35c8  (Stop on exec)"]
    assert after(output, "ignore 2 1") == ["Will ignore the next 1 hits of checkpoint #2"]  # VICE
    assert after(output, "cond 2 if X == 2") == ["Setting checkpoint 2 condition to: X == $02"]  # VICE
    assert after(output, "del 7") == ["#7 not a valid checkpoint"]  # VICE
    assert after(output, "en") == ["Set all checkpoints to state: enabled"]  # VICE
    assert after(output, "g")[0].startswith("#1 (Stop on  exec 35ac)")
    assert after(output, "break .liloop") == ["BREAK: 1  C:$353b  (Stop on exec)"]  # numbers from 1 again


def test_breakpoints_stop_the_same_on_the_interpreter_and_the_translating_core(
        built: tuple[Path, Path], tmp_path: Path) -> None:
    """A load watchpoint makes the run go through the interpreter: the same stops, at
    the same cycles, as with translated blocks."""
    script = "break .l9\nbreak .liloop\nignore 3 120\ng\ng\ng\nr\nq\n"
    translated = monitor(built, tmp_path, "break 0002\n" + script)  # never reached: #1 on both
    interpreted = monitor(built, tmp_path, "watch load 0002\n" + script)
    assert translated.exit_code == interpreted.exit_code == 0

    def stops(output: str) -> list[str]:
        """The stops without cycle counts and raster positions: the machine's fast loop
        takes an interrupt when a batch of blocks ends, the interpreter at the next
        instruction, so the two runs take the same interrupts a few cycles apart."""
        lines = []
        for line in output.splitlines():
            if line.startswith(".C:"):
                lines.append(line.rsplit(" ", 1)[0].rstrip())
            elif line.startswith(".;"):
                lines.append(" ".join(line.split()[:8]))
            elif line.startswith("#"):
                lines.append(line.split(")")[0])
        return lines

    assert stops(interpreted.stdout) == stops(translated.stdout)
    assert len(stops(translated.stdout)) == 8 and stops(translated.stdout)[-3] == "#3 (Stop on  exec 353b"
    assert translated.stderr.split(",")[0] == interpreted.stderr.split(",")[0]  # the same instructions


# -- the machine's hooks (the API the monitor uses) -----------------------------------------------

def superhirn_machine() -> C64:
    """Superhirn II loaded, the dialogue typed, the CPU at SYS 13312's first instruction."""
    session = Session(program_from_prg(Prg.from_bytes(SUPERHIRN_BYTES), "superhirn2", 0x3400))
    machine = session.machine
    machine.keyboard = Keyboard(DIALOGUE)
    machine.prepare_sys(0x3400)
    return machine


def test_an_exec_hook_sees_every_arrival_as_the_interpreter_does() -> None:
    """The hook on the translating core is called at each arrival at the address, as the
    interpreter (the reference, through the run's trace) reaches it: the same arrivals,
    counted in instructions."""
    reference = superhirn_machine()
    arrivals: list[int] = []

    def count(cpu: object) -> None:
        if reference.cpu.pc == 0x353B:
            arrivals.append(reference.cpu.instructions)

    assert reference.run(60_000, trace=count).stop is Stop.CYCLE_LIMIT
    machine = superhirn_machine()
    seen: list[int] = []
    machine.set_exec_hook(0x353B, lambda pc: seen.append(machine.cpu.instructions))
    assert machine.run(60_000).stop is Stop.CYCLE_LIMIT
    assert len(arrivals) > 100 and seen[: len(arrivals)] == arrivals
    machine.set_exec_hook(0x353B, None)
    assert not machine.cpu.stops[0x353B]
    assert machine.run().stop is Stop.RETURNED  # the translations without the stop run on


def test_a_hook_stops_the_run_and_a_store_hook_pauses_it() -> None:
    machine = superhirn_machine()

    def stop(pc: int) -> None:
        raise MachineStopped(Stop.BREAK, f"stopped at ${pc:04X}")

    machine.set_exec_hook(0x35AC, stop)
    result = machine.run()
    assert (result.stop, result.message, machine.cpu.pc) == (Stop.BREAK, "stopped at $35AC", 0x35AC)
    machine.set_exec_hook(0x35AC, None)
    machine.set_store_hook(0x0390, lambda address: machine.pause(f"a store to ${address:04X}"))
    result = machine.run()
    assert (result.stop, result.message, machine.cpu.pc) == (Stop.BREAK, "a store to $0390", 0x35D9)
    assert machine.memory[0x0390] == 0  # round 2's whites: the dialogue answers 0 blacks, 0 whites
    machine.set_store_hook(0x0390, None)
    assert machine.run().stop is Stop.RETURNED
    assert machine.screen.text_rows()[-1] == "OK" or "OK" in machine.screen.transcript()


# -- bounded work, endings ----------------------------------------------------------------------

def test_go_without_breakpoints_ends_at_the_cycle_limit(built: tuple[Path, Path], tmp_path: Path) -> None:
    result = monitor(built, tmp_path, "g\nr\nz\nm 3400 3401\nx\nm 3400\n", "--max-cycles", "20000")
    assert result.exit_code == 2
    assert after(result.stdout, "g")[-1].startswith("The run has ended: stopped after 20,0")
    assert after(result.stdout, "r")[1].startswith(".;")  # the monitor stays open after the end
    assert after(result.stdout, "z")[0].endswith("; nothing more runs.")
    assert after(result.stdout, "m 3400 3401")[0].startswith(">C:3400  a9 93")
    assert "m 3400\n" not in result.stdout  # x after the end ends the session
    assert result.stderr.startswith("stopped after 20,0")


def test_a_loop_whose_every_instruction_is_hooked_ends_at_the_cycle_limit() -> None:
    """A conditional breakpoint on every instruction of a loop (break c000 c00f if A ==
    $99): near the limit each one is a stop address, and the run still ends there (it
    went round for ever: the fuzz hunt's hang, c64tc monitor --max-cycles 3000)."""
    machine = C64()
    machine.load(Prg(0xC000, LOOP[2:]))
    machine.cpu.pc = 0xC000
    arrivals: list[int] = []

    def hook(pc: int) -> None:
        arrivals.append(pc)
        assert len(arrivals) < 10_000, "the run went on past its cycle limit"

    machine.set_exec_hooks(range(0xC000, 0xC010), hook)
    result = machine.run(3000)
    assert (result.stop, result.cycles) == (Stop.CYCLE_LIMIT, 3000)
    assert len(arrivals) == result.instructions == 800


def test_the_run_ends_when_the_input_is_used_up(built: tuple[Path, Path], tmp_path: Path) -> None:
    result = monitor(built, tmp_path, "x\n", typed="1|1")
    assert result.exit_code == 3
    assert "The run has ended: the program waits for a typed line, but the input is used up." in result.stdout


def test_keybuf_types_and_commands_come_from_standard_input(built: tuple[Path, Path]) -> None:
    prg, labels = built
    result = CliRunner().invoke(main, ["run", str(prg), "--sys", "$3400", "--monitor-commands", "-",
                                       "--labels", str(labels)],
                                input="keybuf 1\\n1\\n\nbreak .liloop\ng\nr\nq\n")
    assert result.exit_code == 0, result.output
    # the first check, after the first answer (typed by keybuf): A from antwort's LDA #$0D,
    # X the round, Y the length of the text STROUT printed last ($AB1E leaves it)
    assert after(result.stdout, "r")[1].startswith(".;353b 0d 01 04 f7")


def test_monitor_starts_machine_code_where_it_loads_and_quit_ends_the_run(built: tuple[Path, Path]) -> None:
    result = CliRunner().invoke(main, ["monitor", str(built[0])], input="r\nq\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].startswith(".C:3400  A9 93       LDA #$93")
    assert result.stderr.startswith("quit in the monitor at $3400: 0 instructions")


# -- labels ----------------------------------------------------------------------------------------

def test_labels_from_a_symbol_table_and_from_the_commands(built: tuple[Path, Path], tmp_path: Path) -> None:
    symbols = tmp_path / "superhirn2.symbols"
    written = CliRunner().invoke(main, ["asm", str(REPO / "sources" / "superhirn2.asm"), "-o",
                                        str(tmp_path / "x.prg"), "--symbols", str(symbols), "-q"])
    assert written.exit_code == 0, written.output
    script = tmp_path / "commands.mon"
    script.write_text("d .antwort .antwort+2\nal 35ae .call_chrout\nd .antwort .antwort+2\nshl\nq\n")
    result = CliRunner().invoke(main, ["monitor", str(built[0]), "--labels", str(symbols),
                                       "--monitor-commands", str(script)])
    assert result.exit_code == 0, result.output
    assert after(result.stdout, "d .antwort .antwort+2") == [
        ".C:35ac   .antwort:", ".C:35ac  A9 0D       LDA #$0D", ".C:35ae  20 D2 FF    JSR .chrout"]
    labelled = result.stdout.split("al 35ae .call_chrout\n")[1].splitlines()
    assert labelled[1:5] == [".C:35ac   .antwort:", ".C:35ac  A9 0D       LDA #$0D",
                             ".C:35ae   .call_chrout:", ".C:35ae  20 D2 FF    JSR .chrout"]
    shown = after(result.stdout, "shl")
    assert "$35ac .antwort" in shown and "$35ae .call_chrout" in shown and shown == sorted(shown)


def test_a_file_without_labels_is_an_error(tmp_path: Path, built: tuple[Path, Path]) -> None:
    result = CliRunner().invoke(main, ["monitor", str(built[0]), "--labels", str(built[0])])
    assert result.exit_code == 1
    assert "not a label file" in result.stderr or "no labels in this file" in result.stderr


# -- mistakes ------------------------------------------------------------------------------------

def test_mistakes_in_the_commands_are_reported_with_their_place_and_nothing_runs(
        built: tuple[Path, Path], tmp_path: Path) -> None:
    result = monitor(built, tmp_path, "r\nfoo 1\nm 10000\nbreak .nowhere\nbreak 3400 if A = 1\ndump\n"
                     'll "missing.labels"\n')
    assert result.exit_code == 1
    assert result.stdout == ""
    path = str(tmp_path / "commands.mon")
    assert result.stderr.splitlines()[::3] == [
        f"{path}:2:1: error: unknown command 'foo' (help lists the commands)",
        f"{path}:3:3: error: $10000 is not an address ($0000-$FFFF)",
        f"{path}:4:7: error: unknown label .nowhere (labels come from --labels, 'al' and 'll')",
        f"{path}:5:17: error: unexpected '='",
        f"{path}:6:1: error: 'dump' is a command of VICE's monitor that c64tc's monitor does not have "
        "(help lists the commands)",
        f"{path}:7:1: error: missing.labels: cannot read: No such file or directory",
        "6 errors; no output written"]


def test_py65_habits_are_answered_with_the_command_that_does_their_work(
        built: tuple[Path, Path], tmp_path: Path) -> None:
    """py65's monitor writes a range START:END and names its commands in full; c64tc's
    follows VICE's, and says how (it said "expected a number, found ':'" and "unknown
    command")."""
    result = monitor(built, tmp_path, "mem 3400:3410\ndisassemble 3400\nassemble 3400 lda #1\n"
                     "add_breakpoint 3400\nm 3400 3410\n")
    assert result.exit_code == 1
    path = str(tmp_path / "commands.mon")
    assert result.stderr.splitlines()[::3] == [
        f"{path}:1:9: error: a range is START END here, as in VICE's monitor (py65 writes START:END)",
        f"{path}:2:1: error: 'disassemble' is py65's monitor's; c64tc's monitor, as VICE's, says 'd' "
        "(help lists the commands)",
        f"{path}:3:1: error: 'assemble' is py65's monitor's; c64tc's monitor, as VICE's, says 'a' "
        "(help lists the commands)",
        f"{path}:4:1: error: 'add_breakpoint' is py65's monitor's; c64tc's monitor, as VICE's, says 'break' "
        "(help lists the commands)",
        "4 errors; no output written"]


def test_parentheses_nest_32_deep_and_deeper_is_a_message(built: tuple[Path, Path], tmp_path: Path) -> None:
    """Bounded work on any line: 32 levels are read, 33 are a mistake with its place (the
    long fuzz profile found a RecursionError from a few hundred)."""
    deepest = "(" * 32 + "$3400" + ")" * 32
    result = monitor(built, tmp_path, f"break {deepest}\nx\n")
    assert result.exit_code == 0, result.output
    result = monitor(built, tmp_path, f"break ({deepest})\nx\n")
    assert result.exit_code == 1
    path = str(tmp_path / "commands.mon")
    assert result.stderr.splitlines()[0] == f"{path}:1:39: error: parentheses nested more than 32 deep"


def test_a_command_that_fails_while_running_ends_the_session(built: tuple[Path, Path],
                                                             tmp_path: Path) -> None:
    result = monitor(built, tmp_path, "r\nm ffff+1\nr\n")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{tmp_path / 'commands.mon'}:2:3: error: $10000 is not an address")
    assert result.stderr.endswith("m ffff+1\n  ^\n")
    assert result.stdout.count("(C:$") == 2


def test_options_that_do_not_go_with_the_monitor(built: tuple[Path, Path]) -> None:
    prg, labels = built
    runner = CliRunner()
    nikolaus = str(DATA / "nikolaus.petcat.prg")
    for arguments, message in [
            (["run", nikolaus, "--monitor"], "the monitor follows machine code"),
            (["run", str(prg), "--sys", "$3400", "--labels", str(labels)], "--labels names addresses for the "
             "monitor"),
            (["run", str(prg), "--sys", "$3400", "--monitor", "--trace"],
             "--trace cannot go with the monitor")]:
        result = runner.invoke(main, arguments)
        assert result.exit_code == 2 and message in result.stderr, result.output


# -- the command language ------------------------------------------------------------------------

def test_numbers_are_hex_unless_prefixed() -> None:
    (command,) = parse_line("m c000 +49153")
    assert command.args["start"] == Number(3, 0xC000)
    assert command.args["end"] == Number(8, 49153)
    (command,) = parse_line("m $10 %101")
    assert (command.args["start"], command.args["end"]) == (Number(3, 0x10), Number(7, 5))


def test_conditions_have_cs_precedence_and_print_as_vice_does() -> None:
    (command,) = parse_line("break 1000 if A == 1 && X != $02 || @cpu:(.p+1) >= 3 * 2")
    condition = command.args["condition"]
    assert isinstance(condition, Expression)
    assert condition.shown() == "A == $01 && X != $02 || @default:(.p + $01) >= $03 * $02"
    labels = Labels()
    labels.add(".p", 0x10)

    class Machine:
        def register(self, name: str) -> int:
            return {"A": 1, "X": 2}[name]

        def label(self, name: str) -> int | None:
            return labels.address(name)

        def memory(self, bank: str, address: int) -> int:
            return address  # the byte at 17 is 17

    assert condition.evaluate(Machine()) == 1
    assert condition.bound(Machine()).shown() == (
        "A == $01 && X != $02 || @default:($10 + $01) >= $03 * $02")


def test_several_commands_a_line_comments_and_keybuf() -> None:
    assert [c.name for c in parse_line("r ; m 1000 ; ; comment")] == ["registers", "mem"]
    assert parse_line("; a comment") == [] and parse_line("   ") == []
    (keybuf,) = parse_line("keybuf run\\n; not a comment")
    assert keybuf.args["text"] == "run\\n; not a comment"


@pytest.mark.parametrize(("line", "column", "message"), [
    ("m zz", 3, "'zz' is not a number"),
    ("break 1000 if", 14, "expected a number"),
    ("break 1000 if (A == 1", 22, "missing ')'"),
    ('ll "unclosed', 4, "no closing quote"),
    ("r Q = 1", 3, "a register to set"),
    ("watch exec 1000", 12, "watch is for load and store"),
    ("m 1000 £", 8, "unexpected character"),
])
def test_syntax_errors_say_where(line: str, column: int, message: str) -> None:
    with pytest.raises(MonitorSyntaxError) as caught:
        parse_line(line)
    assert caught.value.column == column and message in caught.value.message


def test_register_assignment_and_the_monitor_api() -> None:
    machine = superhirn_machine()
    lines: list[str] = []
    session = Monitor(machine, write=lines.append)
    for command in parse_line("r A = $41, X = 7, FL = $01 ; r"):
        session.execute(command)
    assert lines[-1].splitlines()[1].startswith(".;3400 41 07 00 f7 2f 37 00100001 ")


# -- a small program of our own ----------------------------------------------------------------

LOOP = bytes([0x00, 0xC0,  # loads at $C000
              0xA9, 0x01,  # c000 LDA #$01
              0x8D, 0x20, 0xD0,  # c002 STA $D020
              0xEE, 0x21, 0xD0,  # c005 INC $D021
              0x4C, 0x00, 0xC0])  # c008 JMP $C000


@pytest.fixture
def loop(tmp_path: Path) -> Path:
    path = tmp_path / "loop.prg"
    path.write_bytes(LOOP)
    return path


def test_watch_store_on_io_registers_goto_and_writing_memory(loop: Path, tmp_path: Path) -> None:
    """Stores to the VIC-II's registers are seen (the chips' write watch), as is an INC
    there; g ADDRESS goes on elsewhere; > writes memory (not a store of the program)."""
    script = tmp_path / "commands.mon"
    script.write_text("watch store d020 d021\ng\ng\ng\n> c001 07 ; d c000 c001\nm d020 d021\ndel\n"
                      "break c002\ng c000\nr\nq\n")
    result = CliRunner().invoke(main, ["monitor", str(loop), "--monitor-commands", str(script)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[4:13] == [
        "#1 (Stop on store d020)    0/$000,   5/$05",
        ".C:c002  8D 20 D0    STA $D020      - A:01 X:00 Y:00 SP:f7 ..-.....          6",
        "(C:$c005) g",
        "#1 (Stop on store d021)    0/$000,  11/$0b",
        ".C:c005  EE 21 D0    INC $D021      - A:01 X:00 Y:00 SP:f7 N.-.....         12",
        "(C:$c008) g",
        "#1 (Stop on store d020)    0/$000,  20/$14",  # round the loop
        ".C:c002  8D 20 D0    STA $D020      - A:01 X:00 Y:00 SP:f7 ..-.....         21",
        "(C:$c005) > c001 07 ; d c000 c001"]
    assert after(result.stdout, "> c001 07 ; d c000 c001") == [".C:c000  A9 07       LDA #$07"]
    # the VIC-II's colour registers read back with their upper bits set (VICE 3.10); INC made 6 into 7
    assert after(result.stdout, "m d020 d021")[0].startswith(">C:d020  f1 f7 ")
    assert after(result.stdout, "r")[1].startswith(".;c002 07 ")  # g c000 ran LDA #$07 again


def test_a_watch_on_all_of_memory_is_set_and_removed_in_one_pass(loop: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """watch store 0 ffff hooks 65,536 addresses: the machine brings its I/O hooks and
    translations up to date once for them all (once an address, as it did, took minutes:
    the fuzz hunt's hang; counted here by the translations dropped), and the watch still
    stops at the first store."""
    machine = superhirn_machine()
    session = Monitor(machine, write=lambda text: None)
    flushes: list[int] = []
    flush = machine.cpu.flush
    monkeypatch.setattr(machine.cpu, "flush", lambda: (flushes.append(1), flush())[1])
    for command in parse_line("watch store 0 ffff"):
        session.execute(command)
    session._sync_hooks()
    assert len(machine.store_hooks) == 0x10000 and len(flushes) <= 2
    session._remove_hooks()
    assert not machine.store_hooks and len(flushes) <= 4
    script = tmp_path / "commands.mon"
    script.write_text("watch store 0 ffff\ng\ndel\nq\n")
    result = CliRunner().invoke(main, ["monitor", str(loop), "--monitor-commands", str(script)])
    assert result.exit_code == 0, result.output
    assert "#1 (Stop on store d020)    0/$000,   5/$05" in result.stdout


def test_checkpoints_over_all_of_memory_cost_nothing_at_a_sync_that_changes_nothing() -> None:
    """A conditional watch stops the machine at every store and syncs the hooks each time
    (a step does too): checkpoints that stay as they were are not walked again, however
    much memory they cover (each sync walked all 64 KiB of them, some milliseconds a
    store: watch store 0 ffff if A == $99 ran for minutes on a busy loop)."""
    machine = superhirn_machine()
    session = Monitor(machine, write=lambda text: None)
    for command in parse_line("watch store 0 ffff if A == $99 ; break 0 ffff if A == $99"):
        session.execute(command)
    session._sync_hooks()  # the first: every address hooked
    assert len(machine.store_hooks) == len(machine.exec_hooks) == 0x10000
    started = time.monotonic()
    for _ in range(1000):
        session._sync_hooks()
    elapsed = time.monotonic() - started
    # a bound on the work, not a speed goal: some milliseconds now, 9 s before
    assert elapsed < 5, f"{elapsed:.2f} s"


def test_a_step_onto_a_breakpoint_does_not_report_it_and_the_next_x_does(
        built: tuple[Path, Path], tmp_path: Path) -> None:
    """As VICE 3.10 does (measured: break 3402, z from $3400, x)."""
    result = monitor(built, tmp_path, "break 3402\nz\nx\nx\nq\n")
    assert result.exit_code == 0, result.output
    assert after(result.stdout, "z") == [
        ".C:3402  20 D2 FF    JSR .chrout    - A:93 X:00 Y:00 SP:f7 N.-.....          2"]
    stopped_again = after(result.stdout, "x")
    assert stopped_again[0].startswith("#1 (Stop on  exec 3402) ")
    assert stopped_again[1].endswith("          2")  # at the same cycle: the JSR has not run
    assert result.stdout.count("#1 (Stop on  exec 3402)") == 1  # the second x goes on


def test_help_lists_the_commands(loop: Path) -> None:
    result = CliRunner().invoke(main, ["monitor", str(loop)], input="help\nq\n")
    assert result.exit_code == 0
    for command in ("registers|r", "mem|m", "disass|d", "step|z", "next|n", "break|bk", "watch|w", "quit|q"):
        assert command in result.stdout


def session_on_terminal(arguments: list[str], typed: list[str]) -> tuple[int, list[str]]:
    """Run ``c64tc arguments`` on a pseudo-terminal that is its controlling terminal (so
    that Ctrl-C, "\\x03", is a SIGINT), typing each line when the monitor waits for one
    and Ctrl-C once the program it runs has been computing a while; the exit status and
    the lines shown."""
    from tests.pseudo_terminal import PseudoTerminal

    with PseudoTerminal.c64tc(*arguments) as terminal:
        for line in typed:
            if line == "\x03":
                terminal.wait_until_busy()
                terminal.type(b"\x03")
            else:
                terminal.answer(line)
        return terminal.finish(), terminal.lines()


@pytest.mark.slow
def test_an_interactive_session_ctrl_c_and_the_empty_line(loop: Path) -> None:
    """On a terminal: Ctrl-C stops the running program where it is; an empty line
    repeats the step; a mistake is a plain message and the session goes on."""
    status, lines = session_on_terminal(["monitor", str(loop)], ["z", "", "m zz", "g", "\x03", "q"])
    assert status == 0, lines
    assert lines[0].startswith(".C:c000  A9 01       LDA #$01")
    steps = [line for line in lines if line.startswith(".C:c0")]
    assert steps[1].startswith(".C:c002  8D 20 D0    STA $D020") and steps[2].startswith(".C:c005  EE 21 D0")
    assert "error: 'zz' is not a number (numbers are hex: c000 or $c000; +49152 is decimal; a label starts " \
        "with a dot)" in lines
    assert steps[-1][:8] in (".C:c000 ", ".C:c002 ", ".C:c005 ", ".C:c008 ")  # Ctrl-C: somewhere in the loop
    # where Ctrl-C came: in the loop, or in the KERNAL's interrupt handler the loop is
    # interrupted by sixty times a second
    assert re.match(r"quit in the monitor at \$(C00[0-9A-F]|[EF][0-9A-F]{3}):", lines[-1]), lines[-1]


@pytest.mark.vice_roms
def test_with_the_real_roms_a_step_goes_into_the_kernal_as_in_vice(built: tuple[Path, Path],
                                                                   tmp_path: Path) -> None:
    from tests.conftest import c64_roms

    c64_roms()  # c64tc's own search finds them (the autouse fixture points it there)
    result = monitor(built, tmp_path, "z\nz\nz\nz\nz\nq\n")  # the ROMs found are used
    assert result.exit_code == 0, result.output
    steps = [registers_of(line) for line in result.stdout.splitlines() if line.startswith(".C:")]
    assert steps[2:] == [  # VICE
        ".C:ffd2  6C 26 03    JMP ($0326)    - A:93 X:00 Y:00 SP:f5 N.-.....",
        ".C:f1ca  48          PHA            - A:93 X:00 Y:00 SP:f5 N.-.....",
        ".C:f1cb  A5 9A       LDA $9A        - A:93 X:00 Y:00 SP:f4 N.-.....",
        ".C:f1cd  C9 03       CMP #$03       - A:03 X:00 Y:00 SP:f4 ..-....."]


# -- issue 21: a conditional watch on a busy range runs on without stopping to look ---------------

TABLE_LOOP = """*= $c000
        ldx #0
loop    lda $c100,x
        inx
        cpx #16
        bne loop
        rts
*= $c100
        .byte 1,2,3,4,5,6,7,8,9,7,11,12,13,14,15,16
"""


@pytest.fixture
def table_loop(tmp_path: Path) -> tuple[Path, Path]:
    source = tmp_path / "table.asm"
    source.write_text(TABLE_LOOP)
    prg, labels = tmp_path / "table.prg", tmp_path / "table.labels"
    result = CliRunner().invoke(main, ["asm", str(source), "-o", str(prg), "--vice-labels", str(labels),
                                       "-q"])
    assert result.exit_code == 0, result.output
    return prg, labels


def test_a_conditional_load_watch_sees_the_registers_after_the_load(table_loop: tuple[Path, Path],
                                                                   tmp_path: Path) -> None:
    """The condition is checked after the loading instruction (VICE checks watchpoints
    after the instruction): A == 7 holds after the seventh load (X then 7) and the tenth
    (X 10), never before; the loop is read from the program's table, not from c64tc."""
    result = monitor(table_loop, tmp_path, "watch load c100 c10f if A == 7\ng\ng\ng\n", typed=None)
    assert result.exit_code == 0, result.output
    shown = result.stdout.split("(C:$c000) g\n")[1].splitlines()
    hits = [line for line in shown if line.startswith(("#", ".C:"))]
    assert [line.split(")")[0] for line in hits[0::2]] == ["#1 (Stop on  load c106", "#1 (Stop on  load c109"]
    assert [registers_of(line) for line in hits[1::2]] == [
        ".C:c002  BD 00 C1    LDA $C100,X    - A:07 X:06 Y:00 SP:f7 ..-.....",
        ".C:c002  BD 00 C1    LDA $C100,X    - A:07 X:09 Y:00 SP:f7 ..-....."]
    # the cycles of the loop: LDX 2, then 11 a round (LDA 4, INX 2, CPX 2, BNE taken 3)
    assert [int(line.split()[-1]) for line in hits[1::2]] == [2 + 6 * 11 + 4, 2 + 9 * 11 + 4]
    assert "The run has ended" in result.stdout.split("(C:$c005) g\n")[-1]


def test_a_watch_hit_comes_before_the_breakpoint_on_the_next_instruction(table_loop: tuple[Path, Path],
                                                                        tmp_path: Path) -> None:
    """The instruction after the load has a breakpoint (a stop address of the machine):
    the watch is looked at first, the breakpoint on the next g, as when the run stopped
    after every watched load."""
    result = monitor(table_loop, tmp_path, "watch load c106 if A == 7\nbreak c005 if X == 6\ng\ng\nq\n",
                     typed=None)
    assert result.exit_code == 0, result.output
    hits = [line.split(")")[0] for line in result.stdout.splitlines() if line.startswith("#")]
    assert hits == ["#1 (Stop on  load c106", "#2 (Stop on  exec c005"]
