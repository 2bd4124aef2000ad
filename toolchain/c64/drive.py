"""A disk drive on the serial bus, at the level of its DOS: what a 1541 answers to the
KERNAL's LISTEN, TALK, OPEN, CLOSE, data bytes and commands, carried out on a disk image
held in memory (as VICE's virtual device traps do, not a 1541's CPU running its ROM).

:class:`SerialBus` is the C64's end of the bus: the KERNAL's serial routines (LISTEN,
TALK, SECOND, TKSA, CIOUT, ACPTR, UNLSN, UNTLK) call it, and it answers with the status
bits the KERNAL puts into ST ($90): $80 when no device answers, $40 with the last byte
(EOI), $42 when the talker has nothing to send (a read time-out: the KERNAL then hands
out what it read from CIA 2, usually $C7).  :class:`Drive` is the device: 16 channels
(secondary addresses), the error channel 15 with the DOS's messages, the commands, the
directory as the program ``LOAD"$",8`` loads, files read and written block by block in
the image's bytes, allocated as the 1541 allocates them; with no disk in it, the
answers of an empty 1541.  :class:`Printer` is a printer on device 4 that keeps what
it is sent.  What is on the bus is VICE's default C64's unless asked otherwise: an
empty 1541 on device 8, no printer (``c64tc run --disk``, ``--printer``, ``--no-drive``).

The facts are the 1541's (DOS 2.6), measured on VICE 3.10 with true drive emulation
(tests/data/drive) or read from its ROM where noted; a D71 or D81 image is served with
the same DOS and that disk's geometry (their DOS versions differ in details not
modelled).  What the DOS could do but this model cannot (run code in the drive: M-E,
U3-U8, B-E; read or write drive memory: M-R, M-W; relative files) raises
:class:`DriveUnsupported`, so a run stops with a message instead of going wrong quietly.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from toolchain.diagnostics import Diagnostic, UserError
from toolchain.disk import check
from toolchain.disk.chains import (
    CLOSED,
    DATA_BYTES,
    ENTRY_SIZE,
    LOCKED,
    NAME_LENGTH,
    PADDING,
    Block,
    Chain,
    Entry,
    chain_data,
    entries,
    follow,
    read_entry,
    write_entry,
)
from toolchain.disk.formats import BLOCK, D64, DiskFormat, empty_image, format_for_size
from toolchain.disk.names import Pattern, type_for_letter
from toolchain.disk.tape import is_tape
from toolchain.fileio import output_target, write_atomic

__all__ = ["AttachedImage", "Drive", "DriveUnsupported", "Printer", "SerialBus", "error_message"]

RETURN = 0x0D
COMMAND_CHANNEL = 15
DATA_CHANNELS = 3  # files a 1541 keeps open at once besides the command channel (measured: 70, NO CHANNEL)
BUFFERS = 4  # the 1541's buffers for channels, 0-3 (4 holds the BAM)

# The serial bus's status bits, as the KERNAL sets them in ST
DEVICE_NOT_PRESENT, END_OF_FILE, READ_TIMEOUT = 0x80, 0x40, 0x02

# Directory entry types (the low bits of the type byte); $80 closed, $40 locked
DEL, SEQ, PRG, USR, REL = range(5)
# OPEN's type letters (",S" ...; its table at $FEB6: D S P U L); a pattern's "=S" has its own
# (toolchain.disk.names: the listing's D S P U R)
TYPE_LETTERS = {ord("S"): SEQ, ord("P"): PRG, ord("U"): USR, ord("L"): REL, ord("D"): DEL}

# The 1541's messages (its table at $E4FC, decoded: the words it abbreviates, FILE, NOT,
# ERROR ..., are sent with a space in front, so some messages begin with one).
ERROR_TEXTS = {
    0: " OK", 1: " FILES SCRATCHED", 20: "READ ERROR", 21: "READ ERROR", 22: "READ ERROR",
    23: "READ ERROR", 24: "READ ERROR", 27: "READ ERROR", 25: " WRITE ERROR", 28: " WRITE ERROR",
    26: " WRITE PROTECT ON", 29: " DISK ID MISMATCH", 30: "SYNTAX ERROR", 31: "SYNTAX ERROR",
    32: "SYNTAX ERROR", 33: "SYNTAX ERROR", 34: "SYNTAX ERROR", 39: " FILE NOT FOUND",
    50: " RECORD NOT PRESENT", 51: "OVERFLOW IN RECORD", 52: " FILE TOO LARGE", 60: " WRITE FILE OPEN",
    61: " FILE NOT OPEN", 62: " FILE NOT FOUND", 63: " FILE EXISTS", 64: " FILE TYPE MISMATCH",
    65: "NO BLOCK", 66: "ILLEGAL TRACK OR SECTOR", 67: "ILLEGAL TRACK OR SECTOR", 70: "NO CHANNEL",
    71: "DIR ERROR", 72: " DISK FULL", 74: "DRIVE NOT READY",
}  # fmt: skip
OK, SCRATCHED = 0, 1
SYNTAX, INVALID_COMMAND, LINE_TOO_LONG, INVALID_NAME, NO_NAME = 30, 31, 32, 33, 34
READ_ERROR = 21  # no sync mark found: what a 1541 without a disk answers when it reads
WRITE_FILE_OPEN, FILE_NOT_OPEN, FILE_NOT_FOUND, FILE_EXISTS, TYPE_MISMATCH = 60, 61, 62, 63, 64
NO_FILE = 39  # a file the & command would run
NO_BLOCK, ILLEGAL_BLOCK, NO_CHANNEL, DISK_FULL, DOS_VERSION, NOT_READY = 65, 66, 70, 72, 73, 74
# The power-on message of each drive (the 1541's is measured; the others are their DOS's own)
VERSIONS = {"d64": "CBM DOS V2.6 1541", "d64-40": "CBM DOS V2.6 1541", "d71": "CBM DOS V3.0 1571",
            "d81": "COPYRIGHT CBM DOS V10 1581"}
INTERLEAVE = {"d64": 10, "d64-40": 10, "d71": 6, "d81": 1}  # between a file's blocks
DIRECTORY_INTERLEAVE = {"d64": 3, "d64-40": 3, "d71": 3, "d81": 1}
LONGEST_COMMAND = 58  # the 1541's command buffer: a longer command is 32, SYNTAX ERROR


def error_message(code: int, track: int = 0, sector: int = 0, version: str = VERSIONS["d64"]) -> bytes:
    """The error channel's line: ``62, FILE NOT FOUND,00,00`` and RETURN."""
    text = version if code == DOS_VERSION else ERROR_TEXTS.get(code, "")
    # two digits each: the DOS's conversion keeps the last two (measured: sector 255 shows as 55)
    return f"{code:02d},{text},{track % 100:02d},{sector % 100:02d}\r".encode("ascii")


class DosError(Exception):
    """A DOS error: the number, and the track and sector the message names."""

    def __init__(self, code: int, track: int = 0, sector: int = 0) -> None:
        super().__init__(code)
        self.code, self.track, self.sector = code, track, sector


class DriveUnsupported(Exception):
    """The program asks the drive for something this model does not do (the message says
    what); the run stops there."""


# -- the disk ------------------------------------------------------------------------------------

