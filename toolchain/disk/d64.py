"""D64 disk images through the ``d64`` package: create, add, delete, rename, list,
extract.  Every change is made on a copy that replaces the image only when the
change succeeded (the package's write mode), so a full disk or a failure leaves
the image as it was."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from d64 import DiskImage
from d64.exceptions import ConsistencyError, DiskFullError

from toolchain.diagnostics import UserError
from toolchain.petscii import BYTE_TEXT

# 1541 geometry: 35 tracks, 683 blocks of 256 bytes, 664 free for files on a new disk
# (track 18 holds the BAM and the directory); each block carries 254 bytes of a file.
D64_SIZE = 174848
BLOCK_DATA_BYTES = 254
FREE_BLOCKS_NEW_DISK = 664
TOTAL_BLOCKS = 683
MAX_DIRECTORY_ENTRIES = 144  # 18 directory sectors of 8 entries on track 18
FILE_TYPES = ("PRG", "SEQ", "USR")
MAX_NAME_LENGTH = 16
_FORBIDDEN_IN_NAMES = set(b'*?,:="')  # DOS wildcards and separators

# What the d64 package raises on a damaged image, besides its own ConsistencyError.
_CORRUPTION = (ConsistencyError, NotImplementedError, ValueError, IndexError, KeyError, OSError)


@dataclass(frozen=True, slots=True)
class DirectoryEntry:
    name: str  # as the C64 shows it
    file_type: str
    blocks: int
    closed: bool
    locked: bool


@dataclass(frozen=True, slots=True)
class Directory:
    name: str
    disk_id: str
    dos_type: str
    files: list[DirectoryEntry]
    blocks_free: int

    def as_dict(self) -> dict[str, object]:
        return asdict(self)

    def listing(self) -> str:
        """As the C64 shows it after LOAD"$",8 and LIST."""
        rows = [f'0 "{self.name:<16}" {self.disk_id} {self.dos_type}']
        for entry in self.files:
            mark = ("" if entry.closed else "*")
            rows.append(f'{entry.blocks:<5}{chr(34) + entry.name + chr(34):<18}{mark or " "}{entry.file_type}'
                        + ("<" if entry.locked else ""))
        rows.append(f"{self.blocks_free} BLOCKS FREE.")
        return "\n".join(rows) + "\n"


def petscii_name(name: str) -> bytes:
    """An on-disk file name from what the user typed: upper case, as the C64 shows
    unshifted letters ($41-$5A)."""
    try:
        raw = name.upper().encode("ascii")
    except UnicodeEncodeError:
        raise UserError.single(name, "disk file names must be plain ASCII") from None
    if not raw or len(raw) > MAX_NAME_LENGTH:
        raise UserError.single(name, f"a disk file name has 1 to {MAX_NAME_LENGTH} characters")
    if set(raw) & _FORBIDDEN_IN_NAMES:
        raise UserError.single(name, "a disk file name cannot contain * ? , : = or a quote")
    return raw


def shown_name(raw: bytes) -> str:
    return "".join(chr(b) if 0x20 <= b <= 0x5A else BYTE_TEXT[b] for b in raw)


def blocks_for(size: int) -> int:
    return max(1, -(-size // BLOCK_DATA_BYTES))


def _fix_mode(path: Path) -> None:
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, 0o666 & ~umask)  # the package's temporary copies are created 0600


@contextlib.contextmanager
def _open(path: Path, mode: str = "r") -> Iterator[object]:
    if not path.is_file():
        raise UserError.single(str(path), "no such disk image")
    if path.stat().st_size not in (D64_SIZE, D64_SIZE + 683):  # with or without error bytes
        raise UserError.single(str(path), f"not a D64 image: {path.stat().st_size} bytes "
                               f"(a 35-track D64 has {D64_SIZE})")
    try:
        with DiskImage(path, mode) as image:
            yield image
    except UserError:
        raise
    except DiskFullError:
        raise UserError.single(str(path), "disk full: the image is unchanged") from None
    except _CORRUPTION as exc:
        raise UserError.single(str(path), f"corrupt disk image ({exc or type(exc).__name__})") from None
    if mode == "w":
        _fix_mode(path)


def create(path: Path, disk_name: str, disk_id: str) -> None:
    """A new empty image, written to a temporary file and renamed into place."""
    name = petscii_name(disk_name)
    ident = disk_id.upper().encode("ascii", "replace")
    if len(ident) != 2:
        raise UserError.single(disk_id, "a disk id has exactly 2 characters")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    Path(temporary).unlink()
    try:
        DiskImage.create("d64", Path(temporary), name, ident)
        _fix_mode(Path(temporary))
        os.replace(temporary, path)
    finally:
        Path(temporary).unlink(missing_ok=True)


class _Corrupt(ValueError):
    pass


def _entries(image: object) -> list[object]:
    """The directory, refusing a looping chain (the package would follow it forever)."""
    entries = []
    for entry in image.iterdir():  # type: ignore[attr-defined]
        entries.append(entry)
        if len(entries) > MAX_DIRECTORY_ENTRIES:
            raise _Corrupt(f"the directory has more than {MAX_DIRECTORY_ENTRIES} entries (a looping chain)")
    return entries


def _check_chain(entry: object) -> None:
    block = entry.entry.first_block()  # type: ignore[attr-defined]
    for _ in range(TOTAL_BLOCKS + 1):
        if not block:
            return
        block = block.next_block()
    raise _Corrupt(f"the block chain of {shown_name(entry.name)!r} loops")  # type: ignore[attr-defined]


def _free_blocks(image: object) -> int:
    free = image.bam.total_free()  # type: ignore[attr-defined]
    if not 0 <= free <= FREE_BLOCKS_NEW_DISK:
        raise _Corrupt(f"the BAM counts {free} free blocks, a D64 has at most {FREE_BLOCKS_NEW_DISK}")
    return free


def directory(path: Path) -> Directory:
    with _open(path) as image:
        files = [DirectoryEntry(shown_name(entry.name), entry.entry.file_type, entry.size_blocks,
                                entry.entry.closed, entry.entry.protected) for entry in _entries(image)]
        return Directory(shown_name(image.name), shown_name(image.id),
                         shown_name(bytes((image.dos_version, image.dos_type))), files,
                         _free_blocks(image))


def add(path: Path, name: str, data: bytes, file_type: str = "PRG", replace: bool = False) -> None:
    """Add a file (``data`` as stored: for PRG, load address included)."""
    raw = petscii_name(name)
    file_type = file_type.upper()
    if file_type not in FILE_TYPES:
        raise UserError.single(str(path), f"file type must be one of {', '.join(FILE_TYPES)}")
    with _open(path, "w") as image:
        existing = image.path(raw)
        if existing.exists():
            if not replace:
                raise UserError.single(str(path), f'"{name.upper()}" is already on the disk '
                                       "(use --replace to overwrite it)")
            existing.unlink()
        needed = blocks_for(len(data))
        free = _free_blocks(image)
        if needed > free:
            raise UserError.single(str(path), f'disk full: "{name.upper()}" needs {needed} blocks, '
                                   f"{free} are free; the image is unchanged")
        with image.path(raw).open("w", ftype=file_type) as handle:
            handle.write(data)


def extract(path: Path, name: str) -> bytes:
    raw = petscii_name(name)
    with _open(path) as image:
        entry = image.path(raw)
        if not entry.exists():
            raise UserError.single(str(path), f'"{name.upper()}" is not on the disk')
        _check_chain(entry)
        with entry.open("r") as handle:
            return bytes(handle.read())


def remove(path: Path, name: str) -> None:
    raw = petscii_name(name)
    with _open(path, "w") as image:
        entry = image.path(raw)
        if not entry.exists():
            raise UserError.single(str(path), f'"{name.upper()}" is not on the disk')
        entry.unlink()


def rename(path: Path, old: str, new: str) -> None:
    raw_old, raw_new = petscii_name(old), petscii_name(new)
    with _open(path, "w") as image:
        entry = image.path(raw_old)
        if not entry.exists():
            raise UserError.single(str(path), f'"{old.upper()}" is not on the disk')
        if image.path(raw_new).exists():
            raise UserError.single(str(path), f'"{new.upper()}" is already on the disk')
        entry.rename(raw_new)


def build_image(path: Path, disk_name: str, disk_id: str, files: list[tuple[str, str, bytes]]) -> None:
    """A complete image from (name, type, data) files, made in a temporary file and
    renamed into place only when everything fit."""
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    temp_path = Path(temporary)
    try:
        create(temp_path, disk_name, disk_id)
        for name, file_type, data in files:
            add(temp_path, name, data, file_type)
        os.replace(temp_path, path)
    finally:
        temp_path.unlink(missing_ok=True)
