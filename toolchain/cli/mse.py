"""``c64tc mse``: MSE V1 hex dumps."""

from __future__ import annotations

import click

from toolchain.cli.common import reports_user_errors, write_made_prg
from toolchain.diagnostics import UserError, counted
from toolchain.fileio import STDIO, write_atomic


@click.group("mse")
def mse_group() -> None:
    """MSE V1 hex dumps, as printed in the 64'er magazine."""


def _read_dump(argument: str, command: str) -> tuple[str, str]:
    """(name for messages, text) of a dump; a file of another kind is named, with the
    command that fits it.  Text that is no dump is left to the dump reader, which names
    every line it cannot read."""
    from toolchain.inputs import PRG_KINDS, Kind, as_text, read_input, shown_argument, wrong_kind

    file = read_input(argument)
    kind = file.kind.kind
    if kind not in (Kind.MSE_DUMP, Kind.TEXT, Kind.EMPTY):
        if kind is Kind.DISK_IMAGE:  # its programs can be made dumps
            raise wrong_kind(file, "an MSE dump", "mse fromprg", accept=PRG_KINDS)
        hint = ""
        if kind in PRG_KINDS or kind is Kind.BINARY:
            hint = f"`c64tc mse fromprg {shown_argument(argument)}` makes a dump of it"
        raise wrong_kind(file, "an MSE dump", command, hint)
    return file.name, as_text(file.data, file.name)


@mse_group.command("check")
@click.argument("dump_file", metavar="DUMP")
@reports_user_errors
def mse_check(dump_file: str) -> None:
    """Verify every line's checksum of DUMP ('-': standard input); report each bad line."""
    from toolchain import mse

    name, text = _read_dump(dump_file, "mse check")
    dump = mse.parse(text, name)
    problems = mse.check(dump)
    if problems:
        raise UserError(problems)
    if not dump.lines:  # (as toprg and mlx check say: nothing checked is no good dump)
        raise UserError.single(name, "the dump has no data lines")
    click.echo(f"{name}: {counted(len(dump.lines), 'line')}, all checksums correct")


@mse_group.command("toprg")
@click.argument("dump_file", metavar="DUMP")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Output PRG (default: build/NAME.prg; standard output when DUMP is '-'); '-' for standard "
                   "output.")
@reports_user_errors
def mse_toprg(dump_file: str, output: str | None) -> None:
    """Turn a verified DUMP ('-': standard input) into a PRG file."""
    from toolchain import mse

    name, text = _read_dump(dump_file, "mse toprg")
    write_made_prg(mse.to_prg(mse.parse(text, name)), output, dump_file)


@mse_group.command("fromprg")
@click.argument("prg_file", metavar="PROGRAM")
@click.option("--name", help="Program name for the header (default: the file name).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default=STDIO,
              help="Write the dump here instead of standard output.")
@reports_user_errors
def mse_fromprg(prg_file: str, name: str | None, output: str) -> None:
    """Print a PROGRAM as an MSE dump in the magazine's format.

    PROGRAM is a PRG file, a file on a disk image (IMAGE:NAME, e.g.
    build/seeds.d64:"superhirn ii") or '-' (standard input).
    """
    from toolchain import mse
    from toolchain.inputs import PRG_KINDS, read_program

    if name is not None and not name.strip():  # (not quietly the file's name: it was asked for)
        raise UserError.single("--name", "an empty program name: give the name for the dump's header, or "
                               "leave --name out for the file's name")
    program = read_program(prg_file, "mse fromprg", "a PRG", PRG_KINDS)
    write_atomic(output, mse.from_prg(program.prg, name or program.file.title, program.name),
                 inputs=[program.file.path])
