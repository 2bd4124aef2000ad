"""Reading an assembler source from a file: text, or a tokenized PRG as Profi-Ass saved
it; anything else (a disk image, a BASIC program, machine code, an MSE dump, binary
data) is named in the error, with the command that fits it."""

from __future__ import annotations

import re

from toolchain.c64.memory import BASIC_PROGRAM_START
from toolchain.diagnostics import UserError

_D64_SIZES = {174848: "D64", 175531: "D64", 196608: "D64 (40 tracks)", 197376: "D64 (40 tracks)",
              349696: "D71", 351062: "D71", 819200: "D81", 822400: "D81"}
_MSE_LINE = re.compile(r"\s*[0-9a-f]{4}\s*:(\s*[0-9a-z]{2}){2,9}\s*$", re.IGNORECASE)
_SYS_LINE = re.compile(r"^\s*\d*\s*sys", re.IGNORECASE | re.MULTILINE)


def describe_binary(data: bytes, path: str) -> str | None:
    """What a file that is not text is, in words, with the command that fits; None when it
    is a BASIC program (its text is then worth a look)."""
    kind = _D64_SIZES.get(len(data))
    if kind is not None:
        return (f"{path} is a {kind} disk image, not a source: `c64tc d64 list {path}` shows its files, "
                f"`c64tc d64 extract {path} NAME` takes one out")
    if len(data) >= 2:
        load = int.from_bytes(data[:2], "little")
        if load == BASIC_PROGRAM_START:
            return None
        if path.lower().endswith(".prg") and load + len(data) - 2 <= 0x10000:
            return (f"{path} is a machine-code PRG (${load:04X}-${load + len(data) - 3:04X}), not a source: "
                    f"`c64tc disasm {path}` shows its code")
    return f"{path} is binary data, not a source text"


def _is_text(data: bytes) -> bool:
    if b"\x00" in data:
        return False
    control = sum(1 for b in data[:4096] if b < 0x20 and b not in (9, 10, 12, 13))
    return control <= len(data[:4096]) // 100


def load_source(path: str) -> str:
    """The source text of ``path`` (``-`` is standard input)."""
    from toolchain.fileio import read_bytes

    data = read_bytes(path)
    if path.lower().endswith(".prg") or not _is_text(data):
        description = describe_binary(data, path)
        if description is not None:
            raise UserError.single(path, description)
        from toolchain.basic import detokenize
        from toolchain.disk import Prg

        try:
            text = detokenize(Prg.from_bytes(data, path), name=path.rsplit("/", 1)[-1], path=path)
        except UserError:
            raise UserError.single(path, f"{path} is neither a source text nor a tokenized program "
                                   "(its BASIC line links are broken)") from None
        if not _SYS_LINE.search(text) or len(text.splitlines()) < 2:
            raise UserError.single(path, f"{path} is a tokenized BASIC program, not Profi-Ass source (no "
                                   f"'sys' line starts an assembler): `c64tc list {path}` shows it, "
                                   f"`c64tc run {path}` runs it")
        return text
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    lines = [line for line in text.splitlines() if line.strip()]
    if lines and sum(1 for line in lines if _MSE_LINE.match(line)) > len(lines) // 2:
        raise UserError.single(path, f"{path} is an MSE hex dump, not assembler source: `c64tc mse check "
                               f"{path}` verifies it, `c64tc mse toprg {path}` makes the PRG")
    return text
