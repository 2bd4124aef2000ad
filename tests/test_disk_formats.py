"""Every disk format, the DOS's wildcards, extract's names, ``IMAGE:NAME``, T64
tapes, and the guarantees of changes (all or nothing, read-only, symlinks)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from d64 import DiskImage  # type: ignore[import-untyped]

from tests.test_disk_damage import d64_fsck_finds_errors
from toolchain.cli import main
from toolchain.diagnostics import UserError
from toolchain.disk import check, d64, is_disk_image, parse_image_reference, read_disk_file
from toolchain.disk.formats import FORMATS

FREE_ON_A_NEW_DISK = {"d64": 664, "d64-40": 749, "d71": 1328, "d81": 3160}
PROGRAM = bytes([0x01, 0x08]) + bytes(range(256)) * 3
TEXT = b"HELLO\rWORLD\r"


def run(*arguments: str) -> Result:
    return CliRunner().invoke(main, list(arguments))


def _image(tmp_path: Path, name: str, error_bytes: bool = False) -> Path:
    path = tmp_path / f"disk{FORMATS[name].extension}"
    assert run("d64", "create", str(path), "--format", name, "--name", "formats", "--id", "fm").exit_code == 0
    if error_bytes:
        with path.open("ab") as handle:
            handle.write(b"\x01" * FORMATS[name].total_blocks)  # 1: no error
    return path


@pytest.mark.parametrize("name, error_bytes", [(name, False) for name in sorted(FORMATS)]
                         + [("d64", True), ("d71", True)])
def test_every_command_on_every_format(tmp_path: Path, name: str, error_bytes: bool) -> None:
    disk = FORMATS[name]
    image = _image(tmp_path, name, error_bytes)
    assert image.stat().st_size == (disk.size_with_errors if error_bytes else disk.size)
    assert d64.directory(image).blocks_free == FREE_ON_A_NEW_DISK[name]
    (tmp_path / "prog.prg").write_bytes(PROGRAM)
    (tmp_path / "notes.seq").write_bytes(TEXT)
    (tmp_path / "big.prg").write_bytes(bytes([0, 0x40]) + bytes(range(251)) * 80)
    assert run("d64", "add", str(image), str(tmp_path / "prog.prg"), str(tmp_path / "notes.seq"),
               str(tmp_path / "big.prg")).exit_code == 0
    listing = run("d64", "list", str(image)).output.splitlines()
    assert listing[1:4] == ['4    "PROG"             PRG', '1    "NOTES"            SEQ',
                            '80   "BIG"              PRG']
    assert listing[4] == f"{FREE_ON_A_NEW_DISK[name] - 85} BLOCKS FREE."
    # an independent reader: the d64 package
    with DiskImage(image) as package_image:
        with package_image.path(b"BIG").open() as handle:
            assert handle.read() == (tmp_path / "big.prg").read_bytes()
    assert run("d64", "rename", str(image), "prog", "program").exit_code == 0
    assert run("d64", "rm", str(image), "big").exit_code == 0
    assert run("d64", "extract", str(image), "--all", "-d", str(tmp_path / "out")).exit_code == 0
    assert (tmp_path / "out" / "program.prg").read_bytes() == PROGRAM
    assert (tmp_path / "out" / "notes.seq").read_bytes() == TEXT
    result = run("d64", "validate", str(image))
    assert result.exit_code == 0 and f"ok ({name}, {disk.description}: 2 files" in result.output
    if error_bytes:
        assert image.read_bytes()[disk.size:] == b"\x01" * disk.total_blocks  # kept as it was
    assert not d64_fsck_finds_errors(image)


def test_the_format_comes_from_the_extension(tmp_path: Path) -> None:
    for extension, size in ((".d64", 174848), (".d71", 349696), (".d81", 819200)):
        path = tmp_path / f"x{extension}"
        assert run("d64", "create", str(path)).exit_code == 0
        assert path.stat().st_size == size
    # another name says no format: a D64 made silently surprised (issue 26); --format says it
    result = run("d64", "create", str(tmp_path / "x.img"))
    assert result.exit_code == 1
    assert "the name does not say which format (.d64, .d71 or .d81)" in result.output
    assert not (tmp_path / "x.img").exists()
    assert run("d64", "create", str(tmp_path / "x.img"), "--format", "d71").exit_code == 0
    assert (tmp_path / "x.img").stat().st_size == 349696
    assert run("d64", "create", str(tmp_path / "x.d64")).exit_code == 1  # exists
    assert run("d64", "create", str(tmp_path / "x.d64"), "--force", "--format", "d64-40").exit_code == 0
    assert (tmp_path / "x.d64").stat().st_size == 196608
    result = run("d64", "create", str(tmp_path / "x.t64"))
    assert result.exit_code == 1 and "does not write them" in result.output


def test_a_read_error_in_the_error_info_stops_extract(tmp_path: Path) -> None:
    image = _image(tmp_path, "d64", error_bytes=True)
    d64.add(image, "prog", PROGRAM)
    block = check.check(image.read_bytes(), FORMATS["d64"]).files[0].chain[1]
    data = bytearray(image.read_bytes())
    data[FORMATS["d64"].size + FORMATS["d64"].block_index(*block)] = 5
    image.write_bytes(bytes(data))
    with pytest.raises(UserError, match=r"block 17/10 carries the error code \$05 .* 23, READ ERROR"):
        d64.extract(image, "prog")


# -- VICE's c1541 reads what c64tc writes, and the other way round --------------------
@pytest.mark.parametrize("name", sorted(FORMATS))
def test_c1541_and_c64tc_read_each_others_files(tmp_path: Path, name: str) -> None:
    c1541 = shutil.which("c1541")
    if c1541 is None:
        pytest.skip("VICE's c1541 is not on the PATH")
    image = _image(tmp_path, name)
    d64.add(image, "ours", PROGRAM)
    theirs = tmp_path / "theirs.prg"
    theirs.write_bytes(bytes([0x00, 0xC0]) + bytes(range(200, 0, -1)) * 9)
    out = tmp_path / "read.prg"
    subprocess.run([c1541, str(image), "-read", "ours", str(out), "-write", str(theirs), "theirs"],
                   capture_output=True, check=True, timeout=60)
    assert out.read_bytes() == PROGRAM
    assert d64.extract(image, "theirs") == theirs.read_bytes()
    assert not check.check(image.read_bytes(), FORMATS[name]).problems


# -- names and wildcards --------------------------------------------------------------
@pytest.fixture
def named(tmp_path: Path) -> Path:
    image = tmp_path / "names.d64"
    d64.create(image, "names", "nm")
    d64.add_files(image, [d64.NewFile("ab", b"\x01\x08A"), d64.NewFile("abc", b"\x01\x08B"),
                          d64.NewFile("a", b"\x01\x08C"), d64.NewFile("xyz", b"X", "SEQ"),
                          d64.NewFile("../evil", b"\x01\x08E")])
    return image


@pytest.mark.parametrize("pattern, names", [
    ("ab", ["AB"]), ("ab?", ["ABC"]), ("a*", ["AB", "ABC", "A"]), ("?", ["A"]), ("??", ["AB"]),
    ("a?c", ["ABC"]), ("*", ["AB", "ABC", "A", "XYZ", "../EVIL"]), ("ab*", ["AB", "ABC"]),
    ("*=s", ["XYZ"]), ("a*=p", ["AB", "ABC", "A"]), ("a*x", ["AB", "ABC", "A"]), ("abcd", []),
])
def test_wildcards_match_as_the_dos_does(named: Path, pattern: str, names: list[str]) -> None:
    # VICE, cbmdos.c: '*' ends the comparison, '?' needs a character, the name must end
    # where the pattern does.
    assert [f.name for f in d64.directory(named, pattern).files] == names


@pytest.fixture
def shifted_space(tmp_path: Path) -> Path:
    """A disk with "LANG"NAME (a shifted space inside the name, the classic directory
    trick: LIST shows NAME after the closing quote) and LANGX."""
    image = tmp_path / "lang.d64"
    d64.create(image, "names", "nm")
    d64.add_files(image, [d64.NewFile("lang-name", b"\x01\x08L"), d64.NewFile("langx", b"\x01\x08X")])
    data = bytearray(image.read_bytes())
    data[check.check(bytes(data), FORMATS["d64"]).files[0].entry_offset + 5 + 4] = 0xA0
    image.write_bytes(bytes(data))
    return image


def test_a_name_ends_at_its_first_shifted_space_as_the_dos_compares_it(shifted_space: Path) -> None:
    # measured: the 1541 finds "LANG"NAME for LANG (tests/data/drive/pattern-types), and so
    # do c1541's read, list and delete (VICE 3.10: cbmdos_parse_wildcard_compare)
    assert d64.extract(shifted_space, "lang") == b"\x01\x08L"
    assert [f.name for f in d64.directory(shifted_space, "lang").files] == ["LANG{$a0}NAME"]
    assert [f.name for f in d64.directory(shifted_space, "lang?").files] == ["LANGX"]
    assert d64.remove(shifted_space, "lang") == ["LANG{$a0}NAME"]
    assert [f.name for f in d64.directory(shifted_space).files] == ["LANGX"]


def test_c1541_finds_the_same_file_for_a_name_with_a_shifted_space(shifted_space: Path,
                                                                   tmp_path: Path) -> None:
    c1541 = shutil.which("c1541")
    if c1541 is None:
        pytest.skip("VICE's c1541 is not on the PATH")
    for pattern in ("lang", "lang?", "lang*", "l??g"):
        out = tmp_path / "read.prg"
        subprocess.run([c1541, str(shifted_space), "-read", pattern, str(out)], capture_output=True,
                       check=True, timeout=60)
        assert out.read_bytes() == d64.extract(shifted_space, pattern), pattern


def test_extract_names_files_safely_with_their_type(named: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "out"
    result = run("d64", "extract", str(named), "--all", "-d", str(folder))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == ["a.prg", "ab.prg", "abc.prg", "evil.prg", "xyz.seq"]
    assert (folder / "xyz.seq").read_bytes() == b"X"
    assert '"../EVIL" -> ' in result.output
    # the default folder is the current one, and nothing goes outside it
    current = tmp_path / "here"
    current.mkdir()
    monkeypatch.chdir(current)
    assert run("d64", "extract", str(named), "../evil").exit_code == 0
    assert os.listdir(current) == ["evil.prg"]


def test_extract_to_standard_output_and_its_refusals(named: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["d64", "extract", str(named), "abc", "-o", "-"])
    assert result.exit_code == 0 and result.stdout_bytes == b"\x01\x08B"
    many = run("d64", "extract", str(named), "a*", "-o", str(tmp_path / "x"))
    assert many.exit_code == 1 and "-o names one file, but 3 files match" in many.output
    missing = run("d64", "extract", str(named), "a", "nothere", "-d", str(tmp_path / "none"))
    assert missing.exit_code == 1 and 'no file matches "NOTHERE"' in missing.output
    assert not (tmp_path / "none").exists()
    assert run("d64", "extract", str(named)).exit_code == 1  # neither names nor --all


def test_two_files_of_one_safe_name_get_two_files(tmp_path: Path) -> None:
    image = tmp_path / "same.d64"
    d64.create(image, "same", "sm")
    d64.add_files(image, [d64.NewFile("a b", b"\x01\x081"), d64.NewFile("a/b", b"\x01\x082")])
    assert run("d64", "extract", str(image), "--all", "-d", str(tmp_path / "o")).exit_code == 0
    assert (tmp_path / "o" / "a_b.prg").read_bytes() == b"\x01\x081"
    assert (tmp_path / "o" / "a_b-2.prg").read_bytes() == b"\x01\x082"


def test_rm_with_a_wildcard_and_a_locked_file(named: Path) -> None:
    assert run("d64", "rm", str(named), "a?*").exit_code == 0
    assert [f.name for f in d64.directory(named).files] == ["A", "XYZ", "../EVIL"]
    data = bytearray(named.read_bytes())
    entry = check.check(bytes(data), FORMATS["d64"]).files[0]
    data[entry.entry_offset + 2] |= 0x40  # locked, as the drive shows PRG<
    named.write_bytes(bytes(data))
    assert '"A"                PRG<' in run("d64", "list", str(named)).output
    before = named.read_bytes()
    result = run("d64", "rm", str(named), "*")
    assert result.exit_code == 1 and '"A" is locked' in result.output
    assert named.read_bytes() == before


def test_list_json_and_pattern(named: Path) -> None:
    listing = json.loads(run("d64", "list", "--json", str(named), "x*").output)
    assert listing["format"] == "d64" and [f["name"] for f in listing["files"]] == ["XYZ"]
    assert listing["problems"] == [] and listing["complete"] is True


# -- all or nothing, read-only, symlinks, standard input ------------------------------
def test_a_multi_file_change_is_all_or_nothing(named: Path, tmp_path: Path) -> None:
    before = named.read_bytes()
    (tmp_path / "small.prg").write_bytes(b"\x01\x08small")
    (tmp_path / "huge.prg").write_bytes(bytes(700 * 254))
    result = run("d64", "add", str(named), str(tmp_path / "small.prg"), str(tmp_path / "huge.prg"))
    assert result.exit_code == 1 and "disk full: the 2 files need 701 blocks, 659 are free" in result.output
    result = run("d64", "rm", str(named), "ab", "missing")
    assert result.exit_code == 1 and 'no file matches "MISSING"' in result.output
    result = run("d64", "rename", str(named), "ab", "new", "abc", "a")
    assert result.exit_code == 1 and '"A" is already on the disk' in result.output
    assert named.read_bytes() == before


def test_a_read_only_image_is_refused(named: Path, tmp_path: Path) -> None:
    before = named.read_bytes()
    named.chmod(0o444)
    try:
        for arguments in (["rm", str(named), "ab"], ["rename", str(named), "ab", "x"],
                          ["validate", str(named), "--fix", "--in-place"]):
            result = run("d64", *arguments)
            assert result.exit_code == 1 and "read-only" in result.output, arguments
        assert named.read_bytes() == before
        assert run("d64", "list", str(named)).exit_code == 0  # reading is fine
    finally:
        named.chmod(0o644)


def test_a_change_writes_through_a_symlink(named: Path, tmp_path: Path) -> None:
    link = tmp_path / "link.d64"
    link.symlink_to(named)
    assert run("d64", "rm", str(link), "xyz").exit_code == 0
    assert link.is_symlink() and "XYZ" not in [f.name for f in d64.directory(named).files]


def test_add_from_standard_input_and_types_from_extensions(named: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["d64", "add", str(named), "-", "--name", "piped"],
                                input=b"\x01\x08pipe")
    assert result.exit_code == 0, result.output
    assert d64.extract(named, "piped") == b"\x01\x08pipe"
    assert run("d64", "add", str(named), "-").exit_code == 1  # needs --name
    (tmp_path / "my_notes.usr").write_bytes(b"u")
    assert run("d64", "add", str(named), str(tmp_path / "my_notes.usr")).exit_code == 0
    assert ("MY NOTES", "USR") in [(f.name, f.file_type) for f in d64.directory(named).files]


def test_a_geos_disk_is_not_changed(named: Path) -> None:
    data = bytearray(named.read_bytes())
    header = FORMATS["d64"].block_offset(18, 0)
    data[header + 0xAD : header + 0xAD + 16] = b"GEOS format V1.0"
    named.write_bytes(bytes(data))
    result = run("d64", "rm", str(named), "ab")
    assert result.exit_code == 1 and "a GEOS disk" in result.output
    assert named.read_bytes() == bytes(data)
    assert d64.extract(named, "ab") == b"\x01\x08A"  # reading is fine


def test_replace_keeps_the_place_in_the_directory(named: Path) -> None:
    d64.add(named, "ab", b"\x01\x08new", "SEQ", replace=True)
    files = d64.directory(named).files
    assert (files[0].name, files[0].file_type) == ("AB", "SEQ")
    assert d64.extract(named, "ab") == b"\x01\x08new"


# -- IMAGE:NAME ---------------------------------------------------------------------------
def test_image_name_references(named: Path, tmp_path: Path) -> None:
    found = read_disk_file(f"{named}:ab*")
    assert (found.data, found.file_type, found.name) == (b"\x01\x08A", "PRG", "AB")
    assert found.display_name == f'{named}:"AB"'
    assert read_disk_file(f'{named}:"xyz"').file_type == "SEQ"
    reference = parse_image_reference(f"{named}:abc")
    assert reference is not None and reference.image == named and reference.name == "abc"
    assert parse_image_reference(str(named)) is None
    assert parse_image_reference("C:\\programs\\x.prg") is None
    assert parse_image_reference("notes.txt:1") is None
    missing = parse_image_reference("build/missing.d64:fox hunt")
    assert missing is not None and missing.name == "fox hunt"
    with pytest.raises(UserError, match="cannot read: no such disk image"):
        read_disk_file(missing)
    with pytest.raises(UserError, match='no file matches "NOTHERE"'):
        read_disk_file(f"{named}:nothere")
    with pytest.raises(UserError, match="no file name after ':'"):
        read_disk_file(f"{named}:")
    # a folder name with a colon, and a file whose own name has one
    folder = tmp_path / "my:disks"
    folder.mkdir()
    shutil.copy(named, folder / "copy.d64")
    assert read_disk_file(f"{folder}/copy.d64:a").data == b"\x01\x08C"
    odd = tmp_path / "odd.d64:a"
    odd.write_bytes(b"plain")
    assert parse_image_reference(str(odd)) is None


def test_is_disk_image(named: Path, tmp_path: Path) -> None:
    assert is_disk_image(named)
    renamed = tmp_path / "disk.bin"
    shutil.copy(named, renamed)
    assert is_disk_image(renamed)  # by its size, whatever its name
    (tmp_path / "x.prg").write_bytes(PROGRAM)
    assert not is_disk_image(tmp_path / "x.prg")
    assert not is_disk_image(tmp_path) and not is_disk_image(tmp_path / "none.d64")


# -- T64 tapes ---------------------------------------------------------------------------
def _tape(entries: list[tuple[bytes, int, bytes]], end_fault: bool = False) -> bytes:
    """A T64 container as C64S writes it: a 64-byte header, 32-byte entries, data."""
    header = b"C64S tape image file".ljust(32, b"\x00")
    header += (0x0101).to_bytes(2, "little") + len(entries).to_bytes(2, "little")
    header += len(entries).to_bytes(2, "little") + bytes(2) + b"MY TAPE".ljust(24, b" ")
    offset = 64 + 32 * len(entries)
    table, data = b"", b""
    for name, load, body in entries:
        end = load + len(body) + (100 if end_fault else 0)
        table += bytes([1, 0x82]) + load.to_bytes(2, "little") + end.to_bytes(2, "little") + bytes(2)
        table += (offset + len(data)).to_bytes(4, "little") + bytes(4) + name.ljust(16, b" ")
        data += body
    return header + table + data


def test_t64_tapes_are_listed_and_extracted(tmp_path: Path) -> None:
    # t64 is a dependency (pyproject.toml): a broken install fails here, it is no reason to skip
    from t64 import T64ImageReader  # type: ignore[import-untyped]

    tape = tmp_path / "games.t64"
    tape.write_bytes(_tape([(b"FOX", 0x0801, b"\x0b\x08fox"), (b"HUNT", 0xC000, b"\xa9\x00\x60")]))
    with T64ImageReader(tape) as reader:  # the package reads the test's tape as c64tc must
        assert [bytes(entry.name).rstrip(b" ") for entry in reader.iterdir()] == [b"FOX", b"HUNT"]
    assert is_disk_image(tape)
    assert run("d64", "list", str(tape)).output == (
        '0 "MY TAPE         " T64\n1    "FOX"              PRG\n1    "HUNT"             PRG\n')
    assert read_disk_file(f"{tape}:h*").data == b"\x00\xc0\xa9\x00\x60"
    assert run("d64", "extract", str(tape), "fox", "-o", str(tmp_path / "fox.prg")).exit_code == 0
    assert (tmp_path / "fox.prg").read_bytes() == b"\x01\x08\x0b\x08fox"
    result = run("d64", "add", str(tape), str(tmp_path / "fox.prg"))
    assert result.exit_code == 1 and "T64 tape images are read only" in result.output
    broken = tmp_path / "broken.t64"
    broken.write_bytes(_tape([(b"FOX", 0x0801, b"\x0b\x08fox")], end_fault=True))
    result = run("d64", "extract", str(broken), "fox", "-o", str(tmp_path / "b.prg"))
    assert result.exit_code == 1 and "runs past the end of the tape image" in result.output
    for damage in (b"C64S tape image file", b"C64S tape image file" + bytes(20)):
        (tmp_path / "bad.t64").write_bytes(damage)
        assert run("d64", "list", str(tmp_path / "bad.t64")).exit_code == 1


def test_a_program_on_a_tape_runs_without_a_disk_in_the_drive(tmp_path: Path) -> None:
    """IMAGE:NAME from a T64 tape loads the program; the drive gets no disk (a tape is
    none), and --disk refuses a tape."""
    from toolchain.basic import tokenize_text

    body = tokenize_text('10 print "hi"\n').to_bytes()[2:]
    tape = tmp_path / "games.t64"
    tape.write_bytes(_tape([(b"HI", 0x0801, body)]))
    result = run("run", f"{tape}:hi")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "HI"
    result = run("run", f"{tape}:hi", "--disk", str(tape))
    assert result.exit_code != 0 and "no disk" in result.output


@pytest.mark.parametrize("header", [
    b"C64S tape image file".ljust(32, b"\0"),  # the signature and nothing after it
    b"C64S tape image file".ljust(32, b"\0") + b"\x00\x01\xff\xff\x01\x00" + bytes(26),  # 65535 entries
])
def test_a_truncated_t64_is_refused_in_words(tmp_path: Path, header: bytes) -> None:
    """A T64 cut short inside its header or directory: status 1 and a message that says
    so (Python's struct errors, "unpack requires a buffer of 6 bytes", were shown)."""
    tape = tmp_path / "cut.t64"
    tape.write_bytes(header)
    result = CliRunner().invoke(main, ["d64", "list", str(tape)])
    assert result.exit_code == 1
    assert result.output == (f"{tape}: error: not a readable T64 tape image (the file ends inside its header "
                             "or its directory)\n")
