"""What a file is, and reading a program from wherever the user names it.

Every command that reads a program or a source comes through here, so that a file of
the wrong kind is named for what it is, with the command that fits it, instead of
being misread ("build/seeds.d64 is a D64 disk image, not a BASIC program: ...").

* :func:`classify` tells from a file's bytes (and name) which :class:`Kind` it is:
  BASIC listing (petcat text), assembler source (Profi-Ass, as text or saved as a
  BASIC program), MSE dump, MLX listing, other text, PRG with BASIC lines, machine-code PRG,
  disk or tape image, SID tune (PSID/RSID), other binary data, or empty;
* :func:`read_input` reads an argument: a file, ``-`` (standard input) or
  ``IMAGE:NAME`` (a file on a disk image, ``build/seeds.d64:"fox hunt"``);
  :func:`input_path` says which file that is (the image of ``IMAGE:NAME``);
* :func:`read_program` reads "a program" for a command, from a PRG, a BASIC listing
  (with errata merged over it), an MSE dump or ``IMAGE:NAME``, and refuses any other
  kind with :func:`wrong_kind`'s message.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from toolchain.diagnostics import UserError, print_diagnostics
from toolchain.disk.prg import Prg
from toolchain.fileio import STDIO, as_text, is_text, read_bytes

if TYPE_CHECKING:
    from toolchain.basic.tokenizer import TokenizedLine

__all__ = ["BASIC_LINES", "PRG_KINDS", "RUNNABLE", "TEXT_KINDS", "FileKind", "InputFile", "Kind",
           "ProgramInput", "as_text", "assembler_statements", "broken_basic", "classify", "fitting_commands",
           "input_path", "is_listing", "is_text", "read_input", "read_program", "shown_argument",
           "wrong_kind"]


class Kind(Enum):
    """What a file is; the value is how messages name it."""

    BASIC_LISTING = "a BASIC listing (petcat text)"
    ASSEMBLER_SOURCE = "assembler source (Profi-Ass text)"
    TOKENIZED_ASSEMBLER_SOURCE = "assembler source saved as a BASIC program (Profi-Ass)"
    MSE_DUMP = "an MSE hex dump"
    MLX_LISTING = "an MLX listing (COMPUTE!'s machine-code rows)"
    TEXT = "a text file"
    BASIC_PRG = "a BASIC program (PRG)"
    MACHINE_CODE_PRG = "a machine-code PRG"
    DISK_IMAGE = "a disk image"
    SID_TUNE = "a SID tune"
    BINARY = "binary data"
    EMPTY = "an empty file"


#: The kinds whose bytes are a PRG (two-byte load address, then the bytes).
PRG_KINDS = frozenset({Kind.BASIC_PRG, Kind.TOKENIZED_ASSEMBLER_SOURCE, Kind.MACHINE_CODE_PRG})
#: The kinds that are BASIC lines (a Profi-Ass source saved as a BASIC program is too).
BASIC_LINES = frozenset({Kind.BASIC_PRG, Kind.TOKENIZED_ASSEMBLER_SOURCE})
#: The kinds that are text a person typed.
TEXT_KINDS = frozenset({Kind.BASIC_LISTING, Kind.ASSEMBLER_SOURCE, Kind.MSE_DUMP, Kind.MLX_LISTING,
                        Kind.TEXT})


@dataclass(frozen=True, slots=True)
class FileKind:
    kind: Kind
    detail: str = ""  # "D64", "$C000-$C0FF", why binary data is no PRG...

    @property
    def phrase(self) -> str:
        """How a message names it: 'a D64 disk image', 'a machine-code PRG ($C000-$C002)'."""
        if self.kind is Kind.DISK_IMAGE:
            return f"a {self.detail or 'disk'} image"
        if self.kind is Kind.SID_TUNE and self.detail:
            return f"a SID tune ({self.detail})"
        if self.kind is Kind.BINARY and self.detail:
            return f"binary data ({self.detail})"
        if self.detail:
            return f"{self.kind.value} ({self.detail})"
        return self.kind.value


# -- telling kinds apart ------------------------------------------------------------

_MSE_LINE = re.compile(r"\s*[0-9a-f]{4}\s*:(\s*[0-9a-z]{2}){2,9}\s*$", re.IGNORECASE)
_MSE_HEADER = re.compile(r"\s*programm\s*:", re.IGNORECASE)
_MLX_1984_ROW = re.compile(r"\s*\d{1,5}\s*:\s*\d{1,3}(\s*,\s*\d{1,3}){6}\s*$")
_LINE_NUMBER = re.compile(r"[ \t]*(\d+)")
_WORD = re.compile(r"[a-z_][a-z0-9_]*")
# `name = value` with a decimal value (or a name) is a definition in Profi-Ass and an
# assignment in BASIC: it tells neither
_ASSIGNMENT = re.compile(r"\$?\s*(\(|=)")
_HEX_DEFINITION = re.compile(r"=\s*[$%*]")
_ORIGIN = re.compile(r"\*\s*=")  # *= $c000, * = $c000


def _mnemonics() -> frozenset[str]:
    from toolchain.cpu.opcodes import ALL_MNEMONICS, MNEMONIC_ALIASES

    return frozenset(ALL_MNEMONICS) | frozenset(MNEMONIC_ALIASES)


def _statement_kind(statement: str, mnemonics: frozenset[str], keywords: tuple[str, ...]) -> str:
    """'asm' for a statement only an assembler takes (an instruction, a directive, an
    origin, a definition with a hex value), 'neutral' for one that tells nothing (a
    comment, REM, a decimal definition), 'other' for the rest (BASIC, prose)."""
    text = statement.strip().lower()
    if not text or text.startswith((";", "rem")) or set(text) <= {":"}:
        return "neutral"
    if text.startswith("."):
        return "asm"  # .opt, .byt: no BASIC statement starts so
    if text.startswith("*"):
        # `*= $c000` is an assembler's origin; a `*` without the `=` is no statement of
        # the dialects c64tc reads, but BASIC's multiplication token can start a line
        # (`10 *ab`, nonsense a program may still hold, which detok prints as petcat
        # does: counted as assembler, detok's output was refused by tok), and so can a
        # line of prose (a bullet)
        return "asm" if _ORIGIN.match(text) else "other"
    word = _WORD.match(text)
    if word is None:
        return "other"
    rest = text[word.end():].lstrip()
    if word.group() in mnemonics and not _ASSIGNMENT.match(rest):
        return "asm"  # `lda #1`: in BASIC a statement starting with a name is `name=...`
    if rest.startswith("="):
        return "asm" if _HEX_DEFINITION.match(rest) else "neutral"
    if not word.group().startswith(keywords):  # a label, then an instruction or directive
        second = _WORD.match(rest)
        if rest.startswith(".") or (second is not None and second.group() in mnemonics
                                    and not _ASSIGNMENT.match(rest[second.end():].lstrip())):
            return "asm"
    return "other"


def assembler_statements(text: str) -> tuple[int, int, int]:
    """(lines only an assembler takes, lines that are something else, lines with a
    line number) of a text, looking at the first statement of each line (after its
    line number): see :func:`classify`."""
    from toolchain.basic.tokens import KEYWORDS

    mnemonics = _mnemonics()
    keywords = tuple(k for k in KEYWORDS if k[0].isalpha())
    assembler = other = numbered = 0
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith(";"):
            continue
        number = _LINE_NUMBER.match(line)
        if number is not None:
            numbered += 1
        body = line[number.end():] if number is not None else line
        kind = _statement_kind(body, mnemonics, keywords)
        if kind == "asm":
            assembler += 1
        elif kind == "other":
            other += 1
    return assembler, other, numbered


def _text_kind(text: str) -> Kind:
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith(";")
             and not set(line.strip()) <= {"-", "="}]
    if not lines:
        return Kind.TEXT
    dump_lines = sum(1 for line in lines if _MSE_LINE.match(line) or _MSE_HEADER.match(line))
    if dump_lines * 2 > len(lines):
        return _dump_kind(lines)
    if sum(1 for line in lines if _MLX_1984_ROW.match(line)) * 2 > len(lines):
        return Kind.MLX_LISTING
    assembler, other, numbered = assembler_statements(text)
    # A BASIC listing has no line an assembler alone takes; a quarter is plenty for a
    # source (the 64'er corpus: BASIC listings 0 of 60, sources 45% to 93% of lines)
    if assembler and assembler * 4 >= assembler + other:
        return Kind.ASSEMBLER_SOURCE
    if numbered * 2 > len(lines):
        return Kind.BASIC_LISTING
    return Kind.TEXT


_ROWS_LOOKED_AT = 400  # enough to tell, and bounded work on any input


def _dump_kind(lines: list[str]) -> Kind:
    """An MSE dump and a new-MLX listing look alike (an address, eight hex bytes, a
    checksum): the checksums tell them apart, MSE's winning ties (and its header)."""
    from toolchain import mse
    from toolchain.typein import mlx

    if any(_MSE_HEADER.match(line) for line in lines):
        return Kind.MSE_DUMP
    text = "\n".join(lines[:_ROWS_LOOKED_AT])
    fits_mse = sum(1 for row in mse.parse(text).lines
                   if mse.checksum(row.address, row.data) == row.printed_checksum)
    fits_mlx = sum(1 for row in mlx.parse(text, format=mlx.Format.MLX_1985).rows
                   if mlx.checksum(row.address, row.data) == row.printed_checksum)
    return Kind.MLX_LISTING if fits_mlx > fits_mse else Kind.MSE_DUMP


