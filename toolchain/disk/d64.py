"""Disk images (D64 with 35 or 40 tracks, D71, D81; T64 tapes for reading): create,
list, extract, add, delete, rename, validate.

What every change guarantees:

* it is checked first (``check.py``, as d64-fsck checks): an image with an error is
  refused with the finding named, and nothing is written;
* it holds an exclusive lock on the image (``flock``) from reading the image to
  writing it back, so concurrent changes happen one after the other (a later one
  waits, at most ``LOCK_TIMEOUT`` seconds, and says so);
* all the files of one command are added, deleted or renamed together: the d64
  package makes the changes on a private copy, which is checked again (no error,
  every added file reads back as given, every other file byte for byte as before)
  and only then written over the image, atomically, by ``toolchain.fileio``;
* a read-only image, or one the drive would refuse to write (soft write protection),
  is refused.

Reading (list, extract) works on damaged images wherever the chains can be followed.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from d64 import DiskImage
from d64.exceptions import ConsistencyError, DiskFullError

from toolchain.diagnostics import Diagnostic, UserError, counted
from toolchain.disk import check as checker
from toolchain.disk.check import FileEntry, Report
from toolchain.disk.formats import (
    BLOCK,
    D64,
    FORMATS,
    DiskFormat,
    describe_size,
    empty_image,
    format_for_extension,
    format_for_size,
)
from toolchain.disk.names import (
    MAX_NAME_LENGTH,
    Pattern,
    name_pattern,
    petscii_name,
    safe_file_name,
    shown_name,
)
from toolchain.disk.tape import is_tape, read_tape
from toolchain.fileio import MAX_INPUT, open_regular, output_target, write_atomic

# Kept for the rest of c64tc: the 1541's numbers.
D64_SIZE = D64.size
BLOCK_DATA_BYTES = BLOCK - 2
FREE_BLOCKS_NEW_DISK = 664
TOTAL_BLOCKS = D64.total_blocks
MAX_DIRECTORY_ENTRIES = D64.max_directory_entries
FILE_TYPES = ("PRG", "SEQ", "USR")  # the types c64tc writes
WRITABLE_TYPES = FILE_TYPES
EXTRACTABLE_TYPES = ("PRG", "SEQ", "USR", "REL")
LOCK_TIMEOUT = 30.0  # seconds a change waits for another one on the same image
LOCK_NOTICE_AFTER = 1.0  # when the waiting is said on standard error

__all__ = ["MAX_NAME_LENGTH", "petscii_name", "shown_name"]


def blocks_for(size: int) -> int:
    return max(1, -(-size // BLOCK_DATA_BYTES))


# -- the directory -----------------------------------------------------------------
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
    blocks_free: int | None  # None for a tape
    format: str = "d64"
    problems: list[str] = field(default_factory=list)  # errors found (the image is damaged)
    complete: bool = True  # False: the directory chain breaks, entries after it are not shown

    def as_dict(self) -> dict[str, object]:
        return asdict(self)

    def listing(self) -> str:
        """As the C64 shows it after LOAD"$",8 and LIST."""
        if self.blocks_free is None:
            rows = [f'0 "{self.name:<16}" T64']
        else:
            rows = [f'0 "{self.name:<16}" {self.disk_id} {self.dos_type}']
        for entry in self.files:
            mark = "" if entry.closed else "*"
            rows.append(f'{entry.blocks:<5}{chr(34) + entry.name + chr(34):<18}{mark or " "}{entry.file_type}'
                        + ("<" if entry.locked else ""))
        if self.blocks_free is not None:
            rows.append(f"{self.blocks_free} BLOCKS FREE.")
        return "\n".join(rows) + "\n"


# -- reading an image --------------------------------------------------------------
def _read_image(path: Path) -> tuple[DiskFormat, bytes]:
    """The image's format and bytes: a regular file of an image's size (a FIFO or a
    device such as /dev/zero is refused before anything is read, issue 21)."""
    _must_exist(path)
    with os.fdopen(open_regular(path, "not a disk image", _IMAGES_ARE_FILES), "rb") as handle:
        try:
            size = os.fstat(handle.fileno()).st_size
            if format_for_size(size) is None:  # not read whole: it may be huge
                raise _not_an_image(path, size, handle.read(_CLASSIFIED) if size <= _CLASSIFIED else None)
            data = handle.read(size + 1)  # a file that grows meanwhile is not read on for ever
        except OSError as exc:
            raise UserError.single(str(path), f"cannot read: {exc.strerror or exc}") from None
    return _format_of(path, data), data


_IMAGES_ARE_FILES = "c64tc reads disk images from regular files"


def _must_exist(path: Path, shown: Path | None = None) -> None:
    """A missing image is "cannot read: no such disk image" (other problems, a name too
    long for the file system, are reported when it is opened)."""
    try:
        os.stat(path)
    except FileNotFoundError:
        raise UserError.single(str(shown or path), "cannot read: no such disk image") from None
    except OSError:
        pass


def _format_of(path: Path, data: bytes) -> DiskFormat:
    disk = format_for_size(len(data))
    if disk is None:
        raise _not_an_image(path, len(data), data)
    return disk


_CLASSIFIED = 1 << 20  # a file this small that is no image is read to say what it is


@dataclass
class NotADiskImage(UserError):
    """A file that is no disk image, said by its size; ``data``: its bytes when it is
    small enough to tell what it is (the command line then names the kind and the
    command that fits it: toolchain/cli/disk.py)."""

    path: str = ""
    data: bytes | None = None


def _not_an_image(path: Path, size: int, data: bytes | None) -> UserError:
    """The error for a file that is no disk image: its size (and its bytes, see
    ``NotADiskImage``)."""
    return NotADiskImage([Diagnostic(str(path), 0, 0, f"not a disk image: {describe_size(size)}")],
                         str(path), data)


def inspect(path: Path) -> Report:
    """The checker's report on the image at ``path``."""
    disk, data = _read_image(path)
    return checker.check(data, disk)


