"""Damaged disk images, made here: every command refuses cleanly or leaves every
other file intact, and ``c64tc d64 validate`` agrees with d64-fsck."""

from __future__ import annotations

import contextlib
import io
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from d64 import DiskImage  # type: ignore[import-untyped]

from toolchain.c64.drive import Drive
from toolchain.cli import main
from toolchain.disk import check, d64
from toolchain.disk.formats import D64

Damage = Callable[[bytearray, dict[str, check.FileEntry]], None]


def _contents(number: int, size: int) -> bytes:
    return bytes([0x01, 0x08]) + bytes((number * 37 + i * 11) & 0xFF for i in range(size))


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """Ten files (the directory takes two blocks, 18/1 and 18/4) and a REL file."""
    path = tmp_path_factory.mktemp("base") / "base.d64"
    d64.create(path, "damage", "dm")
    sizes = [700, 900, 300, 40, 40, 40, 40, 40, 40]
    d64.add_files(path, [d64.NewFile(name, _contents(n, size))
                         for n, (name, size) in enumerate(zip("abcdefghi", sizes, strict=True))])
    with DiskImage(path, "w") as image:  # the d64 package writes the REL file
        with image.path(b"R").open("w", ftype="REL", record_len=50) as handle:
            handle.write(bytes(range(200)) * 3)
    data = path.read_bytes()
    assert not check.check(data, D64).problems
    return data


def _offset(block: tuple[int, int]) -> int:
    return D64.block_offset(*block)


def _link(data: bytearray, block: tuple[int, int], to: tuple[int, int]) -> None:
    data[_offset(block) : _offset(block) + 2] = bytes(to)


def _bam_all_free(data: bytearray, files: dict[str, check.FileEntry]) -> None:
    for track in range(1, 36):
        D64.write_bam_entry(data, track, set(range(D64.sectors[track - 1])))


def _bam_count_wrong(data: bytearray, files: dict[str, check.FileEntry]) -> None:
    data[_offset((18, 0)) + 4 + 16 * 4] = 21  # track 17 claims all its blocks free


def _directory_too_long(data: bytearray, files: dict[str, check.FileEntry]) -> None:
    """The directory runs on through empty blocks on track 19 and 20 (20 blocks)."""
    chain = [(18, 1), (18, 4)] + [(19, s) for s in range(10)] + [(20, s) for s in range(8)]
    for block, following in zip(chain, chain[1:], strict=False):
        _link(data, block, following)
    for block in chain[2:]:
        data[_offset(block) + 2 : _offset(block) + 256] = bytes(254)
        track, sector = block
        free = check.check(bytes(data), D64).free_sectors(track) - {sector}
        D64.write_bam_entry(data, track, free)


def _rel_side_sector(data: bytearray, files: dict[str, check.FileEntry]) -> None:
    side = files["R"].side_sectors[0]
    data[_offset(side) + 0x10] = 0  # its first data block link is gone


