"""What every command shares: user errors as messages, number options, progress."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from toolchain.diagnostics import UserError, counted, print_diagnostics
from toolchain.fileio import STDIO, write_atomic

if TYPE_CHECKING:
    from toolchain.disk.prg import Prg

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


def default_output(stem: str, sources: list[str]) -> str:
    """Where a command's PRG goes without -o (``tok``, ``asm``).  In a c64tc project
    (``sources/manifest.toml`` in the current folder): ``build/STEM.prg``, beside what
    ``c64tc build`` makes (the folder made as the build makes it).  Elsewhere:
    ``STEM.prg`` in the current folder, as compilers write theirs (64tass's a.out,
    gcc -c's foo.o): no new folder anywhere (``./build/`` appeared wherever one was).
    In a project's sources folder nothing is written (c64tc never writes into
    ``sources/``), nor over a source."""
    from toolchain.fileio import make_folder

    if Path("sources", "manifest.toml").is_file():
        return str(make_folder("build") / f"{stem}.prg")
    if Path("manifest.toml").is_file():
        raise click.UsageError("this folder holds a c64tc manifest (a project's sources): c64tc writes "
                               "nothing here; give -o FILE, or run it from the project's folder (build/ is "
                               "there)")
    output = f"{stem}.prg"
    if any(source != "-" and Path(source).resolve() == Path(output).resolve() for source in sources):
        raise click.UsageError(f"the output {output} would replace the source: give -o FILE")
    return output


def write_made_prg(prg: Prg, output: str | None, source: str) -> None:
    """Write the PRG made of ``source`` (a type-in listing or dump) to ``output``: by
    default where ``tok`` writes (default_output), or standard output when ``source``
    is; then say where it went and what it holds."""
    if output is None:
        output = STDIO if source == STDIO else default_output(Path(source).stem, [source])
    write_atomic(output, prg.to_bytes(), inputs=[source])
    where = "standard output" if output == STDIO else output
    click.echo(f"{where}: ${prg.load_address:04X}-${prg.end_address - 1:04X}, "
               f"{counted(len(prg.data), 'byte')} (+2 load address)", err=True)


class OutOfRange(ValueError):
    pass


class UnprefixedHex(ValueError):
    """Hex digits without ``$`` or ``0x``: the reason, and what to write."""


def parse_number(value: str) -> int:
    """A number as every option takes it: decimal (13312), or hex with ``$`` or ``0x``
    ($3400, 0x3400).  Hex digits without a prefix (``abc``, or ``0801``, the old form of
    --load-address) are an error that names both readings: guessing made ``--sys abc``
    $0ABC."""
    text = value.strip().lower().replace("_", "")
    if text.startswith(("$", "0x")):
        digits = text.removeprefix("$").removeprefix("0x")
        if not digits or len(digits) > 16 or any(c not in "0123456789abcdef" for c in digits):
            raise ValueError(value)
        return int(digits, 16)
    if len(text) > 16:
        raise OutOfRange("too large")
    if text.isdigit() and not (text.startswith("0") and len(text) > 1):
        return int(text)
    if text and all(c in "0123456789abcdef" for c in text):
        decimal = f" or {int(text)} in decimal" if text.isdigit() else ""
        raise UnprefixedHex(f"numbers are decimal; write ${text} or 0x{text} for hex ({int(text, 16)})"
                            f"{decimal}")
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
            except UnprefixedHex as exc:
                self.fail(f"{value!r} is not {self.hint}: {exc}", param, ctx)
            except ValueError:
                self.fail(f"{value!r} is not {self.hint}", param, ctx)
        if not self.low <= number <= self.high:
            hexadecimal = self.high == 0xFFFF
            shown = f"${self.low:04X}-${self.high:04X}" if hexadecimal else f"{self.low}-{self.high:,}"
            self.fail(f"{value!r} is outside {shown}", param, ctx)
        return number


#: how every --input reads (toolchain.c64.keyboard.typed_keys)
TYPED_INPUT = ("RETURN is '|', a line break or \\n; \\xNN types the PETSCII code NN, \\\\ the pound key "
               "(VICE's -keybuf escapes).")

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


class ForeignNames(click.Group):
    """A command group that answers another tool's command names with c64tc's own:
    ``c64tc d64 write`` (c1541's ``-write``) says which command adds a file, where click
    offered ``create`` and ``rename`` for ``read``.  ``FOREIGN`` maps a name (without
    its dash) to the tool it comes from and the c64tc command line that does its work;
    a name c64tc has as well is answered only in the tool's dashed form (``-list``)."""

    FOREIGN: dict[str, tuple[str, str]] = {}

    def _refuse_foreign(self, ctx: click.Context, given: str) -> None:
        word = given.lstrip("-").lower()
        if word not in self.FOREIGN or (given == word and word in self.commands):
            return
        tool, ours = self.FOREIGN[word]
        what = "option" if given.startswith("-") else "command"
        ctx.fail(f"No such {what} '{given}'.  {tool}'s -{word} here: {ours}")

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0].startswith("-") and len(args[0]) > 2:
            self._refuse_foreign(ctx, args[0])
        return super().parse_args(ctx, args)

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        if args:
            self._refuse_foreign(ctx, args[0])
        return super().resolve_command(ctx, args)


class ForeignOptions(click.Command):
    """A command that answers another tool's options with its own: ``tok -w2`` (petcat's)
    or ``asm -L list.txt`` (64tass's listing) say what to write here, where click said
    only "No such option '-w'".  ``foreign`` maps an option as typed (``-w2``; or as
    click names it, ``-w``) to the tool and what does its work here; only an option
    click refuses is looked up."""

    def __init__(self, *args: Any, foreign: dict[str, tuple[str, str]] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.foreign = foreign or {}

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        given = list(args)  # click's parser takes the words off the list it is given
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as exc:
            name = exc.option_name
            typed = next((a for a in given if a.startswith(name) and a.split("=")[0] in self.foreign),
                         name)  # -w2 typed, -w refused
            key = typed.split("=")[0] if typed.split("=")[0] in self.foreign else name
            if key not in self.foreign:
                raise
            tool, ours = self.foreign[key]
            raise click.UsageError(f"No such option '{key}'.  {tool}'s {key} here: {ours}", ctx) from None


def sys_of_first_line(data: bytes) -> tuple[int, int] | None:
    """The line number and the address of a SYS that begins the program's first line
    (``10 SYS 2061``, ``SYS(2061)``: the stub 64tass and ACME sources put before their
    machine code), or None.  ``data`` is a PRG's bytes after the load address."""
    import re

    if len(data) < 5:
        return None
    number = data[2] | data[3] << 8
    found = re.match(rb" *\x9e *\(? *(\d{1,5})", data[4:].split(b"\0", 1)[0])
    if found is None or int(found[1]) > 0xFFFF:
        return None
    return number, int(found[1])


def not_built(path: str, what: str) -> UserError:
    """The error for a default input of a c64tc project (``build/seeds.d64``) that is not
    there: in a project, build it first; elsewhere there is no project to build, and
    the command wants ``what`` named."""
    if Path("sources", "manifest.toml").is_file():
        return UserError.single(path, "not built yet: run c64tc build first")
    return UserError.single(path, "no such file, and no c64tc project here to build it "
                            f"(sources/manifest.toml): give {what}")

