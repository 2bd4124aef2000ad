"""Concurrent changes to one image: every file reported added is on the disk."""

from __future__ import annotations

import fcntl
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import REPO
from toolchain.diagnostics import UserError
from toolchain.disk import check, d64
from toolchain.disk.formats import D64

WRITERS = 4
ROUNDS = 4

# Each writer waits for a round's start signal, then adds its file with the c64tc
# command line (in-process, so the writers start together and Python starts once).
_WRITER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from toolchain.cli import main
    folder, number, rounds = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    print("ready", flush=True)
    for round in range(rounds):
        while not (folder / f"go{round}").exists():
            time.sleep(0.002)
        try:
            main(["d64", "add", str(folder / f"disk{round}.d64"), str(folder / f"w{number}.prg")],
                 standalone_mode=False)
            print(f"added {round} {number}", flush=True)
        except SystemExit as exc:
            print(f"failed {round} {number} {exc.code}", flush=True)
""")


def _contents(number: int) -> bytes:
    return bytes([0x01, 0x08]) + bytes([number]) * (3000 + 500 * number)


def test_concurrent_adds_all_land(tmp_path: Path) -> None:
    for number in range(WRITERS):
        (tmp_path / f"w{number}.prg").write_bytes(_contents(number))
    for round in range(ROUNDS):
        d64.create(tmp_path / f"disk{round}.d64", "race", "rc")
    writers = [subprocess.Popen([sys.executable, "-c", _WRITER, str(tmp_path), str(n), str(ROUNDS)],
                                cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for n in range(WRITERS)]
    assert [w.stdout.readline() for w in writers] == ["ready\n"] * WRITERS  # type: ignore[union-attr]
    reports = []
    for round in range(ROUNDS):
        (tmp_path / f"go{round}").touch()  # all four start at once
        reports += [w.stdout.readline().split() for w in writers]  # type: ignore[union-attr]
    errors = [w.communicate(timeout=60)[1] for w in writers]
    assert all(w.returncode == 0 for w in writers), errors
    for round in range(ROUNDS):
        image = tmp_path / f"disk{round}.d64"
        added = {int(r[2]) for r in reports if r[0] == "added" and int(r[1]) == round}
        assert added == set(range(WRITERS)), reports  # nobody had to give up
        report = check.check(image.read_bytes(), D64)
        assert not report.problems
        for number in added:
            assert d64.extract(image, f"w{number}") == _contents(number)


def test_a_change_waits_for_the_lock_then_gives_up_with_a_message(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    image = tmp_path / "held.d64"
    d64.create(image, "held", "hd")
    before = image.read_bytes()
    monkeypatch.setattr(d64, "LOCK_TIMEOUT", 0.3)
    monkeypatch.setattr(d64, "LOCK_NOTICE_AFTER", 0.1)
    with open(image, "rb") as holder:
        fcntl.flock(holder, fcntl.LOCK_EX)  # another writer holds the image
        with pytest.raises(UserError, match="another process is changing the image .* is unchanged"):
            d64.add(image, "late", b"\x01\x08\x00")
    assert "waiting for another process to finish changing the image" in capsys.readouterr().err
    assert image.read_bytes() == before
    d64.add(image, "late", b"\x01\x08\x00")  # free again
    assert d64.extract(image, "late") == b"\x01\x08\x00"