def _disk_kind(data: bytes) -> FileKind | None:
    from toolchain.disk.formats import format_for_size
    from toolchain.disk.tape import T64_MAGICS

    disk = format_for_size(len(data))
    if disk is not None:
        shown = {"d64": "D64", "d64-40": "D64 (40 tracks)", "d71": "D71", "d81": "D81"}
        return FileKind(Kind.DISK_IMAGE, shown.get(disk.name, disk.name.upper()) + " disk")
    if data[:32].rstrip(b"\x00").startswith(T64_MAGICS):
        return FileKind(Kind.DISK_IMAGE, "T64 tape")
    return None


def _tune_kind(data: bytes) -> FileKind | None:
    """A SID tune of the High Voltage SID Collection (PSID or RSID, its header)."""
    from toolchain.sound.psid import MAGICS, describe_header

    if data[:4] not in MAGICS:
        return None
    return FileKind(Kind.SID_TUNE, describe_header(data))


def _prg_kind(data: bytes, name: str) -> FileKind:
    from toolchain.basic.runner import as_loaded

    load = int.from_bytes(data[:2], "little")
    size = len(data) - 2
    if load + size > 0x10000:
        return FileKind(Kind.BINARY, f"not a PRG file: {size} bytes loaded at ${load:04X} would run past "
                        "$FFFF")
    prg = Prg(load, bytes(data[2:]))
    loaded = as_loaded(prg)
    if loaded is not None:
        from toolchain.basic import detokenize

        assembler, other, _ = assembler_statements(detokenize(loaded))
        if assembler and assembler * 4 >= assembler + other:
            return FileKind(Kind.TOKENIZED_ASSEMBLER_SOURCE)
        return FileKind(Kind.BASIC_PRG)
    where = f"${load:04X}-${load + size - 1:04X}" if size else f"${load:04X}, no bytes"
    if not name or name.lower().endswith(".prg"):
        return FileKind(Kind.MACHINE_CODE_PRG, where)
    return FileKind(Kind.BINARY)


