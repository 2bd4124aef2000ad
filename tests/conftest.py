from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(autouse=True)
def _no_rom_discovery(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests run the machine on c64tc's own models, as CI does (CI has no ROMs), even
    where a VICE with its ROMs is installed; tests marked ``vice_roms`` look for them."""
    if "vice_roms" not in request.keywords:
        monkeypatch.setenv("C64TC_ROMS", "none")


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
    read_for(1.5)
    returncode = process.wait(timeout=20)
    os.close(master)
    lines = output.decode(errors="replace").replace("\r", "").split("\n")
    return returncode, [line.rstrip() for line in lines if line.strip()]