DAMAGES: dict[str, Damage] = {
    "bam all free": _bam_all_free,
    "bam count wrong": _bam_count_wrong,
    "cross-linked files": lambda d, f: _link(d, f["B"].chain[0], f["A"].chain[1]),
    "file starts in another file": lambda d, f: d.__setitem__(
        slice(f["C"].entry_offset + 3, f["C"].entry_offset + 5), bytes(f["A"].chain[0])),
    "directory loops on itself": lambda d, f: _link(d, (18, 1), (18, 1)),
    "directory loops back": lambda d, f: _link(d, (18, 4), (18, 1)),
    "directory links to the BAM": lambda d, f: _link(d, (18, 4), (18, 0)),
    "directory leaves the disk": lambda d, f: _link(d, (18, 1), (41, 0)),
    "directory too long": _directory_too_long,
    "file chain loops": lambda d, f: _link(d, f["A"].chain[1], f["A"].chain[0]),
    "file chain into track 0": lambda d, f: _link(d, f["B"].chain[1], (0, 0)),
    "file starts on track 0": lambda d, f: d.__setitem__(f["C"].entry_offset + 3, 0),
    "file chain into track 36": lambda d, f: _link(d, f["B"].chain[1], (36, 0)),
    "file chain into sector 21 of track 17": lambda d, f: _link(d, f["B"].chain[1], (17, 21)),
    "file starts on track 40": lambda d, f: d.__setitem__(
        slice(f["A"].entry_offset + 3, f["A"].entry_offset + 5), bytes([40, 3])),
    "PRG entry turned REL": lambda d, f: d.__setitem__(f["C"].entry_offset + 2, 0x84),
    "REL side sector damaged": _rel_side_sector,
    "REL record length 0": lambda d, f: d.__setitem__(f["R"].entry_offset + 0x17, 0),
    "write-protected (format byte)": lambda d, f: d.__setitem__(_offset((18, 0)) + 2, 0x42),
    "unclosed file": lambda d, f: d.__setitem__(f["D"].entry_offset + 2, 0x02),
    "wrong block count": lambda d, f: d.__setitem__(f["E"].entry_offset + 0x1E, 9),
}
# Findings that are errors (changes refused); the others are warnings only.
HARMLESS = {"unclosed file", "wrong block count", "file chain into track 0", "file starts on track 0"}


def damaged(base: bytes, name: str) -> bytes:
    data = bytearray(base)
    files = {entry.name: entry for entry in check.check(base, D64).files}
    DAMAGES[name](data, files)
    return bytes(data)


def _readable(data: bytes) -> dict[int, tuple[bytes, bytes]]:
    """Every file c64tc can read: entry place -> (name, bytes)."""
    report = check.check(data, D64)
    return {e.entry_offset: (e.raw_name, report.read(e)) for e in report.files if not e.unreadable}


def _operations(image: Path, out: Path) -> list[list[str]]:
    new = out / "new.prg"
    new.write_bytes(_contents(99, 500))
    return [["list", str(image)], ["validate", str(image)],
            ["extract", str(image), "a", "-o", str(out / "a.prg")],
            ["extract", str(image), "--all", "-d", str(out / "all")],
            ["add", str(image), str(new)], ["rm", str(image), "d", "a"], ["rename", str(image), "b", "bee"]]


@pytest.mark.parametrize("name", sorted(DAMAGES))
def test_every_command_refuses_cleanly_or_keeps_every_other_file(base: bytes, name: str,
                                                                   tmp_path: Path) -> None:
    data = damaged(base, name)
    report = check.check(data, D64)
    assert report.problems, f"the damage '{name}' was not found"
    assert bool(report.errors) == (name not in HARMLESS), [p.message for p in report.problems]
    image = tmp_path / "damaged.d64"
    for arguments in _operations(image, tmp_path):
        image.write_bytes(data)
        result = CliRunner().invoke(main, ["d64", *arguments])
        where = f"{name}: d64 {' '.join(arguments[:1] + arguments[2:])}"
        assert result.exit_code in (0, 1), (where, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), (where, result.exception)
        assert "Traceback" not in result.output, where
        after = image.read_bytes()
        changing = arguments[0] in ("add", "rm", "rename")
        if changing and report.errors:
            assert result.exit_code == 1, where
            assert "damaged image" in result.output or "write-protected" in result.output, where
        if result.exit_code == 1 or not changing:
            assert after == data, f"{where}: the image changed"
            continue
        # a change went through: every other file reads as before
        kept, now = _readable(data), _readable(after)
        touched = {e.entry_offset for e in report.files if e.name.lower() in arguments[2:]}
        for place, (raw, content) in kept.items():
            if place not in touched:
                assert now.get(place) == (raw, content), f"{where}: {raw!r} changed"
        assert not check.check(after, D64).errors, where


