"""Concurrent changes to one image: every file reported added is on the disk."""

from __future__ import annotations

import fcntl
import multiprocessing
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path

import pytest

from toolchain.cli import main
from toolchain.diagnostics import UserError
from toolchain.disk import check, d64
from toolchain.disk.formats import D64

WRITERS = 4
ROUNDS = 6


def _contents(number: int) -> bytes:
    return bytes([0x01, 0x08]) + bytes([number]) * (3000 + 500 * number)


def _writer(folder: Path, number: int, start: Barrier, results: Queue) -> None:  # type: ignore[type-arg]
    """One process: in each round, when all are ready, add its file with the c64tc
    command line (forked, so the writers start together without starting Python)."""
    for round in range(ROUNDS):
        start.wait()
        try:
            main(["d64", "add", str(folder / f"disk{round}.d64"), str(folder / f"w{number}.prg")],
                 standalone_mode=False)
            results.put(("added", round, number))
        except SystemExit as exc:
            results.put(("failed", round, number, exc.code))


def test_concurrent_adds_all_land(tmp_path: Path) -> None:
    for number in range(WRITERS):
        (tmp_path / f"w{number}.prg").write_bytes(_contents(number))
    for round in range(ROUNDS):
        d64.create(tmp_path / f"disk{round}.d64", "race", "rc")
    context = multiprocessing.get_context("fork")
    start, results = context.Barrier(WRITERS), context.Queue()
    writers = [context.Process(target=_writer, args=(tmp_path, n, start, results)) for n in range(WRITERS)]
    for writer in writers:
        writer.start()
    reports = [results.get(timeout=60) for _ in range(WRITERS * ROUNDS)]
    for writer in writers:
        writer.join(timeout=60)
        assert writer.exitcode == 0
    for round in range(ROUNDS):
        image = tmp_path / f"disk{round}.d64"
        added = {r[2] for r in reports if r[0] == "added" and r[1] == round}
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
    monkeypatch.setattr(d64, "LOCK_TIMEOUT", 0.15)
    monkeypatch.setattr(d64, "LOCK_NOTICE_AFTER", 0.05)
    with open(image, "rb") as holder:
        fcntl.flock(holder, fcntl.LOCK_EX)  # another writer holds the image
        with pytest.raises(UserError, match="another process is changing the image .* is unchanged"):
            d64.add(image, "late", b"\x01\x08\x00")
    assert "waiting for another process to finish changing the image" in capsys.readouterr().err
    assert image.read_bytes() == before
    d64.add(image, "late", b"\x01\x08\x00")  # free again
    assert d64.extract(image, "late") == b"\x01\x08\x00"