def _matching(entries: list[FileEntry], pattern: Pattern) -> list[FileEntry]:
    return [e for e in entries if pattern.matches(e.raw_name, e.file_type)]


def directory(path: Path, pattern: str | None = None) -> Directory:
    """The directory (the files matching ``pattern``, if given), with the errors the
    checker found.  A damaged image is listed as far as its directory chain goes."""
    wanted = name_pattern(pattern) if pattern else None
    if is_tape(path):
        tape = read_tape(path)
        files = [DirectoryEntry(shown_name(f.raw_name), f.file_type, blocks_for(len(f.data or b"")), True,
                                False)
                 for f in tape.files if wanted is None or wanted.matches(f.raw_name, f.file_type)]
        return Directory(shown_name(tape.raw_name), "", "", files, None, "t64")
    report = inspect(path)
    entries = report.files if wanted is None else _matching(report.files, wanted)
    files = [DirectoryEntry(e.name, e.file_type, e.blocks_in_entry, e.closed, e.locked) for e in entries]
    return Directory(report.disk_name, report.disk_id, report.dos_type_shown, files, report.blocks_free,
                     report.disk.name, [p.message for p in report.errors], report.directory_intact)


@dataclass(frozen=True, slots=True)
class ExtractedFile:
    raw_name: bytes
    file_type: str
    data: bytes

    @property
    def name(self) -> str:
        return shown_name(self.raw_name)

    @property
    def safe_name(self) -> str:
        """A file name for it in the current folder, never a path."""
        return safe_file_name(self.raw_name, self.file_type)


