"""D64 images: create, add, list, extract, delete, rename, and the ways they go wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from d64 import DiskImage  # type: ignore[import-untyped]

from tests.conftest import DATA
from toolchain.cli import main
from toolchain.diagnostics import UserError
from toolchain.disk import d64

SUPERHIRN = (DATA / "superhirn2-mse.bin").read_bytes()
NIKOLAUS = (DATA / "nikolaus.petcat.prg").read_bytes()


@pytest.fixture
def image(tmp_path: Path) -> Path:
    path = tmp_path / "t.d64"
    d64.create(path, "test disk", "ab")
    return path


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def test_new_image_has_664_free_blocks_and_the_name(image: Path) -> None:
    directory = d64.directory(image)
    assert (directory.name, directory.disk_id, directory.dos_type) == ("TEST DISK", "AB", "2A")
    assert directory.files == [] and directory.blocks_free == 664
    assert image.stat().st_size == 174848


def test_add_list_extract(image: Path) -> None:
    d64.add(image, "superhirn ii", SUPERHIRN)
    d64.add(image, "nikolaus", NIKOLAUS)
    assert d64.directory(image).listing() == (
        '0 "TEST DISK       " AB 2A\n'
        '3    "SUPERHIRN II"     PRG\n'
        '4    "NIKOLAUS"         PRG\n'
        "657 BLOCKS FREE.\n")
    assert d64.extract(image, "nikolaus") == NIKOLAUS
    # an independent reader: the d64 package itself
    with DiskImage(image) as disk:
        with disk.path(b"SUPERHIRN II").open() as handle:
            assert handle.read() == SUPERHIRN


def test_duplicate_is_refused_unless_replace(image: Path) -> None:
    d64.add(image, "nikolaus", NIKOLAUS)
    with pytest.raises(UserError, match="already on the disk"):
        d64.add(image, "nikolaus", SUPERHIRN)
    d64.add(image, "nikolaus", SUPERHIRN, replace=True)
    assert d64.extract(image, "nikolaus") == SUPERHIRN
    assert len(d64.directory(image).files) == 1


def test_delete_and_rename(image: Path) -> None:
    d64.add(image, "a", SUPERHIRN)
    d64.add(image, "b", NIKOLAUS)
    d64.remove(image, "a")
    d64.rename(image, "b", "c")
    directory = d64.directory(image)
    assert [f.name for f in directory.files] == ["C"] and directory.blocks_free == 660
    with pytest.raises(UserError, match='no file matches "A"'):
        d64.extract(image, "a")


def test_full_disk_is_an_error_and_leaves_the_image_unchanged(image: Path) -> None:
    d64.add(image, "big", bytes(600 * 254))
    before = image.read_bytes()
    with pytest.raises(UserError, match="disk full: \"BIGGER\" needs 100 blocks, 64 are free; nothing was "):
        d64.add(image, "bigger", bytes(100 * 254))
    assert image.read_bytes() == before


def test_directory_full_is_an_error(image: Path) -> None:
    d64.add_files(image, [d64.NewFile(f"f{number}", b"\x01\x08") for number in range(144)])
    assert len(d64.directory(image).files) == 144
    before = image.read_bytes()
    with pytest.raises(UserError, match="directory full: 144 entries at most"):
        d64.add(image, "one more", b"\x01\x08")
    assert image.read_bytes() == before


@pytest.mark.parametrize("damage, status, message", [
    (lambda raw: raw[:1000], 1, "not a disk image: 1000 bytes"),
    # the BAM block overwritten: the C64 shows what the counts say, and list warns
    (lambda raw: raw[:0x16500] + b"\xff" * 256 + raw[0x16600:], 0,
     "warning: damaged image (the format byte at offset 2 of 18/0 is $FF"),
    (lambda raw: raw[:0x16600] + bytes([18, 1]) + raw[0x16602:], 1,
     "damaged image: the directory loops: directory block 18/1 links back to 18/1"),
])
def test_corrupt_images_are_clear_errors(image: Path, damage, status: int, message: str) -> None:
    d64.add(image, "x", SUPERHIRN)
    image.write_bytes(damage(image.read_bytes()))
    result = run("d64", "list", str(image))
    assert result.exit_code == status
    assert message in result.output and "Traceback" not in result.output


def test_file_chain_loop_is_an_error(image: Path) -> None:
    d64.add(image, "x", SUPERHIRN)
    with DiskImage(image) as disk:
        entry = disk.path(b"X").entry
        track, sector = entry.first_block().track, entry.first_block().sector
    raw = bytearray(image.read_bytes())
    offset = sum(21 if t <= 17 else 19 if t <= 24 else 18 if t <= 30 else 17 for t in range(1, track)) * 256
    offset += sector * 256
    raw[offset : offset + 2] = bytes([track, sector])  # the first block links to itself
    image.write_bytes(bytes(raw))
    with pytest.raises(UserError, match="loops"):
        d64.extract(image, "x")


def test_names_are_checked(image: Path) -> None:
    for bad in ["", "a" * 17, "a*b", "x,y"]:
        with pytest.raises(UserError):
            d64.add(image, bad, b"\x01\x08")


def test_cli(tmp_path: Path) -> None:
    disk = tmp_path / "c.d64"
    prg = tmp_path / "superhirn2.prg"
    prg.write_bytes(SUPERHIRN)
    assert run("d64", "create", str(disk), "--name", "cli test", "--id", "42").exit_code == 0
    assert run("d64", "create", str(disk)).exit_code == 1  # exists
    assert run("d64", "add", str(disk), str(prg)).exit_code == 0
    assert run("d64", "add", str(disk), str(prg)).exit_code == 1
    assert run("d64", "add", "--replace", str(disk), str(prg), "--name", "sh").exit_code == 0
    listing = json.loads(run("d64", "list", "--json", str(disk)).output)
    assert [(f["name"], f["blocks"], f["file_type"]) for f in listing["files"]] == [
        ("SUPERHIRN2", 3, "PRG"), ("SH", 3, "PRG")]
    out = tmp_path / "out.prg"
    assert run("d64", "extract", str(disk), "sh", "-o", str(out)).exit_code == 0
    assert out.read_bytes() == SUPERHIRN
    assert run("d64", "rm", str(disk), "sh").exit_code == 0
    assert run("d64", "rename", str(disk), "superhirn2", "s2").exit_code == 0
    assert '3    "S2"               PRG' in run("d64", "list", str(disk)).output


@pytest.mark.parametrize(("option", "value", "expected"), [
    ("--id", "", "--id: error: a disk id has exactly 2 characters (given: '')"),
    ("--name", "", "--name: error: a disk name has 1 to 16 characters (given: '')"),
    ("--id", "abc", "--id: error: a disk id has exactly 2 characters (given: 'abc')"),
])
def test_create_names_the_option_of_a_wrong_value(tmp_path: Path, option: str, value: str,
                                                  expected: str) -> None:
    """`d64 create x.d64 --id ""` said ": error: a disk id has exactly 2 characters":
    the value was the message's place, and an empty one left none."""
    disk = tmp_path / "x.d64"
    result = run("d64", "create", str(disk), option, value)
    assert result.exit_code == 1
    assert result.output == expected + "\n"
    assert not disk.exists()


