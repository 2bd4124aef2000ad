"""File names on Commodore disks: typed names to PETSCII, names as the C64 shows
them, the DOS's wildcards, and safe names for files written from a disk."""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolchain.diagnostics import UserError
from toolchain.petscii import BYTE_TEXT

MAX_NAME_LENGTH = 16
FILE_TYPES = ("DEL", "SEQ", "PRG", "USR", "REL")
_FORBIDDEN_IN_NAMES = set(b'*?,:="')  # DOS wildcards and separators
# The DOS's type letters after '=' in a pattern ("$:*=S" lists the SEQ files).
_TYPE_LETTERS = {"D": "DEL", "S": "SEQ", "P": "PRG", "U": "USR", "R": "REL"}


def petscii_name(name: str, what: str = "a disk file name") -> bytes:
    """An on-disk name from what the user typed: letters in upper case, as the C64
    shows unshifted letters ($41-$5A)."""
    try:
        raw = name.upper().encode("ascii")
    except UnicodeEncodeError:
        raise UserError.single(name, f"{what} must be plain ASCII") from None
    if not raw or len(raw) > MAX_NAME_LENGTH:
        raise UserError.single(name, f"{what} has 1 to {MAX_NAME_LENGTH} characters")
    if set(raw) & _FORBIDDEN_IN_NAMES:
        raise UserError.single(name, f"{what} cannot contain * ? , : = or a quote")
    if any(b < 0x20 or b > 0x7E for b in raw):
        raise UserError.single(name, f"{what} cannot contain control characters")
    return raw


def shown_name(raw: bytes) -> str:
    """A name as the C64 shows it: letters and signs as they are, other bytes in
    petcat's brace codes."""
    return "".join(chr(b) if 0x20 <= b <= 0x5A else BYTE_TEXT[b] for b in raw)


@dataclass(frozen=True, slots=True)
class Pattern:
    """A name as the DOS matches it: ``*`` matches the rest of the name (anything
    after it is ignored), ``?`` any one character; ``=P`` (S, U, R, D) at the end
    keeps one file type, as in ``LOAD"$:*=P",8``."""

    text: str  # as typed
    raw: bytes
    file_type: str | None

    @property
    def has_wildcards(self) -> bool:
        return b"*" in self.raw or b"?" in self.raw

    def matches(self, name: bytes, file_type: str) -> bool:
        """The DOS's comparison (VICE, cbmdos.c cbmdos_parse_wildcard_compare): a
        ``?`` needs a character there, and a name without ``*`` must end where the
        pattern ends."""
        if self.file_type is not None and file_type != self.file_type:
            return False
        for index, wanted in enumerate(self.raw):
            if wanted == 0x2A:  # '*'
                return True
            if index >= len(name):
                return False
            if wanted != 0x3F and wanted != name[index]:  # '?' matches any one character
                return False
        return len(name) == len(self.raw)


def name_pattern(text: str) -> Pattern:
    """A name or pattern as typed on the command line."""
    body, _, letter = text.partition("=")
    file_type = None
    if letter or text.endswith("="):
        file_type = _TYPE_LETTERS.get(letter.upper()[:1])
        if file_type is None or len(letter) > 3:
            raise UserError.single(text, "after '=' comes a file type letter: P, S, U, R or D")
    try:
        raw = body.upper().encode("ascii")
    except UnicodeEncodeError:
        raise UserError.single(text, "a disk file name must be plain ASCII") from None
    if not raw or len(raw) > MAX_NAME_LENGTH:
        raise UserError.single(text, f"a disk file name has 1 to {MAX_NAME_LENGTH} characters")
    if set(raw) & set(b',:"'):
        raise UserError.single(text, "a disk file name cannot contain , : or a quote")
    return Pattern(text, raw, file_type)


_UNSAFE = re.compile(r"[^a-z0-9._+-]+")


def safe_file_name(raw: bytes, file_type: str) -> str:
    """A file name for the current folder from a name on a disk: never a path (no
    separators, no leading dot, no '..'), the extension of the file's type."""
    text = shown_name(raw).lower()
    stem = _UNSAFE.sub("_", text).strip("._") or "file"
    return f"{stem}.{file_type.lower()}"


def unique_file_names(wanted: list[str]) -> list[str]:
    """The names, with -2, -3 ... added where two files would get the same one
    (compared case-insensitively, for file systems that are)."""
    seen: set[str] = set()
    result = []
    for name in wanted:
        stem, dot, extension = name.rpartition(".")
        candidate, number = name, 1
        while candidate.lower() in seen:
            number += 1
            candidate = f"{stem}-{number}{dot}{extension}"
        seen.add(candidate.lower())
        result.append(candidate)
    return result