def extract_files(path: Path, patterns: list[str], first_only: bool = False) -> list[ExtractedFile]:
    """The files matching any of ``patterns``, in directory order (each pattern must
    match at least one; with ``first_only``, the first file matching, as LOAD takes
    it).  Every one must be readable, or nothing is returned."""
    parsed = [name_pattern(p) for p in patterns]
    Candidate = tuple[int, bytes, str, bytes | None, str | None]  # index, name, type, data, problem
    if is_tape(path):
        tape = read_tape(path)
        candidates: list[Candidate] = [(i, f.raw_name, f.file_type, f.data, f.problem)
                                       for i, f in enumerate(tape.files)]
        complete = True
    else:
        report = inspect(path)
        candidates = [(e.index, e.raw_name, e.file_type, None if e.unreadable else report.read(e),
                       e.unreadable) for e in report.files]
        complete = report.directory_intact
    chosen: dict[int, Candidate] = {}
    for pattern in parsed:
        found = [c for c in candidates if pattern.matches(c[1], c[2])]
        if pattern.has_wildcards or pattern.file_type:
            # Wildcards pick files, not DEL entries or partitions.
            found = [c for c in found if c[2] in EXTRACTABLE_TYPES]
        if not found:
            note = "" if complete else " (the directory chain is broken: files after the break are not seen)"
            raise UserError.single(str(path), f'no file matches "{pattern.text.upper()}"{note}')
        for candidate in found[:1] if first_only else found:
            chosen.setdefault(candidate[0], candidate)
    problems = []
    for _, raw_name, file_type, data, problem in chosen.values():
        if file_type not in EXTRACTABLE_TYPES:
            problems.append(f'"{shown_name(raw_name)}" cannot be read: it is a {file_type} entry')
        elif data is None:
            problems.append(f'"{shown_name(raw_name)}" cannot be read: {problem}')
    if problems:
        raise UserError([Diagnostic(str(path), 0, 0, p) for p in problems])
    return [ExtractedFile(raw, file_type, data or b"") for _, raw, file_type, data, _ in
            sorted(chosen.values(), key=lambda c: c[0])]


def extract(path: Path, name: str) -> bytes:
    """The bytes of the file ``name`` (a pattern takes the first match, as LOAD)."""
    return extract_files(path, [name], first_only=True)[0].data


# -- locking and transactions --------------------------------------------------------
@contextlib.contextmanager
def locked_image(path: Path, target: Path) -> Iterator[bytes]:
    """An exclusive lock on the image file, held until the change is written; yields
    the image's bytes as read under the lock.  The lock is on the file itself
    (``flock``); since a change replaces the file, a waiter that gets the lock on a
    file no longer at the path tries again on the new one."""
    try:
        import fcntl
    except ImportError:  # not on POSIX: no lock (documented)
        yield _read_image(target)[1]
        return
    deadline = time.monotonic() + LOCK_TIMEOUT
    told = False
    start = time.monotonic()
    while True:
        _must_exist(target, path)
        fd = open_regular(target, "not a disk image", _IMAGES_ARE_FILES)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            now = time.monotonic()
            if now > deadline:
                raise UserError.single(str(path), f"another process is changing the image (waited "
                                       f"{LOCK_TIMEOUT:.0f} s); the image is unchanged") from None
            if not told and now - start >= LOCK_NOTICE_AFTER:
                print(f"{path}: waiting for another process to finish changing the image", file=sys.stderr)
                told = True
            time.sleep(0.02)
            continue
        try:
            current = os.stat(target)
        except FileNotFoundError:
            current = None
        mine = os.fstat(fd)
        if current is None or (current.st_ino, current.st_dev) != (mine.st_ino, mine.st_dev):
            os.close(fd)  # replaced while we waited: lock the new file
            continue
        break
    try:
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(MAX_INPUT + 1)  # a regular file, but bounded all the same
        yield data
    finally:
        os.close(fd)


class PackageFailed(Exception):
    """The d64 package refused or failed a change (what it raised is the cause)."""


@contextlib.contextmanager
def package_calls() -> Iterator[None]:
    """Around calls into the d64 package: what it raises on an image it cannot change
    becomes ``PackageFailed`` (a message for the user), while the same exception types
    raised by c64tc's own code around it stay what they are, bugs (issue 21)."""
    try:
        yield
    except DiskFullError:
        raise
    except (ConsistencyError, ValueError, IndexError, KeyError, OSError) as exc:
        raise PackageFailed(str(exc)) from exc


class Change:
    """The d64 package's image of the private copy, and what the change did."""

    def __init__(self, image: object, report: Report) -> None:
        self.image = image
        self.report = report
        self.added: dict[bytes, bytes] = {}  # name -> bytes it must read back as
        self.touched: set[int] = set()  # entry offsets of files changed or deleted

    def package_path(self, entry: FileEntry) -> object:
        """The d64 package's path object for the entry the checker found."""
        with package_calls():
            for path in self.image.iterdir():  # type: ignore[attr-defined]
                if path.entry.block.start + path.entry.entry_offset == entry.entry_offset:
                    return path
        raise AssertionError(f"entry {entry.name} not found by the d64 package")