class Disk:
    """A disk image's bytes with the DOS's bookkeeping: the BAM, the directory, chains."""

    def __init__(self, image: bytes, disk: DiskFormat) -> None:
        self.image = bytearray(image[: disk.size])
        self.errors = bytes(image[disk.size :])  # error info after the blocks, kept as it was
        self.format = disk
        self.interleave = INTERLEAVE.get(disk.name, 10)
        self.directory_interleave = DIRECTORY_INTERLEAVE.get(disk.name, 3)

    def to_bytes(self) -> bytes:
        return bytes(self.image) + self.errors

    def offset(self, block: Block) -> int:
        if not self.format.valid(*block):
            raise DosError(ILLEGAL_BLOCK, *block)
        return self.format.block_offset(*block)

    def read_block(self, block: Block) -> bytes:
        start = self.offset(block)
        return bytes(self.image[start : start + BLOCK])

    def write_block(self, block: Block, data: bytes) -> None:
        start = self.offset(block)
        self.image[start : start + len(data)] = data

    # -- the BAM ---------------------------------------------------------------------------------
    def _bam(self, track: int) -> tuple[int, list[int]]:
        return self.format.bam_entry_places(self.image, track)

    def is_free(self, block: Block) -> bool:
        track, sector = block
        _, places = self._bam(track)
        return bool(self.image[places[sector >> 3]] >> (sector & 7) & 1)

    def allocate(self, block: Block) -> bool:
        """Mark ``block`` used; False if it was used already."""
        if not self.is_free(block):
            return False
        track, sector = block
        count, places = self._bam(track)
        self.image[places[sector >> 3]] &= ~(1 << (sector & 7)) & 0xFF
        self.image[count] = max(0, self.image[count] - 1)
        return True

    def free(self, block: Block) -> None:
        if self.is_free(block):
            return
        track, sector = block
        count, places = self._bam(track)
        self.image[places[sector >> 3]] |= 1 << (sector & 7)
        self.image[count] += 1

    def blocks_free(self) -> int:
        """BLOCKS FREE as the directory shows it (the directory track's do not count)."""
        return sum(self.image[self._bam(track)[0]] for track in range(1, self.format.tracks + 1)
                   if self.format.counts_free(track))

    def _free_on_track(self, track: int, sector: int) -> int | None:
        """The first free sector of ``track`` from ``sector`` on (wrapping), allocated."""
        sectors = self.format.sectors[track - 1]
        for step in range(sectors):
            candidate = (sector + step) % sectors
            if self.allocate((track, candidate)):
                return candidate
        return None

    def _after_interleave(self, track: int, sector: int, interleave: int) -> int:
        """Where the 1541 looks next on a track: ``interleave`` sectors on, one less after
        wrapping past the last sector."""
        sectors = self.format.sectors[track - 1]
        following = sector + interleave
        if following >= sectors:
            following -= sectors
            if following:
                following -= 1
        return following

    def allocate_first(self) -> Block:
        """The first block of a new file: the tracks nearest the directory, one below and
        one above it in turn, each from its sector 0 (the 1541's search, as VICE's
        vdrive-bam.c follows it)."""
        directory = self.format.dir_track
        for distance in range(1, self.format.tracks):
            for track in (directory - distance, directory + distance):
                if 1 <= track <= self.format.tracks:
                    sector = self._free_on_track(track, 0)
                    if sector is not None:
                        return track, sector
        raise DosError(DISK_FULL)

    def allocate_next(self, block: Block) -> Block:
        """The block after ``block`` in a file: on the same track ``interleave`` sectors on,
        else outwards from the directory track, then on the other half of the disk."""
        track, sector = block
        directory = self.format.dir_track
        following = self._after_interleave(track, sector, self.interleave)
        found = self._free_on_track(track, following)
        if found is not None:
            return track, found
        for _ in range(3):
            step = -1 if track < directory else 1
            while 1 <= track <= self.format.tracks:
                if track != directory:
                    found = self._free_on_track(track, self._after_interleave(track, sector, self.interleave))
                    if found is not None:
                        return track, found
                track += step
            track = directory + 1 if step < 0 else directory - 1
            sector = 0
        raise DosError(DISK_FULL)

    # -- the directory -----------------------------------------------------------------------------
    def directory_blocks(self) -> list[Block]:
        """The directory's chain of blocks as far as it goes (255 at the most)."""
        return follow(self.format, self.image, (self.format.dir_track, self.format.dir_sector)).blocks[:255]

    def entries(self) -> Iterator[Entry]:
        """Every slot of the directory, used or not, in order."""
        return entries(self.format, self.image, self.directory_blocks())

    def files(self) -> list[Entry]:
        return [entry for entry in self.entries() if entry.type_byte]

    def find(self, pattern: Pattern) -> Entry | None:
        return next((entry for entry in self.files() if pattern.matches(entry.name, entry.type_name)), None)

    def new_entry(self) -> Entry:
        """A free directory slot (the first), or a new directory block on the directory
        track (three sectors on from the last, as the 1541 chains its directory)."""
        last: Block | None = None
        for entry in self.entries():
            if entry.type_byte == 0:
                return entry
            last = entry.block
        assert last is not None
        track = self.format.dir_track
        sector = self._free_on_track(track, self._after_interleave(track, last[1], self.directory_interleave))
        if sector is None:
            raise DosError(DISK_FULL)
        new = (track, sector)
        self.write_block(new, bytes([0, 0xFF]) + bytes(DATA_BYTES))
        self.write_block(last, bytes(new))
        return read_entry(self.format, self.image, new, 0)

    def write_entry(self, entry: Entry) -> None:
        write_entry(self.image, entry)

    # -- files -------------------------------------------------------------------------------------
    def chain(self, start: Block) -> Chain:
        """A file's chain of blocks; one that leaves the disk or loops is 66, ILLEGAL
        TRACK OR SECTOR at the link that does."""
        chain = follow(self.format, self.image, start)
        if not chain.intact:
            raise DosError(ILLEGAL_BLOCK, *chain.link)
        return chain

    def read_file(self, start: Block) -> bytes:
        """A file's bytes: the data bytes of its blocks, of the last as many as its size
        byte says; a broken chain is 66 (see :meth:`chain`)."""
        chain = self.chain(start)
        return chain_data(self.format, self.image, chain.blocks, chain.last_bytes)

    def free_chain(self, start: Block) -> None:
        # a broken chain: its blocks up to the break are freed, as far as the DOS gets
        for block in follow(self.format, self.image, start).blocks:
            self.free(block)

    def header_name(self) -> bytes:
        header = self.format.block_offset(*self.format.header)
        return bytes(self.image[header + self.format.name_offset : header + self.format.name_offset + 16])

    def header_id(self) -> bytes:
        """The five bytes after the name the directory shows: id, $A0, DOS version and type."""
        header = self.format.block_offset(*self.format.header)
        return bytes(self.image[header + self.format.id_offset : header + self.format.id_offset + 5])


# -- names and patterns ---------------------------------------------------------------------------

def _split_drive(text: bytes) -> tuple[int | None, bytes]:
    """``0:NAME`` -> drive 0, NAME; the character before the colon is the drive number
    (None when there is none: the drive used last)."""
    colon = text.find(b":")
    if colon < 0:
        return None, text
    return _drive_number(text[:colon]), text[colon + 1 :]


def _drive_number(before_colon: bytes) -> int | None:
    """The digit before the colon names the drive by its lowest bit (measured: S2:X is
    drive 0, S1:X drive 1)."""
    return before_colon[-1] & 1 if before_colon[-1:].isdigit() else None


