"""Reading an assembler source from a file: text, or a tokenized PRG as Profi-Ass saved
it; anything else (a disk image, a BASIC program or listing, machine code, an MSE dump,
binary data) is named in the error, with the command that fits it.  What a file is
comes from :mod:`toolchain.inputs`, which every command uses."""

from __future__ import annotations

import re

from toolchain.diagnostics import UserError
from toolchain.inputs import (
    TEXT_KINDS,
    InputFile,
    Kind,
    as_text,
    assembler_statements,
    broken_basic,
    read_input,
    wrong_kind,
)

_SYS_LINE = re.compile(r"^\s*\d*\s*sys", re.IGNORECASE | re.MULTILINE)


def _saved_source(file: InputFile) -> str:
    """The text of a source Profi-Ass saved as a BASIC program."""
    from toolchain.basic import detokenize
    from toolchain.disk import Prg

    path = file.name
    text = detokenize(Prg.from_bytes(file.data, path), name=path.rsplit("/", 1)[-1], path=path)
    if file.kind.kind is Kind.BASIC_PRG and (not _SYS_LINE.search(text) or len(text.splitlines()) < 2):
        raise UserError.single(path, f"{file.shown} is a tokenized BASIC program, not Profi-Ass source (no "
                               f"'sys' line starts an assembler): `c64tc list {file.argument}` shows it, "
                               f"`c64tc run {file.argument}` runs it")
    return text


def load_source(path: str) -> str:
    """The source text of ``path`` (``-`` is standard input)."""
    file = read_input(path)
    kind = file.kind.kind
    if kind in (Kind.TOKENIZED_ASSEMBLER_SOURCE, Kind.BASIC_PRG):
        return _saved_source(file)
    broken = broken_basic(file) if kind in (Kind.MACHINE_CODE_PRG, Kind.BINARY) else None
    if broken is not None:
        raise UserError.single(path, f"{file.shown} is neither a source text nor a tokenized program "
                               f"({broken})")
    text = as_text(file.data, file.name)
    assembler, other, _ = assembler_statements(text)
    if kind is Kind.BASIC_LISTING and assembler == 0 and other > 0:
        # BASIC statements and not one instruction or directive
        raise wrong_kind(file, "assembler source", "asm", disk_names=False)
    if kind in (Kind.ASSEMBLER_SOURCE, Kind.BASIC_LISTING, Kind.TEXT, Kind.EMPTY):
        return text
    # (the words of the messages the assembler gave before there was toolchain.inputs)
    wanted = ("assembler source" if kind in TEXT_KINDS else "a source text" if kind is Kind.BINARY
              else "a source")
    raise wrong_kind(file, wanted, "asm", disk_names=False)
