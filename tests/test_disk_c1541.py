"""c64tc's disk images beside VICE 3.10's c1541, byte for byte.

The references in tests/data/disk were made with c1541 (VICE 3.10), the files holding
``bytes((i * 7 + n) % 256 for i in range(n))`` (fN.bin):

    c1541 -format "c64tc test,ab" FORMAT new.FORMAT
    cp new.FORMAT files.FORMAT
    c1541 -attach files.FORMAT -write fN.bin "file N"      # N = 1 254 255 256 508 509 3000 20000
    c1541 -attach files.FORMAT -delete "file 255" -rename "file 508" "renamed 508"
    c1541 -attach files.FORMAT -write f509.bin "again 509"

each gzipped.  Where c1541 and c64tc differ on purpose, the comparison leaves it out: the
bytes after a file's end in its last block (c1541, as the drive, leaves what its buffer
held; c64tc writes zeros) and the contents of free blocks (a deleted file's data).
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolchain.cli import main
from toolchain.disk import check, d64
from toolchain.disk.formats import format_for_size

REFERENCES = Path(__file__).parent / "data" / "disk"
SIZES = (1, 254, 255, 256, 508, 509, 3000, 20000)


def _contents(n: int) -> bytes:
    return bytes((i * 7 + n) % 256 for i in range(n))


def _reference(name: str) -> bytes:
    return gzip.decompress((REFERENCES / f"{name}.gz").read_bytes())


def _what_counts(data: bytes) -> bytes:
    """The image with the bytes no file or bookkeeping holds set to 0."""
    disk = format_for_size(len(data))
    assert disk is not None
    report = check.check(data, disk)
    assert not report.problems, report.problems
    image = bytearray(data)
    for entry in report.files:
        track, sector = entry.chain[-1]
        end = disk.block_offset(track, sector) + 2 + entry.last_bytes
        image[end : disk.block_offset(track, sector) + 256] = bytes(256 - 2 - entry.last_bytes)
    for track in range(1, disk.tracks + 1):
        for sector in report.free_sectors(track):
            offset = disk.block_offset(track, sector)
            image[offset : offset + 256] = bytes(256)
    return bytes(image)


@pytest.mark.parametrize("extension", ["d64", "d71", "d81"])
def test_a_new_image_is_c1541s(tmp_path: Path, extension: str) -> None:
    """Byte for byte; for the D81 that includes the two $A0 after "3D" in 40/0, which
    the 1581 (and VICE's vdrive) fill with the name area ($04-$1C)."""
    image = tmp_path / f"new.{extension}"
    result = CliRunner().invoke(main, ["d64", "create", str(image), "--name", "c64tc test", "--id", "ab"])
    assert result.exit_code == 0, result.output
    assert image.read_bytes() == _reference(f"new.{extension}")


@pytest.mark.parametrize("extension", ["d64", "d71", "d81"])
def test_adding_deleting_and_renaming_make_c1541s_image(tmp_path: Path, extension: str) -> None:
    """The same blocks in the same order (interleave, tracks outward from the
    directory), the same BAM and directory entries, the freed entry and blocks reused."""
    image = tmp_path / f"files.{extension}"
    d64.create(image, "c64tc test", "ab")
    for n in SIZES:
        d64.add(image, f"file {n}", _contents(n))
    d64.remove(image, "file 255")
    d64.rename(image, "file 508", "renamed 508")
    d64.add(image, "again 509", _contents(509))
    assert _what_counts(image.read_bytes()) == _what_counts(_reference(f"files.{extension}"))


@pytest.mark.parametrize("name", ["a{b", "a}b", "a|b", "a~b", "a`b"])
def test_names_with_characters_petscii_has_not_are_refused(tmp_path: Path, name: str) -> None:
    """` { | } ~ are no PETSCII characters: stored as ASCII ($60, $7B-$7E) they would be
    graphics no C64 key types, which list as {$7b} and the like.  c1541 cannot write
    them either (VICE's charset_p_topetscii: ` becomes ', the others unmapped)."""
    image = tmp_path / "n.d64"
    d64.create(image, "names", "ab")
    source = tmp_path / "x.seq"
    source.write_bytes(b"hello")
    before = image.read_bytes()
    result = CliRunner().invoke(main, ["d64", "add", str(image), str(source), "--type", "seq",
                                       "--name", name])
    assert result.exit_code == 1
    assert "--name: error: a disk file name cannot contain ` { | } or ~: they are no PETSCII characters" \
        in result.output and f"(given: {name!r})" in result.output
    assert image.read_bytes() == before
    result = CliRunner().invoke(main, ["d64", "create", str(tmp_path / "m.d64"), "--name", name])
    assert result.exit_code == 1 and "a disk name cannot contain" in result.output
