"""How far a run has got: the progress line of ``c64tc run`` on a terminal, and the
words the summary uses when the run is stopped by hand.

A run can take long (``10 goto 10`` never ends): the progress line on standard error
says where the program is (its BASIC line, or the machine code's address), the work
done and the C64 time that took, read from the run's one clock
(:meth:`toolchain.c64.run.Session.clock`).  It is shown only when standard error is a
terminal, even when standard output is piped (``c64tc run l.bas >out``), and only
when nothing else writes to that terminal while the program runs (the live screen,
the line teletype, the monitor, a trace).
"""

from __future__ import annotations

import sys
import time
from typing import Any

import click

from toolchain.c64.outcome import PAL_CLOCK_HZ
from toolchain.diagnostics import counted

#: how often machine code is looked at (cycles: about a tenth of a second of C64 time)
LOOK_EVERY_CYCLES = 100_000
#: how often the line is redrawn at most (seconds of the host's time)
REDRAW_SECONDS = 0.1
CURLIN = 0x39  # BASIC's current line number; $FFxx in direct mode ($39/$3A)


def c64_time(cycles: int) -> str:
    """A stretch of a PAL C64's time as a person reads it: seconds, minutes or hours."""
    seconds = cycles / PAL_CLOCK_HZ
    if seconds < 120:
        return f"{seconds:.2f} s"
    if seconds < 7200:
        return f"{seconds / 60:.1f} minutes"
    return f"{seconds / 3600:.1f} hours"


class RunProgress:
    """The progress line of ``session``'s run (``compiled_basic``: the BASIC runner runs
    it, counting statement groups; else 6502 code, the program's or the ROM's BASIC)."""

    def __init__(self, session: Any, compiled_basic: bool, shown: bool) -> None:
        self.session = session
        self.compiled_basic = compiled_basic
        self.shown = shown
        self.line: int | None = None  # the BASIC line the runner last reported
        self.drawn = False
        self.last = 0.0
        self._ticker: Any = None

    def where(self) -> str:
        """Where the run is and what it has done: ``line 10: 1,234 statement groups,
        0.05 s of C64 time``, ``$C003: 12,345,678 cycles, 12.53 s of C64 time``."""
        machine = self.session.machine
        clock = self.session.clock()
        if self.compiled_basic:
            runtime = self.session.runtime
            done = runtime.statements if runtime is not None else 0
            place = f"line {self.line}" if self.line is not None else "BASIC"
            return f"{place}: {counted(done, 'statement group')}, {c64_time(clock)} of C64 time"
        place = f"${machine.cpu.pc:04X}"
        if self.session.program.is_basic:  # BASIC in ROM: the line it is running
            line = machine.memory[CURLIN] | machine.memory[CURLIN + 1] << 8
            if line >> 8 != 0xFF:
                place = f"line {line}"
        return f"{place}: {counted(clock, 'cycle')}, {c64_time(clock)} of C64 time"

    def basic(self, done: int, line: int) -> None:
        """The BASIC runner's report (every so many statement groups)."""
        self.line = line
        self.tick()

    def tick(self) -> None:
        """Redraw the line, if it is shown and its time has come."""
        if not self.shown:
            return
        now = time.monotonic()
        if now - self.last < REDRAW_SECONDS:
            return
        self.last = now
        self.drawn = True  # before: a Ctrl-C while it is drawn still takes it away
        click.echo("\r\x1b[K" + self.where(), nl=False, err=True)

    def before(self, read_line: Any) -> Any:
        """``read_line`` (the line teletype's, None for none) taking the progress line
        away before the player types."""
        if read_line is None or not self.shown:
            return read_line

        def read_after_clearing() -> str | None:
            self.clear()
            return read_line()

        return read_after_clearing

    def clear(self) -> None:
        """Take the line off the terminal (before the summary, or a prompt)."""
        if self.drawn:
            click.echo("\r\x1b[K", nl=False, err=True)
            sys.stderr.flush()
            self.drawn = False

    def __enter__(self) -> RunProgress:
        """Machine code (and BASIC in ROM) is looked at every LOOK_EVERY_CYCLES cycles."""
        if self.shown and not self.compiled_basic:
            from toolchain.c64.io import Ticker

            machine = self.session.machine
            self._ticker = Ticker(LOOK_EVERY_CYCLES, self.tick, machine.cpu.cycles)
            machine.io.tickers.append(self._ticker)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._ticker is not None:
            self.session.machine.io.tickers.remove(self._ticker)
            self._ticker = None
        self.clear()
