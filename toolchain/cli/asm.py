"""``c64tc asm``: assemble a magazine listing."""

from __future__ import annotations

from pathlib import Path

import click

from toolchain.cli.common import print_diagnostics, reports_user_errors
from toolchain.fileio import read_bytes, read_text, write_together


def _load_asm_source(source: Path) -> str:
    if source.suffix.lower() == ".prg":
        # Profi-Ass kept its sources as BASIC programs: detokenize, then assemble.
        from toolchain.basic import detokenize
        from toolchain.disk import Prg

        return detokenize(Prg.from_bytes(read_bytes(source), str(source)), name=source.name,
                          path=str(source))
    return read_text(source)


@click.command("asm")
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Output file (default: build/NAME.prg).")
@click.option("--format", "output_format", type=click.Choice(["prg", "raw"]), default="prg",
              show_default=True, help="prg: two-byte load address + code; raw: code only.")
@click.option("-l", "--listing", type=click.Path(dir_okay=False, path_type=Path),
              help="Write a listing (address, bytes, line, source); '-' for standard output.")
@click.option("--vice-labels", type=click.Path(dir_okay=False, path_type=Path),
              help="Write a VICE monitor label file (al C:xxxx .name).")
@click.option("--symbols", is_flag=True, help="Print the symbol table, by name and by value.")
@reports_user_errors
def asm_command(source: Path, output: Path | None, output_format: str, listing: Path | None,
                vice_labels: Path | None, symbols: bool) -> None:
    """Assemble a Profi-Ass (64'er magazine) 6502 SOURCE into a PRG file.

    SOURCE may be text (with or without BASIC line numbers, or a petcat listing)
    or a tokenized .prg as Profi-Ass saved it.
    """
    from toolchain.asm import assemble
    from toolchain.asm.output import listing as make_listing
    from toolchain.asm.output import symbol_table
    from toolchain.asm.output import vice_labels as make_labels
    from toolchain.disk import Prg

    program = assemble(_load_asm_source(source), str(source))
    print_diagnostics(program.warnings)
    output = output or Path("build") / f"{source.stem}.prg"
    image = Prg(program.start, program.image).to_bytes() if output_format == "prg" else program.image
    # the program, its listing and its labels are written together or not at all
    outputs: list[tuple[str | Path, bytes | str]] = [(output, image)]
    if listing is not None:
        outputs.append((listing, make_listing(program)))
    if vice_labels is not None:
        outputs.append((vice_labels, make_labels(program)))
    write_together(outputs)
    if listing is None and program.listing_requested:
        click.echo(make_listing(program), nl=False)  # ".opt p" asks for a printed listing
    if symbols:
        click.echo(symbol_table(program), nl=False)
    click.echo(f"{output}: ${program.start:04X}-${program.end - 1:04X}, {len(program.image)} bytes"
               + (" (+2 load address)" if output_format == "prg" else ""), err=True)
