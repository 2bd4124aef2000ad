"""The tests' one pseudo-terminal harness: a program run as a user runs it, on a
terminal of its own, typed to and read from.

:class:`PseudoTerminal` starts the program with the terminal as its standard input,
output and error (and as its controlling terminal, so Ctrl-C is SIGINT as for a
user), keeps everything it shows in ``output`` and, given a size, in a model of the
terminal's screen (:class:`Screen`: cursor addressing, clearing, text and each cell's
background colour).  It types raw keys (``type``) or a line when the program waits for
one (``answer``), and reads until a condition holds, the program ends, or a deadline.

Nothing waits for a fixed time: a loaded machine starts Python slowly, and a pause
that is long enough on an idle one loses output there.  Each wait reads until what
it waits for is there and fails at ``DEADLINE`` (which a passing test never reaches).
Whether the program waits for typed input is asked of the kernel (Linux's /proc: a
sleep in a terminal read or a select), elsewhere guessed from a quiet terminal.
"""

from __future__ import annotations

import builtins
import codecs
import contextlib
import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType

REPO = Path(__file__).resolve().parent.parent

#: how long any one wait may take before the test fails (only a failing test waits that long)
DEADLINE = 60.0
#: where a program sleeps (Linux's /proc/PID/wchan) while it waits for the terminal: a read
#: (input() without readline), or a select or poll on it (readline, the live screen's keys)
_WAITING_IN = ("wait_woken", "n_tty_read", "poll_schedule_timeout", "do_select", "do_sys_poll",
               "core_sys_select")
#: the system calls (Linux's /proc/PID/syscall: its number, then its arguments) of such a
#: wait, by machine: a read of standard input, a poll or a select.  A write to the terminal
#: that waits for the reader sleeps in "wait_woken" too: under load that looked like a wait
#: for input, and a line was typed before the program had shown all its output
_WAIT_CALLS = {"x86_64": (0, frozenset({7, 23, 270, 271})), "aarch64": (63, frozenset({72, 73}))}


def set_size(fd: int, columns: int, lines: int, pixels: tuple[int, int] = (0, 0)) -> None:
    """The terminal's size, as a window of that size gives it (TIOCSWINSZ): cells, and
    the window's width and height in pixels where the terminal says them."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, *pixels))


@contextlib.contextmanager
def pty_pair(columns: int | None = None, lines: int | None = None) -> Iterator[tuple[int, int]]:
    """A pseudo-terminal's two ends (the user's, the program's), closed afterwards."""
    master, slave = pty.openpty()
    try:
        if columns is not None and lines is not None:
            set_size(slave, columns, lines)
        yield master, slave
    finally:
        os.close(master)
        os.close(slave)


def read_available(fd: int, quiet: float = 0.05) -> bytes:
    """What has arrived at ``fd``, until nothing more comes for ``quiet`` seconds."""
    data = b""
    while select.select([fd], [], [], quiet)[0]:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the other end is closed
            break
        if not chunk:
            break
        data += chunk
    return data