def test_add_refuses_an_empty_name(image: Path, tmp_path: Path) -> None:
    """`d64 add --name ""` was taken for no --name: the file went on the disk under
    its file's name, silently."""
    prg = tmp_path / "f.prg"
    prg.write_bytes(b"\x01\x08\x00\x00")
    result = run("d64", "add", str(image), str(prg), "--name", "")
    assert result.exit_code == 1
    assert result.output == "--name: error: a disk file name has 1 to 16 characters (given: '')\n"
    assert d64.directory(image).files == []


def test_an_empty_name_argument_still_gets_a_place(image: Path) -> None:
    """An empty name where a name is an argument (no option to name) was reported
    as ": error: ...": the message starts with the program's name instead."""
    result = run("d64", "rm", str(image), "")
    assert result.exit_code == 1
    assert result.output == "c64tc: error: a disk file name has 1 to 16 characters\n"


def test_add_refuses_a_single_byte_as_a_prg(image: Path, tmp_path: Path) -> None:
    """A 1-byte file went onto the disk as a PRG, as c1541 -write stores it, but a PRG
    starts with its two-byte load address and no LOAD can take this one: refused,
    with --type seq (which stores it) named; a copy from another image keeps its type."""
    one = tmp_path / "one.prg"
    one.write_bytes(b"\x01")
    result = run("d64", "add", str(image), str(one))
    assert result.exit_code == 1
    assert result.output.startswith(f"{one}: error: {one} is binary data (not a PRG file: 1 byte, but a PRG "
                                    "starts with a two-byte load address): LOAD could not take it")
    assert "--type seq (or usr) stores its byte as it is" in result.output
    assert d64.directory(image).files == []
    assert run("d64", "add", str(image), str(one), "--type", "seq").exit_code == 0
    assert [(f.name, f.file_type) for f in d64.directory(image).files] == [("ONE", "SEQ")]
    other = tmp_path / "other.d64"
    d64.create(other, "other", "ab")
    d64.add(other, "byte", b"\x01")  # made elsewhere (c1541 writes such a PRG)
    assert run("d64", "add", str(image), f"{other}:byte").exit_code == 0
    assert [(f.name, f.file_type) for f in d64.directory(image).files] == [("ONE", "SEQ"), ("BYTE", "PRG")]