def test_add_on_a_bam_that_says_all_free_refuses_instead_of_overwriting(base: bytes, tmp_path: Path) -> None:
    image = tmp_path / "free.d64"
    image.write_bytes(damaged(base, "bam all free"))
    new = tmp_path / "x.prg"
    new.write_bytes(_contents(5, 3000))
    result = CliRunner().invoke(main, ["d64", "add", str(image), str(new)])
    assert result.exit_code == 1
    assert ('damaged image: 3 blocks of file "A" are marked free in the BAM (17/0, 17/10, 17/20)'
            in result.output)
    assert "c64tc d64 validate --fix" in result.output


def test_a_looping_chain_is_read_where_it_can_be(base: bytes, tmp_path: Path) -> None:
    image = tmp_path / "loop.d64"
    image.write_bytes(damaged(base, "file chain loops"))
    result = CliRunner().invoke(main, ["d64", "extract", str(image), "a", "-o", str(tmp_path / "a.prg")])
    assert result.exit_code == 1
    assert '"A" cannot be read: file "A" loops: block 17/10 links back to 17/0' in result.output
    assert not (tmp_path / "a.prg").exists()
    assert d64.extract(image, "b") == _contents(1, 900)  # the others read as ever
    listing = CliRunner().invoke(main, ["d64", "list", str(image)])
    assert listing.exit_code == 0 and "warning: damaged image (file \"A\" loops" in listing.output


def test_a_directory_loop_is_listed_then_an_error(base: bytes, tmp_path: Path) -> None:
    image = tmp_path / "dirloop.d64"
    image.write_bytes(damaged(base, "directory loops back"))
    result = CliRunner().invoke(main, ["d64", "list", str(image)])
    assert result.exit_code == 1
    assert '"I"' in result.output and '"R"' in result.output  # all ten entries were reached
    assert ("error: damaged image: the directory loops: directory block 18/4 links back to 18/1"
            in result.output)


@pytest.mark.parametrize("name", ["bam all free", "bam count wrong", "directory loops back",
                                  "directory leaves the disk", "wrong block count",
                                  "file chain into track 0"])
def test_fix_repairs_what_is_safe_and_keeps_every_file(base: bytes, name: str, tmp_path: Path) -> None:
    image, fixed = tmp_path / "in.d64", tmp_path / "fixed.d64"
    data = damaged(base, name)
    image.write_bytes(data)
    result = CliRunner().invoke(main, ["d64", "validate", str(image), "--fix", "-o", str(fixed)])
    assert result.exit_code == 0, result.output
    assert image.read_bytes() == data  # -o: the original stays
    after = check.check(fixed.read_bytes(), D64)
    assert not after.errors
    readable = _readable(data)
    assert {raw: content for raw, content in _readable(fixed.read_bytes()).values()} == \
        {raw: content for raw, content in readable.values()}


@pytest.mark.parametrize("name", ["file chain loops", "cross-linked files", "REL side sector damaged",
                                  "write-protected (format byte)"])
def test_fix_refuses_what_it_cannot_repair_safely(base: bytes, name: str, tmp_path: Path) -> None:
    image = tmp_path / "in.d64"
    image.write_bytes(damaged(base, name))
    before = image.read_bytes()
    result = CliRunner().invoke(main, ["d64", "validate", str(image), "--fix", "--in-place"])
    assert result.exit_code == 1
    assert image.read_bytes() == before
    assert "nothing written" in result.output


def test_fix_in_place_needs_saying(base: bytes, tmp_path: Path) -> None:
    image = tmp_path / "in.d64"
    image.write_bytes(damaged(base, "bam all free"))
    assert CliRunner().invoke(main, ["d64", "validate", str(image), "--fix"]).exit_code == 1
    result = CliRunner().invoke(main, ["d64", "validate", str(image), "--fix", "--in-place"])
    assert result.exit_code == 0 and "rebuilt the BAM from the chains: 22 blocks in use marked used" \
        in result.output
    assert CliRunner().invoke(main, ["d64", "validate", str(image)]).exit_code == 0


