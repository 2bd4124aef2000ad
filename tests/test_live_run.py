"""``c64tc run`` on a terminal: the live screen, played as a user plays it.

Each test starts c64tc on a pseudo-terminal of its own (its controlling terminal, so
Ctrl-C is SIGINT as for a user), reads what it draws into a small model of a
terminal (cursor addressing, text, the background colour of each cell) and looks at
the C64's 40x25 screen inside it: the text where the C64 shows it, the cursor, the
status line.  Keys are typed as a terminal sends them (no Enter needed)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pseudo_terminal import DEADLINE, PseudoTerminal, Screen, pty_pair, set_size
from toolchain.c64.keyboard import RUN_STOP, Keyboard
from toolchain.c64.memory import power_on_memory
from toolchain.display.palette import PEPTO_PAL

COLUMNS, LINES = 80, 30
BORDER_COLUMNS, BORDER_ROWS = 4, 2  # the live screen's layout on an 80x30 terminal
STATUS_LINE = 2 * BORDER_ROWS + 25
ESC = b"\x1b"
LEFT, RIGHT, UP, DOWN = b"\x1b[D", b"\x1b[C", b"\x1b[A", b"\x1b[B"


class C64Screen(Screen):
    """The terminal's screen with the live screen's parts: the C64's 40x25 inside its
    border, and the status line."""

    def c64_rows(self) -> list[str]:
        """The 25 rows of the C64's screen, trailing spaces removed."""
        return [self.text(row, BORDER_COLUMNS, BORDER_COLUMNS + 40)
                for row in range(BORDER_ROWS, BORDER_ROWS + 25)]

    def c64_background(self, row: int, column: int) -> tuple[int, ...] | None:
        return self.cells[BORDER_ROWS + row][BORDER_COLUMNS + column][1]

    def status(self) -> str:
        return self.text(STATUS_LINE)


class Play(PseudoTerminal):
    """``c64tc run ARGUMENTS`` on a pseudo-terminal, as a player starts it."""

    def __init__(self, *arguments: str, columns: int = COLUMNS, lines: int = LINES,
                 environment: dict[str, str] | None = None) -> None:
        settings = {"COLORTERM": "truecolor", "TERM": "xterm-256color", **(environment or {})}
        super().__init__([sys.executable, "-m", "toolchain", "run", *arguments], size=(columns, lines),
                         environment=settings, screen=C64Screen)
        assert isinstance(self.screen, C64Screen)
        self.terminal = self.screen

    def describe(self) -> str:
        return "the C64 screen shows\n" + "\n".join(self.terminal.c64_rows()) + \
            f"\nstatus: {self.terminal.status()!r}"

    def wait_for_row(self, row: int, text: str, seconds: float = DEADLINE) -> None:
        self.wait_until(f"row {row} should read {text!r}", lambda: self.terminal.c64_rows()[row] == text,
                        seconds)

    def wait_for_status(self, text: str, seconds: float = DEADLINE) -> None:
        self.wait_until(f"the status line should say {text!r}", lambda: text in self.terminal.status(),
                        seconds)

    def after_the_live_screen(self) -> str:
        """What was printed once the terminal was given back."""
        assert b"\x1b[?1049l" in self.output, self.output[-300:]
        return self.output.rpartition(b"\x1b[?1049l")[2].decode(errors="replace").replace("\r", "")


@pytest.fixture
def play() -> Iterator[type[Play]]:
    started: list[Play] = []

    class Tracked(Play):
        def __init__(self, *arguments: str, **options: object) -> None:
            super().__init__(*arguments, **options)  # type: ignore[arg-type]
            started.append(self)

    yield Tracked
    for running in started:
        running.close()


def _listing(tmp_path: Path, text: str, name: str = "program.bas") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


LIGHT_BLUE = PEPTO_PAL[14]
# $C000: JSR $FFE1 (STOP); BEQ $C010; JSR $FFE4 (GETIN); BEQ $C000; JSR $FFD2; JMP $C000
# $C010: LDA #"S"; JSR $FFD2; RTS
GETIN_UNTIL_STOP = bytes([0x20, 0xE1, 0xFF, 0xF0, 0x0B, 0x20, 0xE4, 0xFF, 0xF0, 0xF6, 0x20, 0xD2, 0xFF,
                          0x4C, 0x00, 0xC0, 0xA9, 0x53, 0x20, 0xD2, 0xFF, 0x60])