def classify(data: bytes, name: str = "") -> FileKind:
    """What ``data`` is.  ``name`` (the file's name, "" when unknown) only decides
    whether binary bytes without BASIC lines are called a machine-code PRG (a
    ``.prg``, a PRG on a disk, standard input) or binary data.

    Text (no 0 byte, hardly any control characters) is an MSE dump when most lines
    are dump lines (an MLX listing when the new MLX's checksums fit more of them than
    MSE's), an MLX listing when most lines are MLX's decimal rows, assembler source
    when at least a quarter of its statements are ones only an assembler takes
    (instructions, directives, ``*=``, ``name = $hex``; REM, comments and decimal
    definitions count for neither), a BASIC listing when most lines start with a line
    number, and other text otherwise.  A disk or tape image is known by its size or
    signature, a BASIC program by lines that chain (as LOAD relinks them) and ascend."""
    if not data:
        return FileKind(Kind.EMPTY)
    tune = _tune_kind(data)
    if tune is not None:
        return tune
    disk = _disk_kind(data)
    if disk is not None:
        return disk
    if is_text(data):
        kind = _text_kind(as_text(data))
        if kind is not Kind.TEXT or not name.lower().endswith(".prg"):
            return FileKind(kind)
    if len(data) < 2:
        return FileKind(Kind.BINARY, "not a PRG file: 1 byte, but a PRG starts with a two-byte load address")
    return _prg_kind(data, name)


