"""``c64tc asm``: assemble a magazine listing, or a 64tass or ACME source."""

from __future__ import annotations

from pathlib import Path

import click

from toolchain import fileio
from toolchain.cli.common import ForeignOptions, default_output, reports_user_errors
from toolchain.diagnostics import UserError, counted, print_diagnostics
from toolchain.fileio import STDIO, is_dir, write_stdout, write_together

_WARNING_NAMES = ["all", "branch-page", "zp-forward"]


def _defines(ctx: click.Context, param: click.Parameter,
             values: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    from toolchain.asm import parse_define

    result = []
    for text in values:
        try:
            result.append(parse_define(text))
        except ValueError as exc:
            raise click.BadParameter(f"{text!r}: {exc}", ctx, param) from None
    return tuple(result)


def _output_file(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A FILE operand of an output option: a value that looks like another option
    (``--symbols -o x.prg``: --symbols used to be a flag) is a mistake, said as one."""
    if value is not None and value.startswith("-") and value != STDIO:
        raise click.BadParameter(f"{value!r} looks like an option: {param.opts[-1]} takes a FILE ('-' for "
                                 "standard output)", ctx, param)
    return value


_LISTING = "-l FILE (the listing; -l here is no label file)"


@click.command("asm", cls=ForeignOptions, foreign={
    "-L": ("64tass", _LISTING),
    "--list": ("64tass", _LISTING),
    "--labels": ("64tass", "--vice-labels FILE (for VICE's monitor) or --symbols FILE"),
    "--nostart": ("64tass", "--format raw"),
    "-b": ("64tass", "--format raw"),
    "--cbm-prg": ("64tass", "the default (--format prg)"),
    "-r": ("ACME", _LISTING),
    "--report": ("ACME", _LISTING),
    "--symbollist": ("ACME", "--symbols FILE (--vice-labels FILE for VICE's monitor)"),
    "--vicelabels": ("ACME", "--vice-labels FILE"),
    "-f": ("ACME", "--format prg (its cbm, the default) or --format raw (its plain)"),
    "--outfile": ("ACME", "-o FILE"),
})
@click.argument("sources", nargs=-1, required=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Output file; '-' for standard output (default: NAME.prg after the first SOURCE in the "
                   "current folder, or build/NAME.prg in a c64tc project).")
@click.option("--dialect", type=click.Choice(["profi", "64tass", "acme"]),
              help="The source's assembler: profi (Profi-Ass 64, the magazine's), 64tass or acme.  Default: "
                   "ACME for .a/.acme files, else the first directive decides (!to, !source, !cpu... are "
                   "ACME; .cpu, .proc, .enc... are 64tass), else profi.")
@click.option("--format", "output_format", type=click.Choice(["prg", "raw"]),
              help="prg: two-byte load address + code (the default; ACME's '!to name, plain' asks for raw); "
                   "raw: code only.")
@click.option("-l", "--listing", type=click.Path(dir_okay=False, allow_dash=True), callback=_output_file,
              help="Write a listing (address, bytes, line, source); '-' for standard output.  64tass's -L, "
                   "ACME's -r: their -l writes labels, --vice-labels or --symbols here.")
@click.option("--vice-labels", type=click.Path(dir_okay=False, allow_dash=True), callback=_output_file,
              help="Write a VICE monitor label file (al C:xxxx .name); '-' for standard output.")
@click.option("--symbols", "symbols_file", type=click.Path(dir_okay=False, allow_dash=True),
              callback=_output_file, metavar="FILE",
              help="Write the symbol table, by name and by value (what disasm --symbols and the monitor's "
              "--labels read); '-' for standard output.")
@click.option("-I", "--include-path", "include_paths", multiple=True,
              type=click.Path(path_type=Path),
              help="Look for .include and .binary files here too (after the including file's folder).")
@click.option("-D", "--define", "defines", multiple=True, callback=_defines, metavar="NAME=VALUE",
              help="Define a symbol before the source (VALUE as in the source: 12, $0c; default 1).")
@click.option("--undocumented", "-i", "--m6502", "undocumented", is_flag=True,
              help="Accept the stable undocumented opcodes: lax, sax, dcp, isc, slo, rla, sre, rra, anc, "
                   "alr, arr, sbx, las, nop with operands (and dcm, isb, ins, asr, axs, lse, aso).  In the "
                   "64tass and ACME dialects: their NMOS sets (64tass -i, ACME --cpu 6510).")
@click.option("--cpu", type=click.Choice(["6502", "6510", "nmos6502"]),
              help="ACME's --cpu: 6510 or nmos6502 is --undocumented.")
@click.option("-a", "--ascii", is_flag=True, help="64tass -a: the source is ASCII/Unicode (its text becomes "
              "PETSCII, 'a' is $41); without it 64tass copies the bytes of strings unchanged.")
@click.option("-C", "--case-sensitive", is_flag=True, help="64tass -C: symbols are case-sensitive.")
@click.option("-B", "--long-branch", is_flag=True,
              help="64tass -B: a branch out of range becomes the opposite branch over a jmp.")
@click.option("-W", "warnings", multiple=True, type=click.Choice(_WARNING_NAMES), metavar="WARNING",
              help="Warn about: branch-page (a taken branch crossing a page costs a cycle), zp-forward "
                   "(a forward reference to zero page kept absolute), all.")
@click.option("-q", "--quiet", is_flag=True, help="No listing (even with '.opt p') and no summary line.")
@reports_user_errors
def asm_command(sources: tuple[str, ...], output: str | None, dialect: str | None, output_format: str | None,
                listing: str | None, vice_labels: str | None, symbols_file: str | None,
                include_paths: tuple[Path, ...],
                defines: tuple[tuple[str, int], ...], undocumented: bool, cpu: str | None, ascii: bool,
                case_sensitive: bool, long_branch: bool, warnings: tuple[str, ...], quiet: bool) -> None:
    """Assemble 6502 SOURCES into one PRG file: Profi-Ass (64'er magazine listings, the
    default), 64tass or ACME source (--dialect).

    Each SOURCE may be text (with or without BASIC line numbers, or a petcat listing)
    or a tokenized .prg as Profi-Ass saved it, also on a disk image (IMAGE:NAME);
    '-' reads standard input.  Several
    SOURCES are assembled as one program, in the order given.
    """
    from toolchain.asm import AssemblyOptions, assemble_sources
    from toolchain.asm.assembler import WARNINGS
    from toolchain.asm.dialects import detect
    from toolchain.asm.output import listing as make_listing
    from toolchain.asm.output import symbol_table
    from toolchain.asm.output import vice_labels as make_labels
    from toolchain.asm.sources import load_source
    from toolchain.disk import Prg

    to_stdout = [name for name, path in (("-o", output), ("-l", listing), ("--vice-labels", vice_labels),
                                         ("--symbols", symbols_file)) if path == STDIO]
    if len(to_stdout) > 1:
        raise click.UsageError(f"{' and '.join(to_stdout)} cannot both write to standard output")
    if sources.count(STDIO) > 1:
        raise click.UsageError("standard input ('-') can be read only once")
    for folder in include_paths:  # as every input: status 1, "cannot read"
        if not is_dir(folder):
            try:
                there = folder.exists()
            except OSError:  # a name too long for the file system
                there = False
            raise UserError.single(str(folder), "cannot read: " + ("not a folder (-I names a folder)"
                                                                   if there else "no such folder"))
    enabled = frozenset(WARNINGS) if "all" in warnings else frozenset(warnings)
    # the files the source includes (.include, .binary, !source...) are inputs too: no
    # output may replace one
    included: list[Path] = []

    def read_included_text(path: Path) -> str:
        included.append(path)
        return fileio.read_text(path)

    def read_included_bytes(path: Path) -> bytes:
        included.append(path)
        return fileio.read_bytes(path)

    texts = [(load_source(source), source) for source in sources]
    if dialect is None:
        dialect, reason = detect(sources[0], texts[0][0])
    else:
        reason = "--dialect"
    _check_dialect_options(dialect, ascii=ascii, case_sensitive=case_sensitive, long_branch=long_branch,
                           cpu=cpu, warnings=warnings)
    options = AssemblyOptions(include_paths=include_paths, defines=defines,
                              undocumented=undocumented or cpu in ("6510", "nmos6502"), warnings=enabled,
                              dialect=dialect, dialect_reason=reason, ascii=ascii,
                              case_sensitive=case_sensitive, long_branch=long_branch,
                              read_text=read_included_text, read_bytes=read_included_bytes)
    program = assemble_sources(texts, options)
    if output_format is None:
        output_format = "raw" if program.raw_output else "prg"
    print_diagnostics(program.warnings)
    if output is None:
        output = default_output(_output_stem(sources[0]), list(sources))
    image = Prg(program.start, program.image).to_bytes() if output_format == "prg" else program.image
    # the program, its listing and its labels are written together or not at all
    outputs: list[tuple[str | Path, bytes | str]] = [(output, image)]
    if listing is not None:
        outputs.append((listing, make_listing(program)))
    if vice_labels is not None:
        outputs.append((vice_labels, make_labels(program)))
    if symbols_file is not None:
        outputs.append((symbols_file, symbol_table(program)))
    if all(str(path) == STDIO for path, _ in outputs):
        for _, data in outputs:  # write_together needs at least one file (FileSet of none fails)
            write_stdout(data)
    else:
        write_together(outputs, inputs=[*sources, *included])
    if listing is None and program.listing_requested and not quiet and output != STDIO:
        click.echo(make_listing(program), nl=False)  # ".opt p" asks for a printed listing
    if not quiet:
        where = "standard output" if output == STDIO else output
        size = counted(len(program.image), "byte")
        click.echo(f"{where}: ${program.start:04X}-${program.end - 1:04X}, {size}"
                   + (" (+2 load address)" if output_format == "prg" else ""), err=True)


_DIALECT_OPTIONS = {"ascii": ("-a", "64tass"), "case_sensitive": ("-C", "64tass"),
                    "long_branch": ("-B", "64tass"), "cpu": ("--cpu", "acme")}


def _check_dialect_options(dialect: str, warnings: tuple[str, ...], **given: object) -> None:
    """An option of another dialect is a mistake, said as such (never silently ignored)."""
    for name, value in given.items():
        if value:
            option, owner = _DIALECT_OPTIONS[name]
            if dialect != owner:
                raise click.UsageError(f"{option} is a {owner} option, and this source is read as {dialect} "
                                       f"(--dialect {owner} to read it as {owner})")
    if warnings and dialect != "profi":
        raise click.UsageError(f"-W {warnings[0]} is a warning of the Profi-Ass dialect only")


def _output_stem(source: str) -> str:
    """The default output's name: the source's (on a disk image, the file's name there)."""
    from toolchain.disk import parse_image_reference

    if source == STDIO:
        return "stdin"
    reference = parse_image_reference(source)
    if reference is not None:
        return reference.name.strip().replace(" ", "_") or "program"
    return Path(source).stem
