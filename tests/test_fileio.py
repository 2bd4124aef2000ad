"""Outputs never lose data: only regular files are replaced, atomically, several
files all or nothing, and a switch killed half way is undone by the next write."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

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
