"""PRG files and disk images (D64, D71, D81; T64 tapes for reading).

For the rest of c64tc: :func:`parse_image_reference` and :func:`read_disk_file` read
a program named ``IMAGE:NAME`` (``build/seeds.d64:"fox hunt"``, ``games.d81:fox*``),
:func:`is_disk_image` tells a disk image from other files.  The disk commands
themselves are in :mod:`toolchain.disk.d64`.
"""

from toolchain.disk.prg import Prg
from toolchain.disk.reference import (
    DiskFile,
    ImageReference,
    is_disk_image,
    parse_image_reference,
    read_disk_file,
)

__all__ = ["DiskFile", "ImageReference", "Prg", "is_disk_image", "parse_image_reference", "read_disk_file"]