@dataclass
class FileSets:
    """A command's file names as the DOS parses them: those before ``=``, those after
    (None without ``=``), and the drive number before the colon."""

    left: list[bytes]
    right: list[bytes] | None
    drive: int | None


# Which file sets each command refuses (the DOS's table at $FEAD, one bit per feature of
# the command's "image" the parser at $C1EE builds): bit 7 a pattern before "=", 6 more
# than one name before it, 3 a pattern after it, 2 more than one name after it, 1 an
# "=", 0 no "="; a refused feature is 30, SYNTAX ERROR.
REFUSED = {b"C": 0x51, b"R": 0xDD, b"S": 0x1C, b"N": 0x9E}
COPY_REFUSES = 0xD9  # copy's own check ($C928): patterns on either side, several new names, no "="


def parse_file_sets(text: bytes) -> FileSets:
    """The names of C, R, S and N as the 1541's parser takes them apart: 34 without a
    colon or with a comma before it (C without a colon is 31: the DOS takes it for D,
    duplicate, which the 1541 does not have), 30 for what the command refuses."""
    letter = text[:1]
    colon = text.find(b":")
    if colon < 0:
        raise DosError(INVALID_COMMAND if letter == b"C" else NO_NAME)
    if b"," in text[:colon]:
        raise DosError(NO_NAME)
    before, equals, after = text[colon + 1 :].partition(b"=")
    left = before.split(b",")
    image = 0x20  # the parser counts wildcards from the command's first character on
    image |= 0x80 if b"*" in text[: colon + 1 + len(before)] or b"?" in text[: colon + 1 + len(before)] else 0
    image |= 0x40 if len(left) > 1 else 0
    right = after.split(b",") if equals else None
    if right is None:
        image |= 0x01
    else:
        image |= 0x02 | (0x04 if len(right) > 1 else 0) | (0x08 if b"*" in after or b"?" in after else 0)
    if image & REFUSED[letter] or (letter == b"C" and image & COPY_REFUSES):
        raise DosError(SYNTAX)
    return FileSets(left, right, _drive_number(text[:colon]))


@dataclass
class OpenRequest:
    name: bytes
    replace: bool
    drive: int | None  # None: not given
    file_type: int | None
    mode: str  # R W A M


def parse_open(text: bytes, channel: int) -> OpenRequest:
    """An OPEN's name as the 1541 takes it apart: ``[@][0:]NAME[,TYPE][,MODE]``; on
    channel 0 a file is read and on channel 1 written, whatever the mode says
    (measured: OPEN 2,8,0,"X,S,W" reads X), PRG unless a type is given."""
    replace = text.startswith(b"@")
    if replace:
        text = text[1:]
    drive, rest = _split_drive(text)
    parts = rest.split(b",")
    # measured: OPEN 2,8,2,",S,W" writes a file named ","
    name = b"," if not parts[0] and len(parts) > 1 else parts[0][:NAME_LENGTH]
    file_type: int | None = PRG if channel < 2 else None
    mode = "W" if channel == 1 else "R"
    for part in parts[1:]:
        letter = part[:1].upper()
        if not letter:
            continue
        code = letter[0]
        if code in (ord("R"), ord("W"), ord("A"), ord("M")):
            mode = chr(code)
        elif code in TYPE_LETTERS:
            file_type = TYPE_LETTERS[code]
    if channel < 2:
        mode = "RW"[channel]
    return OpenRequest(name, replace, drive, file_type, mode)


# -- channels ------------------------------------------------------------------------------------

class Channel:
    """One secondary address's state."""

    def read(self) -> tuple[int, bool] | None:
        """The next byte and whether it is the last (EOI); None: nothing to send."""
        return None

    def write(self, byte: int) -> bool:
        """Take a byte; False: the drive does not listen on this channel."""
        return False

    def close(self) -> None:
        pass

    @property
    def buffers(self) -> int:
        return 1


class ReadChannel(Channel):
    """A file (or the directory) being read: its bytes, EOI with the last."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.position = 0

    def read(self) -> tuple[int, bool] | None:
        if self.position >= len(self.data):
            return None
        byte = self.data[self.position]
        self.position += 1
        return byte, self.position == len(self.data)


def stream_of(data: bytes) -> bytes:
    """The bytes the 1541 sends for a file's data.  A file of one block that holds one
    byte comes out as that byte, the block's link (0, 2) and the byte again (measured:
    the DOS's first fetch at OPEN does not see that it is the last byte)."""
    if len(data) == 1:
        return data + bytes([0, 2]) + data
    return data


class WriteChannel(Channel):
    """A file being written: full blocks go to the disk as the next byte arrives; CLOSE
    writes the last one and closes the directory entry."""

    def __init__(self, disk: Disk, entry: Entry, start: Block, replacing: Block | None,
                 blocks: list[Block] | None = None, buffer: bytes = b"") -> None:
        self.disk = disk
        self.entry = entry
        self.blocks = blocks or [start]
        self.buffer = bytearray(buffer)
        self.replacing = replacing  # an @: replace frees the old chain at CLOSE
        self.closed = False
        self.orphaned = False  # V deleted the file while it was open: what follows goes nowhere
        # appending, the 1541 counts the file's blocks as it follows its chain, and its
        # last block again (measured: a one-block file with a line appended is listed with
        # 2 blocks, and still with 2 after a second line appended)
        self.counted = 1 if blocks else 0

    def write(self, byte: int) -> bool:
        if self.orphaned:
            return True
        if len(self.buffer) == DATA_BYTES:
            following = self.disk.allocate_next(self.blocks[-1])
            self.disk.write_block(self.blocks[-1], bytes(following) + bytes(self.buffer))
            self.blocks.append(following)
            self.buffer.clear()
        self.buffer.append(byte)
        return True

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self.orphaned:
            return
        if not self.buffer and len(self.blocks) == 1:
            self.buffer.append(RETURN)  # measured: an empty file holds one RETURN
        self.disk.write_block(self.blocks[-1], bytes([0, len(self.buffer) + 1]) + bytes(self.buffer))
        entry = self.entry
        if self.replacing is not None:
            self.disk.free_chain(self.replacing)
        entry.start = self.blocks[0]
        entry.blocks = self.counted + len(self.blocks)
        entry.type_byte = (entry.type_byte & 0x47) | CLOSED
        self.disk.write_entry(entry)


class BufferChannel(Channel):
    """A direct-access channel (OPEN n,8,ch,"#"): a 256-byte buffer and its pointer, for
    the block commands U1/U2, B-R/B-W, B-P.  Measured: the first byte read after OPEN is
    the buffer's number (``number``), and the pointer starts at 1 (what PRINT# writes
    goes there).  What a buffer holds before a block is read into it is whatever the
    drive's memory held (c64tc: zeros)."""

    def __init__(self, number: int | None = None) -> None:
        self.number = number
        self.buffer = bytearray(BLOCK)
        self.pointer = 1
        self.last = BLOCK - 1  # the byte sent with EOI
        self.first = number  # sent before the buffer's bytes, until the pointer is set

    def read(self) -> tuple[int, bool] | None:
        if self.first is not None:
            first, self.first = self.first, None
            return first, False
        byte = self.buffer[self.pointer]
        last = self.pointer == self.last
        self.pointer = 0 if last else (self.pointer + 1) & 0xFF
        return byte, last

    def write(self, byte: int) -> bool:
        self.buffer[self.pointer] = byte
        self.pointer = (self.pointer + 1) & 0xFF
        return True

    def point(self, pointer: int, last: int = BLOCK - 1) -> None:
        self.pointer, self.last, self.first = pointer, last, None


