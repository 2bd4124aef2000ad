"""What every command shares: user errors as messages, number options, progress."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

import click

from toolchain.diagnostics import Diagnostic, UserError


def print_diagnostics(diagnostics: list[Diagnostic]) -> None:
    for diagnostic in diagnostics:
        click.echo(diagnostic.format(), err=True)


def reports_user_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """User mistakes become messages and exit status 1, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except UserError as exc:
            print_diagnostics(getattr(exc, "warnings", []) + exc.diagnostics)
            count = sum(d.severity == "error" for d in exc.diagnostics)
            if count > 1:
                click.echo(f"{count} errors; no output written", err=True)
        sys.exit(1)

    return wrapper


def parse_address(value: str) -> int:
    """An address as users write it: $0801, 0x0801, or hex digits alone as petcat's -l."""
    address = int(value.strip().lower().removeprefix("$").removeprefix("0x"), 16)
    if not 0 <= address <= 0xFFFF:
        raise OutOfRange("outside $0000-$FFFF")
    return address


class OutOfRange(ValueError):
    pass


class IntegerType(click.ParamType):
    """A click parameter read by ``parse``; its ValueError becomes a usage message."""

    def __init__(self, name: str, parse: Callable[[str], int], hint: str) -> None:
        self.name = name
        self.parse = parse
        self.hint = hint

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        if isinstance(value, int):
            return value
        try:
            return self.parse(value)
        except OutOfRange as exc:
            self.fail(f"{value!r} is {exc}", param, ctx)
        except ValueError:
            self.fail(f"{value!r} is not {self.hint}", param, ctx)


ADDRESS = IntegerType("ADDRESS", parse_address, "a hex address like $0801")


def progress_printer() -> Callable[[str], None]:
    """A one-line progress display on a terminal; silent when output is piped."""
    if not sys.stderr.isatty():
        return lambda message: None

    def show(message: str) -> None:
        click.echo("\r\x1b[K" + message, nl=False, err=True)

    return show


def parse_number(value: str) -> int:
    """A number as C64 users write it: 13312, $3400 or 0x3400."""
    text = value.strip().lower()
    if text.startswith(("$", "0x")):
        return int(text.removeprefix("$").removeprefix("0x"), 16)
    return int(text)


NUMBER = IntegerType("NUMBER", parse_number, "a number (13312, $3400 or 0x3400)")


def progress_bar() -> Callable[[int, int], None]:
    """A progress bar on a terminal; nothing when standard error is piped."""
    if not sys.stderr.isatty():
        return lambda done, total: None

    def show(done: int, total: int) -> None:
        if total == 0:
            click.echo("\r\x1b[K", nl=False, err=True)
            return
        width = 40
        filled = width * done // total
        click.echo(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}", nl=False, err=True)

    return show
