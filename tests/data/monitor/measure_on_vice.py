"""Measure VICE 3.10's monitor: run each ``NAME.mon`` script of this folder in x64sc's
remote monitor (headless, warp, the C64 booted to READY.) and keep what VICE printed as
``NAME.vice.txt``: the transcript, each command after its prompt as c64tc's scripted
monitor echoes it, then VICE's answer.  Files that ``s`` and ``bs`` write (device 0) land
in this folder as ``NAME.FILE`` beside.

    PATH=/opt/vice/bin:$PATH python tests/data/monitor/measure_on_vice.py [NAME ...]

A script's first line is a comment with x64sc's extra options (``; options: -8
disk.d64``); a disk image named there is made empty by ``c64tc d64 create``.  The remote monitor stops the
C64 in the screen editor's wait for a key ($E5CD-$E5D4); the scripts set up the memory
they look at themselves, so that c64tc's monitor, started on another program, is in
the same state for them (tests/test_monitor_vice.py).
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROMPT = re.compile(rb"(\(C:\$[0-9a-f]{4}\) |\.[0-9a-f]{4}  )$")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RemoteMonitor:
    """x64sc with its text remote monitor on a loopback port."""

    def __init__(self, emulator: str, options: list[str], folder: Path) -> None:
        self.port = _free_port()
        environment = dict(os.environ)
        for variable in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
            (folder / variable.lower() / "vice").mkdir(parents=True, exist_ok=True)
            environment[variable] = str(folder / variable.lower())
        self.process = subprocess.Popen(
            [emulator, "-default", "+sound", "-warp", "-remotemonitor", "-remotemonitoraddress",
             f"ip4://127.0.0.1:{self.port}", *options], cwd=folder, env=environment,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.connection = self._connect()

    def _connect(self) -> socket.socket:
        deadline = time.time() + 60
        while time.time() < deadline:
            time.sleep(2)  # the C64 boots meanwhile (warp)
            try:
                connection = socket.create_connection(("127.0.0.1", self.port), timeout=30)
            except OSError:
                continue
            self.connection = connection
            for _ in range(50):  # until it stops where the editor waits for a key
                opening = self.command("r")  # a line stops the C64: the monitor opens, then reads it
                if re.search(rb"\n\.;e5(c[d-f]|d[0-4]) ", opening):
                    return connection
                self.connection.sendall(b"x\n")
                time.sleep(0.2)
            raise RuntimeError("VICE never stopped in the editor's key wait")
        raise RuntimeError("x64sc's remote monitor did not answer")

    def _answer(self) -> bytes:
        """What VICE sends up to a prompt after which it stays quiet (0.3 s)."""
        data = b""
        while True:
            self.connection.settimeout(0.3 if PROMPT.search(data) else 30)
            try:
                chunk = self.connection.recv(65536)
            except TimeoutError:
                if PROMPT.search(data):
                    return data
                raise
            if not chunk:
                raise RuntimeError(f"VICE closed the connection after {data!r}")
            data += chunk

    def command(self, line: str) -> bytes:
        self.connection.sendall(line.encode("latin-1") + b"\n")
        return self._answer()

    def close(self) -> None:
        self.connection.close()
        self.process.kill()
        self.process.wait()


def measure(name: str, emulator: str) -> None:
    script = (HERE / f"{name}.mon").read_text()
    lines = script.splitlines()
    options = lines[0].split("options:", 1)[1].split() if lines and "options:" in lines[0] else []
    folder = Path(tempfile.mkdtemp(prefix="c64tc-monitor-vice-"))
    try:
        for option in options:
            if option.endswith(".d64"):  # an empty disk, as c64tc makes it
                subprocess.run([sys.executable, "-m", "toolchain", "d64", "create", str(folder / option)],
                               check=True, capture_output=True, cwd=HERE.parent.parent.parent)
        vice = RemoteMonitor(emulator, options, folder)
        try:
            transcript = b""
            for line in lines:
                if line.startswith(";"):
                    continue
                transcript += line.encode("latin-1") + b"\n" + vice.command(line)
        finally:
            vice.close()
        text = transcript.decode("latin-1")
        text = text[: PROMPT.search(transcript).start()] if PROMPT.search(transcript) else text  # type: ignore[union-attr]
        (HERE / f"{name}.vice.txt").write_text(text)
        for written in folder.iterdir():
            if written.is_file() and written.name not in options:
                shutil.copy(written, HERE / f"{name}.{written.name}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    emulator = shutil.which("x64sc")
    if emulator is None:
        sys.exit("x64sc is not on the PATH")
    names = sys.argv[1:] or sorted(path.stem for path in HERE.glob("*.mon"))
    for name in names:
        measure(name, emulator)
        print(f"{name}: measured")


if __name__ == "__main__":
    main()
