"""Reading sources and writing outputs without ever losing the user's data.

Every output goes through :func:`write_atomic` (one file) or :class:`FileSet` (several
files, all or nothing):

* the bytes go to a temporary file beside the target, which is renamed over it: a
  reader never sees half a file, and a failure leaves the old file intact;
* only regular files are written: a directory, FIFO, device node or socket at the
  output path is an error, never replaced (``-o /dev/full`` must not destroy the
  device); a symlink is written through to its target, atomically, as compilers do,
  but only into a folder that exists (a dangling link makes no folders);
* a read-only file is an error (checked on the mode bits, so it holds for root too);
* a name too long for the file system is an error, and the temporary and backup
  names beside a target are kept short enough for any name that fits;
* ``-`` is standard output (binary data only when standard output is not a terminal).

Inputs are read from regular files only (or ``-``, standard input), at most
``MAX_INPUT`` bytes: a FIFO nobody writes to or ``/dev/zero`` must not hang c64tc.

A :class:`FileSet` keeps a journal while it switches its files into place; if the
process is killed half way, the next c64tc that writes into that folder or reads from
it (or :func:`recover`) puts the previous files back, so no mix of old and new outputs
survives.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import secrets
import stat
import sys
from collections.abc import Iterable
from pathlib import Path

from toolchain.diagnostics import UserError

STDIO = "-"
_TEMP_SUFFIX = ".c64tc-tmp"
_BACKUP_SUFFIX = ".c64tc-backup"
_JOURNAL_PREFIX = ".c64tc-journal-"
#: the most c64tc reads from one input: far more than any C64 file (a D81 image is
#: 800 KiB); a larger input is an error, never read whole
MAX_INPUT = 16 * 1024 * 1024
#: a file name's bytes on the usual file systems (NAME_MAX)
_NAME_MAX = 255


def is_file(path: str | Path) -> bool:
    """Whether ``path`` names a regular file (or a link to one).  False also where the
    system cannot look: a name too long for the file system, a folder that may not be
    searched (Path.is_file raises then: Python 3.11 passes over only a missing name)."""
    try:
        return Path(path).is_file()
    except OSError:
        return False


def is_dir(path: str | Path) -> bool:
    """Whether ``path`` names a folder; False where the system cannot look (is_file)."""
    try:
        return Path(path).is_dir()
    except OSError:
        return False


#: the UTF-8 byte-order mark Windows Notepad writes at the start of a text file
_BOM = b"\xef\xbb\xbf"


def is_text(data: bytes) -> bool:
    """Whether ``data`` reads as text: no 0 byte, and hardly any control characters
    (a PRG has 0 bytes: every BASIC line ends with one, most load addresses start
    with one)."""
    if b"\x00" in data:
        return False
    head = data[:4096]
    control = sum(1 for b in head if b < 0x20 and b not in (9, 10, 12, 13))
    return control <= len(head) // 100


def as_text(data: bytes, path: str | None = None) -> str:
    """A file's bytes as text, the one place text inputs are decoded: UTF-8 (so £ and π
    work), else Latin-1 as old tools wrote (as 64tass reads a file that is no UTF-8).  A
    byte-order mark at the very start is no part of the text (as 64tass and Python's
    ``utf-8-sig`` read it): a listing saved by Notepad reads as the one without, line
    1's columns counted after the mark.

    A file that is UTF-8 in one place and not in another (a Latin-1 ä typed into a
    UTF-8 listing) has no faithful reading: as Latin-1, its UTF-8 characters become two
    each (£ as Â£, which the tokenizer then blamed on the line that was right).  With
    the ``path`` to name, that is an error at the first byte that is no UTF-8; without
    (a file only being classified) it reads as Latin-1."""
    if data.startswith(_BOM):
        data = data[len(_BOM):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        if path is not None:
            _refuse_mixed_encodings(data, path)
        return data.decode("latin-1")


# the bytes that are no UTF-8, as Python's surrogateescape decodes them
_NOT_UTF8 = re.compile("[\udc80-\udcff]")
_UTF8_ONLY = re.compile("[^\x00-\x7f\udc80-\udcff]")  # a character only UTF-8 bytes make


def _refuse_mixed_encodings(data: bytes, path: str) -> None:
    """An error at the first byte of ``data`` that is no UTF-8 when other bytes are
    UTF-8's (several bytes making one character beyond ASCII); nothing when no
    character of the file is UTF-8's, so that it is Latin-1 throughout.  Nor for bytes
    that are no text at all (a PRG given as a label file has UTF-8 pairs by chance):
    what reads them says what they are."""
    if not is_text(data):
        return
    lines = data.decode("utf-8", "surrogateescape").splitlines()
    utf8 = next(((number, found.group()) for number, line in enumerate(lines, start=1)
                 if (found := _UTF8_ONLY.search(line))), None)
    if utf8 is None:
        return
    for number, line in enumerate(lines, start=1):
        bad = _NOT_UTF8.search(line)
        if bad is not None:
            shown = _NOT_UTF8.sub("\ufffd", line)  # one mark a byte: the caret's column holds
            message = (f"not UTF-8 text: byte ${ord(bad.group()) - 0xDC00:02X} is no UTF-8, but line "
                       f"{utf8[0]} has UTF-8 ({utf8[1]!r}): a file in two encodings cannot be read right; "
                       "save it as UTF-8 (a file wholly in Latin-1 is read as Latin-1)")
            raise UserError.single(path, message, number, bad.start() + 1, source_line=shown)


def read_text(path: str | Path) -> str:
    """A source file as text (:func:`as_text`); ``-`` reads standard input."""
    return as_text(read_bytes(path), str(path))


def read_bytes(path: str | Path, limit: int = MAX_INPUT) -> bytes:
    """A file's bytes; ``-`` reads standard input.  At most ``limit`` bytes (more is an
    error); only a regular file (or standard input) is read."""
    if str(path) == STDIO:
        data = sys.stdin.buffer.read(limit + 1)
    else:
        fd = open_regular(path)
        try:
            with os.fdopen(fd, "rb") as handle:
                data = handle.read(limit + 1)
        except OSError as exc:
            raise UserError.single(str(path), f"cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise UserError.single(str(path), f"cannot read: larger than {limit:,} bytes (c64tc reads no input "
                               "that large)")
    return data


def make_folder(path: str | Path) -> Path:
    """An output folder that c64tc makes when missing, as ``mkdir -p`` would: the
    build's ``--out``, ``d64 extract -d``, a project's ``build/`` (any other output
    goes into a folder that exists)."""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError.single(str(folder), f"cannot make the folder: {_os_problem(exc)}") from None
    return folder


def open_regular(path: str | Path, what: str = "cannot read",
                 hint: str = "give '-' to read standard input") -> int:
    """A file descriptor for reading ``path``, which must be a regular file (a FIFO with
    no writer would block the open, ``/dev/zero`` never ends).  Unfinished switches of
    c64tc's outputs in its folder are put right first (``recover``): a reader never sees
    the mix a killed write left.  ``what`` begins the message for what is no regular
    file, ``hint`` ends it."""
    path = Path(path)
    try:
        recover(Path(os.path.abspath(path)).parent)
        kind = _kind_of(os.stat(path).st_mode)
        if kind is None:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
            kind = _kind_of(os.fstat(fd).st_mode)  # replaced after the check: look again
            if kind is None:
                return fd
            os.close(fd)
    except OSError as exc:
        raise UserError.single(str(path), f"cannot read: {_os_problem(exc)}") from None
    if kind == "a directory":
        raise UserError.single(str(path), f"{what}: it is a directory")
    hint = f" ({hint})" if hint else ""
    raise UserError.single(str(path), f"{what}: it is {kind}, not a regular file{hint}")


def _os_problem(exc: OSError) -> str:
    """An operating system error in words; a name too long says how long it may be."""
    if exc.errno == errno.ENAMETOOLONG:
        return f"a name in the path is too long for the file system (at most {_NAME_MAX} bytes a name)"
    return exc.strerror or str(exc)


def _kind_of(mode: int) -> str | None:
    """What a non-regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device node"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def refuse_folder_name(path: str | Path) -> None:
    """An output named as a folder is (``-o out/``) is refused while the name still says
    so: Path() drops the slash, and the file would be named ``out`` (64tass cannot open
    such a name either)."""
    if isinstance(path, str) and path.endswith(("/", os.sep)):
        raise UserError.single(path, "cannot write: the name ends in a slash, as a folder's does; give "
                               "the file's name (out/program.prg, say)")


