"""What tripped a new user in the first hour (issue 26): each trip-up, as it now goes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.conftest import DATA, c64_roms
from toolchain.asm import assemble
from toolchain.cli import main
from toolchain.disk import Prg

SYS_RETURN = DATA / "sys-return"


def c64tc(*args: str | Path, input: str | bytes | None = None) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def _program(name: str) -> Prg:
    """The machine code of tests/data/sys-return/measure.py's program ``name``."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("sys_return_measure", SYS_RETURN / "measure.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    program = assemble(module.PROGRAMS[name], f"{name}.asm")
    return Prg(program.start, program.image)


# -- 7. the screen after SYS returns: READY. and the cursor, as VICE shows them ------------------

@pytest.mark.parametrize("name", ["prints-a", "prints-line", "silent"])
@pytest.mark.parametrize("roms", [False, True], ids=["models", "roms"])
def test_sys_typed_at_ready_ends_at_ready_as_on_vice(name: str, roms: bool) -> None:
    """`run --sys 49152 --boot`: the banner, SYS typed, the program's output, then
    READY. with the cursor below it, row for row as VICE 3.10 with the original ROMs
    (tests/data/sys-return, measured by its measure.py)."""
    from toolchain.c64.run import Session, Stop, program_from_prg

    session = Session(program_from_prg(_program(name), name, sys_address=0xC000),
                      roms=c64_roms() if roms else None, boot=True)
    result = session.run()
    session.ready_after_return(result)
    assert result.stop is Stop.RETURNED
    vice = (SYS_RETURN / f"{name}.vice.txt").read_text().splitlines()
    assert session.machine.screen.text().splitlines() == [row.rstrip() for row in vice]
    measured = json.loads((SYS_RETURN / f"{name}.vice.json").read_text())
    assert session.machine.editor.cursor() == (measured["cursor_row"], measured["cursor_column"])


def test_run_sys_prints_ready_after_the_program(tmp_path: Path) -> None:
    prg = tmp_path / "a.prg"
    prg.write_bytes(_program("prints-a").to_bytes())
    result = c64tc("run", prg, "--sys", "49152")
    assert result.exit_code == 0
    assert result.stdout == "A\nREADY.\n"
    screen = c64tc("run", prg, "--sys", "49152", "--screen").stdout.splitlines()
    assert screen[:2] == ["A", "READY."]


def test_a_basic_program_on_the_roms_goes_on_after_its_sys(tmp_path: Path) -> None:
    """With BASIC in ROM (--boot with the ROMs), a SYS that returns goes on to the next
    statement; it used to end the whole run there."""
    listing = tmp_path / "s.bas"
    listing.write_text('10 poke 49152,96:sys 49152\n20 print "after"\n')
    from tests.conftest import c64_rom_folder

    result = c64tc("run", listing, "--roms", c64_rom_folder(), "--boot")
    assert result.exit_code == 0
    assert "AFTER\n\nREADY." in result.stdout
    assert "program ended" in result.stderr


BLINK = DATA / "cursor-blink"


def test_vice_shows_the_cursor_two_jiffies_after_ready_for_twenty() -> None:
    """VICE's screenshots after hi.bas ends (tests/data/cursor-blink/measure.py, one a
    jiffy): READY. without the cursor for the two jiffies BLNCT ($CD) was left at by
    printing READY. ($EA13), then the cursor reversed for 20 jiffies, off for 20, ...:
    the phase c64tc's end picture shows."""
    sweep = json.loads((BLINK / "blink.json").read_text())["sweep"]
    ready = next(index for index, shot in enumerate(sweep) if shot["ready"])
    shown = [shot["cursor_reversed"] for shot in sweep[ready:]]
    assert shown[:2] == [False, False] and shown[2:22] == [True] * 20 and shown[22:42] == [False] * 20
    assert shown[42:] and all(shown[42:])


def _text_rows(picture: Path, first: int, rows: int) -> list[tuple[int, ...]]:
    """The pixels of ``rows`` text rows from ``first`` in a 384x272 picture in VICE's framing."""
    from PIL import Image

    image = Image.open(picture).convert("RGB")
    top = 35 + first * 8
    return [image.getpixel((x, y)) for y in range(top, top + rows * 8) for x in range(32, 32 + 320)]


