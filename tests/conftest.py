from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

# Every property test derandomized (the same examples on every run, no example database
# carried from run to run): a test that passes by luck is no test.  A test's own
# @settings keeps this unless it says otherwise.
settings.register_profile("c64tc", derandomize=True, database=None)
settings.load_profile("c64tc")

#: The long fuzzing runs (``-m slow``: test_fuzz.py, test_disk_fuzz.py) are derandomized
#: too, so that CI fails only on a change; ``C64TC_FUZZ_RANDOM=1`` makes them draw new
#: examples each run, to look for what the fixed ones miss (a failure prints the
#: ``@reproduce_failure`` line to make it a fixed example).
FUZZ_RANDOM = os.environ.get("C64TC_FUZZ_RANDOM", "") not in ("", "0")

if TYPE_CHECKING:
    from toolchain.c64.machine import C64
    from toolchain.c64.outcome import RunResult
    from toolchain.c64.roms import RomSet

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
DATA = Path(__file__).resolve().parent / "data"


#: the C64's ROMs for tests (KERNAL 901227-03, BASIC 901226-01, character ROM 901225-01 and
#: the 1541's DOS), beside the repository as CI has them; never copied into the repository
SHARED_ROMS = SHARED / "roms"


@pytest.fixture(autouse=True)
def _no_rom_discovery(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests run the machine on c64tc's own models, even where a VICE with its ROMs is
    installed; tests marked ``vice_roms`` compare with the ROMs: c64tc's own search
    (a command line without ``--roms``) then finds the ones ``c64_roms()`` gives, those
    of ../shared/roms, as CI has them."""
    if "vice_roms" not in request.keywords:
        monkeypatch.setenv("C64TC_ROMS", "none")
    elif SHARED_ROMS.is_dir():
        monkeypatch.setenv("C64TC_ROMS", str(SHARED_ROMS))


def c64_roms() -> RomSet:
    """The C64's ROMs for a test: ../shared/roms, else those c64tc finds itself (--roms's
    search: $C64TC_ROMS, a VICE on the PATH), else skip the test with the reason.  The one
    place tests get ROMs from."""
    from toolchain.c64.roms import find_roms

    found = find_roms(SHARED_ROMS) if SHARED_ROMS.is_dir() else None
    if found is None:
        configured = os.environ.get("C64TC_ROMS")
        if configured is None or configured.lower() != "none":
            found = find_roms()
    if found is None:
        pytest.skip(f"the C64's ROMs are absent: {SHARED_ROMS} is missing (or set C64TC_ROMS to a "
                    "folder with them)")
    return found


def basic_in_rom(source: str, tmp_path: Path, max_cycles: int = 50_000_000) -> tuple[RunResult, list[str]]:
    """A BASIC listing RUN by BASIC in ROM on c64tc's 6502 (the ROMs of ``c64_roms()``):
    how it ended, and the screen's rows after RUN that are not empty, as the compiled
    runner's ``printed_rows`` gives them."""
    from toolchain.c64.run import Keyboard, Session, load_program

    listing = tmp_path / "program.bas"
    listing.write_text(source)
    session = Session(load_program(listing), roms=c64_roms(), boot=True)
    result = session.run(Keyboard(""), max_cycles=max_cycles)
    rows = printed_rows(session.machine)
    return result, [row for row in rows[rows.index("RUN") + 1:] if row]


def printed_rows(machine: C64) -> list[str]:
    """The screen's rows that are not empty, without trailing spaces."""
    return [row.rstrip() for row in machine.screen.text().splitlines() if row.strip()]


def c64_rom_folder() -> Path:
    """The folder ``c64_roms()`` took the ROMs from (for ``--roms`` on a command line)."""
    return c64_roms().paths["kernal"].parent


def shared_path(*parts: str) -> Path:
    """A file from ../shared, or skip the test with the reason."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared data lives beside the repository)")
    return path


def play_on_terminal(arguments: list[str], answers: list[str]) -> tuple[int, list[str]]:
    """Run ``c64tc arguments`` on a pseudo-terminal (tests/pseudo_terminal.py), typing
    each answer when the program waits for a line; the exit status and the non-empty
    lines shown until it ended."""
    from tests.pseudo_terminal import PseudoTerminal

    with PseudoTerminal.c64tc(*arguments) as terminal:
        for answer in answers:
            terminal.answer(answer)
        return terminal.finish(), terminal.lines()