def output_target(path: str | Path) -> Path:
    """Where writing ``path`` really goes (through symlinks), checked: an existing
    target must be a writable regular file."""
    refuse_folder_name(path)
    given = Path(os.path.abspath(path))  # absolute: a journal must mean the same from anywhere
    try:
        target = given
        if given.is_symlink():
            target = Path(os.path.realpath(given))
            if not target.parent.is_dir():  # write through a link, but make no folders for it
                raise UserError.single(str(path), f"cannot write: it is a symbolic link to {target}, in a "
                                       "folder that does not exist (c64tc writes through a link only into an "
                                       "existing folder)")
        if len(target.name.encode("utf-8", "surrogateescape")) > _NAME_MAX:
            raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG))
        status = target.stat()
    except FileNotFoundError:
        if not target.parent.is_dir():  # -o /nonexist/x.prg: a typo, not a wish for folders
            raise UserError.single(str(path), f"cannot write: the folder {Path(path).parent} does not "
                                   "exist (c64tc makes no folders for an output)") from None
        return target
    except OSError as exc:
        raise UserError.single(str(path), f"cannot write: {_os_problem(exc)}") from None
    kind = _kind_of(status.st_mode)
    if kind is not None:
        raise UserError.single(str(path), f"cannot write: it is {kind}, not a regular file (c64tc only "
                               "replaces regular files)")
    if not status.st_mode & 0o222:
        raise UserError.single(str(path), "cannot write: the file is read-only")
    return target


