"""T64 tape containers (C64S), read through the ``t64`` package (by the author of
``d64``), with the bounds it does not check: an entry whose data runs past the end
of the file (a common fault of T64 files with a wrong end address) is reported, not
read short."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

from toolchain.diagnostics import UserError
from toolchain.disk.chains import TYPE_NAMES
from toolchain.disk.formats import format_for_size

T64_MAGICS = (b"C64 tape image file", b"C64S tape file", b"C64S tape image file")


def is_tape(path: Path) -> bool:
    """Whether ``path`` is a T64 container: it starts with a T64 signature and does not
    have the size of a disk image (whose first block may hold anything)."""
    try:
        if not path.is_file() or format_for_size(path.stat().st_size) is not None:
            return False
        with path.open("rb") as handle:
            magic = handle.read(32).rstrip(b"\x00")
    except OSError:
        return False
    return magic.startswith(T64_MAGICS)


@dataclass(frozen=True, slots=True)
class TapeFile:
    raw_name: bytes
    file_type: str
    data: bytes | None  # as stored on a disk (a PRG with its load address); None: unreadable
    problem: str | None


@dataclass(frozen=True, slots=True)
class Tape:
    raw_name: bytes
    files: list[TapeFile]


def read_tape(path: Path) -> Tape:
    try:
        from t64 import T64ImageReader
    except ImportError:
        raise UserError.single(str(path), "reading T64 tape images needs the t64 package "
                               "(pip install t64)") from None
    try:
        with T64ImageReader(path) as tape:
            size = len(tape.map)
            files = []
            for entry in tape.iterdir():
                # Tape files are programs: an entry without a 1541 type is a PRG.
                file_type = TYPE_NAMES[entry._disk_type & 7] if entry._disk_type & 7 else "PRG"
                length = entry.end_addr - entry.start_addr
                data: bytes | None = None
                problem = None
                if entry.img_start + length > size:
                    problem = (f"its data (${entry.start_addr:04X}-${entry.end_addr:04X}) runs past the end "
                               "of the tape image (a T64 with a wrong end address)")
                else:
                    body = bytes(tape.map[entry.img_start : entry.img_start + length])
                    data = (struct.pack("<H", entry.start_addr) + body) if file_type == "PRG" else body
                files.append(TapeFile(bytes(entry.name).rstrip(b"\xa0 "), file_type, data, problem))
            return Tape(bytes(tape.tape_name).rstrip(b"\x00 \xa0"), files)
    except (struct.error, IndexError):  # (the t64 package's reads past the end say only Python's words)
        raise UserError.single(str(path), "not a readable T64 tape image (the file ends inside its header "
                               "or its directory)") from None
    except (ValueError, OSError) as exc:
        raise UserError.single(str(path), f"not a readable T64 tape image ({exc})") from None
