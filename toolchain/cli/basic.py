"""``c64tc tok``, ``detok``, ``list``: BASIC V2 listings and programs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from toolchain.cli.common import (
    ADDRESS,
    ForeignOptions,
    default_output,
    reports_user_errors,
)
from toolchain.diagnostics import Diagnostic, UserError, counted, print_diagnostics
from toolchain.fileio import STDIO, write_atomic

if TYPE_CHECKING:
    from toolchain.inputs import InputFile
    from toolchain.typein import Checker, Listing

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


_CHECKSUM_KINDS = "64er (the 64'er Checksummer 64 V1/V2), 64er-v3, proofreader (COMPUTE!'s Automatic " \
    "Proofreader, 1983), proofreader-1986 (the New Automatic Proofreader)"


class _TokCommand(ForeignOptions):
    """``--checksums`` takes its KIND after '=' or as the next word only when that word
    names a checker: ``tok --checksums a.bas errata.bas`` keeps both files, in order
    (click would take a.bas as the option's value)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        from toolchain.typein import ALIASES, CHECKERS

        rewritten = []
        for index, argument in enumerate(args):
            if argument == "--":
                rewritten += args[index:]
                break
            following = args[index + 1].lower() if index + 1 < len(args) else ""
            if argument == "--checksums" and following not in CHECKERS and following not in ALIASES:
                argument = "--checksums=auto"
            rewritten.append(argument)
        return super().parse_args(ctx, rewritten)


_PETCAT_V2 = "none: c64tc knows BASIC V2 only, the C64's, and always uses it"


@click.command("tok", cls=_TokCommand, foreign={
    "-w2": ("petcat", f"{_PETCAT_V2} (c64tc tok FILE.bas -o FILE.prg)"),
    "-w": ("petcat", f"{_PETCAT_V2} (c64tc tok FILE.bas -o FILE.prg)"),
    "-l": ("petcat", "--load-address $1001 (a number with $ is hex)"),
    "-f": ("petcat", "none: -o FILE is always replaced (written whole, or not at all)"),
    "-C": ("petcat", "--checksums[=KIND]"),
})
@click.argument("sources", nargs=-1, required=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Output PRG; '-' for standard output (default: NAME.prg in the current folder, NAME from "
                   "the first source, or build/NAME.prg in a c64tc project; standard output when it is '-').")
@click.option("--load-address", type=ADDRESS, default="$0801", show_default=True,
              help="BASIC start of the target machine ($0801 C64, $1001 VIC-20/C16).")
@click.option("--checksums", is_flag=False, flag_value="auto", default=None, metavar="[=KIND]",
              help="Show the value a magazine's type-in checker shows for each line, as typed on a C64; "
                   "values the listing prints (<123> at the end, :rem 123 at the end, two letters before the "
                   "line number) are compared with it and left out of the program.  KIND: "
                   f"{_CHECKSUM_KINDS}; default: the kind the listing prints, else 64er.")
@click.option("-v", "--verbose", is_flag=True, help="Say which lines the errata replaced or deleted.")
@reports_user_errors
def tok_command(sources: tuple[str, ...], output: str | None, load_address: int, checksums: str | None,
                verbose: bool) -> None:
    """Tokenize BASIC V2 listings (petcat text) into a PRG, as a C64 crunches typed lines.

    Later SOURCES correct earlier ones, as typing them on a C64 would: a line with the
    same number replaces the old one, a line number alone deletes it.  '-' reads a
    listing from standard input.

    With --checksums every line is listed with the value the checker shows when it is
    typed, and a line whose printed value differs is an error (FILE:LINE: the typo is
    in that line); the PRG is then not written.
    """
    from toolchain.basic import tokenize_with_warnings
    from toolchain.basic.tokenizer import upper_case_warning
    from toolchain.inputs import as_text, is_listing, read_input, wrong_kind

    checker_name = _checksum_option(checksums)
    if sources.count(STDIO) > 1:
        raise click.UsageError("standard input ('-') can be read only once")
    files = [read_input(source) for source in sources]
    for file in files:
        if not is_listing(file):
            raise wrong_kind(file, "a BASIC listing", "tok")
    texts = [(file.name, as_text(file.data, file.name)) for file in files]
    listings = None
    if checker_name is None:
        _hint_printed_checksums(texts)
    else:
        listings, checker = _printed_checksums(texts, checker_name)
        texts = [(listing.path, listing.text) for listing in listings]
    print_diagnostics([warning for path, text in texts
                       if (warning := upper_case_warning(text, path)) is not None])
    prg, events, warnings = tokenize_with_warnings(texts, load_address)
    print_diagnostics(warnings)
    if verbose:
        for event in events:
            click.echo(f"{event.by.path}:{event.by.source_line}: line {event.number} {event.action}",
                       err=True)
    if output is None:
        output = STDIO if sources[0] == STDIO else default_output(files[0].stem, list(sources))
    if listings is not None:
        _show_checksums(listings, checker, to_stderr=output == STDIO)
    write_atomic(output, prg.to_bytes(), inputs=sources)
    where = "standard output" if output == STDIO else output
    click.echo(f"{where}: ${prg.load_address:04X}-${prg.end_address - 1:04X}, "
               f"{counted(len(prg.data), 'byte')} (+2 load address)", err=True)


def _checksum_option(value: str | None) -> str | None:
    """The checker --checksums names: None (no option), 'auto', or a checker's name."""
    from toolchain.typein import ALIASES, CHECKERS

    if value is None or value == "auto" or value.lower() in CHECKERS or value.lower() in ALIASES:
        return value
    raise click.BadParameter(f"{value!r} is no checker; KIND is one of {_CHECKSUM_KINDS}",
                             param_hint="'--checksums'")


def _printed_checksums(texts: list[tuple[str, str]], name: str) -> tuple[list[Listing], Checker]:
    """The listings with their printed values taken out, and the checker to compare with."""
    from toolchain.typein import STYLE_OF, checker_named, choose_checker, read_listing
    from toolchain.typein.listing import STYLE_PLACES

    if name == "auto":
        listings = [read_listing(text, path) for path, text in texts]
        printing = next((listing for listing in listings if listing.printed), listings[0])
        checker, why = choose_checker(printing)
        listings = [read_listing(text, path, STYLE_OF[checker.name]) for path, text in texts]
        print_diagnostics([Diagnostic(printing.path, 0, 0, why, "note")])
    else:
        checker = checker_named(name)
        listings = [read_listing(text, path, STYLE_OF[checker.name]) for path, text in texts]
    for listing in listings:
        if listing.printed:
            place = STYLE_PLACES[STYLE_OF[checker.name]]
            lines = counted(len(listing.printed), "line")
            note = f"{place} of {lines} is the magazine's checksum, which the reader does not type: left " \
                "out of the program"
            print_diagnostics([Diagnostic(listing.path, 0, 0, note, "note")])
    return listings, checker


def _show_checksums(listings: list[Listing], checker: Checker, to_stderr: bool) -> None:
    """Each line with the checker's value; then an error for each printed value that differs."""
    from toolchain.typein import compare, line_values

    problems = []
    for listing in listings:
        values = line_values(listing, checker)
        for value in values:
            shown = "-" if value.value is None else checker.printed(value.value)
            click.echo(f"{shown:>9}  {value.text.strip()}", err=to_stderr)
        problems += compare(listing, checker, values)
    if problems:
        raise UserError(problems)


def _hint_printed_checksums(texts: list[tuple[str, str]]) -> None:
    """Most lines carry a magazine's checksum: say that --checksums takes them out."""
    from toolchain.typein import read_listing

    for path, text in texts:
        listing = read_listing(text, path)
        numbered = listing.numbered
        if listing.style is not None:
            example = listing.lines[min(listing.printed) - 1].strip()
            print_diagnostics([Diagnostic(path, 0, 0, f"{len(listing.printed)} of {numbered} lines carry a "
                                          f"magazine's checksum (e.g. '{example}'), which the reader does "
                                          "not "
                                          "type: `c64tc tok --checksums` checks them and leaves them out",
                                          "warning")])


@click.command("detok", cls=ForeignOptions, foreign={
    "-2": ("petcat", f"{_PETCAT_V2} (c64tc detok FILE.prg)"),
    "-nh": ("petcat", "--no-header"),
    "-f": ("petcat", "none: -o FILE is always replaced (written whole, or not at all)"),
})
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
    write_atomic(output, text, inputs=[program.file.path])


@click.command("list", cls=ForeignOptions, foreign={
    "-2": ("petcat", f"{_PETCAT_V2} (c64tc list FILE.prg; c64tc detok for petcat's text)"),
})
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
