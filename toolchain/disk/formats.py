"""The layouts of the Commodore disk images c64tc reads and writes: where each block
lies in the file, where the BAM keeps each track's free blocks, where the directory
and the disk's name are.

The facts are those of the drives' own formats as the d64 package (``d64/*_image.py``,
``*_bam.py``) and VICE read them:

* D64: the 1541's 35 tracks (683 blocks), or 40 tracks (768 blocks) as SpeedDOS and
  DolphinDOS wrote them, with the BAM of tracks 36-40 at $C0 (SpeedDOS) or $AC
  (DolphinDOS) of 18/0;
* D71: the 1571's two sides, 70 tracks (1366 blocks); the BAM of tracks 36-70 has its
  counts at $DD-$FF of 18/0 and its bitmaps in 53/0, and the 1571 DOS keeps all of
  track 53 for itself;
* D81: the 1581's 80 tracks of 40 blocks (3200); header 40/0, BAM 40/1 (tracks 1-40)
  and 40/2 (41-80), directory from 40/3.

Each may carry one error byte per block after the blocks (the drive's read result for
that sector, 1 meaning no error), as copies of protected disks do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

BLOCK = 256


def _sectors(ranges: tuple[tuple[int, int, int], ...]) -> tuple[int, ...]:
    """Sectors per track (index track - 1) from (first track, last track, sectors)."""
    counts: list[int] = []
    for first, last, sectors in ranges:
        assert first == len(counts) + 1
        counts.extend([sectors] * (last - first + 1))
    return tuple(counts)


_ZONES_35 = ((1, 17, 21), (18, 24, 19), (25, 30, 18), (31, 35, 17))


@dataclass(frozen=True)
class DiskFormat:
    """One image format: its geometry and where its bookkeeping lives."""

    name: str  # as --format spells it
    description: str
    extension: str
    sectors: tuple[int, ...]  # sectors of each track, index track - 1
    dir_track: int
    dir_sector: int  # the first directory block (the header/BAM block is sector 0)
    dos_type: int  # the format byte at offset 2 of the header ('A' 1541/1571, 'D' 1581)
    dos_version: int  # the version byte shown in the directory header ('2', '3')
    name_offset: int  # in the header block: 16 name bytes, then id, DOS version and type
    id_offset: int
    version_offset: int
    package_type: str  # d64.DiskImage.create's name for it
    offsets: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        starts, total = [], 0
        for count in self.sectors:
            starts.append(total)
            total += count
        object.__setattr__(self, "offsets", tuple(starts))

    @property
    def tracks(self) -> int:
        return len(self.sectors)

    @property
    def total_blocks(self) -> int:
        return sum(self.sectors)

    @property
    def size(self) -> int:
        return self.total_blocks * BLOCK

    @property
    def size_with_errors(self) -> int:
        return self.total_blocks * (BLOCK + 1)

    @property
    def max_directory_blocks(self) -> int:
        """The DOS keeps the directory on its track: the blocks left there after the
        header and BAM (18 on a 1541 and 1571: 144 entries; 37 on a 1581: 296)."""
        return self.sectors[self.dir_track - 1] - self.dir_sector

    @property
    def max_directory_entries(self) -> int:
        return self.max_directory_blocks * 8

    def valid(self, track: int, sector: int) -> bool:
        return 1 <= track <= self.tracks and 0 <= sector < self.sectors[track - 1]

    def block_offset(self, track: int, sector: int) -> int:
        """Where block track/sector starts in the image (the caller checked ``valid``)."""
        return (self.offsets[track - 1] + sector) * BLOCK

    def block_index(self, track: int, sector: int) -> int:
        return self.offsets[track - 1] + sector

    def all_blocks(self) -> list[tuple[int, int]]:
        return [(t, s) for t in range(1, self.tracks + 1) for s in range(self.sectors[t - 1])]

    @property
    def header(self) -> tuple[int, int]:
        return (self.dir_track, 0)

    @property
    def bam_blocks(self) -> tuple[tuple[int, int], ...]:
        """Blocks that hold the BAM (besides the header, which does on a 1541)."""
        if self.name == "d71":
            return ((53, 0),)
        if self.name == "d81":
            return ((40, 1), (40, 2))
        return ()

    @property
    def reserved_blocks(self) -> tuple[tuple[int, int], ...]:
        """Blocks the DOS always keeps allocated besides the directory: the header and
        the BAM; on a 1571 all of track 53 (its DOS never uses that track for files)."""
        if self.name == "d71":
            return ((18, 0),) + tuple((53, s) for s in range(self.sectors[52]))
        return (self.header,) + self.bam_blocks

    # -- the BAM ---------------------------------------------------------------------
    def bam_entry_places(self, image: bytes | bytearray, track: int,
                         extended: int | None = None) -> tuple[int, list[int]]:
        """Where ``track``'s free count is, and its bitmap bytes (bit n of the bitmap
        = sector n, lowest bit first), as offsets into the image.  ``extended`` forces
        where a 40-track BAM keeps tracks 36-40."""
        header = self.block_offset(*self.header)
        if self.name == "d81":
            block = self.block_offset(40, 1 if track <= 40 else 2)
            start = block + 0x10 + ((track - 1) % 40) * 6
            return start, [start + 1 + i for i in range(5)]
        if track <= 35:
            start = header + 4 + (track - 1) * 4
            return start, [start + 1, start + 2, start + 3]
        if self.name == "d71":
            bits = self.block_offset(53, 0) + (track - 36) * 3
            return header + 0xDD + (track - 36), [bits, bits + 1, bits + 2]
        # 40 tracks: SpeedDOS keeps tracks 36-40 at $C0, DolphinDOS at $AC; the d64
        # package reads $AC when the SpeedDOS bytes are all zero, and so do we.
        base = extended or (0xC0 if any(image[header + 0xC0 : header + 0xC0 + 20]) else 0xAC)
        start = header + base + (track - 36) * 4
        return start, [start + 1, start + 2, start + 3]

    def read_bam(self, image: bytes) -> list[tuple[int, int, int]]:
        """Each track's (free count, bitmap as an int, bits in the bitmap)."""
        entries = []
        for track in range(1, self.tracks + 1):
            count_at, bit_bytes = self.bam_entry_places(image, track)
            bitmap = 0
            for index, place in enumerate(bit_bytes):
                bitmap |= image[place] << (8 * index)
            entries.append((image[count_at], bitmap, 8 * len(bit_bytes)))
        return entries

    def write_bam_entry(self, image: bytearray, track: int, free_sectors: set[int],
                        extended: int | None = None) -> None:
        count_at, bit_bytes = self.bam_entry_places(image, track, extended)
        bitmap = sum(1 << s for s in free_sectors)
        image[count_at] = len(free_sectors)
        for index, place in enumerate(bit_bytes):
            image[place] = (bitmap >> (8 * index)) & 0xFF

    def counts_free(self, track: int) -> bool:
        """Whether the track's free blocks count in BLOCKS FREE (the directory track's
        do not: the DOS keeps them for the directory)."""
        return track != self.dir_track


