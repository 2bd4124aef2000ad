"""Checking a disk image the way ``d64-fsck`` (from the d64 package) and the drive's
own VALIDATE do, and repairing what can be repaired without losing anything.

The checker reads the image's bytes itself, with every walk bounded (a chain that
loops or leaves the disk is a finding, never a hang or an exception): the header,
the BAM, the directory chain and every file's chain of blocks, REL side sectors,
then whether the BAM agrees with the blocks in use.  Everything c64tc reads from an
image goes through it; the d64 package makes the changes, on images it found sound.

Findings are *errors* (the structure is unsafe to change: a change could overwrite
or free a block that a file still uses, or follow a chain forever) or *warnings*
(irregular but harmless to change: a wrong block count in an entry, an unclosed
file).  d64-fsck reports both kinds as errors; changes are refused on errors only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from toolchain.diagnostics import counted
from toolchain.disk.chains import (
    DATA_BYTES,
    TYPE_NAMES,
    Block,
    Ending,
    TypeByte,
    chain_data,
    entries,
    follow,
)
from toolchain.disk.formats import D81, DiskFormat, has_error_bytes
from toolchain.disk.names import shown_name

_TYPES_1581 = (*TYPE_NAMES[:5], "CBM", *TYPE_NAMES[6:])
_SIDE_SECTOR_LINKS = 120  # data block links in one side sector
_SIDE_SECTORS = 6  # side sectors in a group (a D64/D71 REL file has one group)
_SUPER_SIDE_SECTOR_MARK = 0xFE
_GEOS_SIGNATURE = b"GEOS format"
# The drive's error numbers for the codes in an image's error info (1 = no error).
_READ_ERRORS = {2: "20, READ ERROR (header block not found)", 3: "21, READ ERROR (no sync)",
                4: "22, READ ERROR (data block not found)", 5: "23, READ ERROR (checksum in data)",
                6: "24, READ ERROR (byte decoding)", 7: "25, WRITE ERROR", 8: "26, WRITE PROTECT ON",
                9: "27, READ ERROR (checksum in header)", 10: "28, WRITE ERROR",
                11: "29, DISK ID MISMATCH", 15: "74, DRIVE NOT READY"}


@dataclass(frozen=True, slots=True)
class Problem:
    message: str
    severity: str  # "error": changes are refused; "warning": irregular, changes are safe
    fixable: bool = False


@dataclass
class FileEntry(TypeByte):
    """One used slot of the directory."""

    index: int  # position in the directory, counting used entries from 0
    entry_offset: int  # where its 32 bytes are in the image
    raw_name: bytes
    type_byte: int
    file_type: str  # DEL SEQ PRG USR REL CBM ???
    start: Block
    blocks_in_entry: int
    record_length: int
    chain: list[Block] = field(default_factory=list)  # data blocks, in order
    side_sectors: list[Block] = field(default_factory=list)  # REL bookkeeping blocks
    last_bytes: int = 0  # data bytes in the last block
    unreadable: str | None = None  # why its bytes cannot be read, if they cannot
    owner: str = ""  # how findings name it: 'file "X"', with its place when two share a name

    @property
    def name(self) -> str:
        return shown_name(self.raw_name)

    @property
    def label(self) -> str:
        return f'"{self.name}"'

    @property
    def size(self) -> int:
        """Its bytes when read, as stored (a PRG's load address included)."""
        if not self.chain:
            return 0
        return (len(self.chain) - 1) * DATA_BYTES + self.last_bytes


@dataclass
class Report:
    disk: DiskFormat
    image: bytes
    problems: list[Problem] = field(default_factory=list)
    files: list[FileEntry] = field(default_factory=list)
    directory: list[Block] = field(default_factory=list)
    directory_intact: bool = True
    owners: dict[Block, str] = field(default_factory=dict)
    geos: bool = False
    write_protected: str | None = None

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def header_offset(self) -> int:
        return self.disk.block_offset(*self.disk.header)

    def _header_bytes(self, offset: int, length: int) -> bytes:
        start = self.header_offset + offset
        return self.image[start : start + length]

    @property
    def disk_name(self) -> str:
        return shown_name(self._header_bytes(self.disk.name_offset, 16).rstrip(b"\xa0"))

    @property
    def disk_id(self) -> str:
        return shown_name(self._header_bytes(self.disk.id_offset, 2))

    @property
    def dos_type_shown(self) -> str:
        return shown_name(self._header_bytes(self.disk.version_offset, 2))

    @property
    def blocks_free(self) -> int:
        """BLOCKS FREE as the drive computes it: the BAM's free counts, the directory
        track left out (even when the counts are wrong: that is what the C64 shows)."""
        return sum(count for track, (count, _, _) in enumerate(self.disk.read_bam(self.image), 1)
                   if self.disk.counts_free(track))

    def free_sectors(self, track: int) -> set[int]:
        _, bitmap, _ = self.disk.read_bam(self.image)[track - 1]
        return {s for s in range(self.disk.sectors[track - 1]) if bitmap >> s & 1}

    def read(self, entry: FileEntry) -> bytes:
        """A file's bytes, as the drive reads them (the caller checked ``unreadable``)."""
        return chain_data(self.disk, self.image, entry.chain, entry.last_bytes)


def check(image: bytes, disk: DiskFormat) -> Report:
    """Every finding about ``image`` (whose size fits ``disk``)."""
    report = Report(disk, image)
    _check_header(report)
    _check_bam_blocks(report)
    _walk_directory(report)
    _read_entries(report)
    names = [entry.owner for entry in report.files]
    for entry in report.files:
        if names.count(entry.owner) > 1:
            entry.owner += f" (entry {entry.index + 1})"
    for entry in report.files:
        _walk_file(report, entry)
    _check_allocation(report)
    return report


# -- header ------------------------------------------------------------------------
def _add(report: Report, message: str, severity: str = "error", fixable: bool = False) -> None:
    report.problems.append(Problem(message, severity, fixable))


def _own(report: Report, blocks: Iterable[Block], owner: str) -> None:
    for block in blocks:
        report.owners.setdefault(block, owner)


def _check_header(report: Report) -> None:
    disk, header = report.disk, report.header_offset
    where = f"{disk.header[0]}/{disk.header[1]}"
    image = report.image
    if image[header + 2] != disk.dos_type:
        # The drive compares this byte with its own format ('A' on a 1541) and refuses
        # every write when they differ: the classic soft write protection.
        report.write_protected = (f"the format byte at offset 2 of {where} is ${image[header + 2]:02X}, "
                                  f"not ${disk.dos_type:02X} ('{chr(disk.dos_type)}'): the drive treats "
                                  "the disk as write-protected (73, DOS MISMATCH)")
        _add(report, report.write_protected)
    if image[header + disk.version_offset] != disk.dos_version:
        _add(report, f"the DOS version byte in {where} is ${image[header + disk.version_offset]:02X}, "
             f"not ${disk.dos_version:02X} ('{chr(disk.dos_version)}')", "warning", fixable=True)
    if (image[header], image[header + 1]) != (disk.dir_track, disk.dir_sector):
        # The drive always starts the directory at 18/1 (40/3): the link is only a note.
        _add(report, f"{where} links to {image[header]}/{image[header + 1]}, not to the directory at "
             f"{disk.dir_track}/{disk.dir_sector}", "warning", fixable=True)
    if disk.name != "d81" and image[header + 0xAD : header + 0xAD + len(_GEOS_SIGNATURE)] == _GEOS_SIGNATURE:
        report.geos = True
    _own(report, disk.reserved_blocks, "the header and BAM")


def _check_bam_blocks(report: Report) -> None:
    """The 1581's two BAM blocks: linked 40/1 -> 40/2, with the disk's id and format."""
    disk, image = report.disk, report.image
    if disk is not D81:
        return
    disk_id = report._header_bytes(disk.id_offset, 2)
    for number, (track, sector) in enumerate(disk.bam_blocks):
        offset = disk.block_offset(track, sector)
        link = (40, 2) if number == 0 else (0, 0xFF)
        if (image[offset], image[offset + 1]) != link:
            _add(report, f"BAM block {track}/{sector} links to {image[offset]}/{image[offset + 1]}, not "
                 f"{link[0]}/{link[1]}", "warning", fixable=True)
        if image[offset + 2] != disk.dos_type or image[offset + 3] != disk.dos_type ^ 0xFF:
            _add(report, f"BAM block {track}/{sector} has the format bytes ${image[offset + 2]:02X} "
                 f"${image[offset + 3]:02X}, not $44 $BB", "warning", fixable=True)
        if image[offset + 4 : offset + 6] != disk_id:
            _add(report, f"BAM block {track}/{sector} has the disk id "
                 f"{shown_name(image[offset + 4 : offset + 6])!r}, not {shown_name(disk_id)!r}",
                 "warning", fixable=True)


# -- directory ---------------------------------------------------------------------
def _walk_directory(report: Report) -> None:
    disk = report.disk
    chain = follow(disk, report.image, (disk.dir_track, disk.dir_sector))
    for number, block in enumerate(chain.blocks):
        report.directory.append(block)
        where = f"directory block {block[0]}/{block[1]}"
        if number + 1 < len(chain.blocks):  # a link to a block on the disk, not yet in the chain
            link = chain.blocks[number + 1]
            if link in disk.reserved_blocks:
                problem = f"{where} links to the BAM block {link[0]}/{link[1]}"
            elif len(report.directory) == disk.max_directory_blocks:
                # The drive keeps the directory on its own track, 8 entries a block.
                _add(report, f"the directory has more than {disk.max_directory_blocks} blocks "
                     f"({disk.max_directory_entries} entries), the most the drive keeps")
                report.directory_intact = False
                break
            else:
                continue
        elif chain.ending is Ending.LAST:
            if chain.link[1] != 0xFF:
                _add(report, f"the last {where} ends with ${chain.link[1]:02X}, not $FF", "warning",
                     fixable=True)
            break
        elif chain.ending is Ending.OFF_DISK:
            problem = f"{where} links to {chain.link[0]}/{chain.link[1]}, which is not on the disk"
        else:
            problem = f"the directory loops: {where} links back to {chain.link[0]}/{chain.link[1]}"
        # Cutting the chain here keeps every entry the drive can reach.
        _add(report, problem, fixable=True)
        report.directory_intact = False
        break
    for block in report.directory:
        if block in report.owners:
            continue  # reported above (a link to the BAM block)
        report.owners[block] = "the directory"


def _read_entries(report: Report) -> None:
    disk = report.disk
    types = _TYPES_1581 if disk is D81 else TYPE_NAMES
    index = 0
    for slot in entries(disk, report.image, report.directory):
        type_byte = slot.type_byte
        if type_byte == 0:
            continue  # a free (or scratched) slot
        entry = FileEntry(
            index=index, entry_offset=slot.offset, raw_name=slot.name, type_byte=type_byte,
            file_type=types[slot.file_type], start=slot.start, blocks_in_entry=slot.blocks,
            record_length=slot.record_length)
        index += 1
        report.files.append(entry)
        entry.owner = label = f"file {entry.label}"
        if entry.file_type == "???":
            _add(report, f"{label} has the unknown file type ${type_byte:02X}", "warning")
        if not entry.closed:
            _add(report, f"{label} was not closed (a splat file, listed as *{entry.file_type})", "warning")
        if type_byte & 0x20:
            _add(report, f"{label} is marked as being replaced (an @: save did not finish)", "warning")
        side = slot.side
        if entry.file_type == "REL":
            if entry.record_length == 0:
                _add(report, f"REL {label} has the record length 0")
        elif entry.file_type not in ("DEL", "CBM") and (side[0] or side[1] or entry.record_length):
            # GEOS keeps its info block there; d64-fsck clears it, c64tc leaves it.
            _add(report, f"{label} has REL fields set (side sector {side[0]}/{side[1]}, record "
                 f"length {entry.record_length})", "warning")


# -- files -------------------------------------------------------------------------
def _walk_chain(report: Report, start: Block, label: str) -> tuple[list[Block], int, str | None]:
    """The blocks of a chain from ``start``, the bytes in its last block, and what
    is wrong with it (it loops, leaves the disk, or ends without data)."""
    chain = follow(report.disk, report.image, start)
    if not chain.blocks:
        return [], 0, f"{label} starts at {start[0]}/{start[1]}, which is not on the disk"
    blocks, (track, sector), link = chain.blocks, chain.last_block, chain.link
    if chain.ending is Ending.OFF_DISK:
        return blocks, 0, f"{label}: block {track}/{sector} links to {link[0]}/{link[1]}, which is not on " \
                          "the disk"
    if chain.ending is Ending.LOOP:
        return blocks, 0, f"{label} loops: block {track}/{sector} links back to {link[0]}/{link[1]}"
    if link[1] < 1:
        return blocks, 0, f"the last block {track}/{sector} of {label} has the size byte 0"
    return blocks, chain.last_bytes, None


def _claim(report: Report, entry: FileEntry, blocks: list[Block], what: str = "") -> None:
    """Mark ``blocks`` as the entry's; the first block another owner has already is a
    cross-link (reported once per file)."""
    label = entry.owner
    reported = False
    for block in blocks:
        owner = report.owners.get(block)
        if owner is None:
            report.owners[block] = label
        elif not reported and owner != label:
            _add(report, f"{label} and {owner} both use block {block[0]}/{block[1]}{what}")
            reported = True


def _walk_file(report: Report, entry: FileEntry) -> None:
    label = entry.owner
    if entry.file_type == "DEL":
        entry.unreadable = "it is a DEL entry"
        return  # d64-fsck and the drive do not follow DEL entries
    if entry.file_type == "CBM":
        _walk_partition(report, entry)
        return
    if entry.start[0] == 0:
        entry.unreadable = "it has no data blocks"
        return
    blocks, last_bytes, problem = _walk_chain(report, entry.start, label)
    entry.chain, entry.last_bytes = blocks, last_bytes
    if problem:
        entry.unreadable = problem
        severity = "warning" if "size byte 0" in problem else "error"
        _add(report, problem, severity)
    _claim(report, entry, blocks)
    if entry.file_type == "REL" and entry.record_length:
        _check_side_sectors(report, entry)
    used = len(blocks) + len(entry.side_sectors)
    if not (entry.unreadable and not blocks) and used != entry.blocks_in_entry:
        _add(report, f"{label} is listed with {counted(entry.blocks_in_entry, 'block')} but uses {used}",
             "warning", fixable=True)
    if has_error_bytes(report.disk, len(report.image)) and not entry.unreadable:
        for track, sector in blocks:
            code = report.image[report.disk.size + report.disk.block_index(track, sector)]
            if code not in (0, 1):
                entry.unreadable = (f"block {track}/{sector} carries the error code ${code:02X} in the "
                                    f"image's error info: the drive reports "
                                    f"{_READ_ERRORS.get(code, 'an error')}")
                break


def _walk_partition(report: Report, entry: FileEntry) -> None:
    """A 1581 partition: ``blocks_in_entry`` consecutive blocks from its start (the
    directory of a partition used as a subdirectory is not checked)."""
    entry.unreadable = "it is a 1581 partition, not a file"
    disk = report.disk
    track, sector = entry.start
    blocks = []
    for _ in range(min(entry.blocks_in_entry, disk.total_blocks)):
        if not disk.valid(track, sector):
            _add(report, f"partition {entry.label} runs to {track}/{sector}, which is not on the disk")
            break
        blocks.append((track, sector))
        sector += 1
        if sector == disk.sectors[track - 1]:
            track, sector = track + 1, 0
    entry.chain = blocks
    _claim(report, entry, blocks)


def _check_side_sectors(report: Report, entry: FileEntry) -> None:
    """A REL file's side sectors: their chain, numbers, record length, the list of
    all side sectors in each, and the data block links, against the file's chain."""
    disk, image = report.disk, report.image
    label = f"REL file {entry.label}"
    side = (image[entry.entry_offset + 0x15], image[entry.entry_offset + 0x16])
    groups_expected = max(1, -(-len(entry.chain) // (_SIDE_SECTOR_LINKS * _SIDE_SECTORS)))
    if disk is D81:
        if not disk.valid(*side):
            _add(report, f"{label}: its super side sector {side[0]}/{side[1]} is not on the disk")
            return
        offset = disk.block_offset(*side)
        if image[offset + 2] != _SUPER_SIDE_SECTOR_MARK:
            _add(report, f"{label}: block {side[0]}/{side[1]} is not a super side sector")
        super_block = side
        side = (image[offset], image[offset + 1])
        group_starts = [(image[offset + 3 + 2 * i], image[offset + 4 + 2 * i]) for i in range(126)]
        group_starts = [g for g in group_starts if g[0]]
        entry.side_sectors.append(super_block)
    elif len(entry.chain) > _SIDE_SECTOR_LINKS * _SIDE_SECTORS:
        _add(report, f"{label} has {len(entry.chain)} data blocks, more than its side sectors can list "
             f"({_SIDE_SECTOR_LINKS * _SIDE_SECTORS})")
        return
    else:
        group_starts = [side]
    sides, _, problem = _walk_chain(report, side, f"the side sectors of {label}")
    if problem and "size byte" not in problem:
        _add(report, problem)
        _claim(report, entry, entry.side_sectors + sides, " (a side sector)")
        entry.side_sectors += sides
        return
    entry.side_sectors += sides
    _claim(report, entry, entry.side_sectors, " (a side sector)")
    expected = -(-len(entry.chain) // _SIDE_SECTOR_LINKS)
    if len(sides) != expected:
        _add(report, f"{label} has {len(sides)} side sectors, its {len(entry.chain)} data blocks need "
             f"{expected}")
        return
    groups = [sides[i : i + _SIDE_SECTORS] for i in range(0, len(sides), _SIDE_SECTORS)]
    if len(groups) != groups_expected or [g[0] for g in groups] != group_starts:
        _add(report, f"{label}: the side sector groups do not match the list in its super side sector")
        return
    for number, (track, sector) in enumerate(sides):
        offset = disk.block_offset(track, sector)
        group = groups[number // _SIDE_SECTORS]
        where = f"{label}: side sector {track}/{sector}"
        if image[offset + 2] != number % _SIDE_SECTORS:
            _add(report, f"{where} has the number {image[offset + 2]}, not {number % _SIDE_SECTORS}")
        if image[offset + 3] != entry.record_length:
            _add(report, f"{where} has the record length {image[offset + 3]}, the directory "
                 f"{entry.record_length}")
        peers = [(image[offset + 4 + 2 * i], image[offset + 5 + 2 * i]) for i in range(_SIDE_SECTORS)]
        if [p for p in peers if p[0]] != group:
            _add(report, f"{where} lists other side sectors than its group's")
        links = [(image[offset + 16 + 2 * i], image[offset + 17 + 2 * i]) for i in range(_SIDE_SECTOR_LINKS)]
        links = [link for link in links if link[0]]
        if links != entry.chain[number * _SIDE_SECTOR_LINKS : (number + 1) * _SIDE_SECTOR_LINKS]:
            _add(report, f"{where} lists other data blocks than the file's chain")


# -- allocation --------------------------------------------------------------------
def _blocks_text(blocks: list[Block]) -> str:
    shown = ", ".join(f"{t}/{s}" for t, s in blocks[:6])
    return shown + (f" and {len(blocks) - 6} more" if len(blocks) > 6 else "")


def _check_allocation(report: Report) -> None:
    disk = report.disk
    marked_free: dict[str, list[Block]] = {}
    for track, (count, bitmap, bits) in enumerate(disk.read_bam(report.image), 1):
        sectors = disk.sectors[track - 1]
        if bitmap.bit_count() != count:
            _add(report, f"track {track}: the BAM counts {count} free blocks, its bitmap shows "
                 f"{bitmap.bit_count()}", fixable=True)
        phantom = [s for s in range(sectors, bits) if bitmap >> s & 1]
        if phantom:
            _add(report, f"track {track}: the BAM marks sector {phantom[0]} free, but the track has only "
                 f"{sectors} sectors", fixable=True)
        unused = []
        for sector in range(sectors):
            free = bool(bitmap >> sector & 1)
            owner = report.owners.get((track, sector))
            if owner is not None and free:
                marked_free.setdefault(owner, []).append((track, sector))
            elif owner is None and not free:
                unused.append((track, sector))
        if unused:
            _add(report, f"track {track}: {len(unused)} block{'s' if len(unused) > 1 else ''} marked used "
                 f"that no file uses ({_blocks_text(unused)})", "warning", fixable=True)
    for owner, blocks in marked_free.items():
        # The next write would take these blocks: the classic way a disk loses files.
        count = len(blocks)
        _add(report, f"{count} block{'s' if count > 1 else ''} of {owner} {'are' if count > 1 else 'is'} "
             f"marked free in the BAM ({_blocks_text(blocks)})", fixable=True)


# -- repair ------------------------------------------------------------------------
def repair(report: Report) -> tuple[bytes, list[str]]:
    """The image with every fixable finding repaired, and what was done; only call
    it when every error is fixable.  What it repairs (nothing that loses a byte of a
    readable file):

    * the BAM, rebuilt from the chains of all files and the directory, as the drive's
      VALIDATE does (blocks marked used that no file uses become free);
    * a directory chain that loops or leaves the disk is cut where it does (every
      entry the drive can reach stays);
    * the header's link to the directory, the end mark of the last directory block,
      the DOS version byte, the 1581's BAM block links, ids and format bytes;
    * the block counts in directory entries.
    """
    disk = report.disk
    image = bytearray(report.image)
    done: list[str] = []
    header = report.header_offset
    if (image[header], image[header + 1]) != (disk.dir_track, disk.dir_sector):
        image[header : header + 2] = bytes((disk.dir_track, disk.dir_sector))
        done.append(f"linked {disk.header[0]}/{disk.header[1]} to the directory")
    if image[header + disk.version_offset] != disk.dos_version:
        image[header + disk.version_offset] = disk.dos_version
        done.append(f"set the DOS version byte to '{chr(disk.dos_version)}'")
    if disk is D81:
        disk_id = bytes(image[header + disk.id_offset : header + disk.id_offset + 2])
        for number, block in enumerate(disk.bam_blocks):
            offset = disk.block_offset(*block)
            wanted = bytes((40, 2) if number == 0 else (0, 0xFF)) + bytes((0x44, 0xBB)) + disk_id
            if image[offset : offset + 6] != wanted:
                image[offset : offset + 6] = wanted
                done.append(f"set the link, format bytes and id of BAM block {block[0]}/{block[1]}")
    last = disk.block_offset(*report.directory[-1])
    if (image[last], image[last + 1]) != (0, 0xFF):
        image[last : last + 2] = b"\x00\xff"
        done.append(f"ended the directory at {report.directory[-1][0]}/{report.directory[-1][1]}")
    for entry in report.files:
        if entry.file_type in ("DEL", "CBM") or (entry.unreadable and not entry.chain):
            continue
        used = len(entry.chain) + len(entry.side_sectors)
        if used != entry.blocks_in_entry:
            image[entry.entry_offset + 0x1E : entry.entry_offset + 0x20] = used.to_bytes(2, "little")
            done.append(f"set the block count of {entry.label} to {used} (was {entry.blocks_in_entry})")
    freed = allocated = 0
    for track in range(1, disk.tracks + 1):
        before = report.free_sectors(track)
        free = {s for s in range(disk.sectors[track - 1]) if (track, s) not in report.owners}
        freed += len(free - before)
        allocated += len(before - free)
        disk.write_bam_entry(image, track, free)
    if freed or allocated or any("BAM counts" in p.message or "BAM marks" in p.message
                                 for p in report.problems):
        done.append(f"rebuilt the BAM from the chains: {counted(allocated, 'block')} in use marked used, "
                    f"{counted(freed, 'block')} that no file uses marked free")
    return bytes(image), done
