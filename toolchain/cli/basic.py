"""``c64tc tok``, ``detok``, ``list``: BASIC V2 listings and programs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from toolchain.cli.common import ADDRESS, default_output, reports_user_errors
from toolchain.diagnostics import counted
from toolchain.fileio import STDIO, write_atomic

if TYPE_CHECKING:
    from toolchain.inputs import InputFile

#: What detok and list take: the bytes of BASIC lines (a Profi-Ass source saved as a
#: BASIC program is BASIC lines too: listing it is how one reads it).
_BASIC_PROGRAMS = "a BASIC program"


def _header_name(file: InputFile) -> str:
    """The name in petcat's header line (``;nikolaus.prg ==0801==``; from standard input
    petcat writes ``;<stdin> ==0801==``)."""
    if file.is_stdin:
        return "<stdin>"
    if file.image is not None:
        return file.title
    return Path(file.argument).name


@click.command("tok")
@click.argument("sources", nargs=-1, required=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Output PRG; '-' for standard output (default: NAME.prg in the current folder, NAME from "
                   "the first source, or build/NAME.prg in a c64tc project; standard output when it is '-').")
@click.option("--load-address", type=ADDRESS, default="$0801", show_default=True,
              help="BASIC start of the target machine ($0801 C64, $1001 VIC-20/C16).")
@click.option("-v", "--verbose", is_flag=True, help="Say which lines the errata replaced or deleted.")
@reports_user_errors
def tok_command(sources: tuple[str, ...], output: str | None, load_address: int, verbose: bool) -> None:
    """Tokenize BASIC V2 listings (petcat text) into a PRG, as a C64 crunches typed lines.

    Later SOURCES correct earlier ones, as typing them on a C64 would: a line with the
    same number replaces the old one, a line number alone deletes it.  '-' reads a
    listing from standard input.
    """
    from toolchain.basic import tokenize_with_warnings
    from toolchain.cli.common import print_diagnostics
    from toolchain.inputs import as_text, is_listing, read_input, wrong_kind

    if sources.count(STDIO) > 1:
        raise click.UsageError("standard input ('-') can be read only once")
    files = [read_input(source) for source in sources]
    for file in files:
        if not is_listing(file):
            raise wrong_kind(file, "a BASIC listing", "tok")
    prg, events, warnings = tokenize_with_warnings([(file.name, as_text(file.data)) for file in files],
                                                   load_address)
    print_diagnostics(warnings)
    if verbose:
        for event in events:
            click.echo(f"{event.by.path}:{event.by.source_line}: line {event.number} {event.action}",
                       err=True)
    if output is None:
        output = STDIO if sources[0] == STDIO else default_output(files[0].stem, list(sources))
    write_atomic(output, prg.to_bytes())
    where = "standard output" if output == STDIO else output
    click.echo(f"{where}: ${prg.load_address:04X}-${prg.end_address - 1:04X}, "
               f"{counted(len(prg.data), 'byte')} (+2 load address)", err=True)


@click.command("detok")
@click.argument("prg_file", metavar="PROGRAM")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default=STDIO,
              help="Write the text here instead of standard output.")
@click.option("--no-header", is_flag=True, help="Leave out petcat's ';name ==0801==' header line.")
@reports_user_errors
def detok_command(prg_file: str, output: str, no_header: bool) -> None:
    """Detokenize a BASIC PROGRAM into petcat-format text.

    PROGRAM is a PRG file, a file on a disk image (IMAGE:NAME, e.g.
    build/seeds.d64:nikolaus) or '-' (standard input).
    """
    from toolchain.basic import detokenize
    from toolchain.inputs import BASIC_LINES, read_program

    program = read_program(prg_file, "detok", _BASIC_PROGRAMS, BASIC_LINES)
    text = detokenize(program.prg, None if no_header else _header_name(program.file), program.name)
    write_atomic(output, text)


@click.command("list")
@click.argument("prg_file", metavar="PROGRAM")
@reports_user_errors
def list_command(prg_file: str) -> None:
    """Print a BASIC PROGRAM as the C64's LIST shows it (upper case).

    PROGRAM is a PRG file, a file on a disk image (IMAGE:NAME), a BASIC listing (shown
    as the C64 lists it once typed in) or '-' (standard input).
    """
    from toolchain.basic import list_prg
    from toolchain.inputs import BASIC_LINES, Kind, read_program

    program = read_program(prg_file, "list", _BASIC_PROGRAMS,
                           BASIC_LINES | {Kind.BASIC_LISTING})
    click.echo(list_prg(program.prg, program.name), nl=False)