# -- the drive -----------------------------------------------------------------------------------

class Drive:
    """A drive with a disk image in memory (``image``: the bytes of a D64, D71 or D81
    file), or a 1541 with no disk in it (``image`` None: VICE's default C64 has one on
    device 8).  The DOS changes the image in memory only; :meth:`image_bytes` gives it
    back, and the caller decides whether to save it."""

    def __init__(self, image: bytes | None = None, name: str = "disk", device: int = 8) -> None:
        self.empty = image is None  # no disk in the drive
        if image is None:
            image = bytes(D64.size)  # never read: every DOS routine that needs the disk asks self.empty first
        disk_format = format_for_size(len(image))
        if disk_format is None:
            raise ValueError(f"{name}: not a disk image ({len(image)} bytes)")
        self.name = name
        self.device = device
        self.disk = Disk(image, disk_format)
        self.channels: dict[int, Channel] = {}
        self.version = VERSIONS.get(disk_format.name, VERSIONS["d64"])
        self.command = bytearray()
        self.last_file: bytes | None = None  # what LOAD"*" loads again
        self.changed = False
        self.power_on()

    def power_on(self) -> None:
        """As after switching the drive on: no channel open, the DOS's version in the
        error channel."""
        self.channels.clear()
        self.command.clear()
        self.last_file = None
        self.drive_number = 0
        self.opened_without_disk = False  # see _open_without_disk
        self.held_buffer: int | None = None  # see _open_buffer
        self._set_error(DOS_VERSION)

    def image_bytes(self) -> bytes:
        return self.disk.to_bytes()

    # -- the error channel ---------------------------------------------------------------------
    def _set_error(self, code: int, track: int = 0, sector: int = 0) -> None:
        self.status = error_message(code, track, sector, self.version)
        self.status_position = 0

    def _ok(self) -> None:
        self._set_error(OK)

    def status_text(self) -> str:
        """The error channel's message as it would be read now (without the RETURN)."""
        return self.status[:-1].decode("ascii")

    def _read_status(self) -> tuple[int, bool]:
        byte = self.status[self.status_position]
        self.status_position += 1
        last = self.status_position == len(self.status)
        if last:  # read to its end: the next reading says OK
            self._ok()
        return byte, last

    # -- what the bus asks -----------------------------------------------------------------------
    def open(self, channel: int, name: bytes) -> None:
        """LISTEN, SECOND $F0+channel, the name, UNLISTEN."""
        channel &= 15
        try:
            if channel == COMMAND_CHANNEL:
                if name:
                    self._command(name)
                return
            self._close_channel(channel)
            self.channels[channel] = self._open_without_disk(channel, name) if self.empty \
                else self._open(channel, name)
            self._ok()
        except DosError as error:
            self._set_error(error.code, error.track, error.sector)

    def close(self, channel: int) -> None:
        """LISTEN, SECOND $E0+channel, UNLISTEN.  Closing the command channel closes
        every file (the 1541's CLOSE of channel 15)."""
        channel &= 15
        try:
            if channel == COMMAND_CHANNEL:
                for number in list(self.channels):
                    self._close_channel(number)
                return
            self._close_channel(channel)
        except DosError as error:
            self._set_error(error.code, error.track, error.sector)

    def talk_byte(self, channel: int) -> tuple[int, bool] | None:
        """A byte TALKed on ``channel`` and whether it is the last; None: nothing to send."""
        channel &= 15
        if channel == COMMAND_CHANNEL:
            return self._read_status()
        found = self.channels.get(channel)
        return None if found is None else found.read()

    def listen_byte(self, channel: int | None, byte: int) -> bool:
        """A data byte to ``channel`` (None: the drive was never addressed on a channel:
        it takes the byte and drops it); False when the drive does not take it (no file
        open for writing there: the KERNAL sees nobody answer)."""
        if channel is None:
            return True
        channel &= 15
        if channel == COMMAND_CHANNEL:
            self.command.append(byte)
            return True
        found = self.channels.get(channel)
        if found is None:
            return False
        try:
            return found.write(byte)
        except DosError as error:
            self._set_error(error.code, error.track, error.sector)
            return True

    def unlisten(self, channel: int) -> None:
        """The end of data sent to ``channel``: a command on the command channel runs."""
        if channel & 15 == COMMAND_CHANNEL and self.command:
            command = bytes(self.command)
            self.command.clear()
            self._command(command)

    # -- files -------------------------------------------------------------------------------------
    def _close_channel(self, channel: int) -> None:
        found = self.channels.pop(channel, None)
        if found is not None:
            found.close()
            if isinstance(found, WriteChannel):
                self.changed = True

    def _open(self, channel: int, name: bytes) -> Channel:
        if not name:
            raise DosError(NO_NAME)
        if name.startswith(b"#"):
            return self._open_buffer(name)
        full = sum(found.buffers for found in self.channels.values()) >= DATA_CHANNELS
        request = parse_open(name, channel)
        if full and not (request.mode == "W" and not name.startswith(b"$")):
            raise DosError(NO_CHANNEL)
        if name.startswith(b"$"):
            return self._open_directory(channel, name)
        self._use_drive(request.drive)
        if not request.name:
            raise DosError(NO_NAME)
        if request.file_type == REL:
            raise DriveUnsupported(f"relative (REL) files: the program opens \"{_shown(request.name)},L\", "
                                   "which c64tc's drive does not model")
        if request.mode == "W":
            return self._open_write(request, full)
        if request.mode == "A":
            return self._open_append(request)
        return self._open_read(request, channel)

    def _open_without_disk(self, channel: int, name: bytes) -> Channel:
        """OPEN with no disk in the drive (measured on VICE with true drive emulation,
        tests/data/drive/empty-drive): a buffer ("#") opens; the directory ("$") as a
        file on a data channel is 21, READ ERROR at 18/0 (the 1541 tries to read the
        block), LOAD"$" 74, DRIVE NOT READY; a file in any mode is 74, at 00/00 the
        first time, at 18/00 once a data channel has been opened since the drive was
        reset (the DOS's last track, the directory's, left in the message)."""
        if name.startswith(b"#"):
            self.opened_without_disk = True
            return self._open_buffer(name)
        if name.startswith(b"$"):
            raise DosError(NOT_READY) if channel == 0 else DosError(READ_ERROR, self.disk.format.dir_track, 0)
        if channel < 2:  # LOAD and SAVE
            raise DosError(NOT_READY)
        track = self.disk.format.dir_track if self.opened_without_disk else 0
        self.opened_without_disk = True
        raise DosError(NOT_READY, track, 0)

    def _open_read(self, request: OpenRequest, channel: int) -> Channel:
        pattern = Pattern(request.name)
        entry = None
        if request.name == b"*" and self.last_file is not None:
            entry = self.disk.find(Pattern(self.last_file))
        if entry is None:
            entry = self.disk.find(pattern)
        if entry is None:
            raise DosError(FILE_NOT_FOUND)
        if request.file_type is not None and entry.file_type != request.file_type:
            raise DosError(TYPE_MISMATCH)
        if not entry.closed and request.mode != "M":
            raise DosError(WRITE_FILE_OPEN)
        if entry.file_type == REL:
            raise DriveUnsupported(f"relative (REL) files: the program reads \"{_shown(entry.name)}\", a REL "
                                   "file, which c64tc's drive does not model")
        data = self.disk.read_file(entry.start)
        if channel == 0:
            self.last_file = entry.dos_name  # what LOAD"*" loads again (measured: OPENs do not count)
        self._searched_directory()
        return ReadChannel(stream_of(data))

    def _searched_directory(self) -> None:
        """The DOS keeps the buffer it searched the directory with (measured: after a file
        was read or written, OPEN "#" gives buffers 2, 1, 0 and then 3)."""
        used = {found.number for found in self.channels.values() if isinstance(found, BufferChannel)}
        self.held_buffer = next((number for number in reversed(range(BUFFERS)) if number not in used), None)

    def _check_new_name(self, name: bytes) -> None:
        if Pattern(name).has_wildcards or b"=" in name:
            raise DosError(INVALID_NAME)

    def _open_write(self, request: OpenRequest, full: bool = False) -> Channel:
        self._check_new_name(request.name)
        existing = self.disk.find(Pattern(request.name))
        file_type = SEQ if request.file_type is None else request.file_type
        if existing is not None and not request.replace:
            raise DosError(FILE_EXISTS)
        if existing is not None and existing.file_type != file_type:
            raise DosError(TYPE_MISMATCH)  # measured: SAVE"@0:X" over a SEQ file X is 64
        start = self.disk.allocate_first()
        if full:  # measured: the 1541 has taken the file's first block when it finds no buffer
            self.changed = True
            raise DosError(NO_CHANNEL)
        if existing is not None:
            # @: the new data goes into new blocks; CLOSE frees the old ones and points
            # the entry (in its place in the directory) at the new chain
            existing.type_byte = (existing.type_byte & (CLOSED | LOCKED)) | 0x20 | file_type
            self.disk.write_entry(existing)
            channel = WriteChannel(self.disk, existing, start, existing.start)
        else:
            entry = self.disk.new_entry()
            entry.type_byte, entry.start, entry.name, entry.blocks = file_type, start, request.name, 0
            self.disk.write_entry(entry)
            channel = WriteChannel(self.disk, entry, start, None)
        self.changed = True
        self._searched_directory()
        return channel

    def _open_append(self, request: OpenRequest) -> Channel:
        """,A: the file found (a pattern finds the first match, measured), written on at
        its end."""
        entry = self.disk.find(Pattern(request.name))
        if entry is None:
            raise DosError(FILE_NOT_FOUND)
        if request.file_type is not None and entry.file_type != request.file_type:
            raise DosError(TYPE_MISMATCH)
        chain = self.disk.chain(entry.start)
        last = chain_data(self.disk.format, self.disk.image, [chain.last_block], chain.last_bytes)
        entry.type_byte &= ~CLOSED & 0xFF
        self.disk.write_entry(entry)
        self.changed = True
        self._searched_directory()
        return WriteChannel(self.disk, entry, chain.blocks[0], None, chain.blocks, last)

    def _open_buffer(self, name: bytes) -> Channel:
        """``#``: a free buffer, the highest numbered first; ``#N``: buffer N (0-3; 4
        holds the BAM: measured, #4 and #5 are 70, NO CHANNEL)."""
        if sum(found.buffers for found in self.channels.values()) >= DATA_CHANNELS + 1:
            raise DosError(NO_CHANNEL)
        used = {found.number for found in self.channels.values() if isinstance(found, BufferChannel)}
        if name[1:2].isdigit():
            number = name[1] - 0x30
            if number >= BUFFERS or number in used:
                raise DosError(NO_CHANNEL)
        else:
            free = [number for number in reversed(range(BUFFERS)) if number not in used]
            if not free:
                raise DosError(NO_CHANNEL)
            # measured: after the DOS has searched the directory for a file, it keeps the
            # buffer of that search (3) until no other is free
            others = [number for number in free if number != self.held_buffer]
            number = (others or free)[0]
        if number == self.held_buffer:
            self.held_buffer = None
        return BufferChannel(number)

    def _open_directory(self, channel: int, name: bytes) -> Channel:
        """``$``: on channel 0 the directory as a BASIC program (what LOAD"$",8 loads); on
        any other channel the directory track's blocks as a file (measured: the header
        block and the directory blocks, 254 bytes of each)."""
        if channel != 0:
            return ReadChannel(self.disk.read_file(self.disk.format.header))
        rest = name[1:]
        drive = None
        if rest[:1] in (b"0", b"1"):
            drive, rest = rest[0] - 0x30, rest[1:]
        self._use_drive(drive)
        patterns: list[Pattern] = []
        wanted_type: str | None = None
        if rest.startswith(b":"):
            body, _, types = rest[1:].partition(b"=")
            patterns = [Pattern(part) for part in body.split(b",") if part]
            wanted_type = type_for_letter(types[:1])
            if not patterns and not body:
                patterns = [] if types else [Pattern(b"")]
        return ReadChannel(self.directory_listing(patterns, wanted_type))

    def directory_listing(self, patterns: list[Pattern] | None = None, file_type: str | None = None) -> bytes:
        """The directory as the drive sends it for ``LOAD"$",8``: a BASIC program at
        $0401 whose lines are the header, the files (blocks as the line number, 32 bytes
        a line) and BLOCKS FREE."""
        disk = self.disk
        out = bytearray([0x01, 0x04, 0x01, 0x01, 0x00, 0x00, 0x12, 0x22])
        out += _no_padding(disk.header_name()) + b'" ' + _no_padding(disk.header_id()) + b"\x00"
        for entry in disk.files():
            if patterns and not any(pattern.matches(entry.name) for pattern in patterns):
                continue
            if file_type is not None and entry.type_name != file_type:
                continue
            line = bytearray(b"\x20" * 27 + b"\x00")
            blocks = entry.blocks
            position = 1 + (blocks < 10) + (blocks < 100)
            line[position] = 0x22
            start = self.disk.format.block_offset(*entry.block) + entry.slot * ENTRY_SIZE + 5
            raw = bytes(disk.image[start : start + NAME_LENGTH])
            line[position + 1 : position + 17] = _no_padding(raw)
            line[position + 1 + len(entry.dos_name)] = 0x22
            line[position + 18] = 0x20 if entry.closed else 0x2A
            line[position + 19 : position + 22] = entry.type_name.encode("ascii")
            line[position + 22] = 0x3C if entry.locked else 0x20
            out += bytes([0x01, 0x01, blocks & 0xFF, blocks >> 8]) + line[:27] + b"\x00"
        free = disk.blocks_free()
        out += bytes([0x01, 0x01, free & 0xFF, free >> 8]) + b"BLOCKS FREE." + b"\x20" * 13 + b"\x00\x00\x00"
        return bytes(out)

    # -- commands ----------------------------------------------------------------------------------
    def _command(self, text: bytes) -> None:
        """A command sent to channel 15 (or as the name of OPEN 15)."""
        if text.endswith(b"\r"):
            text = text[:-1]
        try:
            if len(text) > LONGEST_COMMAND:
                raise DosError(LINE_TOO_LONG)
            self._run_command(text)
        except DosError as error:
            self._set_error(error.code, error.track, error.sector)

    def _run_command(self, text: bytes) -> None:
        letter = text[:1]
        if letter in (b"I", b"V"):
            if text[1:2].isdigit() and text[1] & 1:  # measured: V1 and I1 are 74 at 18/00
                raise DosError(NOT_READY, self.disk.format.dir_track, 0)
            if self.empty:
                return self._without_disk(text)
            if letter == b"I":
                self.last_file = None
                return self._ok()
            return self._validate()
        if letter in (b"N", b"S", b"R", b"C"):
            files = parse_file_sets(text)
            if files.drive:
                raise DosError(NOT_READY)
            if self.empty:
                return self._without_disk(text)
            command = {b"N": self._new, b"S": self._scratch, b"R": self._rename, b"C": self._copy}[letter]
            return command(files)
        if letter == b"&":
            return self._utility(text)
        if letter == b"U":
            return self._user(text)
        if letter == b"B":
            return self._block(text)
        if letter == b"M":
            raise DriveUnsupported(f"the drive command {_shown(text[:3])} (the drive's memory or its 6502): "
                                   "c64tc's drive is its DOS, not a 1541's processor")
        if letter == b"P":
            channel = text[1] & 15 if len(text) > 1 else 0
            if channel not in self.channels:  # measured: P for a channel not open is 70
                raise DosError(NO_CHANNEL)
            raise DriveUnsupported("the drive command P (record position): relative files are not modelled")
        raise DosError(INVALID_COMMAND)

    def _utility(self, text: bytes) -> None:
        """&NAME runs a USR file in the drive's memory: 39 when there is none (measured),
        else beyond this model."""
        name = text[text.find(b":") + 1 :] if b":" in text else text[1:]
        if not name or self.empty or self.disk.find(Pattern(name)) is None:
            raise DosError(NO_FILE)
        raise DriveUnsupported(f"the drive command &{_shown(name)} runs a program in the drive's memory: "
                               "c64tc's drive is its DOS, not a 1541's processor")

    def _without_disk(self, text: bytes) -> None:
        """A command that needs the disk, with none in the drive (measured on VICE,
        tests/data/drive/empty-drive): I and V read the BAM's block and fail there (21,
        READ ERROR, 18/00), N:NAME too, N:NAME,ID when it formats (at 00/00); S, R and C
        find no disk to search: 74, DRIVE NOT READY."""
        letter = text[:1]
        if letter in b"IV":
            raise DosError(READ_ERROR, self.disk.format.dir_track, 0)
        if letter == b"N":
            raise DosError(READ_ERROR, 0 if b"," in text else self.disk.format.dir_track, 0)
        raise DosError(NOT_READY)

    def _use_drive(self, drive: int | None, where: Block = (18, 0)) -> None:
        """Drive 0 is the 1541's only one; a file name without a drive number means the
        drive used last (measured: after OPEN "1:X" failed, the next OPEN without a number
        fails too, at 18,00, until the drive is reset; commands after it are not modelled:
        a scratch of nothing still answers 01 there, others 74,18,01)."""
        if drive is not None:
            self.drive_number = drive
            if drive:
                raise DosError(NOT_READY)
        elif self.drive_number:
            raise DosError(NOT_READY, *where)

    def _scratch(self, files: FileSets) -> None:
        """S:NAME,NAME... (patterns), or S:PATTERN=T: only the files of type T (S, P, U,
        R; another letter chooses no type: measured, S:*=X and S:*=L scratch them all)."""
        wanted = type_for_letter(files.right[0][:1]) if files.right else None
        count = 0
        for part in files.left:
            _, part = _split_drive(part)
            if not part:
                continue
            pattern = Pattern(part, wanted)
            for entry in self.disk.files():
                if not pattern.matches(entry.name, entry.type_name) or entry.locked:
                    continue
                if entry.closed:
                    self.disk.free_chain(entry.start)
                entry.type_byte = 0
                self.disk.write_entry(entry)
                count += 1
        self.changed = True
        self._set_error(SCRATCHED, count)

    def _rename(self, files: FileSets) -> None:
        """R:NEW=OLD (one name each, no patterns: parse_file_sets refuses the rest); the
        old name is looked up first (measured: R:TWO=NIX is 62 where TWO exists)."""
        assert files.right is not None
        _, new = _split_drive(files.left[0])
        _, old = _split_drive(files.right[0])
        entry = self.disk.find(Pattern(old)) if old else None
        if entry is None:
            raise DosError(FILE_NOT_FOUND)
        if self.disk.find(Pattern(new)) is not None:
            raise DosError(FILE_EXISTS)
        entry.name = new[:NAME_LENGTH]
        self.disk.write_entry(entry)
        self.changed = True
        self._ok()

    def _copy(self, files: FileSets) -> None:
        """C:NEW=OLD,OLD...: the sources joined into a new file.  The sources are looked
        up before the new name (measured: C:ONE=NIX is 62 where ONE exists)."""
        assert files.right is not None
        _, new = _split_drive(files.left[0])
        data = bytearray()
        file_type = SEQ
        for index, part in enumerate(files.right):
            _, part = _split_drive(part)
            entry = self.disk.find(Pattern(part)) if part else None
            if entry is None:
                raise DosError(FILE_NOT_FOUND)
            if index == 0:
                file_type = entry.file_type
            data += self.disk.read_file(entry.start)
        self._check_new_name(new)
        if self.disk.find(Pattern(new)) is not None:
            raise DosError(FILE_EXISTS)
        channel = self._open_write(OpenRequest(new, False, 0, file_type, "W"))
        for byte in data:
            channel.write(byte)
        channel.close()
        self._ok()

    def _validate(self) -> None:
        """V: the BAM made anew from the directory and the files' chains; files that were
        never closed are deleted, also one still open for writing (measured: its blocks
        are free after V, it is not in the directory after its CLOSE, and what was
        written to it after V is lost)."""
        disk = self.disk
        disk_format = disk.format
        for channel in self.channels.values():
            if isinstance(channel, WriteChannel):
                channel.orphaned = True
        used = set(disk_format.reserved_blocks)
        used.update(disk.directory_blocks())
        for entry in disk.files():
            if not entry.closed:
                entry.type_byte = 0
                disk.write_entry(entry)
                continue
            used.update(disk.chain(entry.start).blocks)
        for track in range(1, disk_format.tracks + 1):
            free = {sector for sector in range(disk_format.sectors[track - 1]) if (track, sector) not in used}
            disk_format.write_bam_entry(disk.image, track, free)
        self.changed = True
        self._ok()

    def _new(self, files: FileSets) -> None:
        """N:NAME,ID formats the disk; N:NAME without an id clears the directory and the
        BAM and keeps the id."""
        name, comma, disk_id = files.left[0], len(files.left) > 1, b"".join(files.left[1:2])
        disk_format = self.disk.format
        if not comma:
            disk_id = self.disk.header_id()[:2]
        fresh = _formatted(disk_format, name[:NAME_LENGTH], (disk_id + b"  ")[:2])
        if not comma:  # the blocks' contents stay
            keep = bytearray(self.disk.image)
            for block in [disk_format.header, (disk_format.dir_track, disk_format.dir_sector),
                          *disk_format.bam_blocks]:
                offset = disk_format.block_offset(*block)
                keep[offset : offset + BLOCK] = fresh[offset : offset + BLOCK]
            fresh = bytes(keep)
        self.disk.image[:] = fresh
        self.channels.clear()
        self.last_file = None
        self.changed = True
        self._ok()

    def _parameters(self, text: bytes) -> list[int]:
        """The numbers of a block or user command as the DOS reads them ($CC6F): after
        the colon, or from the fourth character; spaces, cursor-right and commas
        between them; the characters 0-9 and :;<=>? are digits (their low four bits),
        the last three of a number count; the character after a number is skipped (so
        any character ends one), a fifth number is 30, SYNTAX ERROR.  Numbers not given
        are 0."""
        colon = text.find(b":")
        position = colon + 1 if colon >= 0 else 3
        values: list[int] = []
        while position < len(text):
            if text[position] in (0x20, 0x1D, 0x2C):
                position += 1
                continue
            if len(values) == 4:
                raise DosError(SYNTAX)
            digits = []
            while position < len(text) and 0x30 <= text[position] <= 0x3F:
                digits.append(text[position] & 0x0F)
                position += 1
            last_three = digits[-3:][::-1]  # ones, tens, hundreds
            values.append(sum(digit * 10**place for place, digit in enumerate(last_three)) & 0xFF)
            position += 1
        return values + [0] * (4 - len(values))

    def _buffer_channel(self, number: int) -> BufferChannel:
        """The channel a block command names: 70, NO CHANNEL when it is not open
        (measured); a file open for reading takes the block into its buffer and is read
        from there on (measured: U1 on a file's channel, then GET# gives the block's
        first byte)."""
        channel = number & 15
        found = self.channels.get(channel)
        if found is None:
            raise DosError(NO_CHANNEL)
        if isinstance(found, ReadChannel):
            found = self.channels[channel] = BufferChannel()
        if not isinstance(found, BufferChannel):
            raise DriveUnsupported("a block command on a channel open for writing: c64tc's drive does not "
                                   "model a file's buffer taken over by a block command")
        return found

    def _user(self, text: bytes) -> None:
        command = text[1:2]
        if command in (b"J", b":", b"I", b"9", b"H"):  # the resets
            self.power_on()
            return
        if command in (b"1", b"A", b"2", b"B"):
            channel, _, track, sector = self._parameters(text)
            buffer = self._buffer_channel(channel)
            self._block_on_disk((track, sector))
            if command in (b"1", b"A"):
                buffer.buffer[:] = self.disk.read_block((track, sector))
                buffer.point(0)
            else:
                self.disk.write_block((track, sector), bytes(buffer.buffer))
                self.changed = True
            return self._ok()
        raise DriveUnsupported(f"the drive command {_shown(text[:2])} runs code in the drive's memory: "
                               "c64tc's drive is its DOS, not a 1541's processor")

    def _block(self, text: bytes) -> None:
        """B-A, B-F, B-R, B-W, B-P (B-E runs code): 31 without the dash or for another
        letter, 30 with a comma before the dash ($CC1B)."""
        dash = text.find(b"-")
        if dash < 0:
            raise DosError(INVALID_COMMAND)
        if b"," in text[:dash]:
            raise DosError(SYNTAX)
        command = text[dash + 1 : dash + 2]
        if not command or command not in b"AFRWEP":
            raise DosError(INVALID_COMMAND)
        if command == b"E":
            raise DriveUnsupported("the drive command B-E runs code in the drive's memory: c64tc's drive is "
                                   "its DOS, not a 1541's processor")
        numbers = self._parameters(text)
        if command == b"P":
            self._buffer_channel(numbers[0]).point(numbers[1])
            return self._ok()
        if command in (b"R", b"W"):
            channel, _, track, sector = numbers
            buffer = self._buffer_channel(channel)
            self._block_on_disk((track, sector))
            if command == b"R":  # the block's first byte says how many bytes follow
                buffer.buffer[:] = self.disk.read_block((track, sector))
                buffer.point(1, max(1, buffer.buffer[0]))
            else:
                buffer.buffer[0] = buffer.pointer
                self.disk.write_block((track, sector), bytes(buffer.buffer))
                self.changed = True
            return self._ok()
        block = (numbers[1], numbers[2])  # A and F
        self.disk.offset(block)  # an illegal block is 66
        if self.empty:  # measured: B-A and B-F answer OK with no disk in the drive
            return self._ok()
        if command == b"F":
            self.disk.free(block)
        elif not self.disk.allocate(block):
            following = self._next_free(block)
            raise DosError(NO_BLOCK, *following)
        self.changed = True
        return self._ok()

    def _block_on_disk(self, block: Block) -> None:
        """A block to read or write: 66 when the disk has no such block; with no disk in
        the drive the 1541 finds no sync mark there: 21, READ ERROR at that block
        (measured, tests/data/drive/empty-drive)."""
        self.disk.offset(block)
        if self.empty:
            raise DosError(READ_ERROR, *block)

    def _next_free(self, block: Block) -> Block:
        """The next free block after ``block`` (what 65, NO BLOCK names), or 0/0: further on
        the same track (measured: B-A of 18/0 names 18/2), then on the tracks after it
        (the directory's left out)."""
        disk_format = self.disk.format
        track, sector = block
        while track <= disk_format.tracks:
            if track == block[0] or track != disk_format.dir_track:
                for candidate in range(sector, disk_format.sectors[track - 1]):
                    if self.disk.is_free((track, candidate)):
                        return track, candidate
            track, sector = track + 1, 0
        return 0, 0


