"""The devices on the serial bus are VICE's default C64's: a 1541 on device 8, empty
unless a disk is given, and no printer (issue 21).  `c64tc run --disk` puts a disk in,
`--printer FILE` attaches a printer, `--no-drive` takes the drive away.

The reference is the device programs of tests/data/drive (empty-drive, printer,
printer-absent, no-drive ...), measured on VICE 3.10 with true drive emulation and the
same devices; tests/test_drive.py runs them on c64tc's KERNAL in Python.  Here they run
as the user runs them: through `c64tc run` with its default devices and options, on
the real ROMs (BASIC and the KERNAL on the 6502, the serial routines reaching the bus),
in direct mode, and in the build's dialogue checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import c64_rom_folder, c64_roms
from tests.test_corpus_screens import load_tool
from toolchain.c64.machine import C64
from toolchain.c64.run import Keyboard, Session, load_program
from toolchain.cli import main

tool = load_tool()
PLAN = tool.load_plan(tool.DRIVE_PLAN, tool.DRIVE_DATA, ".bas")
# the programs that need no disk: the devices alone
DEVICE_PROGRAMS = sorted(name for name, entry in PLAN.items() if not entry.disk)


def vice_rows(name: str) -> list[str]:
    return tool.load_measurement(tool.DRIVE_DATA, name).rows


def options_for(name: str, tmp_path: Path) -> list[str]:
    """The `c64tc run` options that give the program VICE's devices of its measurement."""
    entry = PLAN[name]
    options = [] if entry.drive else ["--no-drive"]
    if entry.printer:
        options += ["--printer", str(tmp_path / "printed.bin")]
    return options


def test_the_device_programs_are_the_plans_programs_without_a_disk() -> None:
    assert DEVICE_PROGRAMS == ["direct-empty-drive", "empty-drive", "no-drive", "no-drive-load", "printer",
                               "printer-absent", "printer-absent-open"]


@pytest.mark.parametrize("name", DEVICE_PROGRAMS)
def test_c64tc_run_has_vices_devices(name: str, tmp_path: Path) -> None:
    """`c64tc run PROGRAM` (with --no-drive or --printer where VICE had no drive or a
    printer) ends on VICE's screen, and the printer gets what VICE's got."""
    entry = PLAN[name]
    result = CliRunner().invoke(main, ["run", str(entry.source), "--screen", *options_for(name, tmp_path)])
    assert result.exit_code in (0, 1), result.output
    assert result.stdout.splitlines() == [row for row in vice_rows(name)]
    if entry.printer:
        assert (tmp_path / "printed.bin").read_bytes() == tool.load_measurement(tool.DRIVE_DATA, name).printer


@pytest.mark.vice_roms
@pytest.mark.parametrize("name", DEVICE_PROGRAMS)
def test_on_the_real_roms_the_devices_answer_as_on_vice(name: str) -> None:
    """BASIC and the KERNAL in ROM run the program (run --roms --boot): OPEN, CHKOUT,
    LOAD, SAVE reach the devices through the KERNAL's serial routines.  The programs
    clear the screen first, so the start-up screen and RUN are gone."""
    entry = PLAN[name]
    machine = C64(roms=c64_roms())
    session = Session(load_program(entry.source), machine=machine, boot=True)
    tool.attach_devices(machine, entry.devices, b"")
    result = session.run(Keyboard(entry.input), max_cycles=entry.cycles)
    assert machine.screen.text_rows() == vice_rows(name), result.message
    assert result.printer == tool.load_measurement(tool.DRIVE_DATA, name).printer


@pytest.mark.vice_roms
def test_run_with_the_roms_takes_the_device_options(tmp_path: Path) -> None:
    printed = tmp_path / "printed.bin"
    source = str(PLAN["printer"].source)
    result = CliRunner().invoke(main, ["run", source, "--roms", str(c64_rom_folder()), "--boot", "--screen",
                                       "--printer", str(printed)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == vice_rows("printer")
    assert printed.read_bytes() == tool.load_measurement(tool.DRIVE_DATA, "printer").printer
    source = str(PLAN["no-drive-load"].source)
    result = CliRunner().invoke(main, ["run", source, "--roms", str(c64_rom_folder()), "--boot", "--screen",
                                       "--no-drive"])
    assert result.stdout.splitlines() == vice_rows("no-drive-load")


def test_without_printer_device_4_is_not_there_and_the_message_says_how_to_attach_one(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["run", str(PLAN["printer-absent-open"].source)])
    assert result.exit_code == 1
    assert "?DEVICE NOT PRESENT  ERROR IN 10" in result.stdout
    assert "--printer FILE" in result.stderr


def test_the_builds_dialogue_checks_run_with_the_empty_drive() -> None:
    from toolchain.basic import tokenize_text
    from toolchain.build import _dialogue

    # the empty drive's answers (tests/data/drive/empty-drive: 73 at power-on, 74 for a file)
    program = tokenize_text('10 open15,8,15:input#15,a,b$,c,d:print a;b$;c;d\n'
                            '20 open2,8,2,"x":input#15,a,b$,c,d:print a;b$;c;d\n')
    assert vice_rows("empty-drive")[:2] == ["73,CBM DOS V2.6 1541,00,00 64", "74,DRIVE NOT READY,00,00 64"]
    expected = (" 73 CBM DOS V2.6 1541 0  0", " 74 DRIVE NOT READY 0  0")
    check = _dialogue(program, "devices", None, "", expected, None, 10_000_000)
    assert check.passed, check.detail


@pytest.mark.parametrize(("options", "complaint"), [
    (["--no-drive", "--disk", "DISK"], "--no-drive takes drive 8 away: --disk needs it"),
    (["--no-drive", "--write-disk"], "--no-drive leaves no drive"),
])
def test_no_drive_does_not_go_with_a_disk(options: list[str], complaint: str, tmp_path: Path) -> None:
    disk = tmp_path / "d.d64"
    assert CliRunner().invoke(main, ["d64", "create", str(disk)]).exit_code == 0
    arguments = [str(disk) if option == "DISK" else option for option in options]
    result = CliRunner().invoke(main, ["run", str(PLAN["no-drive"].source), *arguments])
    assert result.exit_code == 2 and complaint in result.output


def test_a_run_again_from_the_snapshot_starts_with_nobody_addressed(tmp_path: Path) -> None:
    """A run stopped while CMD 4 held a byte back (CIOUT sends each byte when the next
    comes) does not hand that byte to the next run of the same session."""
    from toolchain.c64.drive import Printer

    source = tmp_path / "p.bas"
    source.write_text('10 open4,4:cmd4:print"a";\n20 goto 20\n', encoding="utf-8")
    session = Session(load_program(source))
    session.machine.bus.attach(Printer(session.machine.printer))
    first = session.run(Keyboard(""), max_statements=100)
    second = session.run(Keyboard(""), max_statements=100)
    # CMD's RETURN went out when "A" came; "A" waits in the KERNAL's buffer, both times
    assert first.printer == second.printer == b"\r"
    assert session.machine.bus.deferred == ord("A")
