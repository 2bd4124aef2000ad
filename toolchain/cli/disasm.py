"""``c64tc disasm``: machine code back to a listing or to source that assembles again."""

from __future__ import annotations

from pathlib import Path

import click

from toolchain.cli.common import ADDRESS, reports_user_errors, sys_of_first_line
from toolchain.diagnostics import Diagnostic, UserError
from toolchain.fileio import STDIO, write_atomic

_WANTED = "machine code (a PRG, an MSE dump, or raw bytes with --load-address)"


def program_bytes(argument: str, load_address: int | None = None) -> tuple[str, int, bytes]:
    """(name for messages, load address, bytes) of a PRG, a file on a disk image
    (IMAGE:NAME), an MSE dump, or raw bytes loaded at ``load_address``."""
    from toolchain.inputs import PRG_KINDS, Kind, read_input, read_program, wrong_kind

    if load_address is None:
        program = read_program(argument, "disasm", _WANTED, PRG_KINDS | {Kind.MSE_DUMP})
        return program.name, program.prg.load_address, program.prg.data
    file = read_input(argument)
    if file.kind.kind in (Kind.DISK_IMAGE, Kind.BASIC_LISTING, Kind.ASSEMBLER_SOURCE, Kind.MSE_DUMP):
        hint = "leave --load-address out for an MSE dump" if file.kind.kind is Kind.MSE_DUMP else ""
        raise wrong_kind(file, "raw machine code", "disasm", hint)
    data = file.data
    if load_address + len(data) > 0x10000:
        raise UserError.single(file.name, f"{len(data)} bytes loaded at ${load_address:04X} run past $FFFF")
    return file.name, load_address, data


def _shown(name: str) -> str:
    """The program in the source's title line: the file's name without its folder."""
    if name == STDIO:
        return "standard input"
    image, separator, on_disk = name.rpartition(":")
    if separator and on_disk.startswith('"'):  # IMAGE:NAME
        return Path(image).name + separator + on_disk
    return Path(name).name


@click.command("disasm")
@click.argument("file")
@click.option("--format", "output_format", type=click.Choice(["listing", "source"]), default="listing",
              show_default=True,
              help="listing: address, bytes and instruction, like VICE's monitor 'd'; source: Profi-Ass "
                   "source that 'c64tc asm' assembles back to the same bytes.")
@click.option("--start", type=ADDRESS, help="First address to disassemble (default: the load address).")
@click.option("--end", type=ADDRESS, help="Last address to disassemble (default: the program's last byte).")
@click.option("--entry", "entries", type=ADDRESS, multiple=True,
              help="Where code starts (source format; several allowed; default: the start). Bytes no "
                   "entry reaches are data (.byt).")
@click.option("--labels", "label_files", type=click.Path(), multiple=True,
              help="Names for addresses: a VICE label file (al C:3400 .name).")
@click.option("--symbols", "symbol_files", type=click.Path(), multiple=True,
              help="Names for addresses: a symbol table as 'c64tc asm --symbols' prints it.")
@click.option("--undocumented", is_flag=True,
              help="Write the stable undocumented opcodes as instructions (they assemble with "
                   "'c64tc asm --undocumented'); without it they are data.")
@click.option("--load-address", type=ADDRESS,
              help="FILE is raw code without a load address: load it here.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default=STDIO,
              help="Output file (default: standard output).")
@reports_user_errors
def disasm_command(file: str, output_format: str, start: int | None, end: int | None,
                   entries: tuple[int, ...], label_files: tuple[str, ...], symbol_files: tuple[str, ...],
                   undocumented: bool, load_address: int | None, output: str) -> None:
    """Disassemble FILE: a PRG, a file on a disk image (IMAGE:NAME, e.g.
    build/seeds.d64:"superhirn ii"), a raw binary (--load-address) or an MSE dump; '-'
    reads standard input.

    Numbers are decimal unless written $c000 or 0xc000.
    """
    from toolchain.cpu.disassembler import listing, source
    from toolchain.monitor.labels import read_labels

    for name, value in (("--start", start), ("--end", end), ("--load-address", load_address),
                        *(("--entry", e) for e in entries)):
        if value is not None and not 0 <= value <= 0xFFFF:
            raise click.BadParameter(f"{value} is outside $0000-$FFFF", param_hint=name)
    name, load, image = program_bytes(file, load_address)
    last = load + len(image) - 1
    first = load if start is None else start
    stop = last if end is None else end
    if not image:
        raise UserError.single(name, "the program is empty: nothing to disassemble")
    if not load <= first <= last or stop < first:
        raise UserError.single(name, f"--start/--end ${first:04X}-${stop:04X} is outside the program "
                               f"(${load:04X}-${last:04X})")
    stub = sys_of_first_line(image) if load == 0x0801 and start is None else None
    if stub is not None:  # 64tass's and ACME's `10 SYS 2061` before the code: as code it is nonsense
        click.echo(Diagnostic(name, 0, 0, f"the program begins with BASIC, its line {stub[0]} SYS {stub[1]}: "
                              f"--start {stub[1]} disassembles the machine code it starts", "note").format(),
                   err=True)
    names: dict[int, str] = {}
    for label_file in (*label_files, *symbol_files):
        for label, address in read_labels(label_file):  # the monitor's label files, checked as it checks them
            names.setdefault(address, label.removeprefix(".").lower())
    stop = min(stop, last)
    if output_format == "listing":
        text = listing(image, load, first, stop, names)
    else:
        piece = image[first - load : stop - load + 1]
        text = source(piece, first, list(entries) or [first], names, undocumented,
                      title=f"{_shown(name)}: ${first:04X}-${stop:04X}, disassembled by c64tc")
    from toolchain.disk import parse_image_reference

    reference = None if file == STDIO else parse_image_reference(file)
    write_atomic(output, text,
                 inputs=[file, reference.image if reference else None, *label_files, *symbol_files])
