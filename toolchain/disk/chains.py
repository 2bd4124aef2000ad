"""A disk image's structure as the DOS reads it: chains of blocks followed by their
links, and the directory's entries.

One walk for both readers of a disk: the checker (``check.py``), which turns what it
finds into d64-fsck's findings, and the drive (``toolchain.c64.drive``), which turns it
into the DOS's error numbers.  Neither follows a link or reads an entry's bytes itself.

Every walk is bounded: a chain ends at a block whose link's track is 0 (its sector
byte then counts the block's bytes), at a link to a block the disk does not have, or
at a link back to a block of the chain, whichever comes first.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from toolchain.disk.formats import BLOCK, DiskFormat

Block = tuple[int, int]
Image = bytes | bytearray

DATA_BYTES = BLOCK - 2  # a block's bytes after its link
ENTRY_SIZE, ENTRIES_PER_BLOCK, NAME_LENGTH = 32, 8, 16
PADDING = 0xA0  # a name on disk is padded with shifted spaces
# The type names of the low three bits of an entry's type byte (the 1541's listing,
# its table at $FEBB: D S P U R with the rest of each name after it)
TYPE_NAMES = ("DEL", "SEQ", "PRG", "USR", "REL", "???", "???", "???")


class Ending(enum.Enum):
    """How a chain ends."""

    LAST = "last"  # a block whose link's track is 0: the chain's last block
    OFF_DISK = "off the disk"  # a link (or the start) names a block the disk does not have
    LOOP = "loop"  # a link goes back to a block of the chain


@dataclass(frozen=True, slots=True)
class Chain:
    """The blocks of a chain in order (each once), and how it ends: ``link`` is the
    last block's link, ``(0, size byte)`` for a proper end, else the link that leaves
    the disk or goes back (for a start off the disk: the start, and no blocks)."""

    blocks: list[Block]
    link: Block
    ending: Ending

    @property
    def intact(self) -> bool:
        return self.ending is Ending.LAST

    @property
    def last_block(self) -> Block:
        return self.blocks[-1]

    @property
    def last_bytes(self) -> int:
        """The data bytes in the last block: its size byte less the one for the size
        byte itself (0 for the sizes 0 and 1)."""
        return max(0, self.link[1] - 1) if self.intact else 0


def follow(disk: DiskFormat, image: Image, start: Block) -> Chain:
    """The chain of blocks from ``start``, followed as far as its links go."""
    if not disk.valid(*start):
        return Chain([], start, Ending.OFF_DISK)
    blocks: list[Block] = []
    seen: set[Block] = set()
    block = start
    while True:
        blocks.append(block)
        seen.add(block)
        offset = disk.block_offset(*block)
        link = (image[offset], image[offset + 1])
        if link[0] == 0:
            return Chain(blocks, link, Ending.LAST)
        if not disk.valid(*link):
            return Chain(blocks, link, Ending.OFF_DISK)
        if link in seen:
            return Chain(blocks, link, Ending.LOOP)
        block = link


def chain_data(disk: DiskFormat, image: Image, blocks: list[Block], last_bytes: int) -> bytes:
    """A file's bytes as the drive reads them: the data bytes of each block, of the
    last block only ``last_bytes``."""
    parts = []
    for number, block in enumerate(blocks):
        offset = disk.block_offset(*block)
        length = last_bytes if number == len(blocks) - 1 else DATA_BYTES
        parts.append(bytes(image[offset + 2 : offset + 2 + length]))
    return b"".join(parts)


# -- the directory -------------------------------------------------------------------------------

CLOSED, LOCKED = 0x80, 0x40  # the type byte's flags besides the type (and $20: being replaced)


class TypeByte:
    """What a directory entry's type byte says besides the type."""

    type_byte: int

    @property
    def closed(self) -> bool:
        return bool(self.type_byte & CLOSED)

    @property
    def locked(self) -> bool:
        return bool(self.type_byte & LOCKED)


@dataclass
class Entry(TypeByte):
    """A directory slot, used or not: where it is, and its fields as on disk."""

    block: Block
    slot: int
    offset: int  # of its 32 bytes in the image
    type_byte: int
    start: Block
    name: bytes  # the name's 16 bytes without the padding after it
    blocks: int
    side: Block = (0, 0)  # a REL file's first side sector (a 1581's super side sector)
    record_length: int = 0

    @property
    def dos_name(self) -> bytes:
        """The name as the DOS compares it and LOAD"$" quotes it: up to its first
        shifted space (measured, tests/data/drive/pattern-types: LANG finds
        "LANG"NAME, and the directory shows the rest after the closing quote)."""
        end = self.name.find(bytes([PADDING]))
        return self.name if end < 0 else self.name[:end]

    @property
    def file_type(self) -> int:
        return self.type_byte & 7

    @property
    def type_name(self) -> str:
        return TYPE_NAMES[self.file_type]


def read_entry(disk: DiskFormat, image: Image, block: Block, slot: int) -> Entry:
    offset = disk.block_offset(*block) + slot * ENTRY_SIZE
    return Entry(block, slot, offset, type_byte=image[offset + 2],
                 start=(image[offset + 3], image[offset + 4]),
                 name=bytes(image[offset + 5 : offset + 5 + NAME_LENGTH]).rstrip(bytes([PADDING])),
                 blocks=image[offset + 0x1E] | image[offset + 0x1F] << 8,
                 side=(image[offset + 0x15], image[offset + 0x16]), record_length=image[offset + 0x17])


def entries(disk: DiskFormat, image: Image, blocks: Iterable[Block]) -> Iterator[Entry]:
    """Every slot of the directory ``blocks``, used or not, in order."""
    for block in blocks:
        for slot in range(ENTRIES_PER_BLOCK):
            yield read_entry(disk, image, block, slot)


def write_entry(image: bytearray, entry: Entry) -> None:
    """The entry's type, start, name and block count into its slot (the REL fields
    stay as they are)."""
    offset = entry.offset
    image[offset + 2] = entry.type_byte
    image[offset + 3], image[offset + 4] = entry.start
    name = entry.name[:NAME_LENGTH]
    image[offset + 5 : offset + 5 + NAME_LENGTH] = name + bytes([PADDING]) * (NAME_LENGTH - len(name))
    image[offset + 30], image[offset + 31] = entry.blocks & 0xFF, entry.blocks >> 8