def _refuse_damage(path: Path, report: Report) -> None:
    if report.write_protected:
        raise UserError.single(str(path), f"{report.write_protected}; the image is unchanged")
    if report.geos:
        raise UserError.single(str(path), "a GEOS disk: its files have blocks the DOS does not know of, "
                               "c64tc does not change it")
    if report.errors:
        problems = [Diagnostic(str(path), 0, 0, f"damaged image: {p.message}") for p in report.errors]
        hint = "c64tc d64 validate --fix" if all(p.fixable for p in report.errors) else "c64tc d64 validate"
        problems.append(Diagnostic(str(path), 0, 0, f"the image is unchanged (see {hint})", "note"))
        raise UserError(problems)


def _apply(path: Path, disk: DiskFormat, data: bytes, report: Report,
           change: Callable[[Change], None]) -> bytes:
    """Run ``change`` with the d64 package on a private copy of ``data``; the new
    bytes, checked: no error, every added file as given, every other file as before."""
    with tempfile.TemporaryDirectory(prefix="c64tc-disk-") as folder:
        work = Path(folder) / f"image{disk.name}"
        work.write_bytes(data)
        try:
            image = DiskImage(work).open("w")
        except (NotImplementedError, ValueError, OSError) as exc:
            raise UserError.single(str(path), f"the d64 package cannot open the image ({exc})") from None
        state = Change(image, report)
        try:
            change(state)
        except DiskFullError:
            raise UserError.single(str(path), "disk full; the image is unchanged") from None
        except PackageFailed as exc:
            raise UserError.single(str(path), f"the change failed in the d64 package ({exc}); "
                                   "the image is unchanged") from None
        finally:
            image.close()
        new = work.read_bytes()
    _verify(path, report, checker.check(new, disk), state)
    return new


def _verify(path: Path, before: Report, after: Report, change: Change) -> None:
    """The guarantees of a change, checked on its result before it is written."""
    failures = [f"it would leave a damaged image: {p.message}" for p in after.errors]
    by_offset = {e.entry_offset: e for e in after.files}
    for entry in before.files:
        if entry.entry_offset in change.touched or entry.unreadable:
            continue
        now = by_offset.get(entry.entry_offset)
        if now is None or now.raw_name != entry.raw_name or now.unreadable or \
                after.read(now) != before.read(entry):
            failures.append(f"it would change {entry.label}, which it should not touch")
    for raw_name, data in change.added.items():
        found = [e for e in after.files if e.raw_name == raw_name and not e.unreadable]
        if len(found) != 1 or after.read(found[0]) != data:
            failures.append(f'"{shown_name(raw_name)}" would not read back as given')
    if failures:
        raise UserError([Diagnostic(str(path), 0, 0, f"internal error: {f}; the image is unchanged")
                         for f in failures])


def _transaction(path: Path, change: Callable[[Change], None]) -> None:
    """Lock, read, check, change a private copy, check again, write back atomically."""
    if is_tape(path):
        raise UserError.single(str(path), "T64 tape images are read only in c64tc")
    target = output_target(path)  # a read-only image, a directory, a device: refused here
    with locked_image(path, target) as data:
        disk = _format_of(path, data)
        report = checker.check(data, disk)
        _refuse_damage(path, report)
        new = _apply(path, disk, data, report, change)
        if new != data:
            write_atomic(path, new)


# -- changes -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class NewFile:
    name: str  # as typed
    data: bytes  # as stored: a PRG with its load address
    file_type: str = "PRG"


def _free_entries(report: Report) -> int:
    """Directory entries a change can still fill: free slots in the directory's
    blocks, and 8 in each block the directory can still grow by on its track."""
    disk, image = report.disk, report.image
    free_slots = sum(1 for block in report.directory for slot in range(8)
                     if image[disk.block_offset(*block) + slot * 32 + 2] == 0)
    growth = min(disk.max_directory_blocks - len(report.directory), len(report.free_sectors(disk.dir_track)))
    return free_slots + 8 * max(0, growth)


