"""Reading sources and writing outputs without ever losing the user's data.

Every output goes through :func:`write_atomic` (one file) or :class:`FileSet` (several
files, all or nothing):

* the bytes go to a temporary file beside the target, which is renamed over it: a
  reader never sees half a file, and a failure leaves the old file intact;
* only regular files are written: a directory, FIFO, device node or socket at the
  output path is an error, never replaced (``-o /dev/full`` must not destroy the
  device); a symlink is written through to its target, atomically, as compilers do;
* a read-only file is an error (checked on the mode bits, so it holds for root too);
* ``-`` is standard output (binary data only when standard output is not a terminal).

A :class:`FileSet` keeps a journal while it switches its files into place; if the
process is killed half way, the next write into that folder (or :func:`recover`)
puts the previous files back, so no mix of old and new outputs survives.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from toolchain.diagnostics import UserError

STDIO = "-"
_TEMP_SUFFIX = ".c64tc-tmp"
_BACKUP_SUFFIX = ".c64tc-backup"
_JOURNAL_PREFIX = ".c64tc-journal-"


def read_text(path: str | Path) -> str:
    """A source file as text: UTF-8 (so £ and π work), else Latin-1 as old tools wrote."""
    data = read_bytes(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_bytes(path: str | Path) -> bytes:
    """A file's bytes; ``-`` reads standard input."""
    if str(path) == STDIO:
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except IsADirectoryError:
        raise UserError.single(str(path), "cannot read: it is a directory") from None
    except OSError as exc:
        raise UserError.single(str(path), f"cannot read: {exc.strerror or exc}") from None


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


def output_target(path: str | Path) -> Path:
    """Where writing ``path`` really goes (through symlinks), checked: an existing
    target must be a writable regular file."""
    given = Path(os.path.abspath(path))  # absolute: a journal must mean the same from anywhere
    target = Path(os.path.realpath(given)) if given.is_symlink() else given
    try:
        status = target.stat()
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise UserError.single(str(path), f"cannot write: {exc.strerror or exc}") from None
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


def _write_temporary(target: Path, data: bytes) -> Path:
    """The data in a new file beside ``target`` (same file system, so it can be renamed)."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=_TEMP_SUFFIX, dir=target.parent)
    except OSError as exc:
        raise UserError.single(str(target), f"cannot write: {exc.strerror or exc}") from None
    temporary = Path(name)
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
    return temporary


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


def write_atomic(path: str | Path, data: bytes | str) -> None:
    """One output file, atomically (see the module's rules); ``-`` is standard output."""
    if str(path) == STDIO:
        write_stdout(data)
        return
    FileSet({Path(path): _as_bytes(data)}).commit()


def write_together(outputs: list[tuple[str | Path, bytes | str]]) -> None:
    """Several outputs, all or nothing: the files are switched into place together,
    then whatever goes to standard output (``-``) is written."""
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

    def __init__(self, files: dict[Path, bytes | str]) -> None:
        self.files = {Path(path): _as_bytes(data) for path, data in files.items()}

    def commit(self) -> None:
        if not self.files:
            return
        targets = {path: output_target(path) for path in self.files}
        for target in set(targets.values()):
            recover(target.parent)
        temporaries: dict[Path, Path] = {}
        try:
            for path, target in targets.items():
                temporaries[target] = _write_temporary(target, self.files[path])
            self._switch(temporaries)
        finally:
            for temporary in temporaries.values():
                temporary.unlink(missing_ok=True)

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
            backup = target.with_name(f".{target.name}{_BACKUP_SUFFIX}")
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
    its temporary files: the previous outputs come back whole."""
    try:
        journals = sorted(directory.glob(f"{_JOURNAL_PREFIX}*.json"))
    except OSError:
        return
    for journal in journals:
        try:
            entries = json.loads(journal.read_text(encoding="utf-8"))["files"]
        except (OSError, ValueError, KeyError, TypeError):
            journal.unlink(missing_ok=True)
            continue
        if _journal_owner_alive(journal):
            continue
        _roll_back(entries)
        journal.unlink(missing_ok=True)


def _journal_owner_alive(journal: Path) -> bool:
    """Whether the process that wrote ``journal`` is still running (then leave it)."""
    try:
        pid = int(journal.name[len(_JOURNAL_PREFIX):].split("-")[0])
    except ValueError:
        return False
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
