"""'-' for standard input and output, and typed input from a pipe: the commands in a
shell pipeline, as real processes."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, play_on_terminal
from toolchain.basic import tokenize_text
from toolchain.cli.run import typed_lines_from
from toolchain.diagnostics import UserError
from toolchain.disk import Prg

MASTERMIND = tokenize_text((REPO / "sources" / "mastermind.bas").read_text(), "mastermind.bas")
NIKOLAUS_TEXT = (REPO / "sources" / "nikolaus.bas").read_text()


def c64tc(*args: str | Path, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "toolchain", *map(str, args)], input=stdin,
                          capture_output=True, cwd=REPO, timeout=120)


def test_typed_input_from_a_pipe_plays_mastermind(tmp_path: Path) -> None:
    """printf '3\\n3\\n--\\n++\\n+\\n+++\\n' | c64tc run mastermind.prg: one line per RETURN,
    the document's example game (secret 311)."""
    prg = tmp_path / "mastermind.prg"
    prg.write_bytes(MASTERMIND.to_bytes())
    result = c64tc("run", prg, stdin=b"3\n3\n--\n++\n+\n+++\n")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode().splitlines()
    assert lines[:11] == ["POSITIONS (2-6)? 3", "DIGITS (2-9)? 3", " 1 123", "ANSWER? --", " 2 211",
                          "ANSWER? ++", " 3 212", "ANSWER? +", " 4 311", "ANSWER? +++", "SOLVED IN 4 GUESSES"]
    # the pipe runs dry while the program waits: exit status 3, the transcript so far
    result = c64tc("run", prg, stdin=b"3\n3\n--\n")
    assert result.returncode == 3 and result.stdout.decode().splitlines()[-1] == "ANSWER?"


def test_a_piped_line_no_key_can_type_is_an_error() -> None:
    lines = typed_lines_from(io.StringIO("3\r\nx€\n"))
    assert lines() == "3"
    with pytest.raises(UserError) as error:
        lines()
    assert error.value.report() == "-:2:2: error: '€' cannot be typed on a C64 (no key gives it)\nx€\n ^"


def test_a_listing_through_tok_detok_and_run(tmp_path: Path) -> None:
    """cat nikolaus.bas | c64tc tok - | c64tc detok -, and c64tc run - reading the program."""
    tokenized = c64tc("tok", "-", stdin=NIKOLAUS_TEXT.encode())
    assert tokenized.returncode == 0 and tokenized.stdout == tokenize_text(NIKOLAUS_TEXT).to_bytes()
    assert tokenized.stderr.decode() == "standard output: $0801-$0B7F, 895 bytes (+2 load address)\n"
    text = c64tc("detok", "-", "-o", "-", stdin=tokenized.stdout)
    assert text.stdout.decode().splitlines()[2:4] == [";<stdin> ==0801==",  # as petcat names standard input
                                                      "  100 rem *** das haus vom nikolaus ***"]
    listing = b'10 input a\n20 print a*2\n'
    ran = c64tc("run", "-", "--input", "21", stdin=listing)  # the program from the pipe, typing from --input
    assert ran.returncode == 0 and ran.stdout.decode().splitlines()[:2] == ["? 21", " 42"]


def test_machine_code_through_mse_and_disasm(tmp_path: Path) -> None:
    """c64tc mse toprg dump -o - | c64tc mse fromprg - , and c64tc disasm -."""
    prg = c64tc("mse", "toprg", "sources/superhirn2.mse", "-o", "-")
    assert prg.returncode == 0 and prg.stdout[:2] == b"\x00\x34" and len(prg.stdout) == 526
    dump = c64tc("mse", "fromprg", "-", "--name", "superhirn ii", stdin=prg.stdout)
    assert dump.stdout.decode().splitlines()[0] == "PROGRAMM : SUPERHIRN II     3400 360C"
    listing = c64tc("disasm", "-", "--end", "$3402", stdin=prg.stdout)
    assert listing.stdout.decode().splitlines() == [".C:3400  A9 93     LDA #$93",
                                                    ".C:3402  20 D2 FF  JSR $FFD2"]


def test_a_wrong_kind_on_standard_input_is_named() -> None:
    result = c64tc("list", "-", stdin=Prg(0xC000, b"\x60").to_bytes())
    assert result.returncode == 1
    assert result.stderr.decode() == ("-: error: standard input is a machine-code PRG ($C000-$C000), not a "
                                      "BASIC program: `c64tc disasm -` shows its code, `c64tc run - --sys "
                                      "49152` runs it\n")


@pytest.mark.parametrize(("command", "wanted"), [("detok", "a BASIC program"), ("list", "a BASIC program"),
                                                  ("run", "a program (a PRG or a BASIC listing)")])
def test_nothing_on_standard_input_is_no_program(command: str, wanted: str) -> None:
    """c64tc tok bad.bas -o - | c64tc list -: the pipe brings nothing (tok failed), and
    list, as detok, says so with status 1 instead of listing an empty program."""
    result = c64tc(command, "-")
    assert (result.returncode, result.stdout) == (1, b"")
    assert result.stderr.decode() == f"-: error: standard input is an empty file, not {wanted}\n"


def test_nothing_on_standard_input_is_an_empty_listing_for_tok() -> None:
    """tok takes only listings: an empty one is the empty program, as petcat makes it."""
    result = c64tc("tok", "-", "-o", "-")
    assert result.returncode == 0 and result.stdout == b"\x01\x08\x00\x00"


def test_binary_output_is_refused_on_a_terminal(tmp_path: Path) -> None:
    """-o - and --raw write bytes to standard output only when it is not a terminal."""
    prg = tmp_path / "x.prg"
    prg.write_bytes(Prg(0xC000, b"\x60").to_bytes())
    status, shown = play_on_terminal(["run", str(prg), "--sys", "$c000", "--raw"], [])
    assert status == 2 and "--raw writes PETSCII bytes: redirect standard output" in shown[-1]


def test_ctrl_c_ends_a_piped_run_with_130_and_what_it_printed(tmp_path: Path) -> None:
    """SIGINT (Ctrl-C) is the user's stop, not an error: status 130 as a shell counts
    it, and the transcript so far, as a finished run prints it."""
    import os
    import signal
    import time

    from tests.pseudo_terminal import DEADLINE, cpu_seconds

    if cpu_seconds(os.getpid()) is None:
        pytest.skip("needs Linux's /proc to see that the run has started looping")
    listing = tmp_path / "loop.bas"
    listing.write_text('10 print "counting"\n20 i=i+1:goto 20\n', encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "toolchain", "run", str(listing)], cwd=REPO,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # started and looping: on a loaded machine Python's start alone can take seconds, so
    # wait for the child's own CPU time, not for a fixed while
    deadline = time.monotonic() + DEADLINE
    while (cpu_seconds(process.pid) or 0.0) < 1.5:
        assert process.poll() is None and time.monotonic() < deadline, "the run should loop"
        time.sleep(0.05)  # between two looks
    os.kill(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert stdout.decode().splitlines()[0] == "COUNTING"
    assert stderr.decode().splitlines()[-1].startswith("stopped by Ctrl-C at line 20: ")  # how far it got
    assert b"Traceback" not in stderr
