"""User-facing diagnostics: ``FILE:LINE:COL: error: MESSAGE`` plus the source line and
a caret, as 64tass and gcc print them (editors jump to the place on a click)."""

from __future__ import annotations

from dataclasses import dataclass, field

import click


@dataclass(frozen=True, slots=True)
class Diagnostic:
    path: str
    line: int  # 1-based line in the file; 0 when the problem concerns the whole file
    column: int  # 1-based; 0 when no column applies
    message: str
    severity: str = "error"
    source_line: str | None = None
    listing_line: int | None = None  # the listing's own line number (BASIC-style), if any

    def format(self) -> str:
        # where no file applies (an empty name or value as the place), the message
        # still starts with a place: the program's, as for messages about the command
        place = self.path or "c64tc"
        if self.line:
            place += f":{self.line}"
            if self.column:
                place += f":{self.column}"
        text = f"{place}: {self.severity}: {self.message}"
        if self.listing_line is not None:
            text += f" (line {self.listing_line})"
        if self.source_line is not None and self.column:
            shown, column = _window(self.source_line, self.column)
            prefix = "".join("\t" if c == "\t" else " " for c in shown[: column - 1])
            text += f"\n{shown}\n{prefix}^"
        elif self.source_line is not None and self.line:
            text += f"\n{_window(self.source_line, 1)[0]}"  # the whole line is in question: no caret
        return text


SHOWN_LINE = 160  # a longer source line is shown around the column, not whole


def _window(line: str, column: int) -> tuple[str, int]:
    """The part of ``line`` to show around ``column`` (1-based), and the column in it."""
    if len(line) <= SHOWN_LINE:
        return line, column
    start = max(0, min(column - 1 - SHOWN_LINE // 2, len(line) - SHOWN_LINE))
    shown = ("..." if start else "") + line[start : start + SHOWN_LINE]
    if start + SHOWN_LINE < len(line):
        shown += "..."
    return shown, column - start + (3 if start else 0)


@dataclass
class UserError(Exception):
    """A mistake in the user's input: reported as messages, never as a traceback."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(self.report())

    @classmethod
    def single(cls, path: str, message: str, line: int = 0, column: int = 0, **kwargs: object) -> UserError:
        return cls([Diagnostic(path, line, column, message, **kwargs)])  # type: ignore[arg-type]

    def report(self) -> str:
        return "\n".join(d.format() for d in self.diagnostics)


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``1 error``, ``2 errors``, ``1,000 statement groups``: a count with its noun in
    the right number (``plural`` where adding an s is wrong)."""
    if number == 1:
        return f"1 {noun}"
    return f"{number:,} {plural or noun + 's'}"


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