def _file_mode(target: Path) -> int:
    """The mode for a new output: the old file's, else the usual mode under the umask."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _short(name: str, room: int) -> str:
    """The start of ``name`` in at most ``room`` bytes (UTF-8), whole characters."""
    return name.encode("utf-8", "surrogateescape")[:room].decode("utf-8", "ignore")


def _beside(target: Path, tag: str, suffix: str) -> str:
    """A hidden name beside ``target`` for c64tc's own files: the target's name (cut so
    the whole fits in a file name), ``tag``, ``suffix``."""
    room = _NAME_MAX - len(f"..{tag}{suffix}") - 8  # mkstemp's random part
    return f".{_short(target.name, room)}.{tag}"


def _temporary_for(target: Path) -> Path:
    """A new name beside ``target`` (same file system, so it can be renamed) for its
    temporary; it holds the process id, so ``recover`` can remove the file once the
    process is gone.  Named before the file is made, so that whoever removes the
    temporaries knows it from the start (see _write_temporary)."""
    random = "".join(secrets.choice(_NAME_LETTERS) for _ in range(8))  # (as mkstemp's names)
    return target.parent / f"{_beside(target, f'{os.getpid()}-', _TEMP_SUFFIX)}{random}{_TEMP_SUFFIX}"


_NAME_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789_"


def _write_temporary(target: Path, data: bytes, temporary: Path) -> None:
    """The data in the new file ``temporary`` (from _temporary_for), which the caller has
    already recorded: a signal (SIGTERM ends a run at any statement) between making the
    file and recording it would leave it behind, as a killed process does."""
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    except OSError as exc:
        raise UserError.single(str(target), f"cannot write: {_os_problem(exc)}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, _file_mode(target))
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise UserError.single(str(target), f"cannot write: {exc.strerror or exc}") from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _as_bytes(data: bytes | str) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


def write_stdout(data: bytes | str, what: str = "output") -> None:
    """Text or bytes to standard output; binary data is refused on a terminal."""
    if isinstance(data, str):
        sys.stdout.write(data)
        sys.stdout.flush()
        return
    if sys.stdout.isatty():
        raise UserError.single(STDIO, f"not writing binary {what} to a terminal (redirect it to a file "
                               "or a pipe)")
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def refuse_replacing_inputs(path: str | Path, inputs: Iterable[str | Path | None]) -> None:
    """An output that is one of the files it is made of would replace it: refused, as
    GCC refuses ``-o`` onto its input (``asm a.asm -o a.asm`` wrote the PRG over the
    source; ``d64 extract s.d64 p -o s.d64`` a file over the disk)."""
    if str(path) == STDIO:
        return
    for source in inputs:
        if source is None or str(source) == STDIO:
            continue
        try:
            same = os.path.samefile(path, source)
        except (OSError, ValueError):  # one of them does not exist (yet): not the same
            same = False
        if same:
            raise UserError.single(str(path), f"cannot write: it is the input {source}, which the output "
                                   "would replace; give another output file")


def write_atomic(path: str | Path, data: bytes | str, inputs: Iterable[str | Path | None] = ()) -> None:
    """One output file, atomically (see the module's rules); ``-`` is standard output;
    never one of ``inputs``, the files it is made of (refuse_replacing_inputs)."""
    if str(path) == STDIO:
        write_stdout(data)
        return
    refuse_folder_name(path)
    refuse_replacing_inputs(path, inputs)
    FileSet({Path(path): _as_bytes(data)}).commit()


def write_together(outputs: list[tuple[str | Path, bytes | str]],
                   inputs: Iterable[str | Path | None] = ()) -> None:
    """Several outputs, all or nothing: the files are switched into place together,
    then whatever goes to standard output (``-``) is written; none of them one of
    ``inputs`` (refuse_replacing_inputs)."""
    inputs = list(inputs)
    for path, _ in outputs:
        refuse_folder_name(path)
        refuse_replacing_inputs(path, inputs)
    files = {Path(path): data for path, data in outputs if str(path) != STDIO}
    if len(files) < sum(str(path) != STDIO for path, _ in outputs):
        raise UserError.single(str(next(p for p, _ in outputs)), "the same file is named for two outputs")
    FileSet(files).commit()
    for path, data in outputs:
        if str(path) == STDIO:
            write_stdout(data)


class FileSet:
    """Several output files replaced together, or none of them.

    Every target is checked and every temporary file written before the first one
    is renamed into place; if a rename fails, the files already switched get their
    old contents back (from backups kept until the end) and new ones are removed."""

    def __init__(self, files: dict[Path, bytes | str] | None = None) -> None:
        self.files = {Path(path): _as_bytes(data) for path, data in (files or {}).items()}
        self._staged: dict[Path, Path] = {}  # target -> its temporary, written by stage()

    def stage(self, path: str | Path, data: bytes | str) -> None:
        """One more file, its target checked and its temporary written now (a long run's
        pictures need not wait in memory); ``commit`` switches it in with the rest,
        ``discard`` removes it."""
        target = output_target(path)
        if target in self._staged:
            raise UserError.single(str(path), "the same file is named for two outputs")
        if not any(staged.parent == target.parent for staged in self._staged):
            recover(target.parent)
        temporary = self._staged[target] = _temporary_for(target)  # (recorded before it exists)
        try:
            _write_temporary(target, _as_bytes(data), temporary)
        except BaseException:  # (a signal too, just after the file was made)
            temporary.unlink(missing_ok=True)
            del self._staged[target]
            raise

    def discard(self) -> None:
        """Remove what ``stage`` wrote; nothing is switched (after ``commit``: nothing to do)."""
        for temporary in self._staged.values():
            temporary.unlink(missing_ok=True)
        self._staged.clear()

    def commit(self) -> None:
        if not self.files and not self._staged:
            return
        targets = {path: output_target(path) for path in self.files}
        twice = set(targets.values()) & set(self._staged)
        if twice:
            raise UserError.single(str(next(iter(twice))), "the same file is named for two outputs")
        for target in set(targets.values()):
            recover(target.parent)
        temporaries: dict[Path, Path] = dict(self._staged)
        try:
            for path, target in targets.items():
                temporary = temporaries[target] = _temporary_for(target)  # (recorded before it exists)
                _write_temporary(target, self.files[path], temporary)
            self._switch(temporaries)
        finally:
            for temporary in temporaries.values():
                temporary.unlink(missing_ok=True)
            self._staged.clear()

    @staticmethod
    def _switch(temporaries: dict[Path, Path]) -> None:
        if len(temporaries) == 1:  # one rename is atomic by itself
            ((target, temporary),) = temporaries.items()
            _rename(temporary, target)
            return
        first = next(iter(temporaries))
        journal = first.parent / f"{_JOURNAL_PREFIX}{os.getpid()}-{id(temporaries)}.json"
        entries = []
        for target in temporaries:
            digest = hashlib.sha1(target.name.encode("utf-8", "surrogateescape")).hexdigest()[:8]
            backup = target.with_name(_beside(target, digest, _BACKUP_SUFFIX) + _BACKUP_SUFFIX)
            entries.append({"target": str(target), "backup": str(backup) if target.exists() else None,
                            "temporary": str(temporaries[target])})
        _write_journal(journal, entries)
        switched: list[dict[str, str | None]] = []
        try:
            for entry in entries:
                target = Path(str(entry["target"]))
                if entry["backup"] is not None:
                    _keep_backup(target, Path(entry["backup"]))
                _rename(temporaries[target], target)
                switched.append(entry)
        except BaseException:
            _roll_back(switched + [e for e in entries if e not in switched])
            journal.unlink(missing_ok=True)
            raise
        for entry in entries:
            if entry["backup"] is not None:
                Path(entry["backup"]).unlink(missing_ok=True)
        journal.unlink(missing_ok=True)


def _rename(source: Path, target: Path) -> None:
    try:
        os.replace(source, target)
    except OSError as exc:
        raise UserError.single(str(target), f"cannot write: {exc.strerror or exc}") from None


def _keep_backup(target: Path, backup: Path) -> None:
    """A second name for the old file, so it can be put back (a hard link costs no copy)."""
    backup.unlink(missing_ok=True)
    try:
        os.link(target, backup)
    except OSError:
        backup.write_bytes(target.read_bytes())


def _write_journal(journal: Path, entries: list[dict[str, str | None]]) -> None:
    try:
        with open(journal, "w", encoding="utf-8") as handle:
            json.dump({"files": entries}, handle)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        raise UserError.single(str(journal.parent), f"cannot write: {exc.strerror or exc}") from None


def _roll_back(entries: Iterable[dict[str, str | None]]) -> None:
    """Old files back where they were; files that did not exist before removed."""
    for entry in entries:
        target = Path(str(entry["target"]))
        backup = entry["backup"]
        if entry.get("temporary"):
            Path(str(entry["temporary"])).unlink(missing_ok=True)
        if backup is None:
            target.unlink(missing_ok=True)  # it did not exist before
        elif Path(backup).exists():
            if target.exists() and os.path.samefile(backup, target):
                # killed between making the backup link and the switch: the target is
                # still the old file (and rename() of two links to one file does nothing)
                Path(backup).unlink()
            else:
                os.replace(backup, target)
        # a backup not made yet: the target was never touched


def recover(directory: Path) -> None:
    """Undo a switch that a killed process left half done in ``directory``, and remove
    the temporary files of processes that are gone: the previous outputs come back
    whole.  Called before c64tc writes into a folder or reads from it; a folder it may
    not change is left as it is (the reader still reads)."""
    try:
        with os.scandir(directory) as found:
            names = sorted(entry.name for entry in found if entry.name.startswith("."))
    except OSError:
        return
    for name in names:
        path = directory / name
        try:
            if name.startswith(_JOURNAL_PREFIX) and name.endswith(".json"):
                _recover_journal(path)
            elif name.endswith(_TEMP_SUFFIX) and not _owner_alive(_temporary_owner(name)):
                path.unlink(missing_ok=True)
        except OSError:
            continue


def _recover_journal(journal: Path) -> None:
    try:
        entries = json.loads(journal.read_text(encoding="utf-8"))["files"]
    except (ValueError, KeyError, TypeError):
        journal.unlink(missing_ok=True)
        return
    owner = journal.name[len(_JOURNAL_PREFIX):].split("-")[0]
    # a journal is gone when its switch ends: one of this process's id is a dead one's
    if owner.isdigit() and int(owner) != os.getpid() and _owner_alive(int(owner)):
        return
    _roll_back(entries)
    journal.unlink(missing_ok=True)


def _temporary_owner(name: str) -> int | None:
    """The process id in a temporary file's name (``.NAME.PID-random.c64tc-tmp``)."""
    tag = name[: -len(_TEMP_SUFFIX)].rsplit(".", 1)[-1]
    pid, dash, _ = tag.partition("-")
    return int(pid) if dash and pid.isdigit() else None


def _owner_alive(pid: int | None) -> bool:
    """Whether the process that left a journal or temporary file is still running (then
    leave it); unknown (no id in the name) and this process count as running."""
    if pid is None or pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