# -- reading an argument ------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class InputFile:
    """A file as a command got it: its bytes, what they are, and how to name it."""

    argument: str  # as given: a path, '-' or IMAGE:NAME
    name: str  # for messages: the path, '-', or build/seeds.d64:"FOX HUNT"
    data: bytes
    kind: FileKind
    image: Path | None = None  # the disk image it was read from (IMAGE:NAME)
    file_type: str = "PRG"  # its type there (PRG, SEQ, USR, REL)

    @property
    def is_stdin(self) -> bool:
        return self.argument == STDIO

    @property
    def path(self) -> Path | None:
        """The file read: the path, or the disk image; None for standard input."""
        if self.image is not None:
            return self.image
        return None if self.is_stdin else Path(self.argument)

    @property
    def shown(self) -> str:
        """The file in a sentence: its name, or 'standard input'."""
        return "standard input" if self.is_stdin else self.name

    @property
    def title(self) -> str:
        """Its name without folder and extension: 'nikolaus', 'fox hunt' (the name on
        the disk, in lower case), 'stdin'."""
        if self.is_stdin:
            return "stdin"
        if self.image is not None:
            return self.name.rsplit(":", 1)[-1].strip('"').lower()
        return Path(self.argument).stem

    @property
    def stem(self) -> str:
        """A file name for an output made from it (``build/STEM.prg``)."""
        return re.sub(r"[^\w.-]+", "-", self.title).strip("-") or "program"


def read_input(argument: str | Path) -> InputFile:
    """The file an argument names: ``-`` is standard input, ``IMAGE:NAME`` a file on a
    disk image (see :mod:`toolchain.disk.reference`), anything else a file."""
    from toolchain.disk import parse_image_reference, read_disk_file

    text = str(argument)
    reference = None if text == STDIO else parse_image_reference(text)
    if reference is not None:
        try:
            found = read_disk_file(reference)
        except UserError as exc:
            raise _with_names_on_disk(exc, reference.image) from None
        name = found.display_name
        data = found.data
        kind = classify(data, "disk.prg" if found.file_type == "PRG" else "")
        return InputFile(text, name, data, kind, found.image, found.file_type)
    data = read_bytes(text)
    return InputFile(text, text, data, classify(data, "" if text == STDIO else text))


def input_path(argument: str | Path | None) -> Path | None:
    """The file an argument is read from: its path, or the disk image of ``IMAGE:NAME``;
    None for standard input (or no argument).  What a command's outputs must not replace
    (:func:`toolchain.fileio.refuse_replacing_inputs`)."""
    if argument is None or str(argument) == STDIO:
        return None
    from toolchain.disk import parse_image_reference

    reference = parse_image_reference(argument)
    return reference.image if reference is not None else Path(argument)


def _with_names_on_disk(error: UserError, image: Path) -> UserError:
    """A name that matches no file: the error, with the files the disk has."""
    from toolchain.disk import d64

    message = error.diagnostics[0].message if len(error.diagnostics) == 1 else ""
    if not message.startswith("no file matches"):
        return error
    try:
        names = [entry.name for entry in d64.directory(image).files]
    except UserError:
        return error
    shown = ", ".join(f'"{name}"' for name in names[:12]) + (", ..." if len(names) > 12 else "")
    return UserError.single(str(image), f"{message} (the disk has: {shown or 'no files'})")


# -- when it is the wrong kind ------------------------------------------------------

def shown_argument(text: str) -> str:
    """An argument as the user would type it into a shell."""
    return text if re.fullmatch(r"[\w./:@%+,=-]+", text) else shlex.quote(text)


def _example_on_disk(file: InputFile, accept: Collection[Kind] | None) -> str:
    """An IMAGE:NAME of the image ``file`` for the message: its first PRG of a kind in
    ``accept`` (any PRG when None); '' when there is none or the image is unreadable."""
    from toolchain.disk import d64

    if file.is_stdin:
        return ""
    try:
        found = d64.extract_files(Path(file.argument), ["*"])
    except UserError:
        return ""
    kinds = [(classify(c.data, "disk.prg").kind, c.name) for c in found if c.file_type == "PRG"]
    fitting = [(kind, name) for kind, name in kinds if accept is None or kind in accept]
    if accept is not None and Kind.BASIC_LISTING in accept:  # run, list: one that runs without --sys
        fitting.sort(key=lambda item: item[0] is not Kind.BASIC_PRG)
    return f'{shown_argument(file.argument)}:"{fitting[0][1].lower()}"' if fitting else ""


_VERBS = {"run": "runs", "list": "lists", "detok": "detokenizes", "disasm": "disassembles",
          "mse fromprg": "makes a dump of"}