# -- the same verdict as d64-fsck ----------------------------------------------------
# d64-fsck follows a looping directory forever (it walks the directory with the d64
# package after noticing the loop): those images are left out of the comparison.
FSCK_HANGS = {"directory loops on itself", "directory loops back", "directory links to the BAM"}


def d64_fsck_finds_errors(image: Path) -> bool:
    """d64-fsck's verdict, run in this process (its check_image, as its command line
    runs it, without the start-up of a new Python for each image)."""
    from d64.scripts import d64_fsck as fsck  # type: ignore[import-untyped]  # d64 is a dependency

    fsck.FIX, fsck.YES, fsck.VERBOSE, fsck.QUIET = False, False, False, True
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            return bool(fsck.check_image(image))
    except Exception:  # its command line reports these as "Exception: ..." and fails
        return True


@pytest.mark.parametrize("name", sorted(set(DAMAGES) - FSCK_HANGS) + ["none"])
def test_validate_agrees_with_d64_fsck(base: bytes, name: str, tmp_path: Path) -> None:
    image = tmp_path / "x.d64"
    image.write_bytes(base if name == "none" else damaged(base, name))
    ours = CliRunner().invoke(main, ["d64", "validate", str(image)])
    assert (ours.exit_code == 1) == d64_fsck_finds_errors(image), ours.output


def test_d64_fsck_command_agrees_on_one_image(base: bytes, tmp_path: Path) -> None:
    """The installed d64-fsck command itself, once (the others run its code in-process)."""
    command = shutil.which("d64-fsck")
    if command is None:
        pytest.skip("d64-fsck (from the d64 package) is not on the PATH")
    image = tmp_path / "x.d64"
    image.write_bytes(damaged(base, "cross-linked files"))
    theirs = subprocess.run([command, "-q", str(image)], capture_output=True, timeout=60)
    assert theirs.returncode == 1 and b"unfixed errors" in theirs.stderr
    assert CliRunner().invoke(main, ["d64", "validate", str(image)]).exit_code == 1


# -- the drive reads a damaged disk as the checker does -------------------------------------------
_BROKEN_AT = re.compile(r"(?:links back to|links to|starts at) (\d+)/(\d+)(?:, which is not on the disk)?$")


def _read_on_the_drive(drive: Drive, entry: check.FileEntry) -> bytes | str:
    """The file's bytes as OPEN and GET# read them from the drive, or its error message."""
    drive.open(2, entry.raw_name + b"," + entry.file_type[:1].encode() + b",R")
    if not drive.status_text().startswith("00,"):
        return drive.status_text()
    data = bytearray()
    while (answer := drive.talk_byte(2)) is not None:
        data.append(answer[0])
        if answer[1]:
            break
    drive.close(2)
    return bytes(data)


@pytest.mark.parametrize("name", sorted(DAMAGES))
def test_the_drive_reads_each_file_as_the_checker_does(base: bytes, name: str) -> None:
    """One walk of the chains (toolchain/disk/chains.py) for the drive and the checker:
    a file the checker can read comes out of the drive byte for byte; one whose chain
    loops or leaves the disk is the drive's 66, ILLEGAL TRACK OR SECTOR at the very
    link the checker's finding names."""
    data = damaged(base, name)
    report = check.check(data, D64)
    drive = Drive(data)
    compared = 0
    for entry in report.files:
        if entry.file_type not in ("PRG", "SEQ", "USR") or not entry.closed:
            continue  # REL is beyond the drive's model; an unclosed file is 60, WRITE FILE OPEN
        found = _read_on_the_drive(drive, entry)
        broken = _BROKEN_AT.search(entry.unreadable or "")
        if entry.unreadable is None:
            assert found == report.read(entry), entry.label
        elif broken:
            track, sector = (int(number) % 100 for number in broken.groups())
            assert found == f"66,ILLEGAL TRACK OR SECTOR,{track:02d},{sector:02d}", entry.unreadable
        else:
            continue
        compared += 1
    assert compared >= 8