def _no_padding(raw: bytes) -> bytes:
    """Shifted spaces shown as spaces (the directory's header and names)."""
    return raw.replace(bytes([PADDING]), b" ")


def _shown(raw: bytes) -> str:
    return "".join(chr(byte) if 0x20 <= byte < 0x7F else f"{{${byte:02x}}}" for byte in raw)


def _formatted(disk_format: DiskFormat, name: bytes, disk_id: bytes) -> bytes:
    """A freshly formatted image, as the drive's N command leaves it."""
    if disk_format.name != "d81":
        return empty_image(disk_format, name, disk_id)
    from toolchain.disk.d64 import new_image  # (the d64 package, loaded only here)

    image = bytearray(new_image(disk_format, "X", "XX"))
    header = disk_format.block_offset(*disk_format.header)
    padded = name + bytes([PADDING]) * (NAME_LENGTH - len(name))
    image[header + disk_format.name_offset : header + disk_format.name_offset + NAME_LENGTH] = padded
    image[header + disk_format.id_offset : header + disk_format.id_offset + 2] = disk_id
    for block in disk_format.bam_blocks:  # the 1581 repeats the id in its BAM blocks
        offset = disk_format.block_offset(*block)
        image[offset + 4 : offset + 6] = disk_id
    return bytes(image)


