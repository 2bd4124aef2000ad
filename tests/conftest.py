from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
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
    """Run ``c64tc arguments`` on a pseudo-terminal, typing each answer when the
    program has had time to ask; the exit status and the non-empty lines shown."""
    import os
    import pty
    import select
    import subprocess
    import sys
    import time

    master, slave = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "toolchain", *arguments],
                               stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    output = b""

    def read_for(seconds: float) -> bool:
        """Read what the program shows for ``seconds``; whether anything came."""
        nonlocal output
        before = len(output)
        end = time.time() + seconds
        while time.time() < end:
            if select.select([master], [], [], 0.05)[0]:
                try:
                    output += os.read(master, 4096)
                except OSError:
                    break
        return len(output) > before

    def wait_for_prompt(start: int) -> None:
        """Until something came after ``start`` (the program's first words, or the
        echo of the last answer) and then all went quiet for a while: the program
        waits.  Robust on a loaded machine, where start-up is slow."""
        deadline = time.time() + 20
        while len(output) <= start and time.time() < deadline:
            read_for(0.1)
        while read_for(0.4) and time.time() < deadline:
            pass

    shown = 0
    for answer in answers:
        wait_for_prompt(shown)
        shown = len(output)
        os.write(master, answer.encode() + b"\r")
    # everything the program shows until it ends (a loaded machine starts Python slowly:
    # a fixed pause lost the last lines), then what is still in the terminal's buffer
    deadline = time.time() + 20
    while process.poll() is None and time.time() < deadline:
        read_for(0.1)
    read_for(0.2)
    returncode = process.wait(timeout=20)
    os.close(master)
    lines = output.decode(errors="replace").replace("\r", "").split("\n")
    return returncode, [line.rstrip() for line in lines if line.strip()]
