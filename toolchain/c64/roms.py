"""Finding the C64's ROMs (KERNAL, BASIC, character generator) on the user's machine.

c64tc ships no ROM image.  Where the user has them, they are found as VICE finds
its own: a folder named with ``--roms DIR``, else the ``C64TC_ROMS`` environment
variable, else the data folder of the VICE that ``C64TC_VICE`` or the PATH finds
(``toolchain.vice.find_emulator``), where VICE keeps them in ``C64/``: beside a
built-but-not-installed x64sc (``toolchain.vice.data_directory``), in an installed
prefix's ``share/vice``, or in VICE's per-user and system data folders.  In each
folder the ROMs may sit directly or in its ``C64/`` subfolder, under VICE 3.10's
names (``kernal-901227-03.bin``...) or the plain names of older installs
(``kernal``...).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from toolchain import vice
from toolchain.diagnostics import UserError, counted
from toolchain.fileio import is_dir, is_file, read_bytes

ROMS_ENV = "C64TC_ROMS"

#: each ROM: its size and its file names, VICE 3.10's first
ROM_FILES: dict[str, tuple[int, tuple[str, ...]]] = {
    "kernal": (8192, ("kernal-901227-03.bin", "kernal")),
    "basic": (8192, ("basic-901226-01.bin", "basic")),
    "chargen": (4096, ("chargen-901225-01.bin", "chargen")),
}


@dataclass(frozen=True)
class RomSet:
    """The three ROMs of a C64 and where they were found."""

    kernal: bytes
    basic: bytes
    chargen: bytes
    paths: dict[str, Path]  # "kernal"/"basic"/"chargen" -> the file read
    origin: str  # how the folder was found: "--roms", "C64TC_ROMS", "VICE (/usr/bin/x64sc)"


def _vice_data_folders() -> tuple[list[Path], Path | None]:
    """Where the VICE that c64tc would run keeps its data, and that VICE's x64sc."""
    try:
        emulator = vice.find_emulator()
    except UserError:
        return [], None
    folders = []
    built = vice.data_directory(emulator)
    if built is not None:
        folders.append(built)
    prefix = emulator.resolve().parent.parent
    folders += [prefix / "share" / "vice", prefix / "lib" / "vice", emulator.parent,
                Path.home() / ".local" / "share" / "vice", Path("/usr/share/vice"), Path("/usr/lib/vice")]
    return folders, emulator


def _search_order(explicit_dir: Path | None) -> Iterator[tuple[list[Path], str, bool]]:
    """(folders, origin, explicit): explicit ones must hold the ROMs."""
    if explicit_dir is not None:
        yield [explicit_dir], "--roms", True
        return
    configured = os.environ.get(ROMS_ENV)
    if configured and configured.lower() == "none":  # C64TC_ROMS=none: c64tc's own models only
        return
    if configured:
        yield [Path(configured)], ROMS_ENV, True
        return
    folders, emulator = _vice_data_folders()
    if emulator is not None:
        yield folders, f"VICE ({emulator})", False


def _find_file(folder: Path, names: tuple[str, ...]) -> Path | None:
    for directory in (folder, folder / "C64"):
        for name in names:
            candidate = directory / name
            if is_file(candidate):
                return candidate
    return None


def _read(path: Path, kind: str, size: int) -> bytes:
    data = read_bytes(path)  # a regular file, read bounded
    if len(data) != size:
        raise UserError.single(str(path), f"{counted(len(data), 'byte')}; a C64 {kind} ROM has {size:,}")
    return data


def find_rom(kind: str, explicit_dir: Path | None = None) -> tuple[bytes, Path, str] | None:
    """One ROM ("kernal", "basic" or "chargen"): its bytes, file and origin, or None
    when no folder searched has it.  A folder named explicitly (``--roms``,
    ``C64TC_ROMS``) that lacks it, or a file of the wrong size, is a ``UserError``."""
    size, names = ROM_FILES[kind]
    for folders, origin, explicit in _search_order(explicit_dir):
        for folder in folders:
            path = _find_file(folder, names)
            if path is not None:
                return _read(path, kind, size), path, origin
        if explicit:
            where = folders[0]
            if not is_dir(where):
                raise UserError.single(str(where), f"not a folder (named by {origin} for the C64 ROMs)")
            raise UserError.single(str(where), f"no C64 {kind} ROM here or in its C64/ folder "
                                   f"(looked for {' or '.join(names)})")
    return None


def find_roms(explicit_dir: Path | None = None) -> RomSet | None:
    """All three ROMs from the first place that has them, or None when none is found
    (no --roms, no C64TC_ROMS, no VICE with its ROMs)."""
    found = {kind: find_rom(kind, explicit_dir) for kind in ROM_FILES}
    if any(value is None for value in found.values()):
        return None
    kernal, basic, chargen = (found[kind] for kind in ("kernal", "basic", "chargen"))
    assert kernal is not None and basic is not None and chargen is not None
    return RomSet(kernal[0], basic[0], chargen[0],
                  {"kernal": kernal[1], "basic": basic[1], "chargen": chargen[1]}, kernal[2])


def find_chargen(explicit_dir: Path | None = None) -> tuple[bytes, str] | None:
    """The character ROM and a description of where it came from, or None."""
    found = find_rom("chargen", explicit_dir)
    if found is None:
        return None
    data, path, origin = found
    return data, f"{path} (from {origin})"