@pytest.mark.parametrize(("load", "size", "past"), [(0xFF00, 300, 44), (0xFFFF, 2, 1), (0xC000, 0x4000, 0)])
def test_add_warns_of_a_prg_that_loads_past_ffff(image: Path, tmp_path: Path, load: int, size: int,
                                                  past: int) -> None:
    """A PRG whose bytes run past $FFFF is stored as given (as c1541 stores it), with a
    warning: a LOAD wraps into the zero page and the stack.  One that ends at $FFFF
    exactly loads whole."""
    prg = tmp_path / "top.prg"
    prg.write_bytes(bytes([load & 0xFF, load >> 8]) + bytes(size))
    result = run("d64", "add", str(image), str(prg))
    assert result.exit_code == 0
    warning = f"{prg}: warning: it loads at ${load:04X}, and {past} byte{'s' if past != 1 else ''} past $FFFF"
    assert (warning in result.output) == bool(past)
    assert [f.name for f in d64.directory(image).files] == ["TOP"]

def test_a_bug_in_c64tcs_own_change_surfaces_as_the_bug(image: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: an IndexError or KeyError raised by c64tc's own code in a change was
    reported as "the change failed in the d64 package" (exit 1), hiding the bug from the
    tests and the fuzz runs.  Only what the package raises is a message."""
    d64.add(image, "one", SUPERHIRN)
    before = image.read_bytes()

    def broken(*arguments: object) -> None:
        raise KeyError("c64tc's own bug")

    monkeypatch.setattr(d64, "_select", broken)
    with pytest.raises(KeyError, match="c64tc's own bug"):
        d64.remove(image, "one")
    assert image.read_bytes() == before


def test_what_the_d64_package_raises_in_a_change_is_a_message(image: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from d64.dos_path import DOSPath  # type: ignore[import-untyped]

    d64.add(image, "one", SUPERHIRN)
    before = image.read_bytes()

    def failing(self: object) -> None:
        raise IndexError("block 99 out of range")

    monkeypatch.setattr(DOSPath, "unlink", failing)
    with pytest.raises(UserError, match=r"the change failed in the d64 package \(block 99 out of range\); "
                                        "the image is unchanged"):
        d64.remove(image, "one")
    assert image.read_bytes() == before
