"""``c64tc d64``: disk images (D64, D71, D81; T64 tapes for reading)."""

from __future__ import annotations

import functools
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from toolchain.cli.common import ForeignNames, reports_user_errors
from toolchain.diagnostics import Diagnostic, UserError, counted, print_diagnostics
from toolchain.fileio import STDIO, make_folder, write_atomic, write_together

if TYPE_CHECKING:
    from toolchain.inputs import InputFile

_IMAGE = click.Path(path_type=Path)  # read (or refused) by the disk code: a missing one is "cannot read"
_FORMATS = click.Choice(["d64", "d64-40", "d71", "d81"], case_sensitive=False)


class _DiskCommands(ForeignNames):
    """c1541's commands, named as c1541 users type them, answered with d64's."""

    FOREIGN = {
        "format": ("c1541", "c64tc d64 create IMAGE --name NAME --id ID"),
        "list": ("c1541", "c64tc d64 list IMAGE"),
        "dir": ("c1541", "c64tc d64 list IMAGE"),
        "directory": ("c1541", "c64tc d64 list IMAGE"),
        "write": ("c1541", "c64tc d64 add IMAGE FILE [--name NAME]"),
        "read": ("c1541", "c64tc d64 extract IMAGE NAME [-o FILE]"),
        "extract": ("c1541", "c64tc d64 extract IMAGE --all"),
        "delete": ("c1541", "c64tc d64 rm IMAGE NAME"),
        "del": ("c1541", "c64tc d64 rm IMAGE NAME"),
        "rename": ("c1541", "c64tc d64 rename IMAGE OLD NEW"),
        "validate": ("c1541", "c64tc d64 validate IMAGE (--fix repairs)"),
        "attach": ("c1541", "none; the image is each command's first argument (c64tc d64 list IMAGE)"),
    }


@click.group("d64", cls=_DiskCommands)
def d64_group() -> None:
    """Create, list, check and change disk images: D64 (1541, 35 or 40 tracks), D71
    (1571), D81 (1581); list and extract T64 tape images.

    File names are typed as on the C64 (letters become upper case); in extract, rm,
    rename and list, * matches the rest of a name and ? one character, as the drive's
    DOS does, and =P (S, U, R) keeps one file type.  Every change is checked, locked,
    all or nothing, and written atomically; a damaged image is refused (see validate).
    """