# -- the tests ----------------------------------------------------------------------------------

def test_nikolaus_shows_its_first_solutions_as_it_finds_them_and_ctrl_c_ends_it(play: type[Play]) -> None:
    # --warp: at the C64's speed the first solution comes after about 5 minutes (issue 22)
    game = play("sources/nikolaus.bas", "sources/nikolaus-errata.bas", "--warp")
    game.wait_for_row(0, "LOESUNG 1: 1 2 3 1 4 3 5 4 2")  # no stray space before the colon
    game.wait_for_row(1, "LOESUNG 2: 1 2 3 1 4 5 3 4 2")
    status = game.terminal.status()
    assert status.startswith("nikolaus.bas: ") and " statement groups   Esc: RUN/STOP  Ctrl-C: quit" in status
    game.type(b"\x03")  # Ctrl-C
    assert game.finish() == 130
    assert game.restored()
    after = game.after_the_live_screen()
    assert after.startswith("LOESUNG 1: 1 2 3 1 4 3 5 4 2\nLOESUNG 2: 1 2 3 1 4 5 3 4 2\n")
    assert "stopped by Ctrl-C: " in after and " statement groups" in after


def test_the_live_screen_runs_basic_at_the_c64s_speed(play: type[Play], tmp_path: Path) -> None:
    """A delay loop takes its C64 time on the live screen (issue 22): 1,500 passes of an
    empty FOR loop take 94 jiffies on VICE (tests/data/timing/fornext: 2,000 take 125),
    about 1.6 s; the summary says the C64's time."""
    game = play(_listing(tmp_path, '10 for i=1 to 1500:next\n20 print "done"\n'))
    assert game.finish() == 0
    assert time.monotonic() - game.started >= 1.4
    after = game.after_the_live_screen()
    assert "DONE" in after and "s on a PAL C64)" in after


def test_input_echoes_keys_through_the_editor_and_the_cursor_keys_move_the_cursor(
        play: type[Play], tmp_path: Path) -> None:
    game = play(_listing(tmp_path, '10 input "name";n$\n20 print "hello ";n$\n'))
    game.wait_for_row(0, "NAME?")
    game.wait_for_status("waiting for a key")
    # the cursor blinks after the prompt: the cell is drawn in the text colour now and then
    game.wait_until("the cursor should blink at row 0, column 6",
                    lambda: game.terminal.c64_background(0, 6) == LIGHT_BLUE)
    game.type(b"abc")
    game.wait_for_row(0, "NAME? ABC")
    game.type(LEFT + LEFT + b"x")  # back over C and B, then X over B
    game.wait_for_row(0, "NAME? AXC")
    game.type(b"\r")
    assert game.finish() == 0
    assert game.after_the_live_screen().startswith("NAME? AXC\nHELLO AXC\n\nREADY.\n")


def test_screen_codes_and_pokes_show_where_the_c64_shows_them_get_takes_keys_as_pressed_and_esc_breaks_in(
        play: type[Play], tmp_path: Path) -> None:
    game = play(_listing(tmp_path, '10 print "{clr}{down}{down}{right}{right}ab{home}c{down}{down}{down}d"\n'
                                   "20 poke 1024+5*40+10,1: poke 55296+5*40+10,2: poke 53281,0\n"
                                   "25 poke 1024+6*40,102\n"
                                   '30 print "{home}{8 down}press a key"\n'
                                   '40 get a$: if a$="" then 40\n'
                                   '50 print "key";asc(a$)\n'
                                   '60 goto 40\n'))
    game.wait_for_row(8, "PRESS A KEY")
    rows = game.terminal.c64_rows()
    assert rows[:6] == ["C", "", "  AB", " D", "", "          A"]  # the POKEd A at row 5, column 10
    assert rows[6] == "\u2592"  # screen code 102, the checkerboard, in Unicode
    assert game.terminal.c64_background(5, 10) == PEPTO_PAL[0]  # POKE 53281,0: black
    game.wait_for_status("waiting for a key")
    game.type(b"a")  # no Enter
    game.wait_for_row(9, "KEY 65")
    game.type(UP)  # CRSR UP, $91
    game.wait_for_row(10, "KEY 145")
    assert game.terminal.c64_rows()[11] == ""  # one key, one GET: no RETURN after it
    game.type(ESC)  # RUN/STOP: the program ends, the terminal is given back, the screen printed
    assert game.finish() == 0
    assert game.restored()
    after = game.after_the_live_screen().split("\n")
    assert after[:6] == ["C", "", "  AB", " D", "", "          A"]
    assert after[7:14] == ["", "PRESS A KEY", "KEY 65", "KEY 145", "", "BREAK IN 40", "READY."]
    assert after[14].startswith("BREAK IN 40: ")


