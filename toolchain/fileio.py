"""Reading sources and writing outputs without ever losing the user's data."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from toolchain.diagnostics import UserError


def read_text(path: str | Path) -> str:
    """A source file as text: UTF-8 (so £ and π work), else Latin-1 as old tools wrote."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise UserError.single(str(path), f"cannot read: {exc.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_bytes(path: str | Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise UserError.single(str(path), f"cannot read: {exc.strerror}") from None


def write_atomic(path: str | Path, data: bytes | str) -> None:
    """Write to a temporary file beside the target, then rename it over the target:
    a reader never sees half a file, and a failure leaves the old file intact."""
    target = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise UserError.single(str(path), f"cannot write: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp creates 0600; give the usual mode
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