_SEQUENCE = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])|\x1b[^\[]|[\x00-\x1f]|[^\x00-\x1f\x1b]+")


class Screen:
    """Enough of a terminal for the live screen: cursor addressing (CSI H), clearing
    (CSI 2J, CSI K), the alternate screen (CSI ?1049h/l), text, and the background
    colour (24-bit SGR) of every cell."""

    def __init__(self, columns: int, lines: int) -> None:
        self.columns, self.lines = columns, lines
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.pending = ""
        self.row = self.column = 0
        self.background: tuple[int, ...] | None = None
        self.clear()

    def clear(self) -> None:
        self.cells = [[(" ", self.background)] * self.columns for _ in range(self.lines)]

    def feed(self, data: bytes) -> None:
        text = self.pending + self.decoder.decode(data)
        position = 0
        while position < len(text):
            match = _SEQUENCE.match(text, position)
            if match is None or (text[position] == "\x1b" and match.end() == len(text)
                                 and match.group(2) is None):
                break  # an escape sequence not complete yet
            position = match.end()
            self._one(match)
        self.pending = text[position:]

    def _one(self, match: re.Match[str]) -> None:
        token = match.group(0)
        if match.group(2) is not None:
            parameters, final = match.group(1), match.group(2)
            if final == "H":
                row, _, column = parameters.partition(";")
                self.row, self.column = int(row or 1) - 1, int(column or 1) - 1
            elif final == "J":
                self.clear()
            elif final == "K":
                for column in range(self.column, self.columns):
                    self.cells[self.row][column] = (" ", self.background)
            elif final == "m":
                numbers = [int(part) for part in parameters.split(";") if part]
                if numbers in ([], [0]):
                    self.background = None
                for index in range(len(numbers) - 4):
                    if numbers[index : index + 2] == [48, 2]:
                        self.background = tuple(numbers[index + 2 : index + 5])
            elif final in "hl" and parameters == "?1049":
                self.clear()
        elif token == "\r":
            self.column = 0
        elif token == "\n":
            self.row = min(self.row + 1, self.lines - 1)
        elif not token.startswith("\x1b") and token >= " ":
            for char in token:
                if self.column < self.columns:
                    self.cells[self.row][self.column] = (char, self.background)
                    self.column += 1

    def text(self, row: int, start: int = 0, end: int | None = None) -> str:
        """One row's characters (from ``start`` to ``end``), trailing spaces removed."""
        return "".join(char for char, _ in self.cells[row][start:end]).rstrip()


def cpu_seconds(pid: int) -> float | None:
    """The processor time process ``pid`` has used (Linux's /proc), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _controlling_terminal() -> None:
    """In the child: a session of its own with the terminal as its controlling one."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class PseudoTerminal:
    """``command`` on a pseudo-terminal of its own (``size``: its columns and lines,
    ``pixels`` the window's; ``screen``: the model of the terminal's screen kept in
    ``screen``, None for none)."""

    def __init__(self, command: Sequence[str], *, size: tuple[int, int] | None = None,
                 pixels: tuple[int, int] = (0, 0), environment: Mapping[str, str] | None = None,
                 controlling: bool = True, screen: builtins.type[Screen] | None = Screen) -> None:
        self.master, self.slave = pty.openpty()
        self.screen: Screen | None = None
        if size is not None:
            set_size(self.slave, *size, pixels)
            self.screen = screen(*size) if screen is not None else None
        self.attributes = termios.tcgetattr(self.slave)
        self.output = b""
        self.started = time.monotonic()  # when the program was started, for tests of its pace
        settings = dict(os.environ, PYTHONPATH=str(REPO))
        settings.update(environment or {})
        self.process = subprocess.Popen(list(command), cwd=REPO, stdin=self.slave, stdout=self.slave,
                                        stderr=self.slave, env=settings, close_fds=True,
                                        preexec_fn=_controlling_terminal if controlling else None)

    @classmethod
    def c64tc(cls, *arguments: str, **options: object) -> PseudoTerminal:
        """``c64tc ARGUMENTS``, as ``python -m toolchain``."""
        return cls([sys.executable, "-m", "toolchain", *arguments], **options)  # type: ignore[arg-type]

    # -- reading ---------------------------------------------------------------------------------
    def read(self, seconds: float = 0.05) -> bool:
        """What the program shows within ``seconds`` (less once it has shown something
        and paused); whether anything came."""
        before = len(self.output)
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if not select.select([self.master], [], [], max(0.0, min(left, 0.02)))[0]:
                if left <= 0 or len(self.output) > before:
                    break
                continue
            try:
                data = os.read(self.master, 65536)
            except OSError:  # every program on the terminal has ended
                break
            self.output += data
            if self.screen is not None:
                self.screen.feed(data)
        return len(self.output) > before

    def describe(self) -> str:
        """What a failed wait shows: the screen, or the end of the output."""
        if self.screen is not None:
            return "the screen shows\n" + "\n".join(self.screen.text(row) for row in range(self.screen.lines))
        return f"the output ends {self.output[-600:]!r}"

    def wait_until(self, what: str, check: Callable[[], bool], seconds: float = DEADLINE) -> None:
        """Read until ``check()`` holds; fail after ``seconds`` saying ``what`` should have."""
        end = time.monotonic() + seconds
        while not check():
            assert time.monotonic() < end, f"{what} (after {seconds:.0f} s); {self.describe()}"
            self.read()

    def wait_for(self, text: bytes, seconds: float = DEADLINE) -> bytes:
        """Read until ``text`` is shown (counting from now); what was shown since."""
        start = len(self.output)
        self.wait_until(f"{text!r} should be shown", lambda: text in self.output[start:], seconds)
        return self.output[start:]

    def finish(self, seconds: float = DEADLINE) -> int:
        """Read until the program ends (it is killed and the test fails after
        ``seconds``), then what is still on its way; the exit status."""
        end = time.monotonic() + seconds
        while self.process.poll() is None:
            if time.monotonic() > end:
                self.process.kill()
                self.process.wait()
                raise AssertionError(f"the program did not end within {seconds:.0f} s; {self.describe()}")
            self.read()
        self.read_rest()
        return self.process.returncode

    def read_rest(self) -> None:
        """What the terminal still holds for the reader once the program has ended."""
        while self.read(0.05):
            pass

    def lines(self) -> list[str]:
        """The lines shown that are not empty, without their trailing spaces."""
        text = self.output.decode(errors="replace").replace("\r", "")
        return [line.rstrip() for line in text.split("\n") if line.strip()]

    # -- the program's state ---------------------------------------------------------------------
    def waiting_for_input(self) -> bool:
        """Whether the program sleeps until the terminal sends something (Linux's
        /proc); elsewhere, whether it has shown nothing for half a second."""
        pid = self.process.pid
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            where = Path(f"/proc/{pid}/wchan").read_text().strip()
        except (OSError, IndexError):
            return self.process.poll() is None and not self.read(0.5)
        # asleep in a terminal read, and what was typed before has been read: just after a
        # line is typed the program still sleeps in the read it has not returned from yet
        return (state == "S" and where.startswith(_WAITING_IN) and self._in_a_wait_for_input(pid)
                and not self._typed_but_unread() and not self.read(0.02))

    @staticmethod
    def _in_a_wait_for_input(pid: int) -> bool:
        """Whether the system call the program sleeps in reads standard input or polls
        (Linux's /proc/PID/syscall; True where it cannot be told)."""
        calls = _WAIT_CALLS.get(os.uname().machine)
        try:
            fields = Path(f"/proc/{pid}/syscall").read_text().split()
        except OSError:
            return True
        if calls is None or not fields or not fields[0].isdigit():
            return True
        read, polls = calls
        number = int(fields[0])
        return (number == read and len(fields) > 1 and int(fields[1], 16) == 0) or number in polls

    def _typed_but_unread(self) -> int:
        """The bytes typed that the program has not read yet (the terminal's input queue)."""
        pending = fcntl.ioctl(self.slave, termios.FIONREAD, struct.pack("i", 0))
        return int(struct.unpack("i", pending)[0])

    def wait_until_busy(self, cpu: float = 0.3, seconds: float = DEADLINE) -> None:
        """Until the program has computed ``cpu`` more seconds (it took what was typed
        and runs); without /proc, until it no longer waits for input."""
        before = cpu_seconds(self.process.pid)
        if before is None:
            self.wait_until("the program should run", lambda: not self.waiting_for_input(), seconds)
            return
        self.wait_until(f"the program should compute for {cpu} s",
                        lambda: (cpu_seconds(self.process.pid) or 0.0) - before >= cpu, seconds)

    def restored(self) -> bool:
        """Whether the terminal's settings are back to what they were at the start."""
        return termios.tcgetattr(self.slave) == self.attributes

    # -- typing ----------------------------------------------------------------------------------
    def type(self, keys: bytes) -> None:
        """Keys as the terminal sends them (raw: no RETURN added)."""
        os.write(self.master, keys)

    def answer(self, line: str) -> None:
        """``line`` and RETURN, once the program waits for it."""
        self.wait_until(f"the program should wait for {line!r} to be typed", self.waiting_for_input)
        self.type(line.encode() + b"\r")

    # -- the end ---------------------------------------------------------------------------------
    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)
        os.close(self.slave)

    def __enter__(self) -> PseudoTerminal:
        return self

    def __exit__(self, kind: builtins.type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