def fitting_commands(file: InputFile, command: str, disk_names: bool = True,
                     accept: Collection[Kind] | None = None) -> str:
    """Which commands fit ``file``, as a phrase: '`c64tc disasm x.prg` shows its code,
    ...'.  ``command`` is the one that refused it (``run``, ``mse fromprg``), which
    takes the kinds in ``accept``; with ``disk_names`` it takes ``IMAGE:NAME``."""
    path = "-" if file.is_stdin else shown_argument(file.argument)
    kind = file.kind.kind
    if kind is Kind.DISK_IMAGE:
        if file.is_stdin:
            return "save it to a file; then `c64tc d64 list FILE` shows its files"
        listing = f"`c64tc d64 list {path}` shows its files"
        if not disk_names:
            return f"{listing}, `c64tc d64 extract {path} NAME` takes one out"
        example = _example_on_disk(file, accept)
        verb = _VERBS.get(command, "reads")
        return (f"{listing}; `c64tc {command} {path}:NAME` {verb} one"
                + (f" (e.g. `c64tc {command} {example}`)" if example else ""))
    if kind is Kind.BASIC_LISTING:
        return f"`c64tc tok {path}` makes a PRG of it, `c64tc run {path}` runs it"
    if kind is Kind.SID_TUNE:
        return f"`c64tc run {path}` plays it, `c64tc run {path} --audio TUNE.wav` records it"
    if kind is Kind.ASSEMBLER_SOURCE:
        return f"`c64tc asm {path}` assembles it into a PRG"
    if kind is Kind.TOKENIZED_ASSEMBLER_SOURCE:
        return f"`c64tc asm {path}` assembles it, `c64tc list {path}` shows the source"
    if kind is Kind.MSE_DUMP:
        return f"`c64tc mse check {path}` verifies it, `c64tc mse toprg {path}` makes the PRG"
    if kind is Kind.MLX_LISTING:
        return f"`c64tc mlx check {path}` verifies it, `c64tc mlx toprg {path}` makes the PRG"
    if kind is Kind.BASIC_PRG:
        return f"`c64tc list {path}` shows it, `c64tc run {path}` runs it"
    if kind is Kind.MACHINE_CODE_PRG:
        load = int.from_bytes(file.data[:2], "little")
        return f"`c64tc disasm {path}` shows its code, `c64tc run {path} --sys {load}` runs it"
    if kind is Kind.TEXT:
        return ("a BASIC listing has a line number on each line, an MSE dump or MLX listing 'ADDR : bytes "
                "checksum' lines, assembler source 6502 instructions")
    return ""


def wrong_kind(file: InputFile, wanted: str, command: str, hint: str = "", disk_names: bool = True,
               accept: Collection[Kind] | None = None) -> UserError:
    """The error for ``file`` given to ``command``, which wants ``wanted`` ('a BASIC
    program', the kinds in ``accept``): what the file is, and which commands fit it
    (``hint`` first)."""
    fits = ", ".join(part for part in (hint, fitting_commands(file, command, disk_names, accept)) if part)
    if file.image is not None and file.file_type != "PRG":
        fits = f"it is a {file.file_type} file" + (f"; {fits}" if fits else "")
    message = f"{file.shown} is {file.kind.phrase}, not {wanted}"
    return UserError.single(file.name, message + (f": {fits}" if fits else ""))


# -- reading a program --------------------------------------------------------------

@dataclass(frozen=True)
class ProgramInput:
    """A program read for a command: its bytes as LOAD would get them, and what it was."""

    name: str  # for messages
    prg: Prg
    kind: Kind  # BASIC_LISTING, BASIC_PRG, TOKENIZED_ASSEMBLER_SOURCE, MACHINE_CODE_PRG, MSE_DUMP or
    # MLX_LISTING
    file: InputFile
    lines: tuple[TokenizedLine, ...] = ()  # a listing's lines, for where each was typed


#: What a command that runs or shows a program takes.
RUNNABLE = frozenset({Kind.BASIC_LISTING, Kind.BASIC_PRG, Kind.MACHINE_CODE_PRG})


def is_listing(file: InputFile) -> bool:
    """A listing by its kind, or text in a file named as listings are (``.bas``, ``.txt``)
    that is no other kind: its lines' mistakes are then the tokenizer's to report."""
    if file.kind.kind is Kind.BASIC_LISTING:
        return True
    return file.kind.kind in (Kind.TEXT, Kind.EMPTY) and (
        file.is_stdin or Path(file.argument).suffix.lower() in LISTING_SUFFIXES)