def _names_the_kind(command: Callable[..., Any]) -> Callable[..., Any]:
    """A file given as the disk image that is none: what it is, when its bytes tell (a
    BASIC listing, a PRG: the command that fits it), else its size."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from toolchain.disk.d64 import NotADiskImage

        try:
            return command(*args, **kwargs)
        except NotADiskImage as exc:
            if exc.data is None:
                raise
            from toolchain.inputs import PRG_KINDS, InputFile, Kind, classify, shown_argument, wrong_kind

            kind = classify(exc.data, Path(exc.path).name)
            if kind.kind in (Kind.BINARY, Kind.DISK_IMAGE):
                raise
            onto = (f"`c64tc d64 add IMAGE {shown_argument(exc.path)}` puts it on a disk"
                    if kind.kind in (Kind.BASIC_LISTING, Kind.MSE_DUMP, *PRG_KINDS) else "")
            given = InputFile(exc.path, exc.path, exc.data, kind)
            raise wrong_kind(given, "a disk image", "d64", onto) from None

    return wrapper


@d64_group.command("create")
@click.argument("image", type=_IMAGE)
@click.option("--name", "disk_name", default="c64tc", show_default=True, help="Disk name (16 characters).")
@click.option("--id", "disk_id", default="64", show_default=True, help="Disk id (2 characters).")
@click.option("--format", "disk_format", type=_FORMATS,
              help="d64 (35 tracks), d64-40 (40 tracks), d71 or d81 (default: from the extension, "
                   "else d64).")
@click.option("--force", is_flag=True, help="Replace an existing image.")
@reports_user_errors
def d64_create(image: Path, disk_name: str, disk_id: str, disk_format: str | None, force: bool) -> None:
    """Create an empty disk image."""
    from toolchain.disk import d64
    from toolchain.fileio import output_target

    output_target(image)  # a directory or a device there is that, not an image that "exists already"
    name, comma, ident = disk_name.partition(",")
    if comma and "," not in ident:  # c1541's -format "name,id"
        raise UserError.single("--name", f"a disk name cannot contain a comma: c1541's \"NAME,ID\" is "
                               f"--name {shlex.quote(name) if name else 'NAME'} --id "
                               f"{shlex.quote(ident) if ident else 'ID'} here")
    # checked here, where the options are known: a message names the option, not its
    # value (an empty --id made the message ": error: ...")
    d64.petscii_name(disk_name, "a disk name", option="--name")
    d64.disk_id_bytes(disk_id, option="--id")
    d64.create(image, disk_name, disk_id, disk_format, force=force)


def _type_from_extension(path: Path) -> str:
    return {".seq": "SEQ", ".usr": "USR"}.get(path.suffix.lower(), "PRG")


def _past_the_top(prg: bytes) -> str:
    """A note for a PRG whose bytes would load past $FFFF: the KERNAL's LOAD counts its
    address on from $FFFF to $0000 ($F4C4's INC $AE / INC $AF) and writes on into the
    zero page and the stack, which a running C64 does not survive; stored as given (as
    c1541 does), with the reason said.  '' for any other."""
    if len(prg) < 2:
        return ""
    start = prg[0] | prg[1] << 8
    end = start + len(prg) - 2
    if end <= 0x10000:
        return ""
    past = end - 0x10000
    return (f"warning: it loads at ${start:04X}, and {past} byte{'s' if past != 1 else ''} past $FFFF (a "
            "LOAD wraps into the zero page and the stack); stored as it is")


def _stored(file: InputFile, file_type: str) -> tuple[bytes, str]:
    """What goes onto the disk for ``file`` as a ``file_type`` file, and what was made
    of it ('' when it goes as it is).  A SEQ or USR file holds the bytes as given.  A
    PRG must be one that LOAD can take: a BASIC listing is tokenized as `c64tc tok`
    does, an MSE dump made a PRG as `c64tc mse toprg` does; text that is no listing,
    assembler source, an image or a tune is refused with the command that makes a PRG
    of it (VICE would LOAD the text's bytes as garbage), and so is a single byte (no
    load address)."""
    from toolchain.inputs import BASIC_LINES, Kind, fitting_commands, is_listing, read_program, shown_argument

    kind = file.kind.kind
    if file_type != "PRG" or kind in BASIC_LINES or kind is Kind.MACHINE_CODE_PRG:
        return file.data, _past_the_top(file.data) if file_type == "PRG" else ""
    as_given = shown_argument(file.argument)
    if kind in (Kind.BASIC_LISTING, Kind.MSE_DUMP):
        program = read_program(file, "d64 add", "a program", {kind})
        prg = program.prg
        made = ("a BASIC listing, tokenized as `c64tc tok` does" if kind is Kind.BASIC_LISTING
                else "an MSE dump, made a PRG as `c64tc mse toprg` does")
        return prg.to_bytes(), (f"{made} (${prg.load_address:04X}-${prg.end_address - 1:04X}, "
                                f"{counted(len(prg.data), 'byte')})")
    if kind is Kind.BINARY and len(file.data) < 2 and file.image is None:
        # c1541 -write stores one byte as a PRG without a word, but no LOAD can take it
        # (there is not even a load address): most likely a truncated file, and data a
        # program reads byte by byte is a SEQ or USR file anyway.  (A file copied from
        # another disk image keeps what it was there.)
        raise UserError.single(file.name, f"{file.shown} is {file.kind.phrase}: LOAD could not take it, so "
                               "it is not stored as a PRG; --type seq (or usr) stores its byte as it is")
    if kind is Kind.BINARY:  # a PRG by another name (a .bin), or data a program reads with GET#
        return file.data, _past_the_top(file.data)
    if is_listing(file):  # text named as a listing: tokenizing would only guess
        fits = (f"if it is a BASIC listing, `c64tc tok {as_given}` it first (tok says which lines are not "
                "BASIC)")
    else:
        fits = fitting_commands(file, "d64 add", disk_names=False)
    raise UserError.single(file.name, f"{file.shown} is {file.kind.phrase}, not a program to store as a PRG"
                           + (f": {fits}" if fits else "") + "; --type seq stores its bytes as they are "
                           "(a sequential file)")


@d64_group.command("add")
@click.argument("image", type=_IMAGE)
@click.argument("files", nargs=-1, required=True,
                type=click.Path(allow_dash=True, path_type=Path))
@click.option("--name", "disk_name", help="Name on the disk (default: the file name without extension, "
              "'_' as a space).")
@click.option("--type", "file_type", type=click.Choice(["prg", "seq", "usr"], case_sensitive=False),
              help="File type (default: from the extension, .seq and .usr, else prg).")
@click.option("--replace", is_flag=True, help="Overwrite files of the same names.")
@reports_user_errors
@_names_the_kind
def d64_add(image: Path, files: tuple[Path, ...], disk_name: str | None, file_type: str | None,
            replace: bool) -> None:
    """Add FILES to the disk image, all or none (as stored: a PRG keeps its load
    address).  '-' reads standard input (with --name)."""
    from toolchain.disk import d64
    from toolchain.inputs import read_input

    if disk_name is not None and len(files) > 1:
        raise UserError.single(str(image), "--name needs exactly one file")
    if disk_name is not None:  # an empty --name is refused, not taken for no --name at all
        d64.petscii_name(disk_name, option="--name")
    new = []
    made = []
    for path in files:
        if str(path) == STDIO and disk_name is None:
            raise UserError.single(STDIO, "a file from standard input needs --name")
        file = read_input(path)
        name = disk_name if disk_name is not None else (file.title if file.image is not None
                                                         else path.stem.replace("_", " "))
        given_type = file.file_type if file.image is not None else _type_from_extension(path)
        stored_type = (file_type or given_type).upper()
        data, note = _stored(file, stored_type)
        new.append(d64.NewFile(name, data, stored_type))
        if note:
            made.append(f'{file.shown}: {note}, added as "{name.upper()}"')
    d64.add_files(image, new, replace)
    for note in made:  # said once they are on the disk
        click.echo(note, err=True)


@d64_group.command("list")
@click.argument("image", type=_IMAGE)
@click.argument("pattern", required=False)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@reports_user_errors
@_names_the_kind
def d64_list(image: Path, pattern: str | None, as_json: bool) -> None:
    """Show the directory as LOAD"$",8 and LIST would (LOAD"$:PATTERN",8 with a
    PATTERN).  A damaged image is listed as far as it can be; a broken directory
    chain is an error after the listing."""
    import json

    from toolchain.disk import d64

    directory = d64.directory(image, pattern)
    if as_json:
        click.echo(json.dumps(directory.as_dict(), indent=2))
    else:
        click.echo(directory.listing(), nl=False)
    if not directory.complete:
        raise UserError.single(str(image), f"damaged image: {directory.problems[0]}; the listing stops there")
    if directory.problems:
        more = len(directory.problems) - 1
        print_diagnostics([Diagnostic(str(image), 0, 0, f"damaged image ({directory.problems[0]}"
                                      + (f", and {more} more" if more else "") + "); see c64tc d64 validate",
                                      "warning")])


@d64_group.command("extract")
@click.argument("image", type=_IMAGE)
@click.argument("names", nargs=-1)
@click.option("--all", "everything", is_flag=True, help="Extract every file.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
              help="Output file for a single file ('-': standard output).")
@click.option("-d", "--directory", "folder", type=click.Path(file_okay=False, path_type=Path),
              help="Folder for the files (default: the current folder).")
@reports_user_errors
@_names_the_kind
def d64_extract(image: Path, names: tuple[str, ...], everything: bool, output: Path | None,
                folder: Path | None) -> None:
    """Copy files out of the image: NAMES (patterns too) or --all.  Each file is
    named after its name on the disk (made safe: letters, digits, '.', '-', '_') with
    its type as the extension (.prg, .seq, .usr, .rel), in the current folder or -d
    DIR; all are written together or none."""
    from toolchain.disk import d64

    if everything == bool(names):
        raise UserError.single(str(image), "give file names or --all (not both)")
    if output is not None and folder is not None:
        raise UserError.single(str(image), "-o and -d cannot go together")
    files = d64.extract_files(image, ["*"] if everything else list(names))
    if output is not None:
        if len(files) != 1:
            raise UserError.single(str(image), f"-o names one file, but {len(files)} files match "
                                   "(use -d DIR)")
        write_atomic(output, files[0].data, inputs=[image])
        return
    from toolchain.disk.names import unique_file_names

    base = make_folder(folder) if folder is not None else Path(".")  # -d DIR: made as unzip -d makes it
    targets = [base / name for name in unique_file_names([f.safe_name for f in files])]
    write_together([(target, f.data) for target, f in zip(targets, files, strict=True)])
    for target, f in zip(targets, files, strict=True):
        click.echo(f'"{f.name}" -> {target} ({counted(len(f.data), "byte")})')


@d64_group.command("rm")
@click.argument("image", type=_IMAGE)
@click.argument("names", nargs=-1, required=True)
@reports_user_errors
@_names_the_kind
def d64_rm(image: Path, names: tuple[str, ...]) -> None:
    """Delete files (patterns too) from the disk image, all or none: every name must
    match a file."""
    from toolchain.disk import d64

    d64.remove(image, *names)


@d64_group.command("rename")
@click.argument("image", type=_IMAGE)
@click.argument("names", nargs=-1, required=True)
@reports_user_errors
@_names_the_kind
def d64_rename(image: Path, names: tuple[str, ...]) -> None:
    """Rename files: OLD NEW [OLD NEW ...], all or none (OLD may be a pattern that
    matches one file)."""
    from toolchain.disk import d64

    if len(names) < 2 or len(names) % 2:
        raise UserError.single(str(image), "rename takes pairs of names: OLD NEW [OLD NEW ...]")
    d64.rename(image, *names)


@d64_group.command("validate")
@click.argument("image", type=_IMAGE)
@click.option("--fix", is_flag=True, help="Repair what is safe to repair (the BAM, rebuilt from the "
              "chains as the drive's VALIDATE does, and the directory's bookkeeping).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="With --fix: write the repaired image here.")
@click.option("--in-place", is_flag=True, help="With --fix: replace the image itself.")
@reports_user_errors
@_names_the_kind
def d64_validate(image: Path, fix: bool, output: Path | None, in_place: bool) -> None:
    """Check the image as d64-fsck does: the chains end, nothing loops or crosses,
    every block is on the disk, the BAM agrees with the blocks in use.  Exit status 1
    when anything is found.  Errors make c64tc refuse changes; warnings do not."""
    from toolchain.disk import d64

    if (output or in_place) and not fix:
        raise UserError.single(str(image), "-o and --in-place go with --fix")
    if fix and bool(output) == in_place:
        raise UserError.single(str(image), "--fix needs -o OUT or --in-place")
    if not fix:
        report = d64.validate(image)
        _print_report(image, report)
        if report.problems:
            raise SystemExit(1)
        return
    before, done, after = d64.repair(image, None if in_place else output)
    _print_report(image, before)
    written = image if in_place else output
    for action in done:
        click.echo(f"{written}: repaired: {action}")
    if not done:
        click.echo(f"{written}: nothing to repair")
    for problem in after.problems:
        click.echo(f"{written}: {problem.severity}: {problem.message} (left as it is)")


def _print_report(image: Path, report: object) -> None:
    from toolchain.disk.check import Report

    assert isinstance(report, Report)
    for problem in report.problems:
        click.echo(f"{image}: {problem.severity}: {problem.message}")
    errors, warnings = len(report.errors), len(report.warnings)
    summary = (f"{report.disk.name}, {report.disk.description}: {counted(len(report.files), 'file')}, "
               f"{counted(report.blocks_free, 'block')} free")
    if not report.problems:
        click.echo(f"{image}: ok ({summary})")
        return
    verdict = "damaged" if errors else "irregular"
    counts = [f"{errors} error{'s' if errors != 1 else ''}" if errors else "",
              f"{warnings} warning{'s' if warnings != 1 else ''}" if warnings else ""]
    what = ", ".join(part for part in counts if part)
    fixable = all(p.fixable for p in report.errors)
    advice = ("changes are refused; --fix repairs the errors" if errors and fixable
              else "changes are refused; --fix cannot repair all errors" if errors
              else "changes are allowed")
    click.echo(f"{image}: {verdict}: {what} ({summary}); {advice}")
