"""Outputs never lose data: only regular files are replaced, atomically, several
files all or nothing, and a switch killed half way is undone by the next write."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from toolchain import fileio
from toolchain.cli import main
from toolchain.diagnostics import UserError
from toolchain.fileio import FileSet, recover, write_atomic

SOURCE = "*= $c000\nlda #1\nrts\n"


def test_write_atomic_replaces_a_regular_file_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "out.prg"
    target.write_bytes(b"old")
    target.chmod(0o640)
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["out.prg"]  # no temporary left behind


@pytest.mark.parametrize("kind", ["directory", "fifo", "device"])
def test_write_atomic_refuses_what_is_not_a_regular_file(tmp_path: Path, kind: str) -> None:
    if kind == "directory":
        target = tmp_path / "out"
        target.mkdir()
    elif kind == "fifo":
        target = tmp_path / "out"
        os.mkfifo(target)
    else:
        target = Path("/dev/full")
        if not target.is_char_device():
            pytest.skip("/dev/full is not a character device here")
    with pytest.raises(UserError, match="not a regular file"):
        write_atomic(target, b"x")
    if kind == "device":
        assert target.is_char_device()
    else:
        assert not target.is_file()


def test_a_symlink_is_written_through_to_its_target(tmp_path: Path) -> None:
    real = tmp_path / "real.prg"
    real.write_bytes(b"old")
    link = tmp_path / "link.prg"
    link.symlink_to(real)
    write_atomic(link, b"new")
    assert link.is_symlink()
    assert real.read_bytes() == b"new"


def test_a_read_only_file_is_not_replaced(tmp_path: Path) -> None:
    target = tmp_path / "out.prg"
    target.write_bytes(b"old")
    target.chmod(0o444)
    with pytest.raises(UserError, match="read-only"):
        write_atomic(target, b"new")
    assert target.read_bytes() == b"old"


def test_file_set_rolls_back_when_a_rename_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second, third = (tmp_path / name for name in ("a.prg", "b.lst", "c.labels"))
    first.write_bytes(b"old a")
    second.write_bytes(b"old b")
    real_replace = os.replace
    calls = []

    def failing_replace(source: str | Path, target: str | Path) -> None:
        calls.append(target)
        if len(calls) == 3:  # the third file's switch fails
            raise OSError(28, "No space left on device")
        real_replace(source, target)

    monkeypatch.setattr(fileio.os, "replace", failing_replace)
    with pytest.raises(UserError, match="No space left"):
        FileSet({first: b"new a", second: b"new b", third: b"new c"}).commit()
    monkeypatch.setattr(fileio.os, "replace", real_replace)
    assert first.read_bytes() == b"old a"
    assert second.read_bytes() == b"old b"
    assert not third.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.prg", "b.lst"]


def test_a_killed_switch_is_undone_by_the_next_write(tmp_path: Path) -> None:
    """A journal left by a dead process: its backups go back, its new files go away."""
    old = tmp_path / "a.prg"
    old.write_bytes(b"new a (switched before the kill)")
    backup = tmp_path / ".a.prg.c64tc-backup"
    backup.write_bytes(b"old a")
    created = tmp_path / "b.prg"
    created.write_bytes(b"new b, did not exist before")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()
    journal = tmp_path / f".c64tc-journal-{dead}-1.json"
    journal.write_text(json.dumps({"files": [{"target": str(old), "backup": str(backup)},
                                             {"target": str(created), "backup": None}]}))
    recover(tmp_path)
    assert old.read_bytes() == b"old a"
    assert not created.exists() and not backup.exists() and not journal.exists()


def test_asm_writes_program_listing_and_labels_together(tmp_path: Path) -> None:
    source = tmp_path / "x.asm"
    source.write_text(SOURCE)
    program = tmp_path / "x.prg"
    program.write_bytes(b"previous program")
    blocked = tmp_path / "listing"
    os.mkfifo(blocked)  # the listing cannot be written: nothing may be
    result = CliRunner().invoke(main, ["asm", str(source), "-o", str(program), "-l", str(blocked)])
    assert result.exit_code == 1
    assert "not a regular file" in result.output
    assert program.read_bytes() == b"previous program"
    result = CliRunner().invoke(main, ["asm", str(source), "-o", str(program), "-l",
                                       str(tmp_path / "x.lst"), "--vice-labels", str(tmp_path / "x.lbl")])
    assert result.exit_code == 0, result.output
    assert program.read_bytes() == bytes([0x00, 0xC0, 0xA9, 0x01, 0x60])
    assert "C000  A9 01     lda #1" in (tmp_path / "x.lst").read_text()


# -- issue 21's fuzz findings: files and paths ----------------------------------------------------

@pytest.fixture
def inputs(tmp_path: Path) -> dict[str, Path]:
    """A listing, a source, a PRG, an MSE dump, a disk with a file, a screen dump."""
    from toolchain import mse
    from toolchain.disk import d64

    files = {"bas": tmp_path / "p.bas", "asm": tmp_path / "a.asm", "prg": tmp_path / "p.prg",
             "mse": tmp_path / "p.mse", "d64": tmp_path / "p.d64", "screen": tmp_path / "screen.bin"}
    files["bas"].write_text('10 print "hi"\n')
    files["asm"].write_text(SOURCE)
    files["prg"].write_bytes(bytes([0x00, 0xC0, 0xA9, 0x01, 0x60]))
    data = bytes([0xA9, 0x01, 0x60])
    files["mse"].write_text(f"C000 : A9 01 60   {mse.checksum(0xC000, data):02X}\n")
    d64.create(files["d64"], "test", "ab")
    d64.add(files["d64"], "p", files["prg"].read_bytes())
    files["screen"].write_bytes(b"\x00\x04" + bytes(1000))
    return files


# every writer, with OUT where its output goes
WRITERS = {
    "asm": ["asm", "{asm}", "-o", "OUT"],
    "tok": ["tok", "{bas}", "-o", "OUT"],
    "disasm": ["disasm", "{prg}", "-o", "OUT"],
    "mse toprg": ["mse", "toprg", "{mse}", "-o", "OUT"],
    "mse fromprg": ["mse", "fromprg", "{prg}", "-o", "OUT"],
    "d64 create": ["d64", "create", "OUT", "--force", "--format", "d64"],
    "d64 extract": ["d64", "extract", "{d64}", "p", "-o", "OUT"],
    "screen": ["screen", "{screen}", "-o", "OUT"],
    "run --printer": ["run", "{bas}", "--printer", "OUT"],
    "run --screenshot": ["run", "{bas}", "--screenshot", "OUT"],
    "run --audio": ["run", "{bas}", "--audio", "OUT"],
}


def _invoke(arguments: list[str], inputs: dict[str, Path], out: str) -> Result:
    return CliRunner().invoke(main, [out if a == "OUT" else a.format(**inputs) for a in arguments])


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_dangling_symlink_is_written_through_only_into_an_existing_folder(
        writer: str, inputs: dict[str, Path], tmp_path: Path) -> None:
    """Issue 21: writing through a link to nowhere/sub/x created nowhere/sub."""
    link = tmp_path / "out.link"
    link.symlink_to("nowhere/sub/x")
    result = _invoke(WRITERS[writer], inputs, str(link))
    assert result.exit_code == 1, result.output
    assert "is a symbolic link to" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "nowhere").exists()
    (tmp_path / "there").mkdir()  # into a folder that exists: written through
    link.unlink()
    link.symlink_to("there/x")
    assert _invoke(WRITERS[writer], inputs, str(link)).exit_code == 0
    assert (tmp_path / "there" / "x").is_file()


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_an_output_name_too_long_for_the_file_system_is_a_message(
        writer: str, inputs: dict[str, Path], tmp_path: Path) -> None:
    """Issue 21: a name over 255 bytes was an `OSError: File name too long` traceback."""
    result = _invoke(WRITERS[writer], inputs, str(tmp_path / ("x" * 300)))
    assert result.exit_code == 1 and not isinstance(result.exception, OSError)
    assert "cannot write: a name in the path is too long for the file system (at most 255 bytes a " \
        "name)" in result.output
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith(".")] == []


@pytest.mark.parametrize("case", ["manifest source", "include", "include folder", "roms folder"])
def test_a_name_too_long_for_the_file_system_looked_up_is_a_message(case: str, tmp_path: Path) -> None:
    """A name over 255 bytes looked for (a manifest's source, an .include, -I, --roms):
    Path.is_file raised `OSError: File name too long` (tests/test_fuzz.py found it in a
    manifest); now it is not found, as any missing name."""
    long_name = "x" * 300
    source = tmp_path / "a.asm"
    source.write_text(f'*=$c000\n.include "{long_name}.asm"\n rts\n' if case == "include" else SOURCE)
    if case == "manifest source":
        manifest = tmp_path / "manifest.toml"
        manifest.write_text(f'[disk]\nname = "t"\nid = "ab"\nfile = "t.d64"\n\n[[program]]\nname = "a"\n'
                            f'kind = "asm"\nsources = ["{long_name}.asm"]\n')
        arguments = ["build", "--manifest", str(manifest), "--out", str(tmp_path / "build")]
        expected = "not found"
    elif case == "include":
        arguments, expected = ["asm", str(source), "-o", str(tmp_path / "a.prg")], "not found"
    elif case == "include folder":
        arguments = ["asm", str(source), "-I", str(tmp_path / long_name), "-o", str(tmp_path / "a.prg")]
        expected = "no such folder"
    else:
        listing = tmp_path / "p.bas"
        listing.write_text('10 print "hi"\n')
        arguments, expected = ["run", str(listing), "--roms", str(tmp_path / long_name)], "not a folder"
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 1 and not isinstance(result.exception, OSError), result.output
    assert expected in result.output and "Traceback" not in result.output


def test_a_name_that_fits_is_written_however_long(tmp_path: Path) -> None:
    """The temporary file and the backup beside a target have names of their own: they
    must fit where the target's fits (a 250-byte name was 'File name too long')."""
    first, second = tmp_path / ("a" * 255), tmp_path / ("a" * 254 + "b")
    first.write_bytes(b"old")
    write_atomic(first, b"new")
    FileSet({first: b"newer", second: b"also"}).commit()  # with a backup of the first
    assert (first.read_bytes(), second.read_bytes()) == (b"newer", b"also")
    assert sorted(path.name for path in tmp_path.iterdir()) == [first.name, second.name]


@pytest.mark.parametrize("arguments", [
    ["d64", "list", "{fifo}"], ["d64", "validate", "/dev/zero"], ["run", "{bas}", "--disk", "/dev/zero"],
    ["run", "{bas}", "--disk", "{fifo}"], ["tok", "{fifo}"], ["disasm", "/dev/zero"], ["run", "{fifo}:p"]],
    ids=lambda arguments: " ".join(arguments))
def test_an_input_that_is_no_regular_file_is_refused_not_waited_for(
        arguments: list[str], inputs: dict[str, Path], tmp_path: Path) -> None:
    """Issue 21: a FIFO nobody writes to, or /dev/zero, given as an image or an input
    hung c64tc (in its own process here: a hang fails the test at the timeout)."""
    fifo = tmp_path / "fifo.d64"
    os.mkfifo(fifo)
    command = [sys.executable, "-m", "toolchain", *(a.format(fifo=fifo, **inputs) for a in arguments)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert result.returncode == 1, result.stderr
    assert "not a regular file" in result.stderr and "Traceback" not in result.stderr


def test_an_input_larger_than_any_c64_file_is_not_read_whole(tmp_path: Path) -> None:
    huge = tmp_path / "huge.bas"
    with open(huge, "wb") as handle:
        handle.truncate(fileio.MAX_INPUT + 1)  # sparse: no disk space used
    with pytest.raises(UserError, match="larger than 16,777,216 bytes"):
        fileio.read_bytes(huge)


def test_screenshot_without_a_name_is_a_usage_error(inputs: dict[str, Path]) -> None:
    """Issue 21: `--screenshot '' --screenshot-every N` was a ValueError traceback."""
    result = CliRunner().invoke(main, ["run", str(inputs["bas"]), "--screenshot", "",
                                       "--screenshot-every", "1"])
    assert result.exit_code == 2 and "--screenshot '' names no file" in result.output


def test_audio_without_a_name_is_a_usage_error(inputs: dict[str, Path], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """`--audio ''` was ".: error: cannot write: it is a directory", after the whole
    run: the empty value became the folder's name.  Said before the run, as for
    --screenshot."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["run", str(inputs["bas"]), "--no-roms", "--audio", ""])
    assert result.exit_code == 2 and "--audio '' names no file: give NAME.wav" in result.output
    assert ".: error" not in result.output


def test_a_failed_screenshot_leaves_no_frames(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: when the final picture could not be written, the numbered frames
    written during the run stayed.  They are written with it, all or none."""
    from toolchain.cli import run

    listing = tmp_path / "loop.bas"
    listing.write_text('10 for i=1 to 20:print i:next\n')
    shot = tmp_path / "shot.png"
    final = run.Pictures.final

    def final_into_a_folder(self: run.Pictures, stop: object = None) -> None:
        shot.mkdir()  # the final picture's place became a folder during the run
        final(self, stop)  # type: ignore[arg-type]

    monkeypatch.setattr(run.Pictures, "final", final_into_a_folder)
    result = CliRunner().invoke(main, ["run", str(listing), "--screenshot", str(shot),
                                       "--screenshot-every", "5"])
    assert result.exit_code == 1 and "it is a directory" in result.output
    assert sorted(path.name for path in tmp_path.iterdir()) == ["loop.bas", "shot.png"]
    shot.rmdir()
    monkeypatch.setattr(run.Pictures, "final", final)
    result = CliRunner().invoke(main, ["run", str(listing), "--screenshot", str(shot),
                                       "--screenshot-every", "5"])
    assert result.exit_code == 0, result.output
    assert sorted(path.name for path in tmp_path.iterdir())[:2] == ["loop.bas", "shot-0001.png"]


def _dead_pid() -> str:
    return subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()


def test_a_killed_switch_is_undone_by_the_next_command_that_reads_the_folder(tmp_path: Path) -> None:
    """Issue 21: a SIGKILL during the build's renames left build/ mixed until a later
    write into it; a command that only reads from build/ saw the mix."""
    build = tmp_path / "build"
    build.mkdir()
    program, disk = build / "p.prg", build / "p.d64"
    program.write_bytes(bytes([0x00, 0xC0, 0x60]))  # switched in before the kill: the new program
    backup = build / ".p.prg.c64tc-backup"
    backup.write_bytes(bytes([0x00, 0xC0, 0xEA, 0x60]))  # the old one
    from toolchain.disk import d64

    d64.create(disk, "old", "ab")  # not switched yet: still the old disk
    journal = build / f".c64tc-journal-{_dead_pid()}-1.json"
    journal.write_text(json.dumps({"files": [{"target": str(program), "backup": str(backup)},
                                             {"target": str(disk), "backup": str(disk)}]}))
    result = CliRunner().invoke(main, ["disasm", str(program)])
    assert result.exit_code == 0, result.output
    assert "NOP" in result.output.upper()  # the old program, as the old disk beside it
    assert program.read_bytes() == bytes([0x00, 0xC0, 0xEA, 0x60]) and not journal.exists()


def test_temporary_files_of_a_killed_process_are_removed(tmp_path: Path) -> None:
    stale = tmp_path / f".x.prg.{_dead_pid()}-abcd1234.c64tc-tmp"
    stale.write_bytes(b"half")
    mine = tmp_path / f".y.prg.{os.getpid()}-abcd1234.c64tc-tmp"  # a FileSet of this process stages
    mine.write_bytes(b"staged")
    recover(tmp_path)
    assert not stale.exists() and mine.exists()


@pytest.mark.parametrize("command", [
    ["asm", "{asm}", "-o", "{asm}"],
    ["asm", "{asm}", "-o", "{prg}", "-l", "{asm}"],
    ["tok", "{bas}", "-o", "{bas}"],
    ["detok", "{prg}", "-o", "{prg}"],
    ["disasm", "{prg}", "-o", "{prg}"],
    ["mse", "fromprg", "{prg}", "-o", "{prg}"],
    ["mlx", "fromprg", "{prg}", "-o", "{prg}"],
    ["d64", "extract", "{d64}", "p", "-o", "{d64}"],
    ["disasm", "{d64}:p", "-o", "{d64}"],
    ["screen", "{scr}", "-o", "{scr}"],
    ["run", "{prg}", "--screenshot", "{prg}"],
    ["run", "{prg}", "--screenshot", "{txt}", "--screenshot-every", "100", "--film", "{prg}"],
    ["run", "{prg}", "--printer", "{prg}"],
    ["run", "{prg}", "--audio", "{prg}"],
    ["run", "{bas}", "--screenshot", "{bas}"],
    ["run", "{d64}:p", "--screenshot", "{d64}"],
    ["run", "{prg}", "--disk", "{d64}", "--printer", "{d64}"],
    ["run", "{prg}", "--input-file", "{txt}", "--audio", "{txt}"],
    ["run", "{prg}", "--sys", "$c000", "--monitor-commands", "{txt}", "--screenshot", "{txt}"],
    ["run", "{prg}", "--sys", "$c000", "--monitor-commands", "{scr}", "--labels", "{txt}", "--printer",
     "{txt}"],
    ["vice", "{prg}", "--check", "--screenshot", "{prg}"],
    ["vice", "{d64}:p", "--check", "--audio", "{d64}"],
    ["vice", "{prg}", "--check", "--expect-screen", "{txt}", "--screenshot", "{txt}"],
])
def test_an_output_that_is_its_own_input_is_refused_and_the_input_kept(tmp_path: Path,
                                                                      command: list[str]) -> None:
    """As GCC refuses ``-o`` onto its input: the command ends with status 1 and a message
    naming the file, which keeps its bytes (a PRG written over the source, a file over
    the disk image it came from, were lost data)."""
    repo = Path(__file__).resolve().parent.parent
    files = {"asm": tmp_path / "a.asm", "bas": tmp_path / "p.bas", "prg": tmp_path / "p.prg",
             "d64": tmp_path / "s.d64", "scr": tmp_path / "screen.txt", "txt": tmp_path / "text.txt"}
    files["asm"].write_bytes((repo / "sources" / "superhirn2.asm").read_bytes())
    files["bas"].write_bytes((repo / "sources" / "mastermind.bas").read_bytes())
    files["scr"].write_bytes(bytes(1000))  # a screen of @, its output rendered as text
    files["txt"].write_text("x\n")  # typed input, monitor commands, an expected screen...
    assert CliRunner().invoke(main, ["tok", str(files["bas"]), "-o", str(files["prg"])]).exit_code == 0
    assert CliRunner().invoke(main, ["d64", "create", str(files["d64"])]).exit_code == 0
    assert CliRunner().invoke(main, ["d64", "add", str(files["d64"]), str(files["prg"])]).exit_code == 0
    before = {name: path.read_bytes() for name, path in files.items()}
    arguments = [part.format(**{name: str(path) for name, path in files.items()}) for part in command]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 1, result.output
    assert "error: cannot write: it is the input" in result.output and "Traceback" not in result.output
    assert {name: path.read_bytes() for name, path in files.items()} == before


@pytest.mark.parametrize(("dialect", "main_source", "output_option"), [
    ("profi", '*= $c000\n.include "inc.asm"\n lda #1\n jsr chrout\n rts\n', "--vice-labels"),
    ("profi", '*= $c000\n.include "inc.asm"\n lda #1\n jsr chrout\n rts\n', "-o"),
    ("profi", '*= $c000\n.binary "inc.asm"\n', "-l"),
    ("64tass", '\t.cpu "6502"\n* = $c000\n\t.include "inc.asm"\n\tjsr chrout\n', "--symbols"),
    ("acme", '!source "inc.asm"\n*= $c000\n jsr chrout\n', "-o"),
])
def test_an_output_onto_a_file_the_source_includes_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               dialect: str, main_source: str,
                                                               output_option: str) -> None:
    """An included source or binary is an input as much as the main source: writing the
    labels, the listing or the program over it lost the file."""
    monkeypatch.chdir(tmp_path)  # (ACME looks for relative names in the current folder)
    included = tmp_path / "inc.asm"
    included.write_text("chrout = $ffd2\n")
    source = tmp_path / "main.asm"
    source.write_text(main_source)
    arguments = ["asm", str(source), "--dialect", dialect, "-o", str(tmp_path / "out.prg")]
    if output_option == "-o":
        arguments[-1] = str(included)
    else:
        arguments += [output_option, str(included)]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 1, result.output
    assert f"{included}: error: cannot write: it is the input " in result.output
    assert "inc.asm, which the output would replace" in result.output
    assert included.read_text() == "chrout = $ffd2\n" and not (tmp_path / "out.prg").exists()


def test_screenshot_every_writes_at_most_its_limit_of_pictures(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A picture every few cycles of an endless program is bounded: the first
    MAX_NUMBERED_PICTURES are written, a warning says the rest were not, and the final
    picture is still there."""
    from toolchain.cli import run

    monkeypatch.setattr(run, "MAX_NUMBERED_PICTURES", 3)
    listing = tmp_path / "loop.bas"
    listing.write_text('10 print "x";:goto 10\n')
    shot = tmp_path / "shot.png"
    result = CliRunner().invoke(main, ["run", str(listing), "--screenshot", str(shot), "--screenshot-every",
                                       "2", "--max-statements", "50"])
    assert result.exit_code == 2, result.output  # the statement limit
    assert "warning: --screenshot-every: 3 pictures written; the run goes on without more" in result.output
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "loop.bas", "shot-0001.png", "shot-0002.png", "shot-0003.png", "shot.png"]


def test_sigterm_ends_a_run_with_143_and_leaves_no_temporary_files(tmp_path: Path) -> None:
    """`timeout` and `kill` send SIGTERM: the run ends as after Ctrl-C, and the pictures
    waiting as temporary files are removed (killed outright, a run left them behind)."""
    import signal
    import time

    listing = tmp_path / "loop.bas"
    listing.write_text('10 poke 53280,i and 15:i=i+1:goto 10\n')
    child = subprocess.Popen([sys.executable, "-m", "toolchain", "run", str(listing), "--screenshot",
                              str(tmp_path / "s.png"), "--screenshot-every", "20"],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not any(path.name.startswith(".s-") for path in tmp_path.iterdir()):  # pictures are waiting
        assert child.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    child.send_signal(signal.SIGTERM)
    assert child.wait(timeout=60) == 143
    assert sorted(path.name for path in tmp_path.iterdir()) == ["loop.bas"]


def test_a_printer_file_that_cannot_be_written_is_refused_before_the_run(tmp_path: Path) -> None:
    """--printer into a folder that does not exist: status 1 at once, as --screenshot
    and --film are (it was found only after the whole run, an endless one never)."""
    listing = tmp_path / "loop.bas"
    listing.write_text('10 print "hi"\n20 goto 20\n')
    paper = tmp_path / "nowhere" / "paper.txt"
    result = CliRunner().invoke(main, ["run", str(listing), "--printer", str(paper)])
    assert result.exit_code == 1, result.output
    assert f"{paper}: error: cannot write: the folder {paper.parent} does not exist" in result.output
    assert "hi" not in result.output  # the program did not run


def test_a_command_run_in_process_gives_back_the_callers_sigterm_handler() -> None:
    """The command group turns SIGTERM into an exit while it runs (see above), then puts
    back what the caller had (a test run's later tests saw c64tc's handler)."""
    import signal

    before = signal.getsignal(signal.SIGTERM)
    assert CliRunner().invoke(main, ["--version"]).exit_code == 0
    result = CliRunner().invoke(main, ["mse", "check", "/nonexistent.mse"])
    assert result.exit_code == 1
    assert signal.getsignal(signal.SIGTERM) == before


@pytest.mark.parametrize("command", [
    ["asm", "SRC", "-o", "out/"], ["asm", "SRC", "-o", "x.prg", "--symbols", "out/"],
    ["tok", "LISTING", "-o", "out/"], ["run", "LISTING", "--screenshot", "out/"],
    ["run", "LISTING", "--audio", "out/"], ["run", "LISTING", "--film", "out/"]])
def test_an_output_named_as_a_folder_is_refused_not_written_without_its_slash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    """``-o out/`` names a folder: Path() would drop the slash and write a file ``out``."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.asm").write_text(SOURCE)
    (tmp_path / "a.bas").write_text('10 print "hi"\n')
    arguments = [{"SRC": "a.asm", "LISTING": "a.bas"}.get(word, word) for word in command]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 1, result.output
    assert "out/: error: cannot write: the name ends in a slash" in result.output
    assert not (tmp_path / "out").exists()


def test_a_signal_just_after_a_temporary_is_made_leaves_nothing_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGTERM ends a run at whatever statement it comes (as sys.exit): one that came
    just after the file was made, before it was recorded, left it behind (the CI's
    SIGTERM test met it once).  Now the name is recorded first and the file removed."""
    made: list[str] = []
    real_open = os.open

    def open_then_signal(path: str, flags: int, mode: int = 0o777) -> int:
        descriptor = real_open(path, flags, mode)
        made.append(str(path))
        os.close(descriptor)
        raise SystemExit(143)

    files = FileSet()
    monkeypatch.setattr(fileio.os, "open", open_then_signal)
    with pytest.raises(SystemExit):
        files.stage(tmp_path / "picture.png", b"data")
    monkeypatch.undo()
    assert made  # the file was made before the "signal"
    files.discard()
    assert list(tmp_path.iterdir()) == []