@pytest.mark.parametrize("roms", [False, True], ids=["models", "roms"])
def test_the_picture_at_ready_shows_the_cursor_as_vice_does(roms: bool, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """`run hi.bas --screenshot` ends at READY.: the picture shows the cursor reversed
    below it, pixel for pixel as VICE's screenshot in the first blink phase (HI, the
    empty row, READY. and the cursor's row; VICE's rows 12-15, after its LOAD and RUN)."""
    from tests.conftest import c64_rom_folder

    folder = c64_rom_folder()
    monkeypatch.setenv("C64TC_ROMS", str(folder))  # the character ROM for the picture
    picture = tmp_path / "hi.png"
    options = ["--roms", folder, "--boot"] if roms else ["--no-roms"]
    result = c64tc("run", BLINK / "hi.bas", "--screenshot", picture, *options)
    assert result.exit_code == 0, result.output
    first = 7 if roms else 0  # --boot: the banner, READY. and RUN above
    vice_first = json.loads((BLINK / "blink.json").read_text())["sweep"][-1]["cursor_row"] - 3
    assert _text_rows(picture, first, 4) == _text_rows(BLINK / "vice-ready.png", vice_first, 4)


def test_pictures_show_the_cursor_where_the_editor_waits(tmp_path: Path) -> None:
    """After BREAK, an error or INPUT with the typed input used up the editor waits
    too (its cursor blinks); a program stopped by c64tc's limit shows no cursor."""
    from PIL import Image

    light_blue = (108, 94, 181)
    for text, cursor, waits in (('10 print "hi":stop\n', (4, 0), True), ("10 x=1/0\n", (3, 0), True),
                                ("10 input a\n", (0, 2), True), ("10 goto 10\n", (0, 0), False)):
        listing = tmp_path / "p.bas"
        listing.write_text(text)
        picture = tmp_path / "p.png"
        # a reversed space is all text colour in any font: no character ROM needed
        c64tc("run", listing, "--screenshot", picture, "--max-statements", "1000")
        image = Image.open(picture).convert("RGB")
        x, y = 32 + cursor[1] * 8, 35 + cursor[0] * 8
        lit = sum(image.getpixel((x + i, y + j)) == light_blue for i in range(8) for j in range(8))
        assert lit == (64 if waits else 0), text


# -- 2. a long run shows a progress line on a terminal, and says how far it got ------------------

def _on_a_terminal(arguments: list[str], folder: Path,
                   interrupt_after: str | None = None) -> tuple[int, str, bytes]:
    """``c64tc arguments`` typed in a shell as `c64tc run l.bas >out`: standard input and
    standard error on a terminal (tests/pseudo_terminal.py), standard output into a
    file; Ctrl-C typed once ``interrupt_after`` has been shown.  The exit status, what
    the terminal showed, what went into the file."""
    import sys

    from tests.pseudo_terminal import PseudoTerminal

    out = folder / "out"
    command = ["sh", "-c", 'out="$1"; shift; exec "$@" >"$out"', "sh", str(out),
               sys.executable, "-m", "toolchain", *arguments]
    with PseudoTerminal(command, screen=None) as terminal:
        if interrupt_after is not None:
            terminal.wait_for(interrupt_after.encode())
            terminal.type(b"\x03")  # Ctrl-C, as the user types it: SIGINT from the terminal
        status = terminal.finish()
        shown = terminal.output
    return status, shown.decode(errors="replace"), out.read_bytes()


def test_one_default_limit_in_c64_time_for_basic_and_machine_code(tmp_path: Path) -> None:
    """`run l.bas >out` for `10 goto 10` ran for ever: BASIC had no default limit.  Now
    one limit, in C64 time, bounds BASIC and machine code alike (main's
    DEFAULT_RUN_CYCLES, 100 hours of a PAL C64), and no second one is set by default."""
    from toolchain.c64.outcome import PAL_CLOCK_HZ
    from toolchain.c64.run import DEFAULT_RUN_CYCLES
    from toolchain.cli.run import run_command

    defaults = {param.name: param.default for param in run_command.params}
    assert defaults["max_cycles"] == DEFAULT_RUN_CYCLES == 100 * 3600 * PAL_CLOCK_HZ
    assert not isinstance(defaults["max_statements"], int)  # none given: no statement limit
    listing = tmp_path / "l.bas"
    listing.write_text("10 goto 10\n")
    prg = tmp_path / "loop.prg"
    prg.write_bytes(Prg(0xC000, assemble("*= $c000\nl inx\n jmp l\n").image).to_bytes())
    for arguments in ([listing], [prg, "--sys", "49152"]):  # the same option, the same C64 time
        result = c64tc("run", *arguments, "--max-cycles", "1000000")
        assert result.exit_code == 2, result.output
        seconds = float(result.stderr.rsplit("(", 1)[1].split(" s on a PAL C64")[0])
        assert 1.0 <= seconds < 1.1  # a million cycles: 1.01 s of a PAL C64


def test_a_long_basic_run_shows_where_it_is_on_the_terminal_while_its_output_is_piped(
        tmp_path: Path) -> None:
    listing = tmp_path / "l.bas"
    listing.write_text("10 goto 10\n")
    status, shown, output = _on_a_terminal(["run", str(listing), "--max-statements", "3000000"], tmp_path)
    assert status == 2
    progress, summary = shown.rsplit("\r\x1b[K", 1)  # the line is taken away before the summary
    assert "line 10: " in progress and "statement groups, " in progress and " of C64 time" in progress
    assert summary.startswith("stopped after 3000000 statement groups in line 10")
    assert b"\x1b" not in output  # the progress line stays on the terminal


def test_ctrl_c_says_how_far_the_run_got(tmp_path: Path) -> None:
    listing = tmp_path / "l.bas"
    listing.write_text("10 goto 10\n")
    status, shown, _ = _on_a_terminal(["run", str(listing)], tmp_path, interrupt_after="line 10: ")
    assert status == 130
    assert shown.rsplit("\r\x1b[K", 1)[1].startswith("stopped by Ctrl-C at line 10: ")
    assert "statement groups, " in shown.splitlines()[-1] and "of C64 time" in shown.splitlines()[-1]


def test_a_long_machine_code_run_shows_its_address_and_cycles(tmp_path: Path) -> None:
    prg = tmp_path / "loop.prg"
    # SEI: with interrupts on, Ctrl-C can come while the KERNAL's IRQ handler runs, and
    # the summary then rightly says $FF48 (its entry), which made this test pass by luck.
    prg.write_bytes(Prg(0xC000, assemble("*= $c000\n sei\nl inx\n bne l\n iny\n jmp l\n").image)
                    .to_bytes())
    status, shown, _ = _on_a_terminal(["run", str(prg), "--sys", "49152"], tmp_path,
                                      interrupt_after=" cycles, ")
    assert status == 130
    progress, summary = shown.rsplit("\r\x1b[K", 1)
    assert "$C00" in progress and " of C64 time" in progress
    assert summary.startswith("stopped by Ctrl-C at $C00")


def test_no_progress_line_when_standard_error_is_piped(tmp_path: Path) -> None:
    import subprocess
    import sys

    listing = tmp_path / "l.bas"
    listing.write_text("10 goto 10\n")
    result = subprocess.run([sys.executable, "-m", "toolchain", "run", str(listing), "--max-statements",
                             "300000"], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert result.returncode == 2
    assert result.stderr.startswith("stopped after 300000 statement groups in line 10: ")
    assert result.stderr.count("\n") == 1 and "\r" not in result.stderr and "\x1b" not in result.stderr


# -- 3. `c64tc vice` with VICE's headless build: no window will come, say so -----------------------

def _headless_x64sc() -> Path:
    import shutil

    found = shutil.which("x64sc")
    if found is None:
        pytest.skip("VICE's x64sc is not installed (put its headless build on the PATH)")
    from toolchain.vice import is_headless

    if not is_headless(Path(found)):
        pytest.skip(f"{found} is a windowed VICE; this test needs the headless build")
    return Path(found)


def test_vice_with_the_headless_build_says_to_use_check(tmp_path: Path) -> None:
    """The real headless x64sc: refused at once (it used to wait for a window forever)."""
    import subprocess
    import sys

    emulator = _headless_x64sc()
    prg = tmp_path / "a.prg"
    prg.write_bytes(_program("prints-a").to_bytes())
    command = [sys.executable, "-m", "toolchain", "vice", str(prg), "--emulator", str(emulator)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert result.returncode == 1
    assert "VICE's headless build" in result.stderr and "c64tc vice --check" in result.stderr


def test_a_windowed_vice_is_started(tmp_path: Path) -> None:
    """An x64sc without the headless UI's words is started as before (here a stand-in
    that ends at once with status 0; `c64tc vice` exits with VICE's status)."""
    emulator = tmp_path / "x64sc"
    emulator.write_text("#!/bin/sh\nexit 0\n")
    emulator.chmod(0o755)
    prg = tmp_path / "a.prg"
    prg.write_bytes(_program("prints-a").to_bytes())
    assert c64tc("vice", prg, "--emulator", emulator).exit_code == 0
    emulator.write_text("#!/bin/sh\n# Initialising headless ui\nsleep 600\n")
    refused = c64tc("vice", prg, "--emulator", emulator)
    assert refused.exit_code == 1 and "--check" in refused.output


# -- 4. asm --symbols FILE, like -l FILE, --vice-labels FILE and disasm --symbols FILE -------------

@pytest.mark.parametrize(("dialect", "source"), [
    ("profi", "*= $c000\nchrout = $ffd2\nstart lda #1\n jsr chrout\n rts\n"),
    ("64tass", "* = $c000\nchrout = $ffd2\nstart lda #1\n jsr chrout\n rts\n"),
    ("acme", "* = $c000\nchrout = $ffd2\nstart lda #1\n jsr chrout\n rts\n"),
])  # fmt: skip
def test_asm_symbols_writes_a_file_that_disasm_reads(dialect: str, source: str, tmp_path: Path) -> None:
    (tmp_path / "main.asm").write_text(source)
    symbols = tmp_path / "main.symbols"
    result = c64tc("asm", tmp_path / "main.asm", "--dialect", dialect, "-o", tmp_path / "main.prg",
                   "--symbols", symbols)
    assert result.exit_code == 0, result.output
    assert "start" in symbols.read_text() and "chrout" in symbols.read_text()
    assert "start" not in result.stdout  # nothing printed: the table is in the file
    listed = c64tc("disasm", tmp_path / "main.prg", "--format", "source", "--symbols", symbols)
    assert listed.exit_code == 0, listed.output
    assert "start lda #$01" in listed.stdout and "jsr chrout" in listed.stdout


def test_asm_symbols_to_standard_output_and_mistakes(tmp_path: Path) -> None:
    (tmp_path / "main.asm").write_text("*= $c000\nstart rts\n")
    shown = c64tc("asm", tmp_path / "main.asm", "-o", tmp_path / "main.prg", "--symbols", "-", "-q")
    assert shown.exit_code == 0 and "start" in shown.stdout
    both = c64tc("asm", tmp_path / "main.asm", "-o", "-", "--symbols", "-")
    assert both.exit_code == 2 and "-o and --symbols cannot both write to standard output" in both.output
    # the old flag, followed by another option: not read as a file named "-o"
    old = c64tc("asm", tmp_path / "main.asm", "--symbols", "-o", tmp_path / "x.prg")
    assert old.exit_code == 2 and "'-o' looks like an option: --symbols takes a FILE" in old.output
    assert not (tmp_path / "x.prg").exists()
    assert c64tc("asm", tmp_path / "main.asm", "--symbols").exit_code == 2  # FILE is required


# -- 5. verify superhirn --prg with a PRG that is not Superhirn II: said at once ----------------

def test_verify_refuses_a_program_that_loads_elsewhere(tmp_path: Path) -> None:
    superhirn = (DATA / "superhirn2-mse.bin").read_bytes()[:-1]
    moved = tmp_path / "moved.prg"
    moved.write_bytes(b"\x00\xc0" + superhirn[2:])  # the same bytes, loaded at $C000
    result = c64tc("verify", "superhirn", "--prg", moved, "--sample", "3", "--jobs", "1")
    assert result.exit_code == 1
    assert result.stderr == (f"{moved}: error: it loads at $C000-$C20A, but Superhirn II starts at $3400 "
                             "(SYS 13312), which it does not hold: not Superhirn II's PRG\n")
    assert result.stdout == ""  # no games played


@pytest.mark.parametrize("verifier", ["superhirn", "superhirn3"])
def test_verify_refuses_a_program_whose_first_game_does_not_play(verifier: str, tmp_path: Path) -> None:
    junk = tmp_path / "junk.prg"
    junk.write_bytes(b"\x00\x34" + bytes(64))  # BRKs at $3400
    result = c64tc("verify", verifier, "--prg", junk, "--sample", "3", "--jobs", "1")
    assert result.exit_code == 1
    assert "error: its first game (secret " in result.stderr and "BRK at $3400" in result.stderr
    assert "games differ" not in result.output


# -- 11. typed input: VICE's -keybuf escapes beside | ----------------------------------------------

def _vice_keybuf(text: str) -> bytes:
    """VICE 3.10's kbd_buf_parse_string (src/kbdbuf.c), written out again as the oracle:
    \\\\ a backslash, \\n RETURN, \\xNN the code NN, other characters through
    charset_p_topetscii (a-z: $41-$5A, A-Z: $C1-$DA, digits and signs as themselves)."""
    out = bytearray()
    index = 0
    while index < len(text):
        character = text[index]
        if character == "\\":
            if text[index + 1 : index + 2] == "\\":
                out.append(0x5C)
                index += 1
            elif text[index + 1 : index + 2] == "n":
                out.append(0x0D)
                index += 1
            elif text[index + 1 : index + 2] == "x" and len(text) > index + 3 and all(
                    c in "0123456789abcdefABCDEF" for c in text[index + 2 : index + 4]):
                out.append(int(text[index + 2 : index + 4], 16))
                index += 3
        elif character.islower():
            out.append(ord(character.upper()))
        elif character.isupper():
            out.append(ord(character) + 0x80)
        else:
            out.append(ord(character))
        index += 1
    return bytes(out)


@pytest.mark.parametrize("text", [
    "run\\n", "1\\n1\\n0\\n", "a\\x85b\\n", "\\x93\\x0d", "a\\\\b\\n", "Hello, C64!\\n", "poke 53280,0\\n",
    "\\x11\\x11\\x1d\\n",
])  # fmt: skip
def test_vice_keybuf_escapes_type_what_vice_types(text: str) -> None:
    from toolchain.c64.keyboard import typed_keys

    assert typed_keys(text) == _vice_keybuf(text)


@pytest.mark.parametrize(("vice", "ours"), [("1\\n1\\n", "1|1"), ("3\\n3\\n--\\n", "3|3|--|"),
                                            ("a\\nb", "a\nb"), ("\\n", "|")])
def test_backslash_n_is_the_same_return_as_the_bar(vice: str, ours: str) -> None:
    from toolchain.c64.keyboard import typed_keys

    assert typed_keys(vice) == typed_keys(ours)


def test_the_input_option_takes_vice_escapes(tmp_path: Path) -> None:
    listing = tmp_path / "keys.bas"
    listing.write_text('10 input a$:print "<"a$">"\n20 get k$:if k$="" then 20\n30 print asc(k$)\n')
    result = c64tc("run", listing, "--input", "hi\\n\\x85")  # a line, then F1 for GET
    assert result.exit_code == 0, result.output
    assert "<HI>" in result.stdout and " 133" in result.stdout
    wrong = c64tc("run", listing, "--input", "a\\qb")
    assert wrong.exit_code == 1
    assert "--input: error: '\\\\q' is not one of VICE's keybuf escapes" in wrong.stderr
    typed = tmp_path / "typed.txt"
    typed.write_text("hi\\n\\x85")
    from_file = c64tc("run", listing, "--input-file", typed)
    assert from_file.exit_code == 0 and from_file.stdout == result.stdout


def test_the_manifest_dialogue_takes_vice_escapes(tmp_path: Path) -> None:
    (tmp_path / "p.bas").write_text('10 input a$:print "<"a$">"\n')
    manifest = ('[disk]\nname = "x"\nid = "01"\n[[program]]\nname = "p"\nkind = "basic"\n'
                'sources = ["p.bas"]\n[[program.check]]\nkind = "dialogue"\ninput = \'{typed}\'\n'
                'expect = ["<HI>"]\n')
    (tmp_path / "m.toml").write_text(manifest.format(typed="hi\\n"))
    built = c64tc("build", "--manifest", tmp_path / "m.toml", "--out", tmp_path / "out")
    assert built.exit_code == 0, built.output
    (tmp_path / "m.toml").write_text(manifest.format(typed="hi\\z"))
    refused = c64tc("build", "--manifest", tmp_path / "m.toml", "--out", tmp_path / "bad")
    assert refused.exit_code == 1
    assert "m.toml:10: error: program 'p', check dialogue: 'input': '\\\\z' is not one of VICE's" \
        in refused.stderr


def test_vice_is_given_the_keys_c64tc_types() -> None:
    from toolchain.vice import _keys

    assert _keys("1|A|\\x85 x") == "1\\n\\xc1\\n\\x85 x\\n"
    assert _vice_keybuf(_keys("1|A|\\x85 x\\\\")) == b"1\r\xc1\r\x85 X\\\r"


# -- 10. the inconsistencies outside disks and files ----------------------------------------------

ONE_PLURAL = __import__("re").compile(
    r"\b1 (bytes|lines|files|blocks|games|statement groups|instructions|cycles|errors|guesses)\b")


def test_a_count_of_one_is_singular(tmp_path: Path) -> None:
    (tmp_path / "one.asm").write_text("*= $c000\n rts\n")
    (tmp_path / "loop.bas").write_text("10 goto 10\n")
    (tmp_path / "one.mse").write_text("C000 : 60                        C1\n")  # c64tc mse fromprg's
    (tmp_path / "one.bin").write_bytes(b"\x00")
    outputs = {
        "asm": c64tc("asm", tmp_path / "one.asm", "-o", tmp_path / "one.prg"),
        "run": c64tc("run", tmp_path / "loop.bas", "--max-statements", "1"),
        "mse": c64tc("mse", "check", tmp_path / "one.mse"),
        "screen": c64tc("screen", tmp_path / "one.bin"),
        "d64 create": c64tc("d64", "create", tmp_path / "one.d64"),
    }
    outputs["d64 add"] = c64tc("d64", "add", tmp_path / "one.d64", tmp_path / "one.prg")
    outputs["d64 extract"] = c64tc("d64", "extract", tmp_path / "one.d64", "one", "-d", tmp_path)
    outputs["d64 validate"] = c64tc("d64", "validate", tmp_path / "one.d64")
    assert "$C000-$C000, 1 byte (+2 load address)" in outputs["asm"].stderr
    assert "stopped after 1 statement group in line 10: 1 statement group in " in outputs["run"].stderr
    assert "one.mse: 1 line, all checksums correct" in outputs["mse"].stdout
    assert "error: 1 byte is not a dump of screen memory" in outputs["screen"].stderr
    assert '"ONE" -> ' in outputs["d64 extract"].stdout and "(3 bytes)" in outputs["d64 extract"].stdout
    assert "1 file, 663 blocks free" in outputs["d64 validate"].stdout
    for name, result in outputs.items():
        assert not ONE_PLURAL.search(result.output), (name, result.output)


def test_verify_of_one_game_is_one_game() -> None:
    from toolchain.verify import guess_statistics
    from toolchain.verify.games import Game, Verification

    report = guess_statistics(Verification("Superhirn II", [Game("1234", ["1234"], "OK")],
                                           ["1234: machine 1234 OK; model 1234 1111 OK"]))
    assert report.startswith("Superhirn II: 1 game, 1 solved, mean 1.000 guesses, at most 1\n")
    assert "worst (1 guess): 1234" in report and "1 game differs from the model:" in report


@pytest.mark.parametrize("given", ["abc", "3400", "0801"])
def test_sys_without_a_hex_prefix_is_an_error_not_a_guess(given: str, tmp_path: Path) -> None:
    prg = tmp_path / "a.prg"
    prg.write_bytes(_program("prints-a").to_bytes())
    result = c64tc("run", prg, "--sys", given)
    if given == "3400":  # decimal, as the rule says: and outside the program
        assert result.exit_code == 1 and "did you mean --sys $3400" not in result.output
        return
    assert result.exit_code == 2
    assert f"'{given}' is not an address (2049, $0801 or 0x0801): numbers are decimal; write ${given} or " \
        f"0x{given} for hex ({int(given, 16)})" in result.output


@pytest.mark.parametrize(("name", "magic"), [
    ("shot.png", b"\x89PNG"), ("shot.jpg", b"\xff\xd8\xff"), ("shot.gif", b"GIF8"), ("shot.bmp", b"BM"),
    ("shot", b"\x89PNG")])
def test_screenshot_writes_the_format_its_name_asks_for(name: str, magic: bytes, tmp_path: Path) -> None:
    from PIL import Image

    prg = tmp_path / "a.prg"
    prg.write_bytes(_program("prints-a").to_bytes())
    shot = tmp_path / name
    result = c64tc("run", prg, "--sys", "49152", "--screenshot", shot)
    assert result.exit_code == 0, result.output
    assert shot.read_bytes().startswith(magic)
    with Image.open(shot) as picture:
        assert picture.size == (384, 272)
        # the border's colour (light blue, 14: Pepto's #6C5EB5), whatever the format
        assert picture.convert("RGB").getpixel((2, 2)) in ((0x6C, 0x5E, 0xB5), (0x6C, 0x5E, 0xB4),
                                                           (0x6D, 0x5E, 0xB5), (0x6B, 0x5E, 0xB5))


def test_a_picture_format_that_cannot_be_written_is_refused_before_the_run(tmp_path: Path) -> None:
    listing = tmp_path / "l.bas"
    listing.write_text("10 goto 10\n")
    result = c64tc("run", listing, "--screenshot", tmp_path / "shot.h5")
    assert result.exit_code == 1
    assert "shot.h5: error: cannot write a HDF5 picture" in result.stderr
    assert "statement group" not in result.stderr  # the program never ran
    assert sorted(path.name for path in tmp_path.iterdir()) == ["l.bas"]


def test_screen_writes_a_jpeg_for_a_jpeg_name(tmp_path: Path) -> None:
    """`c64tc screen -o x.jpg` wrote the screen as text under a picture's name."""
    dump = tmp_path / "screen.bin"
    dump.write_bytes(bytes(1000))
    result = c64tc("screen", dump, "-o", tmp_path / "x.jpg")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "x.jpg").read_bytes().startswith(b"\xff\xd8\xff")
    assert "384x272 JPEG" in result.stderr


def test_a_rom_call_stop_says_where_it_was(tmp_path: Path) -> None:
    listing = tmp_path / "rs.bas"
    listing.write_text('10 print "x"\n20 sys 61308\n')
    basic = c64tc("run", listing)
    assert basic.exit_code == 1
    assert basic.stderr.startswith(f"{listing}:2:1: error: SYS 61308: call to the ROM at $EF7C")
    prg = tmp_path / "rc.prg"
    prg.write_bytes(Prg(0xC000, assemble("*= $c000\n jsr $ef7c\n rts\n").image).to_bytes())
    code = c64tc("run", prg, "--sys", "49152")
    assert code.exit_code == 1
    assert code.stderr.startswith(f"{prg}: error: call to the ROM at $EF7C")


# -- 1. a listing added to a disk is tokenized (VICE loaded the text as garbage) ---------------------

REPO = Path(__file__).resolve().parent.parent


def test_a_listing_added_to_a_disk_is_the_program_petcat_makes(tmp_path: Path) -> None:
    image = tmp_path / "a.d64"
    assert c64tc("d64", "create", image).exit_code == 0
    sources = REPO / "sources"
    result = c64tc("d64", "add", image, sources / "nikolaus.bas", sources / "superhirn2.mse")
    assert result.exit_code == 0, result.output
    assert "nikolaus.bas: a BASIC listing, tokenized as `c64tc tok` does ($0801-$0B7F, 895 bytes), added " \
        'as "NIKOLAUS"' in result.stderr
    assert 'superhirn2.mse: an MSE dump, made a PRG as `c64tc mse toprg` does' in result.stderr
    from toolchain.disk import d64

    assert d64.extract(image, "nikolaus") == (DATA / "nikolaus-printed.petcat.prg").read_bytes()  # petcat's
    assert d64.extract(image, "superhirn2") == (DATA / "superhirn2-mse.bin").read_bytes()  # the magazine's


def test_a_listing_stored_as_text_on_a_disk_is_tokenized_for_vice_and_when_copied(tmp_path: Path) -> None:
    """A disk an older `d64 add` made holds a listing's text as a PRG: `c64tc vice` gives
    VICE the program tokenized (VICE's LOAD read the text as garbage), and `d64 add`
    copying it from the disk (IMAGE:NAME) stores the program."""
    from toolchain.cli.vice import resolve_target
    from toolchain.disk import d64

    old = tmp_path / "old.d64"
    c64tc("d64", "create", old)
    d64.add_files(old, [d64.NewFile("nikolaus", (REPO / "sources" / "nikolaus.bas").read_bytes(), "PRG")])
    petcat = (DATA / "nikolaus-printed.petcat.prg").read_bytes()
    for number, program in enumerate((None, "nikolaus")):  # the first program, or the one named
        folder = tmp_path / str(number)
        folder.mkdir()
        target = resolve_target(str(old), program, None, folder)
        assert target.path.parent == folder and target.path.read_bytes() == petcat
    tokenized = tmp_path / "new.d64"
    c64tc("d64", "create", tokenized)
    copied = c64tc("d64", "add", tokenized, f"{old}:nikolaus")
    assert copied.exit_code == 0 and "a BASIC listing, tokenized as `c64tc tok` does" in copied.stderr
    assert d64.extract(tokenized, "nikolaus") == petcat
    assert resolve_target(str(tokenized), None, None, tmp_path).path == tokenized  # a program: as it is


@pytest.mark.parametrize(("name", "text", "advice"), [
    ("code.asm", "*= $c000\n lda #1\n sta $d020\n rts\n", "`c64tc asm {path}` assembles it into a PRG"),
    ("notes.txt", "Typed in from 64'er 1/85\nby hand\n",
     "if it is a BASIC listing, `c64tc tok {path}` it first"),
])
def test_text_that_is_no_program_is_refused_with_the_command_that_makes_one(
        name: str, text: str, advice: str, tmp_path: Path) -> None:
    image = tmp_path / "a.d64"
    c64tc("d64", "create", image)
    before = image.read_bytes()
    prg = tmp_path / "ok.prg"
    prg.write_bytes(_program("prints-a").to_bytes())
    (tmp_path / name).write_text(text)
    result = c64tc("d64", "add", image, prg, tmp_path / name)
    assert result.exit_code == 1
    assert "not a program to store as a PRG: " + advice.format(path=tmp_path / name) in result.stderr
    assert "--type seq stores its bytes as they are" in result.stderr
    assert image.read_bytes() == before  # all or none: ok.prg is not added either
    stored = c64tc("d64", "add", image, tmp_path / name, "--type", "seq")
    assert stored.exit_code == 0
    from toolchain.disk import d64

    assert d64.extract(image, Path(name).stem) == text.encode()


# -- 10. files and disks: every missing input is "cannot read", kinds are named, outputs stay put ------

@pytest.mark.parametrize("arguments", [
    ["d64", "add", "{image}", "{missing}"], ["d64", "list", "{missing}"],
    ["d64", "extract", "{missing}", "--all"],
    ["d64", "validate", "{missing}"], ["run", "{missing}"], ["tok", "{missing}"], ["screen", "{missing}"],
    ["disasm", "{prg}", "--labels", "{missing}"], ["disasm", "{prg}", "--symbols", "{missing}"],
    ["run", "{prg}", "--sys", "49152", "--roms", "{missing}"], ["asm", "{asm}", "-I", "{missing}"],
])  # fmt: skip
def test_a_missing_input_is_cannot_read_with_status_1(arguments: list[str], tmp_path: Path) -> None:
    files = {"image": tmp_path / "a.d64", "missing": tmp_path / "nothere", "prg": tmp_path / "a.prg",
             "asm": tmp_path / "a.asm"}
    c64tc("d64", "create", files["image"])
    files["prg"].write_bytes(_program("prints-a").to_bytes())
    files["asm"].write_text("*= $c000\n rts\n")
    result = c64tc(*[argument.format(**files) for argument in arguments])
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"{files['missing']}: error: ")
    assert "cannot read" in result.stderr or "not a folder" in result.stderr
    assert "Usage:" not in result.output


def test_d64_list_of_a_listing_names_its_kind(tmp_path: Path) -> None:
    listing = tmp_path / "demo.bas"
    listing.write_text('10 print "total:";\n20 for i=1 to 3: t=t+i*1.1: next\n30 print t\n')
    result = c64tc("d64", "list", listing)
    assert result.exit_code == 1
    assert result.stderr == (f"{listing}: error: {listing} is a BASIC listing (petcat text), not a disk "
                             f"image: `c64tc d64 add IMAGE {listing}` puts it on a disk, `c64tc tok "
                             f"{listing}` makes a PRG of it, `c64tc run {listing}` runs it\n")
    noise = tmp_path / "noise.bin"
    noise.write_bytes(bytes(range(256)) * 4)
    assert "not a disk image: 1024 bytes; a disk image has 174848 (d64)" in c64tc("d64", "list", noise).stderr


def test_tok_without_o_writes_beside_where_you_are_not_into_a_new_build_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    listing = tmp_path / "demo.bas"
    listing.write_text('10 print "hi"\n')
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    for command in (["tok", str(listing)], ["asm", str(REPO / "sources" / "superhirn2.asm"), "-q"]):
        assert c64tc(*command).exit_code == 0
    assert sorted(path.name for path in work.iterdir()) == ["demo.prg", "superhirn2.prg"]  # no build/
    # in a c64tc project: build/, beside what c64tc build makes
    (work / "sources").mkdir()
    (work / "sources" / "manifest.toml").write_text("")
    assert c64tc("tok", listing).exit_code == 0
    assert (work / "build" / "demo.prg").read_bytes() == (work / "demo.prg").read_bytes()
    # in its sources folder: nothing is written there
    monkeypatch.chdir(work / "sources")
    refused = c64tc("tok", listing)
    assert refused.exit_code == 2 and "c64tc writes nothing here; give -o FILE" in refused.output
    assert sorted(path.name for path in (work / "sources").iterdir()) == ["manifest.toml"]
    # over its own source: never (a Profi-Ass source saved as a PRG, x.prg, would give x.prg)
    monkeypatch.chdir(tmp_path)
    from toolchain.basic import tokenize_text

    saved = tokenize_text("100 *= $c000\n110 lda #1\n120 rts\n").to_bytes()  # as typed into Profi-Ass
    (tmp_path / "x.prg").write_bytes(saved)
    over = c64tc("asm", "x.prg")
    assert over.exit_code == 2 and "the output x.prg would replace the source: give -o FILE" in over.output
    assert (tmp_path / "x.prg").read_bytes() == saved


def test_an_output_into_a_folder_that_does_not_exist_is_an_error(tmp_path: Path) -> None:
    listing = tmp_path / "demo.bas"
    listing.write_text('10 print "hi"\n')
    for command in (["tok", listing, "-o", tmp_path / "nonexist" / "x.prg"],
                    ["asm", REPO / "sources" / "superhirn2.asm", "-o", tmp_path / "nonexist" / "x.prg"],
                    ["d64", "create", tmp_path / "nonexist" / "x.d64"]):
        result = c64tc(*command)
        assert result.exit_code == 1
        assert f"cannot write: the folder {tmp_path / 'nonexist'} does not exist" in result.stderr
        assert not (tmp_path / "nonexist").exists()
    # the folders c64tc makes on purpose: the build's --out, d64 extract -d (as mkdir -p, unzip -d)
    image = tmp_path / "a.d64"
    c64tc("d64", "create", image)
    c64tc("d64", "add", image, listing)
    assert c64tc("d64", "extract", image, "--all", "-d", tmp_path / "out" / "sub").exit_code == 0
    assert (tmp_path / "out" / "sub" / "demo.prg").is_file()


def test_d64_create_needs_a_format_its_name_does_not_say(tmp_path: Path) -> None:
    result = c64tc("d64", "create", tmp_path / "x.img")
    assert result.exit_code == 1
    assert "the name does not say which format (.d64, .d71 or .d81): give --format" in result.stderr
    assert not (tmp_path / "x.img").exists()
    assert c64tc("d64", "create", tmp_path / "x.img", "--format", "d81").exit_code == 0
    assert (tmp_path / "x.img").stat().st_size == 819200


def test_d64_create_on_a_folder_says_it_is_a_folder(tmp_path: Path) -> None:
    """`d64 create out` where out/ is a folder said "the image exists already (use --force
    to replace it)", which is no image and which --force cannot replace."""
    folder = tmp_path / "out.d64"
    folder.mkdir()
    for extra in ([], ["--force"], ["--format", "d64"]):
        result = c64tc("d64", "create", folder, *extra)
        assert result.exit_code == 1
        assert result.stderr == (f"{folder}: error: cannot write: it is a directory, not a regular file "
                                 "(c64tc only replaces regular files)\n")
    assert not any(folder.iterdir())


@pytest.mark.parametrize(("typed", "ours"), [
    (["write", "a.d64", "x.prg"], "c1541's -write here: c64tc d64 add IMAGE FILE"),
    (["read", "a.d64", "x"], "c1541's -read here: c64tc d64 extract IMAGE NAME"),
    (["format", "a.d64"], "c1541's -format here: c64tc d64 create IMAGE --name NAME --id ID"),
    (["dir", "a.d64"], "c1541's -dir here: c64tc d64 list IMAGE"),
    (["delete", "a.d64", "x"], "c1541's -delete here: c64tc d64 rm IMAGE NAME"),
    (["-list", "a.d64"], "c1541's -list here: c64tc d64 list IMAGE"),
    (["-write", "a.d64", "x.prg"], "c1541's -write here: c64tc d64 add IMAGE FILE"),
])  # fmt: skip
def test_c1541_command_names_say_which_d64_command_does_it(typed: list[str], ours: str) -> None:
    """`c64tc d64 read` answered "Did you mean one of: 'create', 'rename'?" (click's
    guess by spelling); c1541's names now get the command that does their work."""
    result = c64tc("d64", *typed)
    assert result.exit_code == 2
    assert ours in result.stderr
    assert "Did you mean" not in result.stderr


def test_d64_commands_of_the_same_names_as_c1541s_still_run(tmp_path: Path) -> None:
    image = tmp_path / "a.d64"
    assert c64tc("d64", "create", image).exit_code == 0
    assert c64tc("d64", "list", image).exit_code == 0
    assert c64tc("d64", "validate", image).exit_code == 0
    assert "Commands:" in c64tc("d64", "-h").stdout
    assert "No such command 'frobnicate'." in c64tc("d64", "frobnicate").stderr


def test_c1541s_name_comma_id_says_to_give_the_id_with_id(tmp_path: Path) -> None:
    """c1541's `-format "demo,42" d64 x.d64` typed as `--name demo,42` was "a disk name
    cannot contain * ? , : = or a quote", with no word of --id."""
    image = tmp_path / "x.d64"
    result = c64tc("d64", "create", image, "--name", "my disk,42")
    assert result.exit_code == 1
    assert result.stderr == ("--name: error: a disk name cannot contain a comma: c1541's \"NAME,ID\" is "
                             "--name 'my disk' --id 42 here\n")
    assert not image.exists()
    assert c64tc("d64", "create", image, "--name", "my disk", "--id", "42").exit_code == 0
    assert c64tc("d64", "list", image).stdout.startswith('0 "MY DISK         " 42 2A\n')


@pytest.mark.parametrize(("typed", "ours"), [
    (["tok", "-w2", "-o", "{out}", "--", "{bas}"], "petcat's -w2 here: none: c64tc knows BASIC V2 only"),
    (["tok", "-l", "1001", "{bas}"], "petcat's -l here: --load-address $1001"),
    (["detok", "-2", "{prg}"], "petcat's -2 here: none: c64tc knows BASIC V2 only"),
    (["detok", "-nh", "{prg}"], "petcat's -nh here: --no-header"),
    (["asm", "-L", "{out}", "{asm}"], "64tass's -L here: -l FILE (the listing"),
    (["asm", "--labels", "{out}", "{asm}"], "64tass's --labels here: --vice-labels FILE"),
    (["asm", "-b", "{asm}"], "64tass's -b here: --format raw"),
    (["asm", "-r", "{out}", "{asm}"], "ACME's -r here: -l FILE (the listing"),
    (["asm", "-f", "cbm", "{asm}"], "ACME's -f here: --format prg (its cbm, the default)"),
])  # fmt: skip
def test_petcats_64tasss_and_acmes_options_say_what_does_their_work(typed: list[str], ours: str,
                                                                     tmp_path: Path) -> None:
    """`tok -w2` (petcat's habit) said "No such option '-w'", `asm -L list.txt` (64tass's
    listing) "No such option '-L'": now each says what to write here."""
    files = {"out": tmp_path / "out.txt", "bas": tmp_path / "a.bas", "prg": tmp_path / "a.prg",
             "asm": tmp_path / "a.asm"}
    files["bas"].write_text('10 print "hi"\n')
    files["asm"].write_text("*= $c000\n rts\n")
    assert c64tc("tok", files["bas"], "-o", files["prg"]).exit_code == 0
    result = c64tc(*[word.format(**files) for word in typed])
    assert result.exit_code == 2
    assert ours in result.stderr
    assert not files["out"].exists()
    assert "No such option '--nope'.\n" in c64tc("asm", "--nope", files["asm"]).stderr  # others as before


def test_the_monitor_on_a_sys_stub_says_the_address_to_give(tmp_path: Path) -> None:
    """`c64tc monitor hello.prg` of 64tass's usual `10 SYS 2061` stub said "give --sys
    ADDRESS ..., or --break-line LINE", an option monitor has not; now it names the SYS
    address, and run for --break-line."""
    source = tmp_path / "hello.asm"
    source.write_text('        * = $0801\n        .word (+), 2024\n        .null $9e, format("%d", start)\n'
                      "+       .word 0\nstart   rts\n")
    prg = tmp_path / "hello.prg"
    assert c64tc("asm", source, "-o", prg, "--dialect", "64tass").exit_code == 0
    result = c64tc("monitor", prg)
    assert result.exit_code == 2
    assert (f"{prg} is a BASIC program; its line 2024 is SYS 2061: give --sys 2061 to follow the machine "
            f"code it starts (`c64tc run {prg} --break-line LINE` stops BASIC at a line)") in result.stderr
    assert c64tc("monitor", prg, "--sys", "2061", "--monitor-commands", "-", input="z\nx\n").exit_code == 0
    listing = tmp_path / "l.bas"
    listing.write_text("10 print 1\n")
    plain = c64tc("monitor", listing)
    assert plain.exit_code == 2
    assert "give --sys ADDRESS for machine code it holds (`c64tc run" in plain.stderr


def test_a_listing_in_upper_case_is_tokenized_as_petcat_does_with_a_warning(tmp_path: Path) -> None:
    """A listing copied in upper case (as a C64 lists it) became `10 PRRIGHT$NT "HELLO"`
    without a word: in petcat's format upper case is shifted letters.  It still is (the
    bytes petcat makes), but tok says so at the first keyword."""
    listing = tmp_path / "up.bas"
    listing.write_text('10 PRINT "HELLO"\n20 GOTO 10\n')
    result = c64tc("tok", listing, "-o", tmp_path / "up.prg")
    assert result.exit_code == 0
    assert result.stderr.startswith(f"{listing}:1:4: warning: 'PRINT' in upper case is shifted letters "
                                    "in petcat's format, not the keyword PRINT: a listing is typed in lower "
                                    "case")
    assert '10 PRINT "HELLO"\n   ^\n' in result.stderr
    lower = tmp_path / "low.bas"
    lower.write_text('10 print "HELLO {CBM-R}"\n20 goto 10\n')
    assert "warning" not in c64tc("tok", lower, "-o", tmp_path / "low.prg").stderr


def test_run_of_a_listing_in_upper_case_warns_as_tok_does(tmp_path: Path) -> None:
    """`c64tc run` of an upper-case listing ended in ?SYNTAX ERROR without a word on why;
    it now gives tok's warning at the first keyword (and runs what petcat's format makes
    of it, as a C64 would: RIGHT$'s shifted I in PRINT is a syntax error)."""
    listing = tmp_path / "up.bas"
    listing.write_text('10 PRINT "HELLO"\n20 GOTO 10\n')
    result = c64tc("run", listing, "--max-cycles", "200000")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{listing}:1:4: warning: 'PRINT' in upper case is shifted letters ")
    assert "?SYNTAX  ERROR IN 10" in result.stdout
    lower = tmp_path / "low.bas"
    lower.write_text('10 print "hello"\n')
    quiet = c64tc("run", lower)
    assert quiet.exit_code == 0 and "warning" not in quiet.stderr and "HELLO" in quiet.stdout


def test_disasm_of_a_sys_stub_says_where_the_machine_code_starts(tmp_path: Path) -> None:
    """`c64tc disasm hello.prg` of 64tass's `SYS 2061` stub disassembled the BASIC line as
    ANC, SLO, JAM... without a word; now a note names --start 2061."""
    source = tmp_path / "hello.asm"
    source.write_text('        * = $0801\n        .word (+), 2024\n        .null $9e, format("%d", start)\n'
                      "+       .word 0\nstart   rts\n")
    prg = tmp_path / "hello.prg"
    assert c64tc("asm", source, "-o", prg, "--dialect", "64tass").exit_code == 0
    result = c64tc("disasm", prg)
    assert result.exit_code == 0
    assert result.stderr == (f"{prg}: note: the program begins with BASIC, its line 2024 SYS 2061: "
                             "--start 2061 disassembles the machine code it starts\n")
    started = c64tc("disasm", prg, "--start", "2061")
    assert started.stderr == "" and started.stdout == ".C:080d  60        RTS\n"


def test_verify_without_a_name_lists_the_names() -> None:
    """`c64tc verify` alone said "Choose from:" and then nothing (the names are looked up
    late, and click's missing-argument message asked before they were)."""
    result = c64tc("verify")
    assert result.exit_code == 2
    assert "Choose from:\n\tstrategies,\n\tsuperhirn,\n\tsuperhirn3" in result.stderr


def test_build_vice_and_verify_outside_a_project_say_what_to_give(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a folder of one's own, `c64tc build` said only "sources/manifest.toml: cannot
    read", and `vice --check` / `verify superhirn` "not built yet: run c64tc build
    first", which cannot work there: now they say what the command wants."""
    monkeypatch.chdir(tmp_path)
    built = c64tc("build")
    assert built.exit_code == 1
    assert built.stderr.startswith("sources/manifest.toml: error: cannot read: no such file: c64tc build "
                                   "builds a c64tc project (run it in the folder you cloned c64tc into)")
    checked = c64tc("vice", "--check")
    assert checked.exit_code == 1
    assert checked.stderr == ("build/seeds.d64: error: no such file, and no c64tc project here to build "
                              "it (sources/manifest.toml): give TARGET (a disk image, a PRG or a BASIC "
                              "listing)\n")
    verified = c64tc("verify", "superhirn")
    assert verified.exit_code == 1 and "give --prg FILE (the built program)" in verified.stderr
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "manifest.toml").write_text("")
    assert c64tc("vice", "--check").stderr == "build/seeds.d64: error: not built yet: run c64tc build first\n"
    assert not (tmp_path / "build").exists()