def add_files(path: Path, files: list[NewFile], replace: bool = False) -> None:
    """Add ``files`` together: all of them, or (on any problem) none."""
    wanted = []
    for new in files:
        file_type = new.file_type.upper()
        if file_type not in WRITABLE_TYPES:
            raise UserError.single(str(path), f"file type must be one of {', '.join(WRITABLE_TYPES)}")
        if not new.data:
            raise UserError.single(new.name, "an empty file: a disk file holds one byte at least")
        wanted.append((petscii_name(new.name), file_type, new.data))
    names = [raw for raw, _, _ in wanted]
    for raw in names:
        if names.count(raw) > 1:
            raise UserError.single(str(path), f'"{shown_name(raw)}" is named twice; nothing was added')

    def change(state: Change) -> None:
        report = state.report
        existing = {e.raw_name: e for e in reversed(report.files) if e.file_type != "DEL"}
        replaced = [existing[raw] for raw in names if raw in existing]
        for entry in replaced:
            if not replace:
                raise UserError.single(str(path), f"{entry.label} is already on the disk (use --replace to "
                                       "overwrite it); nothing was added")
            if entry.locked:
                raise UserError.single(str(path), f"{entry.label} is locked; nothing was added")
        needed = sum(blocks_for(len(data)) for _, _, data in wanted)
        freed = sum(1 for e in replaced for t, _ in e.chain + e.side_sectors if report.disk.counts_free(t))
        free = report.blocks_free + freed
        if needed > free:
            what = (f'"{shown_name(wanted[0][0])}" needs' if len(wanted) == 1
                    else f"the {len(wanted)} files need")
            raise UserError.single(str(path), f"disk full: {what} {counted(needed, 'block')}, {free} "
                                   f"{'is' if free == 1 else 'are'} free; "
                                   "nothing was added")
        entries_needed = len(wanted) - len(replaced)
        if entries_needed > _free_entries(report):
            raise UserError.single(str(path), f"directory full: {report.disk.max_directory_entries} entries "
                                   "at most; nothing was added")
        for raw, file_type, data in wanted:
            old = existing.get(raw)
            target: Any = None
            if old is not None:
                state.touched.add(old.entry_offset)
                target = state.package_path(old)
            with package_calls():
                if old is None:
                    target = state.image.path(raw)  # type: ignore[attr-defined]
                elif old.file_type == "REL":
                    target.unlink()
                    target = state.image.path(raw)  # type: ignore[attr-defined]
                else:
                    # Replaced in its place in the directory, as the drive's @: save does.
                    target.entry.file_type = file_type
                with target.open("w", ftype=file_type) as handle:
                    handle.write(data)
            state.added[raw] = data

    _transaction(path, change)


def add(path: Path, name: str, data: bytes, file_type: str = "PRG", replace: bool = False) -> None:
    """Add one file (``data`` as stored: for a PRG, the load address included)."""
    add_files(path, [NewFile(name, data, file_type)], replace)


def _select(path: Path, report: Report, patterns: list[str]) -> list[FileEntry]:
    chosen: list[FileEntry] = []
    for text in patterns:
        pattern = name_pattern(text)
        found = _matching(report.files, pattern)
        if not found:
            raise UserError.single(str(path), f'no file matches "{text.upper()}"; the image is unchanged')
        chosen += [e for e in found if e not in chosen]
    return chosen


def remove(path: Path, *patterns: str) -> list[str]:
    """Delete every file matching the patterns (each must match one at least),
    together; the names deleted."""
    deleted: list[str] = []

    def change(state: Change) -> None:
        chosen = _select(path, state.report, list(patterns))
        locked = [e.label for e in chosen if e.locked]
        if locked:
            # The drive's SCRATCH skips locked files; c64tc refuses rather than half do it.
            raise UserError.single(str(path), f"{', '.join(locked)} {'is' if len(locked) == 1 else 'are'} "
                                   "locked; the image is unchanged")
        for entry in chosen:
            state.touched.add(entry.entry_offset)
            package_path = state.package_path(entry)
            with package_calls():
                if entry.file_type == "DEL":
                    # The checker does not follow a DEL entry's chain (nor does d64-fsck): free
                    # nothing, so no block another file uses can be freed through it.
                    package_path.entry.file_type = 0  # type: ignore[attr-defined]
                else:
                    package_path.unlink()  # type: ignore[attr-defined]
            deleted.append(entry.name)

    _transaction(path, change)
    return deleted