D64 = DiskFormat("d64", "1541, 35 tracks", ".d64", _sectors(_ZONES_35), 18, 1, 0x41, 0x32,
                 0x90, 0xA2, 0xA5, "d64")
D64_40 = DiskFormat("d64-40", "1541, 40 tracks (SpeedDOS BAM)", ".d64",
                    _sectors(_ZONES_35 + ((36, 40, 17),)), 18, 1, 0x41, 0x32, 0x90, 0xA2, 0xA5, "d64_40")
D71 = DiskFormat("d71", "1571, 70 tracks", ".d71",
                 _sectors(_ZONES_35 + ((36, 52, 21), (53, 59, 19), (60, 65, 18), (66, 70, 17))),
                 18, 1, 0x41, 0x32, 0x90, 0xA2, 0xA5, "d71")
D81 = DiskFormat("d81", "1581, 80 tracks", ".d81", _sectors(((1, 80, 40),)), 40, 3, 0x44, 0x33,
                 0x04, 0x16, 0x19, "d81")

FORMATS: dict[str, DiskFormat] = {f.name: f for f in (D64, D64_40, D71, D81)}
_BY_SIZE = {size: f for f in FORMATS.values() for size in (f.size, f.size_with_errors)}
_BY_EXTENSION = {".d64": D64, ".d71": D71, ".d81": D81}
IMAGE_EXTENSIONS = (".d64", ".d71", ".d81", ".t64")

# Sizes of images the d64 package knows but c64tc does not handle (8050, 8250, 42 tracks).
_OTHER_SIZES = {533248: "a D80 (8050) image", 1066496: "a D82 (8250) image",
                205312: "a 42-track D64 image", 206114: "a 42-track D64 image"}


def format_for_size(size: int) -> DiskFormat | None:
    return _BY_SIZE.get(size)


def format_for_extension(path: Path) -> DiskFormat | None:
    return _BY_EXTENSION.get(path.suffix.lower())


def has_error_bytes(disk: DiskFormat, size: int) -> bool:
    return size == disk.size_with_errors


def describe_size(size: int) -> str:
    """Why a file of ``size`` bytes is not an image c64tc reads."""
    other = _OTHER_SIZES.get(size)
    if other:
        return f"{other}, which c64tc does not handle"
    known = ", ".join(f"{f.size} ({f.name})" for f in FORMATS.values())
    return (f"{size} byte{'' if size == 1 else 's'}; a disk image has {known} bytes, or one more byte per "
            "block with error info")


def empty_image(disk: DiskFormat, name: bytes, disk_id: bytes) -> bytes:
    """A freshly formatted image, laid out as the drive's NEW command does (the d64
    package creates 35-track D64 and D81 images; for 40-track D64 and D71 its create
    fails, so c64tc writes those itself, in the same layout)."""
    image = bytearray(disk.size)
    header = disk.block_offset(*disk.header)
    if disk.name == "d81":
        raise ValueError("D81 images are created by the d64 package")
    image[header : header + 2] = bytes((disk.dir_track, disk.dir_sector))
    image[header + 2] = disk.dos_type
    if disk.name == "d71":
        image[header + 3] = 0x80  # the 1571's double-sided flag
    image[header + 0x90 : header + 0xAB] = b"\xa0" * 0x1B
    image[header + 0x90 : header + 0x90 + len(name)] = name
    image[header + 0xA2 : header + 0xA4] = disk_id
    image[header + 0xA5 : header + 0xA7] = bytes((disk.dos_version, disk.dos_type))
    first_dir = disk.block_offset(disk.dir_track, disk.dir_sector)
    image[first_dir : first_dir + 2] = b"\x00\xff"
    used = set(disk.reserved_blocks) | {(disk.dir_track, disk.dir_sector)}
    for track in range(1, disk.tracks + 1):
        free = {s for s in range(disk.sectors[track - 1]) if (track, s) not in used}
        disk.write_bam_entry(image, track, free, extended=0xC0)  # a 40-track disk: SpeedDOS
    return bytes(image)
