"""File names on Commodore disks: typed names to PETSCII, names as the C64 shows
them, the DOS's wildcards, and safe names for files written from a disk."""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolchain.diagnostics import UserError
from toolchain.disk.chains import PADDING
from toolchain.petscii import BYTE_TEXT

MAX_NAME_LENGTH = 16
_FORBIDDEN_IN_NAMES = set(b'*?,:="')  # DOS wildcards and separators
# ASCII characters PETSCII has not: $60 and $7B-$7E are graphics there (the same as the
# shifted $C0, $DB-$DE), which no key types as such.  c1541 cannot write them either: its
# charset_p_topetscii (VICE charset.c) turns ` into ' and the others into "unmapped".
_NOT_PETSCII = set(b"`{|}~")


def petscii_name(name: str, what: str = "a disk file name", option: str | None = None) -> bytes:
    """An on-disk name from what the user typed: letters in upper case, as the C64
    shows unshifted letters ($41-$5A).  A name given as ``option``'s value (``--name``)
    is refused with the option as the message's place and the value in the text: the
    value itself, the place otherwise, may be empty, and '' is no place to point at."""

    def refused(problem: str) -> UserError:
        if option is None:
            return UserError.single(name, problem)
        return UserError.single(option, f"{problem} (given: {name!r})")

    try:
        raw = name.upper().encode("ascii")
    except UnicodeEncodeError:
        raise refused(f"{what} must be plain ASCII") from None
    if not raw or len(raw) > MAX_NAME_LENGTH:
        raise refused(f"{what} has 1 to {MAX_NAME_LENGTH} characters")
    if set(raw) & _FORBIDDEN_IN_NAMES:
        raise refused(f"{what} cannot contain * ? , : = or a quote")
    if any(b < 0x20 or b > 0x7E for b in raw):
        raise refused(f"{what} cannot contain control characters")
    if set(raw) & _NOT_PETSCII:
        raise refused(f"{what} cannot contain ` {{ | }} or ~: they are no PETSCII characters (stored as "
                      "they are, $60 and $7B-$7E, they would be graphics no C64 key types)")
    return raw


def shown_name(raw: bytes) -> str:
    """A name as the C64 shows it: letters and signs as they are, other bytes in
    petcat's brace codes."""
    return "".join(chr(b) if 0x20 <= b <= 0x5A else BYTE_TEXT[b] for b in raw)


# The letter after '=' that keeps one file type.  The 1541 looks it up in its listing's
# type letters D S P U R ($FEBB), from R down to S and never D ($C398): R picks the REL
# files, and D, L (OPEN's letter for REL) or any other letter no type at all (measured,
# tests/data/drive/pattern-types).  c1541's list takes a type's first letter, so its =D
# keeps the DEL entries: c64tc's disk commands do that too, and refuse other letters.
DOS_TYPE_LETTERS = {ord("S"): "SEQ", ord("P"): "PRG", ord("U"): "USR", ord("R"): "REL"}
C1541_TYPE_LETTERS = {ord("D"): "DEL", **DOS_TYPE_LETTERS}


@dataclass(frozen=True, slots=True)
class Pattern:
    """A name as the DOS compares it with the directory's names, for the drive and the
    disk commands alike: ``*`` matches the rest of the name (anything after it is
    ignored), ``?`` any one character; ``file_type`` (from ``=P``, ``=S`` ... at the end,
    as in ``LOAD"$:*=P",8``) keeps one file type."""

    raw: bytes  # only its first 16 characters count, as a name has 16
    file_type: str | None = None  # "SEQ", "PRG" ...; None: any
    text: str = ""  # as typed, for messages

    @property
    def has_wildcards(self) -> bool:
        return b"*" in self.raw or b"?" in self.raw

    def matches(self, name: bytes, file_type: str | None = None) -> bool:
        """The DOS's comparison (measured on the 1541, tests/data/drive/wildcards; VICE's
        cbmdos.c cbmdos_parse_wildcard_compare): a ``?`` needs a character there, a
        name without ``*`` must end where the pattern ends, and a name ends at its first
        shifted space (LANG finds "LANG"NAME, measured: tests/data/drive/pattern-types;
        c1541's read and delete do the same)."""
        if self.file_type is not None and file_type != self.file_type:
            return False
        end = name.find(PADDING)
        if end >= 0:
            name = name[:end]
        raw = self.raw[:MAX_NAME_LENGTH]
        for index, wanted in enumerate(raw):
            if wanted == 0x2A:  # '*'
                return True
            if index >= len(name):
                return False
            if wanted != 0x3F and wanted != name[index]:  # '?' matches any one character
                return False
        return len(name) == len(raw)


def type_for_letter(letter: bytes, letters: dict[int, str] = DOS_TYPE_LETTERS) -> str | None:
    """The file type a pattern's ``=`` letter keeps (None: every type)."""
    return letters.get(letter[0]) if letter else None


def name_pattern(text: str) -> Pattern:
    """A name or pattern as typed on the command line (c1541's type letters)."""
    body, _, letter = text.partition("=")
    file_type = None
    if letter or text.endswith("="):
        file_type = type_for_letter(letter.upper()[:1].encode("ascii", "replace"), C1541_TYPE_LETTERS)
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
    return Pattern(raw, file_type, text)


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
