"""``c64tc tok``, ``detok``, ``list``: BASIC V2 listings and programs."""

from __future__ import annotations

from pathlib import Path

import click

from toolchain.cli.common import ADDRESS, reports_user_errors
from toolchain.fileio import read_bytes, read_text, write_atomic


@click.command("tok")
@click.argument("sources", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Output PRG (default: build/NAME.prg, NAME from the first source).")
@click.option("--load-address", type=ADDRESS, default="$0801", show_default=True,
              help="BASIC start of the target machine ($0801 C64, $1001 VIC-20/C16).")
@click.option("-v", "--verbose", is_flag=True, help="Say which lines the errata replaced or deleted.")
@reports_user_errors
def tok_command(sources: tuple[Path, ...], output: Path | None, load_address: int, verbose: bool) -> None:
    """Tokenize BASIC V2 listings (petcat text) into a PRG, as a C64 crunches typed lines.

    Later SOURCES correct earlier ones, as typing them on a C64 would: a line with the
    same number replaces the old one, a line number alone deletes it.
    """
    from toolchain.basic import tokenize

    prg, events = tokenize([(str(path), read_text(path)) for path in sources], load_address)
    if verbose:
        for event in events:
            click.echo(f"{event.by.path}:{event.by.source_line}: line {event.number} {event.action}",
                       err=True)
    output = output or Path("build") / f"{sources[0].stem}.prg"
    write_atomic(output, prg.to_bytes())
    click.echo(f"{output}: ${prg.load_address:04X}-${prg.end_address - 1:04X}, "
               f"{len(prg.data)} bytes (+2 load address)", err=True)


@click.command("detok")
@click.argument("prg_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the text here instead of standard output.")
@click.option("--no-header", is_flag=True, help="Leave out petcat's ';name ==0801==' header line.")
@reports_user_errors
def detok_command(prg_file: Path, output: Path | None, no_header: bool) -> None:
    """Detokenize a BASIC PRG into petcat-format text."""
    from toolchain.basic import detokenize
    from toolchain.disk import Prg

    prg = Prg.from_bytes(read_bytes(prg_file), str(prg_file))
    text = detokenize(prg, None if no_header else prg_file.name, str(prg_file))
    if output is None:
        click.echo(text, nl=False)
    else:
        write_atomic(output, text)


@click.command("list")
@click.argument("prg_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@reports_user_errors
def list_command(prg_file: Path) -> None:
    """Print a BASIC PRG as the C64's LIST shows it (upper case)."""
    from toolchain.basic import list_prg
    from toolchain.disk import Prg

    click.echo(list_prg(Prg.from_bytes(read_bytes(prg_file), str(prg_file)), str(prg_file)), nl=False)
