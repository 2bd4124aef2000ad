"""What every command shares: user errors as messages, number options, progress."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from toolchain.diagnostics import Diagnostic, UserError
from toolchain.fileio import STDIO, write_atomic

if TYPE_CHECKING:
    from toolchain.disk.prg import Prg

MAX_SHOWN = 20  # diagnostics of one severity shown; the rest are counted (as the assembler does)


def print_diagnostics(diagnostics: list[Diagnostic]) -> None:
    """The diagnostics, at most MAX_SHOWN of each severity, then how many more there were:
    a binary file given as a listing must not flood the terminal."""
    shown: dict[str, int] = {}
    hidden: dict[str, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        severity = diagnostic.severity
        if shown.get(severity, 0) < MAX_SHOWN:
            shown[severity] = shown.get(severity, 0) + 1
            click.echo(diagnostic.format(), err=True)
        else:
            hidden.setdefault(severity, []).append(diagnostic)
    for severity, rest in hidden.items():
        plural = "s" if len(rest) > 1 else ""
        note = f"and {len(rest)} more {severity}{plural} ({shown[severity] + len(rest)} in all)"
        click.echo(Diagnostic(rest[0].path, 0, 0, note, "note").format(), err=True)


def reports_user_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """User mistakes become messages and exit status 1, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except UserError as exc:
            print_diagnostics(getattr(exc, "warnings", []) + exc.diagnostics)
            # the assembler caps its own diagnostics; its errors attribute has them all
            count = sum(d.severity == "error" for d in getattr(exc, "errors", exc.diagnostics))
            if count > 1:
                click.echo(f"{count} errors; no output written", err=True)
        sys.exit(1)

    return wrapper


def write_made_prg(prg: Prg, output: str | None, source: str) -> None:
    """Write the PRG made of ``source`` (a type-in listing or dump) to ``output``: by
    default build/NAME.prg, or standard output when ``source`` is; then say where it
    went and what it holds."""
    if output is None:
        output = STDIO if source == STDIO else str(Path("build") / f"{Path(source).stem}.prg")
    write_atomic(output, prg.to_bytes())
    where = "standard output" if output == STDIO else output
    click.echo(f"{where}: ${prg.load_address:04X}-${prg.end_address - 1:04X}, {len(prg.data)} bytes "
               "(+2 load address)", err=True)


class OutOfRange(ValueError):
    pass


def parse_number(value: str) -> int:
    """A number as every option takes it: decimal (13312), or hex with ``$`` or ``0x``
    ($3400, 0x3400).  Hex digits without a prefix (the old form of --load-address,
    ``0801``) are still read as hex, with a warning."""
    text = value.strip().lower().replace("_", "")
    if text.startswith(("$", "0x")):
        digits = text.removeprefix("$").removeprefix("0x")
        if not digits or len(digits) > 16:
            raise ValueError(value)
        return int(digits, 16)
    if len(text) > 16:
        raise OutOfRange("too large")
    if text.isdigit() and not (text.startswith("0") and len(text) > 1):
        return int(text)
    if text and all(c in "0123456789abcdef" for c in text):
        click.echo(f"c64tc: warning: {value!r} is read as hex ${text.upper()}; write ${text} or "
                   f"0x{text} (hex without a prefix is deprecated: numbers are decimal)", err=True)
        return int(text, 16)
    raise ValueError(value)


class IntegerType(click.ParamType):
    """A number option (see :func:`parse_number`) within ``low``..``high``; a mistake is
    a usage message."""

    def __init__(self, name: str, low: int, high: int, hint: str) -> None:
        self.name = name
        self.low, self.high = low, high
        self.hint = hint

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        if isinstance(value, int):
            number = value
        else:
            try:
                number = parse_number(value)
            except OutOfRange:
                self.fail(f"{value!r} is too large", param, ctx)
            except ValueError:
                self.fail(f"{value!r} is not {self.hint}", param, ctx)
        if not self.low <= number <= self.high:
            hexadecimal = self.high == 0xFFFF
            shown = f"${self.low:04X}-${self.high:04X}" if hexadecimal else f"{self.low}-{self.high:,}"
            self.fail(f"{value!r} is outside {shown}", param, ctx)
        return number


ADDRESS = IntegerType("ADDRESS", 0, 0xFFFF, "an address (2049, $0801 or 0x0801)")
COUNT = IntegerType("COUNT", 1, 10**15, "a count (a whole number, 1 or more)")
COLOUR = IntegerType("COLOUR", 0, 15, "a colour number (0-15, or $0-$f)")


def progress_printer() -> Callable[[str], None]:
    """A one-line progress display on a terminal; silent when output is piped."""
    if not sys.stderr.isatty():
        return lambda message: None

    def show(message: str) -> None:
        click.echo("\r\x1b[K" + message, nl=False, err=True)

    return show


class ProgressBar:
    """click's progress bar (done/total, rate, time left) on a terminal's standard
    error; nothing when it is piped.  Called with (done, total) as work goes on;
    :meth:`close` ends it."""

    def __init__(self, label: str = "") -> None:
        self.label = label
        self.bar: Any = None
        self.done = 0
        self.shown = sys.stderr.isatty()

    def __call__(self, done: int, total: int) -> None:
        if not self.shown:
            return
        if self.bar is None:
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr,
                                         show_pos=True, show_eta=True, item_show_func=None)
            self.bar.__enter__()
        self.bar.update(done - self.done)
        self.done = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None
