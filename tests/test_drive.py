"""The disk drive on device 8 (toolchain/c64/drive.py): programs of ours that use the
1541 (tests/data/drive: the error channel, SEQ files, the directory, LOAD/SAVE/VERIFY,
commands, direct access, the KERNAL's calls) end on the screen VICE 3.10 showed with
true drive emulation, and leave the same files on the disk; `c64tc run` attaches a
disk image, and writes it back only when asked, atomically and never over a file that
changed meanwhile."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.test_corpus_screens import assert_ends_as_on_vice, load_tool, x64sc
from toolchain.basic import tokenize_text
from toolchain.cli import main
from toolchain.disk import d64

tool = load_tool()
PLAN = tool.load_plan(tool.DRIVE_PLAN, tool.DRIVE_DATA, ".bas")


@pytest.mark.parametrize("name", sorted(PLAN))
def test_the_drive_program_ends_as_on_a_real_c64_with_a_1541(name: str) -> None:
    assert_ends_as_on_vice(PLAN[name], tool.DRIVE_DATA)


@pytest.mark.parametrize("name", sorted(PLAN))
def test_every_drive_program_has_its_measurement(name: str) -> None:
    stored = tool.load_measurement(tool.DRIVE_DATA, name)
    assert stored is not None, f"run: python scripts/corpus-vs-vice --drive --measure {name}"
    assert stored.rows == tool.screen_rows(stored.codes) and len(stored.colours) == 1000
    assert stored.facts["input"] == PLAN[name].input
    assert PLAN[name].reason and PLAN[name].matches


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PLAN))
def test_vice_shows_the_stored_drive_screen_again(name: str) -> None:
    emulator = x64sc()
    stored = tool.load_measurement(tool.DRIVE_DATA, name)
    screen = tool.measure(emulator, PLAN[name])
    assert screen.rows() == stored.rows


# -- c64tc run with a disk ---------------------------------------------------------------------------

WRITER = """10 open 2,8,2,"data,s,w":print#2,"hello":close 2
20 open 15,8,15:input#15,a,b$,c,d:print a;b$;c;d:close 15
30 open 2,8,2,"data,s,r":input#2,x$:close 2:print x$
"""


@pytest.fixture
def disk_with_writer(tmp_path: Path) -> Path:
    image = tmp_path / "t.d64"
    assert CliRunner().invoke(main, ["d64", "create", str(image)]).exit_code == 0
    program = tmp_path / "writer.prg"
    program.write_bytes(tokenize_text(WRITER).to_bytes())
    result = CliRunner().invoke(main, ["d64", "add", str(image), str(program)])
    assert result.exit_code == 0, result.output
    return image


def names_on(image: Path) -> list[str]:
    return [entry.name for entry in d64.directory(image).files]


def test_a_program_from_a_disk_writes_on_that_disk_in_memory_only(disk_with_writer: Path) -> None:
    before = disk_with_writer.read_bytes()
    result = CliRunner().invoke(main, ["run", f"{disk_with_writer}:writer"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:2] == [" 0 OK 0  0", "HELLO"]
    assert "changed the disk in memory only (--write-disk writes it back)" in result.stderr
    assert disk_with_writer.read_bytes() == before


def test_write_disk_writes_the_disk_back(disk_with_writer: Path) -> None:
    result = CliRunner().invoke(main, ["run", f"{disk_with_writer}:writer", "--write-disk"])
    assert result.exit_code == 0, result.output
    assert "written back" in result.stderr
    assert names_on(disk_with_writer) == ["WRITER", "DATA"]
    assert CliRunner().invoke(main, ["d64", "validate", str(disk_with_writer)]).exit_code == 0


def test_disk_puts_an_image_in_drive_8_for_a_program_from_a_file(disk_with_writer: Path,
                                                                 tmp_path: Path) -> None:
    program = tmp_path / "reader.bas"
    program.write_text('10 open 15,8,15,"s0:writer":input#15,a,b$,c:print a;b$;c\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(program), "--disk", str(disk_with_writer), "--write-disk"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == " 1 FILES SCRATCHED 1"  # the 1541's message: files, count
    assert names_on(disk_with_writer) == []


def test_without_a_disk_the_drive_is_empty_and_with_no_drive_device_8_is_not_present(tmp_path: Path) -> None:
    program = tmp_path / "w.bas"
    program.write_text(WRITER, encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(program)])
    assert result.exit_code == 0, result.output
    # tests/data/drive/empty-drive: the 1541 answers, its disk is missing
    assert result.stdout.splitlines()[0] == " 74 DRIVE NOT READY 0  0"
    result = CliRunner().invoke(main, ["run", str(program), "--no-drive"])
    assert result.exit_code == 1
    assert "?DEVICE NOT PRESENT  ERROR IN 10" in result.stdout
    assert "--no-drive" in result.stderr


def test_write_disk_needs_a_disk_and_one_drive_holds_one_disk(disk_with_writer: Path, tmp_path: Path) -> None:
    program = tmp_path / "w.bas"
    program.write_text(WRITER, encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(program), "--write-disk"])
    assert result.exit_code != 0 and "give --disk IMAGE" in result.output
    other = tmp_path / "other.d64"
    assert CliRunner().invoke(main, ["d64", "create", str(other)]).exit_code == 0
    result = CliRunner().invoke(main, ["run", f"{disk_with_writer}:writer", "--disk", str(other)])
    assert result.exit_code != 0 and "the drive holds one disk" in result.output


def test_write_back_refuses_an_image_changed_meanwhile(disk_with_writer: Path) -> None:
    from toolchain.c64.drive import AttachedImage
    from toolchain.diagnostics import UserError

    attached = AttachedImage(disk_with_writer)
    attached.drive.open(15, b"S0:WRITER")  # PETSCII: unshifted letters
    attached.drive.close(15)
    assert attached.changed
    changed_meanwhile = bytearray(disk_with_writer.read_bytes())
    changed_meanwhile[-1] ^= 0xFF
    disk_with_writer.write_bytes(bytes(changed_meanwhile))
    with pytest.raises(UserError, match="changed by another program"):
        attached.write_back()
    assert disk_with_writer.read_bytes() == bytes(changed_meanwhile)


@pytest.fixture
def typed_load(tmp_path: Path) -> tuple[Path, Path]:
    """A disk holding P, and a program that leaves LOAD"P",8 to the dynamic keyboard."""
    image = tmp_path / "d.d64"
    assert CliRunner().invoke(main, ["d64", "create", str(image)]).exit_code == 0
    loaded = tmp_path / "p.prg"
    loaded.write_bytes(tokenize_text('10 print "loaded p"\n').to_bytes())
    assert CliRunner().invoke(main, ["d64", "add", str(image), str(loaded)]).exit_code == 0
    typist = tmp_path / "dk.bas"
    typist.write_text('10 print "{clr}load"chr$(34)"p"chr$(34)",8"\n'
                      "20 poke 631,19:poke 632,13:poke 198,2:end\n", encoding="utf-8")
    return typist, image


def screen_rows(typed_load: tuple[Path, Path], *options: str) -> list[str]:
    typist, image = typed_load
    result = CliRunner().invoke(main, ["run", str(typist), "--disk", str(image), "--screen", *options])
    assert result.exit_code == 0, result.output
    return [row for row in result.stdout.splitlines() if row]


def test_load_typed_at_ready_loads_and_does_not_run(typed_load: tuple[Path, Path]) -> None:
    """LOAD in direct mode ($E1A1): the program is loaded, READY. follows, nothing runs;
    in a program LOAD would run the new one."""
    assert screen_rows(typed_load, "--no-roms") == ['LOAD"P",8', "SEARCHING FOR P", "LOADING", "READY."]


@pytest.mark.vice_roms
def test_load_typed_at_ready_shows_what_the_rom_shows(typed_load: tuple[Path, Path]) -> None:
    from tests.conftest import c64_roms

    c64_roms()  # c64tc's own search finds them (the autouse fixture points it there)
    rom = screen_rows(typed_load, "--boot")
    assert screen_rows(typed_load, "--no-roms") == rom[rom.index('LOAD"P",8'):]


# -- what --write-disk writes ---------------------------------------------------------------------

@pytest.mark.parametrize(("unmodelled", "status"), [
    ('print#15,"m-e"chr$(0)chr$(5)', 1),  # runs code in the drive
    ('print#15,"u3"', 1),
    ('open3,8,3,"rel,l,"+chr$(20)', 1),  # a relative file
    ("goto 20", 2),  # the statement limit: a C64 would go on
])
def test_write_disk_keeps_the_image_when_c64tc_stopped_the_run(unmodelled: str, status: int,
                                                               tmp_path: Path) -> None:
    """The program has changed the disk (a new file) when c64tc stops it on something it
    does not model, or at a limit: the disk is not what the program would leave, so the
    image file stays as it was (issue 21: the fuzz round's data loss)."""
    image = tmp_path / "d.d64"
    assert CliRunner().invoke(main, ["d64", "create", str(image)]).exit_code == 0
    before = image.read_bytes()
    program = tmp_path / "p.bas"
    program.write_text(f'10 open15,8,15:open2,8,2,"new,s,w":print#2,"x":close2\n20 {unmodelled}\n',
                       encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(program), "--disk", str(image), "--write-disk",
                                       "--max-statements", "1000"])
    assert result.exit_code == status, result.output
    assert "not written back: c64tc stopped the run" in result.stderr
    assert image.read_bytes() == before


def test_validate_with_a_file_open_for_writing_leaves_a_sound_disk(tmp_path: Path) -> None:
    """tests/data/drive/validate-open: V deletes the open file; its CLOSE then writes
    nothing, so the disk written back is the one VICE's 1541 left (OLD and MORE)."""
    image = tmp_path / "d.d64"
    assert CliRunner().invoke(main, ["d64", "create", str(image)]).exit_code == 0
    program = tool.DRIVE_DATA / "validate-open.bas"
    result = CliRunner().invoke(main, ["run", str(program), "--disk", str(image), "--write-disk"])
    assert result.exit_code == 0, result.output
    assert "written back" in result.stderr
    assert names_on(image) == ["OLD", "MORE"]
    assert CliRunner().invoke(main, ["d64", "validate", str(image)]).exit_code == 0
