"""``c64tc mlx``: COMPUTE!'s MLX listings of machine code."""

from __future__ import annotations

import click

from toolchain.cli.common import ADDRESS, reports_user_errors, write_made_prg
from toolchain.diagnostics import UserError, counted
from toolchain.fileio import STDIO, write_atomic

_FORMATS = click.Choice(["1984", "1985"])
_FORMAT_HELP = ("1984: MLX's decimal rows of six bytes; 1985: the new MLX's hex rows of eight bytes "
                "(default: told from the rows)")


@click.group("mlx")
def mlx_group() -> None:
    """COMPUTE!'s MLX listings (machine code as rows of numbers with checksums)."""


def _read_listing(argument: str, command: str) -> tuple[str, str]:
    """(name for messages, text) of a listing; a file of another kind is named, with the
    command that fits it.  Text that is no listing is left to the reader, which names
    every line it cannot read."""
    from toolchain.inputs import PRG_KINDS, Kind, as_text, read_input, shown_argument, wrong_kind

    file = read_input(argument)
    kind = file.kind.kind
    if kind not in (Kind.MLX_LISTING, Kind.MSE_DUMP, Kind.TEXT, Kind.EMPTY):
        if kind is Kind.DISK_IMAGE:
            raise wrong_kind(file, "an MLX listing", "mlx fromprg", accept=PRG_KINDS)
        hint = ""
        if kind in PRG_KINDS or kind is Kind.BINARY:
            hint = f"`c64tc mlx fromprg {shown_argument(argument)}` makes a listing of it"
        raise wrong_kind(file, "an MLX listing", command, hint)
    text = as_text(file.data, file.name)
    if kind is Kind.MSE_DUMP and _more_mse_than_mlx(text):
        raise wrong_kind(file, "an MLX listing", command)
    return file.name, text


def _more_mse_than_mlx(text: str) -> bool:
    """An MSE dump looks like a new-MLX listing (an address, eight bytes, a checksum):
    it is one when MSE's checksums fit more rows than MLX's (a listing whose every row
    is mistyped is still checked as MLX, row by row)."""
    from toolchain import mse
    from toolchain.typein import mlx

    return len(mse.check(mse.parse(text))) < len(mlx.check(mlx.parse(text)))


@mlx_group.command("check")
@click.argument("listing_file", metavar="LISTING")
@click.option("--format", "format_name", type=_FORMATS, help=_FORMAT_HELP)
@reports_user_errors
def mlx_check(listing_file: str, format_name: str | None) -> None:
    """Verify every row's checksum of LISTING ('-': standard input); report each bad row."""
    from toolchain.typein import mlx

    name, text = _read_listing(listing_file, "mlx check")
    listing = mlx.parse(text, name, mlx.Format(format_name) if format_name else None)
    problems = mlx.check(listing)
    if problems:
        raise UserError(problems)
    if not listing.rows:
        raise UserError.single(name, "the listing has no MLX rows")
    rows = counted(len(listing.rows), "row")
    click.echo(f"{name}: {rows} of {listing.format.title}, all checksums correct")


@mlx_group.command("toprg")
@click.argument("listing_file", metavar="LISTING")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Output PRG (default: build/NAME.prg; standard output when LISTING is '-'); '-' for "
                   "standard output.")
@click.option("--start", type=ADDRESS, help="The starting address MLX asks for (default: the listing's "
              "'Starting address' line, else its first row).")
@click.option("--end", type=ADDRESS, help="The ending address MLX asks for, inclusive: bytes of the last row "
              "past it are not saved (default: the listing's 'Ending address' line, else its last byte).")
@click.option("--format", "format_name", type=_FORMATS, help=_FORMAT_HELP)
@reports_user_errors
def mlx_toprg(listing_file: str, output: str | None, start: int | None, end: int | None,
              format_name: str | None) -> None:
    """Turn a verified LISTING ('-': standard input) into a PRG file, as MLX saves it."""
    from toolchain.typein import mlx

    name, text = _read_listing(listing_file, "mlx toprg")
    prg = mlx.to_prg(mlx.parse(text, name, mlx.Format(format_name) if format_name else None), start, end)
    write_made_prg(prg, output, listing_file)


@mlx_group.command("fromprg")
@click.argument("prg_file", metavar="PROGRAM")
@click.option("--format", "format_name", type=_FORMATS, default="1985", show_default=True,
              help="1984: decimal rows of six bytes; 1985: the new MLX's hex rows of eight bytes.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default=STDIO,
              help="Write the listing here instead of standard output.")
@reports_user_errors
def mlx_fromprg(prg_file: str, format_name: str, output: str) -> None:
    """Print a PROGRAM as an MLX listing in the magazine's format.

    PROGRAM is a PRG file, a file on a disk image (IMAGE:NAME) or '-' (standard input).
    """
    from toolchain.inputs import PRG_KINDS, read_program
    from toolchain.typein import mlx

    program = read_program(prg_file, "mlx fromprg", "a PRG", PRG_KINDS)
    write_atomic(output, mlx.from_prg(program.prg, mlx.Format(format_name), program.name),
                 inputs=[program.file.path])