def test_superhirn_ii_plays_on_the_live_screen(play: type[Play], tmp_path: Path) -> None:
    from tests.test_c64 import SEED_DIALOGUE, SUPERHIRN

    prg = tmp_path / "superhirn2.prg"
    prg.write_bytes(SUPERHIRN.to_bytes())
    game = play(str(prg), "--sys", "13312")
    answers = SEED_DIALOGUE.split("|")  # two counts a guess; 4 right ends the game
    guesses = ["1234", "2211", "4333", "3344", "3435", "3436"]
    for number, guess in enumerate(guesses):
        game.wait_for_row(3 * number, guess)
        game.type("".join(answer + "\r" for answer in answers[2 * number : 2 * number + 2]).encode())
    assert game.finish() == 0
    after = game.after_the_live_screen()
    assert after.startswith("1234\n1\n1\n2211\n0\n0\n4333\n1\n2\n3344\n1\n2\n3435\n3\n0\n3436\n4\nOK\n")
    assert "returned to BASIC: " in after


def test_machine_code_polls_getin_and_sees_stop_return_z_set(play: type[Play], tmp_path: Path) -> None:
    prg = tmp_path / "keys.prg"
    prg.write_bytes(bytes([0x00, 0xC0]) + GETIN_UNTIL_STOP)
    game = play(str(prg), "--sys", "49152", "--ascii")
    game.wait_for_status("cycles, waiting for a key")
    game.type(b"h\xc2\xa3")  # H and the pound sign
    game.wait_for_row(0, "H\\")  # --ascii: the pound sign as a backslash (ASCII has none)
    game.type(ESC)
    assert game.finish() == 0
    assert game.after_the_live_screen().startswith("H\u00a3S\nREADY.\nreturned to BASIC: ")


@pytest.mark.vice_roms
def test_with_the_real_kernal_getin_polls_and_esc_holds_run_stop_in_the_key_matrix(
        play: type[Play], tmp_path: Path) -> None:
    from tests.conftest import c64_rom_folder

    folder = c64_rom_folder()
    prg = tmp_path / "keys.prg"
    prg.write_bytes(bytes([0x00, 0xC0]) + GETIN_UNTIL_STOP)
    game = play(str(prg), "--sys", "49152", "--roms", str(folder))
    game.wait_for_status("cycles, waiting for a key")
    game.type(b"hi")
    game.wait_for_row(0, "HI")
    game.type(ESC)  # the ROM's UDTIM reads RUN/STOP from the matrix: STOP ($FFE1) says Z
    assert game.finish() == 0
    after = game.after_the_live_screen()
    assert after.startswith("HIS\nREADY.\nreturned to BASIC: ") and "(the C64's ROMs, from --roms)" in after


def test_a_small_terminal_gets_a_message_and_a_dumb_one_the_teletype(play: type[Play],
                                                                     tmp_path: Path) -> None:
    program = _listing(tmp_path, '10 input "name";n$\n20 print "hello ";n$\n')
    small = play(program, columns=40, lines=25)
    assert small.finish() == 1
    assert b"error: the terminal is 40x25; the C64 screen needs at least 40x26" in small.output
    assert small.restored()
    teletype = play(program, environment={"TERM": "dumb"})
    teletype.wait_until("the prompt", lambda: b"NAME? " in teletype.output)
    teletype.type(b"ada\r")
    assert teletype.finish() == 0
    assert b"\x1b" not in teletype.output
    assert teletype.output.replace(b"\r", b"").startswith(b"NAME? ada\nHELLO ADA\n")


# -- in this process: the keyboard's live mode, the picture ---------------------------------------

class Player:
    """A key source typing ``batches`` of keys, one batch a scan, and noting the waits."""

    def __init__(self, *batches: list[int], memory: bytearray | None = None) -> None:
        self.batches = list(batches)
        self.waits: list[bool] = []
        self.memory = memory
        self.blink_while_waiting: list[int] = []

    def pressed(self) -> list[int]:
        return self.batches.pop(0) if self.batches else []

    def wait(self, polling: bool) -> None:
        self.waits.append(polling)
        if self.memory is not None:
            self.blink_while_waiting.append(self.memory[0xCC])
        assert len(self.waits) < 100, "waits for ever"


