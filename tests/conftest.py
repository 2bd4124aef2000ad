from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
DATA = Path(__file__).resolve().parent / "data"


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

    def wait_for_prompt(start: int, patience: float) -> None:
        """Until the program has shown something after ``start`` (for at most ``patience``
        seconds: some programs ask again without printing) and then gone quiet: robust
        on a loaded machine, where start-up is slow."""
        deadline = time.time() + patience
        while len(output) <= start and time.time() < deadline:
            read_for(0.1)
        while read_for(0.3) and time.time() < deadline:
            pass

    shown = 0
    for number, answer in enumerate(answers):
        wait_for_prompt(shown, 20 if number == 0 else 2)
        os.write(master, answer.encode() + b"\r")
        shown = len(output) + len(answer) + 2  # the terminal echoes the answer and a line break
    read_for(1.5)
    returncode = process.wait(timeout=20)
    os.close(master)
    lines = output.decode(errors="replace").replace("\r", "").split("\n")
    return returncode, [line.rstrip() for line in lines if line.strip()]
