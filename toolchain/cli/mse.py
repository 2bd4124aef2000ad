"""``c64tc mse``: MSE V1 hex dumps."""

from __future__ import annotations

from pathlib import Path

import click

from toolchain.cli.common import reports_user_errors
from toolchain.diagnostics import UserError
from toolchain.fileio import read_bytes, read_text, write_atomic


@click.group("mse")
def mse_group() -> None:
    """MSE V1 hex dumps, as printed in the 64'er magazine."""


@mse_group.command("check")
@click.argument("dump_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@reports_user_errors
def mse_check(dump_file: Path) -> None:
    """Verify every line's checksum; report each bad line."""
    from toolchain import mse

    dump = mse.parse(read_text(dump_file), str(dump_file))
    problems = mse.check(dump)
    if problems:
        raise UserError(problems)
    click.echo(f"{dump_file}: {len(dump.lines)} lines, all checksums correct")


@mse_group.command("toprg")
@click.argument("dump_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Output PRG (default: build/NAME.prg).")
@reports_user_errors
def mse_toprg(dump_file: Path, output: Path | None) -> None:
    """Turn a verified dump into a PRG file."""
    from toolchain import mse

    prg = mse.to_prg(mse.parse(read_text(dump_file), str(dump_file)))
    output = output or Path("build") / f"{dump_file.stem}.prg"
    write_atomic(output, prg.to_bytes())
    click.echo(f"{output}: ${prg.load_address:04X}-${prg.end_address - 1:04X}, {len(prg.data)} bytes "
               "(+2 load address)", err=True)


@mse_group.command("fromprg")
@click.argument("prg_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--name", help="Program name for the header (default: the file name).")
@reports_user_errors
def mse_fromprg(prg_file: Path, name: str | None) -> None:
    """Print a PRG as an MSE dump in the magazine's format."""
    from toolchain import mse
    from toolchain.disk import Prg

    prg = Prg.from_bytes(read_bytes(prg_file), str(prg_file))
    click.echo(mse.from_prg(prg, name or prg_file.stem), nl=False)
