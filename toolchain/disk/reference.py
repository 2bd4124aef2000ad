"""``IMAGE:NAME``: a file on a disk image, wherever c64tc reads a program.

The rule, kept simple on purpose:

* the text is split at its **last** ``:`` (a name on a Commodore disk cannot contain
  one, the DOS uses it as a separator), so ``C:\\disks\\games.d64:fox*`` and
  ``my:dir/seeds.d64:fox hunt`` work;
* it is a reference when the part before is an existing disk image (by its size or
  T64 signature) or ends in ``.d64``, ``.d71``, ``.d81`` or ``.t64`` (so a missing
  image is reported as such); a file that exists under the whole text is a plain
  file, never a reference;
* the name after the ``:`` is typed as on the C64 (case does not matter), may be in
  double quotes (``build/seeds.d64:"fox hunt"``, when the shell passes them on) and
  may hold the DOS wildcards ``*`` and ``?``: the first file that matches is taken,
  as ``LOAD"FOX*",8`` does.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from toolchain.diagnostics import UserError
from toolchain.disk.formats import IMAGE_EXTENSIONS, format_for_size
from toolchain.disk.tape import is_tape


def is_disk_image(path: str | Path) -> bool:
    """Whether ``path`` is a disk image c64tc reads: a regular file of the size of a
    D64 (35 or 40 tracks), D71 or D81 image, with or without error info, or a T64
    tape container (by its signature).  The extension does not matter."""
    path = Path(path)
    try:
        if not path.is_file():
            return False
        return format_for_size(path.stat().st_size) is not None or is_tape(path)
    except OSError:
        return False


@dataclass(frozen=True, slots=True)
class ImageReference:
    image: Path
    name: str  # as typed, quotes removed

    def __str__(self) -> str:
        return f'{self.image}:"{self.name}"'


@dataclass(frozen=True, slots=True)
class DiskFile:
    """A file read from a disk image."""

    data: bytes  # as stored: a PRG with its two-byte load address
    file_type: str  # PRG, SEQ, USR, REL
    name: str  # as the C64 shows it
    image: Path

    @property
    def display_name(self) -> str:
        """How messages name it: ``build/seeds.d64:"FOX HUNT"``."""
        return f'{self.image}:"{self.name}"'


def parse_image_reference(text: str | Path) -> ImageReference | None:
    """The image and name of ``IMAGE:NAME``, or None when ``text`` is not one."""
    text = str(text)
    if ":" not in text or os.path.exists(text):  # (False for a name too long, not an OSError)
        return None
    image, _, name = text.rpartition(":")
    if not image:
        return None
    path = Path(image)
    if not (path.suffix.lower() in IMAGE_EXTENSIONS or is_disk_image(path)):
        return None
    if len(name) >= 2 and name[0] == name[-1] == '"':
        name = name[1:-1]
    return ImageReference(path, name)


def read_disk_file(reference: str | Path | ImageReference) -> DiskFile:
    """The file an ``IMAGE:NAME`` reference names; a UserError (naming the image)
    when the image or the file is not there or cannot be read."""
    from toolchain.disk.d64 import extract_files  # (the d64 package: loaded when a disk file is read)

    parsed = reference if isinstance(reference, ImageReference) else parse_image_reference(reference)
    if parsed is None:
        raise UserError.single(str(reference), "not a disk file reference (IMAGE:NAME, e.g. "
                               'build/seeds.d64:"fox hunt")')
    if not parsed.name:
        raise UserError.single(str(parsed.image), "no file name after ':' (IMAGE:NAME)")
    found = extract_files(parsed.image, [parsed.name], first_only=True)[0]
    return DiskFile(found.data, found.file_type, found.name, parsed.image)
