"""What tripped a new user in the first hour (issue 26): each trip-up, as it now goes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.conftest import DATA, c64_roms
from toolchain.asm import assemble
from toolchain.cli import main
from toolchain.disk import Prg

SYS_RETURN = DATA / "sys-return"


def c64tc(*args: str | Path, input: str | bytes | None = None) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def _program(name: str) -> Prg:
    """The machine code of tests/data/sys-return/measure.py's program ``name``."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("sys_return_measure", SYS_RETURN / "measure.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    program = assemble(module.PROGRAMS[name], f"{name}.asm")
    return Prg(program.start, program.image)


# -- 7. the screen after SYS returns: READY. and the cursor, as VICE shows them ------------------

@pytest.mark.parametrize("name", ["prints-a", "prints-line", "silent"])
@pytest.mark.parametrize("roms", [False, True], ids=["models", "roms"])
def test_sys_typed_at_ready_ends_at_ready_as_on_vice(name: str, roms: bool) -> None:
    """`run --sys 49152 --boot`: the banner, SYS typed, the program's output, then
    READY. with the cursor below it, row for row as VICE 3.10 with the original ROMs
    (tests/data/sys-return, measured by its measure.py)."""
    from toolchain.c64.run import Session, Stop, program_from_prg

    session = Session(program_from_prg(_program(name), name, sys_address=0xC000),
                      roms=c64_roms() if roms else None, boot=True)
    result = session.run()
    session.ready_after_return(result)
    assert result.stop is Stop.RETURNED
    vice = (SYS_RETURN / f"{name}.vice.txt").read_text().splitlines()
    assert session.machine.screen.text().splitlines() == [row.rstrip() for row in vice]
    measured = json.loads((SYS_RETURN / f"{name}.vice.json").read_text())
    assert session.machine.editor.cursor() == (measured["cursor_row"], measured["cursor_column"])


def test_run_sys_prints_ready_after_the_program(tmp_path: Path) -> None:
    prg = tmp_path / "a.prg"
    prg.write_bytes(_program("prints-a").to_bytes())
    result = c64tc("run", prg, "--sys", "49152")
    assert result.exit_code == 0
    assert result.stdout == "A\nREADY.\n"
    screen = c64tc("run", prg, "--sys", "49152", "--screen").stdout.splitlines()
    assert screen[:2] == ["A", "READY."]


def test_a_basic_program_on_the_roms_goes_on_after_its_sys(tmp_path: Path) -> None:
    """With BASIC in ROM (--boot with the ROMs), a SYS that returns goes on to the next
    statement; it used to end the whole run there."""
    listing = tmp_path / "s.bas"
    listing.write_text('10 poke 49152,96:sys 49152\n20 print "after"\n')
    from tests.conftest import c64_rom_folder

    result = c64tc("run", listing, "--roms", c64_rom_folder(), "--boot")
    assert result.exit_code == 0
    assert "AFTER\n\nREADY." in result.stdout
    assert "program ended" in result.stderr