LISTING_SUFFIXES = (".bas", ".txt")  # petcat's text, as listings are kept (the 64'er corpus: .txt)


def broken_basic(file: InputFile) -> str | None:
    """Why a PRG at BASIC's start is no BASIC program (the detokenizer's words), or None."""
    from toolchain.basic import split_program
    from toolchain.c64.memory import BASIC_PROGRAM_START

    if len(file.data) < 2 or int.from_bytes(file.data[:2], "little") != BASIC_PROGRAM_START:
        return None
    try:
        split_program(file.data[2:], BASIC_PROGRAM_START, file.name)
    except UserError as exc:
        return exc.diagnostics[0].message
    return None


def read_program(argument: str | Path | InputFile, command: str, wanted: str, accept: Collection[Kind],
                 errata: Sequence[str | Path] = (), hint: str = "") -> ProgramInput:
    """The program ``argument`` names (a file, ``-`` or ``IMAGE:NAME``, or read already), for
    ``command``, which takes the kinds in ``accept`` (``wanted`` says them in words,
    for the message when the file is another kind).

    A BASIC listing is tokenized, with ``errata`` merged over it (the same line number
    replaces a line, a number alone deletes it); an MSE dump is verified and made a
    PRG; binary data that is no BASIC program is taken as a machine-code PRG when
    machine code is accepted.  Empty standard input is an empty listing only for a
    command that takes no PRG.  ``hint`` is the command's own advice for a file of the
    wrong kind."""
    file = argument if isinstance(argument, InputFile) else read_input(argument)
    kind = file.kind.kind
    errata_files = [read_input(path) for path in errata]
    if errata_files and not is_listing(file):
        raise UserError.single(file.name, f"errata are merged over a BASIC listing; {file.shown} is "
                               f"{file.kind.phrase}" + ("" if kind is not Kind.BASIC_PRG else
                                                        f" (`c64tc detok {shown_argument(file.argument)}` "
                                                        "gives its text)"))
    for erratum in errata_files:
        if not is_listing(erratum):
            raise wrong_kind(erratum, "a BASIC listing (an erratum)", command)
    # nothing on standard input where a PRG would do as well is no empty listing but no
    # program (most likely the command before the pipe failed): refused as detok refuses it
    nothing_piped = file.is_stdin and kind is Kind.EMPTY and bool(PRG_KINDS & set(accept))
    if Kind.BASIC_LISTING in accept and is_listing(file) and not nothing_piped:
        from toolchain.basic.tokenizer import C64_BASIC_START, link, merge, tokenize_lines, upper_case_warning

        texts = [(as_text(f.data, f.name), f.name) for f in (file, *errata_files)]
        print_diagnostics([warning for text, name in texts
                           if (warning := upper_case_warning(text, name)) is not None])
        lines = merge([tokenize_lines(text, name) for text, name in texts])[0]
        return ProgramInput(file.name, Prg(C64_BASIC_START, link(lines)), Kind.BASIC_LISTING, file,
                            tuple(lines))
    if kind is Kind.MSE_DUMP and Kind.MSE_DUMP in accept:
        from toolchain import mse

        text = as_text(file.data, file.name)
        return ProgramInput(file.name, mse.to_prg(mse.parse(text, file.name)), kind, file)
    if kind is Kind.MLX_LISTING and Kind.MSE_DUMP in accept:  # typed machine code, as an MSE dump is
        from toolchain.typein import mlx

        text = as_text(file.data, file.name)
        return ProgramInput(file.name, mlx.to_prg(mlx.parse(text, file.name)), kind, file)
    if kind is Kind.BINARY and Kind.MACHINE_CODE_PRG in accept and len(file.data) >= 2 \
            and not file.kind.detail:
        kind = Kind.MACHINE_CODE_PRG  # a PRG by another name
    if kind not in accept or kind not in PRG_KINDS:
        if kind in (Kind.MACHINE_CODE_PRG, Kind.BINARY) and Kind.BASIC_PRG in accept:
            broken = broken_basic(file)
            if broken is not None:  # meant to be BASIC (it loads at $0801): say what is wrong
                raise UserError.single(file.name, f"{file.shown} loads at $0801 but is no BASIC program: "
                                       f"{broken}")
        raise wrong_kind(file, wanted, command, hint, accept=accept)
    return ProgramInput(file.name, Prg.from_bytes(file.data, file.name), kind, file)