# -- the bus -------------------------------------------------------------------------------------

class Printer:
    """A printer on the serial bus (device 4): the bytes sent to it, kept as sent, as
    VICE's raw printer driver keeps them.  Measured on VICE: OPEN's name is not printed;
    asked to talk it sends nothing (GET# gives ST 66 and CHR$(199))."""

    def __init__(self, paper: bytearray | None = None, device: int = 4) -> None:
        self.paper = bytearray() if paper is None else paper
        self.device = device

    def open(self, channel: int, name: bytes) -> None:
        pass

    def close(self, channel: int) -> None:
        pass

    def talk_byte(self, channel: int) -> tuple[int, bool] | None:
        return None

    def listen_byte(self, channel: int | None, byte: int) -> bool:
        self.paper.append(byte)
        return True

    def unlisten(self, channel: int) -> None:
        pass


Device = Drive | Printer


class SerialBus:
    """The C64's serial bus as the KERNAL's routines see it.  Each call returns the
    status bits the KERNAL ORs into ST.

    Two things of the real bus shape those bits.  Under ATN every device on the bus
    answers, whatever the address ($ED40 finds DATA pulled), so LISTEN and TALK find
    "device not present" only on a bus without any device; the secondary address that
    follows finds nobody when the addressed device is missing, and so does each data
    byte (measured on VICE: PRINT# to a missing printer with the 1541 on the bus sets ST
    -128 and BASIC goes on; OPEN 4,4,7,"X" is ?DEVICE NOT PRESENT; without the drive
    PRINT# is too).  And CIOUT sends each byte when the next one comes: the last waits
    for UNLISTEN, or the next LISTEN or TALK ($EDDD, $ED11), which may then fail on it."""

    def __init__(self) -> None:
        self.devices: dict[int, Device] = {}
        self.listener: Device | None = None
        self.talker: Device | None = None
        self.mode = 0  # the last secondary address byte: $60 data, $E0 close, $F0 open; 0 none
        self.channel = 0
        self.name = bytearray()
        self.deferred: int | None = None  # CIOUT's byte not sent yet (BSOUR $95 while C3PO $94 is set)
        self.last_channel: dict[int, int] = {}  # per device: the channel it was addressed on last

    def reset(self) -> None:
        """Nobody addressed, no byte held back (the machine back to a snapshot); the
        devices keep their state."""
        self.listener = self.talker = None
        self.mode, self.channel, self.deferred = 0, 0, None
        self.name.clear()

    def attach(self, device: Device) -> None:
        """Put ``device`` on the bus at its number (in place of what was there)."""
        self.devices[device.device] = device

    def detach(self, number: int) -> None:
        self.devices.pop(number, None)

    def drive(self, device: int = 8) -> Drive | None:
        found = self.devices.get(device)
        return found if isinstance(found, Drive) else None

    def _attention(self) -> int:
        """LISTEN's or TALK's byte under ATN: answered by any device on the bus."""
        return 0 if self.devices else DEVICE_NOT_PRESENT

    def _send_deferred(self) -> int:
        """The byte CIOUT held back goes out (with EOI) before the next ATN ($ED11)."""
        if self.deferred is None:
            return 0
        byte, self.deferred = self.deferred, None
        return self._send(byte)

    def _send(self, byte: int) -> int:
        listener = self.listener
        if listener is None:
            return DEVICE_NOT_PRESENT
        if self.mode == 0xF0:
            self.name.append(byte)
            return 0
        channel = self.channel if self.mode else self.last_channel.get(listener.device)
        if self.mode in (0x60, 0) and listener.listen_byte(channel, byte):
            return 0
        return DEVICE_NOT_PRESENT  # nobody takes the byte

    def listen(self, device: int) -> int:
        status = self._send_deferred()
        self.untalk()
        self.listener = self.devices.get(device & 0x1F)
        self.mode = 0
        return status | self._attention()

    def talk(self, device: int) -> int:
        status = self._send_deferred()
        self.listener = None
        self.talker = self.devices.get(device & 0x1F)
        self.mode = 0
        return status | self._attention()

    def _address(self, device: Device, value: int) -> None:
        """A secondary address: $60 (and $70: the KERNAL's OR of $60 into secondary
        addresses 16-127) data on channel value & 15, $E0 close, $F0 open (measured:
        OPEN 2,8,18 is channel 2); the device remembers the channel (data sent without
        a secondary address goes there, measured)."""
        self.mode, self.channel = value & 0xF0, value & 0x0F
        if self.mode == 0x70:
            self.mode = 0x60
        self.last_channel[device.device] = self.channel

    def second(self, value: int) -> int:
        """The secondary address after LISTEN (the name follows $F0)."""
        if self.listener is None:
            return DEVICE_NOT_PRESENT
        self._address(self.listener, value)
        if self.mode == 0xE0:
            self.listener.close(self.channel)
        elif self.mode == 0xF0:
            self.name.clear()
        return 0

    def tksa(self, value: int) -> int:
        if self.talker is None:
            return DEVICE_NOT_PRESENT
        self._address(self.talker, value)
        return 0

    def turnaround(self) -> bool:
        """TALK without a secondary address ($EDCC): the C64 waits until the talker takes
        the clock line; False when nobody talks (the C64 waits for ever)."""
        return self.talker is not None

    def ciout(self, byte: int) -> int:
        status = self._send_deferred()
        self.deferred = byte
        return status

    def acptr(self) -> tuple[int | None, int]:
        """A byte from the talker, and the status: EOI with the last; (None, $42) when
        nothing comes (the KERNAL's time-out)."""
        talker = self.talker
        answer = None
        if talker is not None and self.mode in (0x60, 0):
            channel = self.channel if self.mode else self.last_channel.get(talker.device)
            answer = talker.talk_byte(channel) if channel is not None else None
        if answer is None:
            return None, END_OF_FILE | READ_TIMEOUT
        byte, last = answer
        return byte, END_OF_FILE if last else 0

    def unlisten(self) -> int:
        status = self._send_deferred()
        listener = self.listener
        self.listener = None
        if listener is None:
            return status
        if self.mode == 0xF0:
            listener.open(self.channel, bytes(self.name))
            self.name.clear()
        elif self.mode == 0x60:
            listener.unlisten(self.channel)
        self.mode = 0
        return status

    def untalk(self) -> int:
        status = self._send_deferred()
        self.talker = None
        return status