def rename(path: Path, old: str, new: str, *more: str) -> None:
    """Rename files: OLD NEW [OLD NEW ...], together, in order."""
    pairs = [(old, new)] + [(more[i], more[i + 1]) for i in range(0, len(more) - 1, 2)]
    if len(more) % 2:
        raise UserError.single(str(path), "rename takes pairs of names: OLD NEW [OLD NEW ...]")
    targets = [(name_pattern(a), petscii_name(b)) for a, b in pairs]

    def change(state: Change) -> None:
        names = {e.entry_offset: e.raw_name for e in state.report.files}
        for (pattern, raw_new), (text_old, _) in zip(targets, pairs, strict=True):
            found = [e for e in state.report.files if pattern.matches(names[e.entry_offset], e.file_type)]
            if not found:
                raise UserError.single(str(path), f'no file matches "{text_old.upper()}"; the image is '
                                       "unchanged")
            if len(found) > 1:
                raise UserError.single(str(path), f'"{text_old.upper()}" matches {len(found)} files; rename '
                                       "takes one; the image is unchanged")
            if any(name == raw_new for offset, name in names.items() if offset != found[0].entry_offset):
                raise UserError.single(str(path), f'"{shown_name(raw_new)}" is already on the disk; '
                                       "the image is unchanged")
            entry = found[0]
            state.touched.add(entry.entry_offset)
            package_path = state.package_path(entry)
            with package_calls():
                package_path.entry.name = raw_new  # type: ignore[attr-defined]
            names[entry.entry_offset] = raw_new

    _transaction(path, change)


# -- creating ----------------------------------------------------------------------
def format_named(name: str | None, path: Path) -> DiskFormat:
    """The format ``--format`` names, or the one the extension says (.d64: 35 tracks,
    .d71, .d81); another name needs ``--format`` (a D64 made silently under any name
    surprised: c1541's format command, too, is told the type)."""
    if name:
        try:
            return FORMATS[name.lower()]
        except KeyError:
            raise UserError.single(str(path), f"unknown format {name!r} (one of "
                                   f"{', '.join(FORMATS)})") from None
    if path.suffix.lower() == ".t64":
        raise UserError.single(str(path), "c64tc reads T64 tape images but does not write them")
    found = format_for_extension(path)
    if found is None:
        raise UserError.single(str(path), "the name does not say which format (.d64, .d71 or .d81): give "
                               f"--format ({', '.join(FORMATS)})")
    return found


def disk_id_bytes(disk_id: str, option: str | None = None) -> bytes:
    """A disk id as the header holds it.  Given as ``option``'s value (``--id``), a
    wrong one is refused with the option as the place, as petscii_name does."""
    ident = disk_id.upper().encode("ascii", "replace")
    if len(ident) != 2:
        problem = "a disk id has exactly 2 characters"
        if option is None:
            raise UserError.single(disk_id, problem)
        raise UserError.single(option, f"{problem} (given: {disk_id!r})")
    return ident


def new_image(disk: DiskFormat, disk_name: str, disk_id: str) -> bytes:
    """The bytes of a freshly formatted image."""
    name = petscii_name(disk_name, "a disk name")
    ident = disk_id_bytes(disk_id)
    if disk.name in ("d64", "d81"):
        with tempfile.TemporaryDirectory(prefix="c64tc-disk-") as folder:
            work = Path(folder) / "new"
            DiskImage.create(disk.package_type, work, name, ident)
            data = work.read_bytes()
        if disk.name == "d81":
            # The 1581's NEW fills its header's name area, $04-$1C of 40/0, with $A0 before
            # writing the name and id, so the two bytes after the DOS version and type
            # ("3D") are $A0 too; the d64 package leaves them 0.  As VICE's vdrive does
            # (vdrive-bam.c: memset(bam + bam_name, 0xa0, 25) for the 1581), and so c1541.
            header = disk.block_offset(*disk.header)
            data = data[: header + 0x1B] + b"\xa0\xa0" + data[header + 0x1D :]
    else:
        data = empty_image(disk, name, ident)  # the d64 package cannot create these
    report = checker.check(data, disk)
    assert not report.problems, report.problems
    return data