def _keyboard(player: Player) -> tuple[Keyboard, bytearray]:
    memory = power_on_memory()
    keyboard = Keyboard(live=player)
    keyboard.attach(memory)
    player.memory = memory
    return keyboard, memory


def test_keys_go_into_the_buffer_as_pressed_and_a_full_buffer_loses_them() -> None:
    keyboard, memory = _keyboard(Player(list(b"ABCDEFGHIJKL")))
    assert keyboard.scan() == 10  # XMAX: ten keys; K and L are lost, as on a C64
    assert memory[0xC6] == 10 and bytes(memory[0x277:0x281]) == b"ABCDEFGHIJ"
    assert [keyboard.next_key() for _ in range(10)] == list(b"ABCDEFGHIJ")
    memory[0x289] = 2  # a program makes the buffer smaller (POKE 649,2)
    keyboard.live = Player([0x31, 0x32, 0x33])
    assert keyboard.scan() == 2 and memory[0xC6] == 2


def test_a_poll_without_a_key_lets_time_pass_and_a_wait_waits_for_the_player() -> None:
    player = Player([], [], [], [0x41])
    keyboard, memory = _keyboard(player)
    assert keyboard.next_key() is None and player.waits == [True]  # GET goes on without a key
    assert not keyboard.exhausted
    memory[0xCC] = 1
    assert keyboard.wait_for_key() == 1  # the editor waits, the cursor blinking
    assert player.waits == [True, False] and player.blink_while_waiting[1:] == [0]
    assert memory[0xC6] == 1 and memory[0x277] == 0x41
    player.batches = [[], [0x42]]
    memory[0xC6] = 0
    memory[0xCC] = 1
    assert keyboard.fill(1) == 1  # WAIT 198,1 waits too, without the editor's cursor
    assert player.blink_while_waiting[-1] == 1


def test_run_stop_is_held_until_the_program_looks_and_types_its_code_for_machine_code() -> None:
    keyboard, memory = _keyboard(Player([RUN_STOP]))
    assert keyboard.scan() == 1 and memory[0x277] == 0x03  # the KERNAL's code for the key
    assert keyboard.stop_pressed() and not keyboard.stop_pressed()
    basic, memory = _keyboard(Player([RUN_STOP], [0x41]))
    basic.run_stop_code = None  # BASIC looks before every statement: GET never sees it
    assert basic.scan() == 0 and basic.stop_held
    assert basic.scan() == 1 and not basic.stop_pressed()  # another key: RUN/STOP was let go


def test_the_cursor_on_a_two_row_line_and_under_the_kernals_blink() -> None:
    from toolchain.c64.machine import C64
    from toolchain.c64.terminal import LivePlay
    from toolchain.display.live import LiveScreen

    machine = C64()
    for byte in b"X" * 45:
        machine.print_byte(byte)
    memory = machine.memory
    memory[0xCC] = 0  # the editor waits: the cursor blinks
    machine.editor.blink()  # (after BLNCT's countdown) the KERNAL shows it: the cell reversed
    for _ in range(20):
        machine.editor.blink()
    assert memory[0xCF] == 1 and memory[0x0400 + 45] == 0xA0
    play = LivePlay(machine, "test", basic=True, work=lambda: "", machine_cycles=lambda: 0,
                    screen=LiveScreen(input_fd=0, output_fd=1))
    image = play.image()
    assert image.cursor == (1, 5) and image.cursor_visible  # row 1, column 45 - 40
    assert image.codes[45] == 0x20 and image.colours[45] == 14  # drawn as under the blink
    memory[0xCC] = 1
    assert not play.image().cursor_visible


def test_a_live_screen_needs_two_terminals_that_know_their_size() -> None:
    from toolchain.c64.terminal import can_show_live_screen

    with pty_pair() as (_, slave):
        with open(slave, closefd=False) as stdin, open(slave, "w", closefd=False) as stdout:
            assert not can_show_live_screen(stdin, stdout, {"TERM": "xterm"})  # 0x0: size unknown
            set_size(slave, 80, 30)
            assert can_show_live_screen(stdin, stdout, {"TERM": "xterm"})
            assert not can_show_live_screen(stdin, stdout, {"TERM": "dumb"})
            with open(os.devnull) as devnull:
                assert not can_show_live_screen(devnull, stdout, {"TERM": "xterm"})