# -- disk images on the host ---------------------------------------------------------------------

class AttachedImage:
    """A disk image file in drive 8: read once, changed in memory by the DOS; written back
    to the file only when asked (:meth:`write_back`)."""

    def __init__(self, path: Path) -> None:
        from toolchain.disk.d64 import inspect  # (the d64 package: loaded when a disk is attached)

        if is_tape(path):
            raise UserError.single(str(path), "a T64 tape image is no disk: the drive takes D64, D71 or D81 "
                                   "images")
        self.path = path
        self.original = inspect(path).image  # a file that is no disk image is an error here
        self.drive = Drive(self.original, str(path))

    @property
    def changed(self) -> bool:
        return self.drive.image_bytes() != self.original

    def open_files(self) -> list[str]:
        """The files the program left open for writing (a 1541 leaves them unclosed)."""
        return [f'"{_shown(channel.entry.dos_name)}"' for channel in self.drive.channels.values()
                if isinstance(channel, WriteChannel) and not channel.closed and not channel.orphaned]

    def write_back(self) -> None:
        """The disk as the program left it, over the image file: atomically, under the
        image's lock, only if the file is still what was read (another program may have
        changed it meanwhile) and only if the checker finds the new image sound."""
        from toolchain.disk.d64 import locked_image

        new = self.drive.image_bytes()
        if new == self.original:
            return
        shown = str(self.path)
        report = check.check(new, self.drive.disk.format)
        if report.errors:
            raise UserError([Diagnostic(shown, 0, 0, f"the disk as the program left it is damaged: "
                                        f"{problem.message}; the image file is unchanged")
                             for problem in report.errors])
        with locked_image(self.path, output_target(self.path)) as current:
            if current != self.original:
                raise UserError.single(shown, "the image file was changed by another program while c64tc "
                                       "ran; it is left as it is (the program's changes are not written)")
            write_atomic(self.path, new)