def create(path: Path, disk_name: str, disk_id: str, disk_format: str | None = None,
           force: bool = True) -> None:
    """A new empty image, written atomically (replacing an existing file only with
    ``force``)."""
    data = new_image(format_named(disk_format, path), disk_name, disk_id)
    if not os.path.lexists(path):  # (False for a name too long: write_atomic says so)
        write_atomic(path, data)
        return
    if not force:
        raise UserError.single(str(path), "the image exists already (use --force to replace it)")
    target = output_target(path)
    if not os.path.exists(target):  # a dangling symlink: nothing to lock
        write_atomic(path, data)
        return
    with locked_image(path, target):  # not in the middle of another process's change
        write_atomic(path, data)


def image_bytes(disk: DiskFormat, disk_name: str, disk_id: str, files: list[tuple[str, str, bytes]],
                where: str = "<new image>") -> bytes:
    """A complete image holding ``files`` (name, type, data), as bytes."""
    data = new_image(disk, disk_name, disk_id)
    wanted = [NewFile(name, content, file_type) for name, file_type, content in files]
    report = checker.check(data, disk)

    def change(state: Change) -> None:
        for new in wanted:
            raw = petscii_name(new.name)
            if raw in state.added:
                raise UserError.single(where, f'"{shown_name(raw)}" is named twice')
            with package_calls(), state.image.path(raw).open(  # type: ignore[attr-defined]
                    "w", ftype=new.file_type.upper()) as handle:
                handle.write(new.data)
            state.added[raw] = new.data

    return _apply(Path(where), disk, data, report, change)


def build_image(path: Path, disk_name: str, disk_id: str, files: list[tuple[str, str, bytes]],
                disk_format: str | None = None) -> None:
    """A complete image from (name, type, data) files, written only when everything
    fit."""
    disk = format_named(disk_format, path)
    write_atomic(path, image_bytes(disk, disk_name, disk_id, files, str(path)))


# -- validating --------------------------------------------------------------------
def validate(path: Path) -> Report:
    if is_tape(path):
        raise UserError.single(str(path), "a T64 tape image: validate checks disk images")
    return inspect(path)


def repair(path: Path, output: Path | None) -> tuple[Report, list[str], Report]:
    """Repair what is safe to repair (see ``check.repair``) and write the result to
    ``output`` (``None``: over the image, under its lock).  The report before, what
    was done, and the report after."""
    if is_tape(path):
        raise UserError.single(str(path), "a T64 tape image: validate checks disk images")
    result: list[tuple[Report, list[str], Report]] = []

    def fixed(data: bytes) -> bytes:
        disk = _format_of(path, data)
        before = checker.check(data, disk)
        if before.write_protected:
            raise UserError.single(str(path), f"{before.write_protected}; c64tc does not remove a write "
                                   "protection; nothing written")
        if before.geos:
            raise UserError.single(str(path), "a GEOS disk: c64tc does not repair it; nothing written")
        unfixable = [p for p in before.errors if not p.fixable]
        if unfixable:
            problems = [Diagnostic(str(path), 0, 0, f"cannot repair: {p.message}") for p in unfixable]
            problems.append(Diagnostic(str(path), 0, 0, "--fix repairs the BAM and the directory's "
                                       "bookkeeping, not file chains that loop, leave the disk or cross; "
                                       "nothing written", "note"))
            raise UserError(problems)
        new, done = checker.repair(before)
        after = checker.check(new, disk)
        if after.errors:
            raise UserError([Diagnostic(str(path), 0, 0, f"internal error: the repair left: {p.message}; "
                                        "nothing written") for p in after.errors])
        result.append((before, done, after))
        return new

    if output is None:
        target = output_target(path)
        with locked_image(path, target) as data:
            new = fixed(data)
            if new != data:
                write_atomic(path, new)
    else:
        _, data = _read_image(path)
        write_atomic(output, fixed(data))
    return result[0]
