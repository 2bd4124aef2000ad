"""SID tunes: the PSID and RSID files of the High Voltage SID Collection, played on
the emulated C64.

The header (HVSC's SID_file_format.txt; big-endian words): the magic ``PSID`` or
``RSID``, the version (1-4), where the C64 data starts in the file ($76 for v1, $7C
after), the load address (0: the data's first two bytes, as in a PRG), the init
address (0: the load address), the play address (0: init installs its own interrupt
handler), the number of songs and the start song (1-based), 32 speed bits (bit n for
song n+1, song 33 and later use bit 31; 0: the play routine is called fifty times a
second from the VIC-II's raster interrupt, the "VBI"; 1: from CIA 1's timer A, at the
rate the tune sets, 60 Hz unless it does), three 32-byte strings (title, author,
released); from v2 on flags (bit 0: Compute!'s Sidplayer data; bit 1: PlaySID's
samples, or for RSID a BASIC program; bits 2-3: PAL/NTSC; bits 4-5: the SID model
it was made for), the first free page and how many (for the player's own code), and
from v3 on where a second and third SID are.

How it is called (what players do, as the format's documents and VICE's vsid
driver describe; :func:`driver_source` is c64tc's own): on a C64 as the KERNAL's
reset leaves it, the tune's data is put into RAM (under the ROMs and the I/O area
too), and a small driver in a free page masks the interrupts, points the IRQ vectors
($0314 and, for tunes that bank the KERNAL out, $FFFE) at its handler, puts CIA 1's
timer A at the PAL KERNAL's $4025 and the raster interrupt at line 0, enables the
one the speed bit names, sets the PAL flag ($02A6), banks in the RAM the init
routine is in ($01: $34 under the I/O area, $35 under the KERNAL, $36 when the tune
reaches under BASIC, else $37), and calls init with the song number (0-based) in A,
X and Y; then $01 back to $37 and interrupts on.  Each interrupt calls play (its
bank likewise) and acknowledges both sources.  A tune without a play address runs
from the interrupt handler its init installs.  An RSID tune gets the C64 as the
KERNAL leaves it (CIA 1's timer A at 60 Hz with its interrupt on, the raster
interrupt at line $137 off, the other timers stopped at $FFFF, $01 = $37) and its
init called the same way; an RSID BASIC tune is RUN, with the song number in 780.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from toolchain.diagnostics import UserError, counted

if TYPE_CHECKING:
    from toolchain.c64.machine import C64

MAGICS = (b"PSID", b"RSID")
HEADER_V1, HEADER_V2 = 0x76, 0x7C
FLAG_MUS, FLAG_BASIC = 0x01, 0x02
CLOCKS = {0: "unknown", 1: "PAL", 2: "NTSC", 3: "PAL and NTSC"}
MODELS = {0: "unknown", 1: "6581", 2: "8580", 3: "6581 and 8580"}
PAL_TIMER = 0x4025  # CIA 1's timer A as the PAL KERNAL sets it ($FDDD: 60 interrupts a second)
PAL_FLAG = 0x02A6  # the KERNAL's PAL/NTSC flag (1: PAL)
SONG_REGISTERS = 780  # SYS's A/X/Y cells: an RSID BASIC tune reads its song there
IRQ_VECTOR, HARDWARE_IRQ_VECTOR = 0x0314, 0xFFFE
# pages a driver may not take when the tune names none (VICE's psid.c does the same):
# zero page, stack and the KERNAL's work area, the BASIC ROM's, and $D000-$FFFF
TAKEN_PAGES = (range(0x00, 0x04), range(0xA0, 0xC0), range(0xD0, 0x100))


@dataclass(frozen=True)
class SidTune:
    """A SID tune's header and data (see the module's description)."""

    path: str  # for messages
    magic: str  # "PSID" or "RSID"
    version: int
    load: int
    init: int
    play: int
    songs: int
    start_song: int
    speed: int
    title: str
    author: str
    released: str
    flags: int
    start_page: int
    pages: int
    second_sid: int
    third_sid: int
    data: bytes  # what is loaded at ``load``

    @property
    def is_rsid(self) -> bool:
        return self.magic == "RSID"

    @property
    def is_basic(self) -> bool:
        """An RSID tune that is a BASIC program (RUN, not init)."""
        return self.is_rsid and bool(self.flags & FLAG_BASIC)

    @property
    def end(self) -> int:
        """One past the last byte loaded."""
        return self.load + len(self.data)

    @property
    def clock(self) -> str:
        return CLOCKS[self.flags >> 2 & 3]

    @property
    def sid_model(self) -> str:
        return MODELS[self.flags >> 4 & 3]

    def uses_cia(self, song: int) -> bool:
        """Whether ``song`` (1-based) is played from CIA 1's timer (else the VBI)."""
        return bool(self.speed >> (min(song, 32) - 1) & 1)

    def speed_text(self, song: int) -> str:
        if self.is_rsid or self.play == 0:
            return "its own interrupt handler"
        return ("CIA 1's timer A (60 Hz unless the tune sets it)" if self.uses_cia(song)
                else "the raster interrupt (50 Hz)")


def _word(data: bytes, offset: int) -> int:
    return data[offset] << 8 | data[offset + 1]


def _text(data: bytes) -> str:
    return data.split(b"\x00", 1)[0].decode("latin-1").strip()


def describe_header(data: bytes) -> str:
    """The tune in a few words for messages ('PSID v2, "Commando" by Rob Hubbard'),
    as far as the header can be read."""
    if len(data) < 6:
        return data[:4].decode("latin-1")
    kind = f"{data[:4].decode('latin-1')} v{_word(data, 4)}"
    if len(data) < HEADER_V1:
        return kind
    title, author = _text(data[0x16:0x36]), _text(data[0x36:0x56])
    return f'{kind}, "{title}" by {author}' if title or author else kind


def parse_tune(data: bytes, path: str) -> SidTune:
    """A SID file's header and data; a file that is no valid tune is a UserError that
    says what is wrong."""
    def fail(message: str) -> UserError:
        return UserError.single(path, message)

    magic = data[:4]
    if magic not in MAGICS:
        raise fail("not a SID tune: it starts with neither PSID nor RSID")
    if len(data) < 8:
        raise fail(f"a {magic.decode()} file of {len(data)} bytes: too short for its header")
    version = _word(data, 4)
    versions = range(1, 5) if magic == b"PSID" else range(2, 5)
    if version not in versions:
        raise fail(f"{magic.decode()} version {version}: c64tc knows {versions.start}-{versions.stop - 1}")
    offset = _word(data, 6)
    if offset != (HEADER_V1 if version == 1 else HEADER_V2):
        raise fail(f"the data offset is ${offset:04X}; a v{version} header is "
                   f"${HEADER_V1 if version == 1 else HEADER_V2:02X} bytes")
    if len(data) < offset:
        raise fail(f"{len(data)} bytes: the header alone is {offset}")
    load, init, play = _word(data, 8), _word(data, 10), _word(data, 12)
    songs, start_song, speed = _word(data, 14), _word(data, 16), _word(data, 18) << 16 | _word(data, 20)
    flags = start_page = pages = second = third = 0
    if version >= 2:
        flags, start_page, pages, second, third = (_word(data, 0x76), data[0x78], data[0x79], data[0x7A],
                                                   data[0x7B])
    body = data[offset:]
    if load == 0:
        if len(body) < 2:
            raise fail("the load address is 0, so the data should start with it, but the data has "
                       f"{counted(len(body), 'byte')}")
        load, body = body[0] | body[1] << 8, body[2:]
    if not body:
        raise fail("the tune has no data")
    if load + len(body) > 0x10000:
        raise fail(f"{len(body)} bytes loaded at ${load:04X} run past $FFFF")
    if not 1 <= songs <= 256:
        raise fail(f"the header says {songs} songs; a tune has 1 to 256")
    if not 1 <= start_song <= songs:
        start_song = 1  # as the format's document says players do
    if flags & FLAG_MUS and magic == b"PSID":
        raise fail("the tune is Compute!'s Sidplayer data (MUS): it needs that player, which c64tc does "
                   "not have")
    if magic == b"RSID" and flags & FLAG_BASIC:
        from toolchain.basic.runner import is_basic_program
        from toolchain.disk.prg import Prg

        if not is_basic_program(Prg(load, bytes(body))):
            raise fail(f"the header says the tune is a BASIC program (RUN), but its data (${load:04X}-"
                       f"${load + len(body) - 1:04X}) holds no BASIC lines")
    if init == 0:
        init = load
    return SidTune(path, magic.decode(), version, load, init, play, songs, start_song, speed,
                   _text(data[0x16:0x36]), _text(data[0x36:0x56]), _text(data[0x56:0x76]), flags, start_page,
                   pages, second, third, bytes(body))


# -- on the C64 -----------------------------------------------------------------------------------

def bank_for(address: int, reach: int) -> int:
    """The processor port ($01) value that shows the RAM ``address`` is in: $35 under
    the KERNAL, $34 under the I/O area, $36 when ``reach`` (the tune's last byte, or
    play itself) is under BASIC or higher, else $37 (VICE's vsid driver's rule)."""
    if address >= 0xE000:
        return 0x35
    if address >= 0xD000:
        return 0x34
    if reach >= 0xA000:
        return 0x36
    return 0x37


def driver_page(tune: SidTune) -> int:
    """Where the driver goes: the first free page the tune names, else the start of the
    largest range of pages that neither the tune nor the system takes."""
    if tune.start_page == 0xFF:
        raise UserError.single(tune.path, "the tune's header says it leaves no free page for a driver")
    if tune.start_page:
        return tune.start_page
    taken = set().union(*TAKEN_PAGES, range(tune.load >> 8, (tune.end - 1 >> 8) + 1))
    best, best_length, start = 0, 0, None
    for page in range(0x101):
        if page < 0x100 and page not in taken:
            start = page if start is None else start
            continue
        if start is not None and page - start > best_length:
            best, best_length = start, page - start
        start = None
    if not best_length:
        raise UserError.single(tune.path, "the tune leaves no free page for a driver")
    return best


def driver_source(tune: SidTune, song: int, base: int) -> str:
    """The driver (Profi-Ass source at ``base``) that calls the tune's init with
    ``song`` (1-based) and its play routine from the interrupt the header names."""
    number = song - 1
    vectors_free = not (tune.load <= IRQ_VECTOR + 1 and tune.end > IRQ_VECTOR)
    lines = [f"*= ${base:04x}", "start sei", " cld", " ldx #$ff", " txs"]
    if tune.is_rsid:
        # the C64 as the KERNAL leaves it; the other timers stopped and loaded with $FFFF
        lines += [" lda #$9b", " sta $d011", " lda #$37", " sta $d012", " lda #$00", " sta $d01a",
                  " lda #$7f", " sta $dd0d", " lda #$ff"]
        lines += [f" sta ${register:04x}" for register in (0xDC06, 0xDC07, 0xDD04, 0xDD05, 0xDD06, 0xDD07)]
        lines += [" lda #$10", " sta $dc0f", " sta $dd0e", " sta $dd0f", " lda $dd0d", " lda #$37",
                  " sta $01"]
    else:
        lines += [" lda #$00", " sta $d01a", " lda #$0f", " sta $d019", " lda #$7f", " sta $dc0d",
                  " sta $dd0d", " lda $dc0d", " lda $dd0d"]
        if vectors_free:
            lines += [" lda #<kernalirq", f" sta ${IRQ_VECTOR:04x}", " lda #>kernalirq",
                      f" sta ${IRQ_VECTOR + 1:04x}"]
        lines += [" lda #<directirq", f" sta ${HARDWARE_IRQ_VECTOR:04x}", " lda #>directirq",
                  f" sta ${HARDWARE_IRQ_VECTOR + 1:04x}",
                  " lda #$1b", " sta $d011", " lda #$00", " sta $d012",
                  f" lda #${PAL_TIMER & 0xFF:02x}", " sta $dc04", f" lda #${PAL_TIMER >> 8:02x}",
                  " sta $dc05"]
        if tune.play and not tune.uses_cia(song):
            lines += [" lda #$81", " sta $d01a"]
        else:
            lines += [" lda #$81", " sta $dc0d", " lda #$11", " sta $dc0e"]
        lines += [f" lda #${bank_for(tune.init, tune.end - 1):02x}", " sta $01"]
    lines += [" lda #$01", f" sta ${PAL_FLAG:04x}", f" lda #{number}", f" ldx #{number}", f" ldy #{number}",
              f" jsr ${tune.init:04x}"]
    idle_bank = 0x37
    if not tune.is_rsid and tune.play:
        if not vectors_free:
            idle_bank = 0x35  # the tune holds $0314: the interrupts come through $FFFE
        lines += [f" lda #${idle_bank:02x}", " sta $01"]
    lines += [" cli", "idle jmp idle"]
    if not tune.is_rsid:
        lines += ["directirq pha", " txa", " pha", " tya", " pha", "kernalirq nop"]
        if tune.play:
            lines += [f" lda #${bank_for(tune.play, tune.play):02x}", " sta $01", f" jsr ${tune.play:04x}",
                      f" lda #${idle_bank:02x}", " sta $01"]
        lines += [" lda $d019", " sta $d019", " lda $dc0d", " pla", " tay", " pla", " tax", " pla", " rti"]
    return "\n".join(lines) + "\n"


def store_ram(machine: C64, address: int, data: bytes) -> None:
    """``data`` into the C64's RAM at ``address``, also where a ROM or the I/O area
    hides it (as a loader's DMA would; the chips see none of it)."""
    memory_map = machine.map
    for offset, byte in enumerate(data):
        where = address + offset
        area = 0xA000 if 0xA000 <= where < 0xC000 else 0xD000 if 0xD000 <= where < 0xE000 \
            else 0xE000 if where >= 0xE000 else None
        if area is not None and memory_map.shown(area) != "ram":
            memory_map.under[where] = byte
        else:
            machine.memory[where] = byte


def load_tune(machine: C64, tune: SidTune, song: int) -> int:
    """Put the tune and its driver into ``machine`` (a C64 as the KERNAL's reset left
    it); the driver's start address."""
    from toolchain.asm.assembler import assemble

    store_ram(machine, tune.load, tune.data)
    base = driver_page(tune) << 8
    driver = assemble(driver_source(tune, song, base), "<SID tune driver>")
    if not (driver.end <= tune.load or base >= tune.end):
        raise UserError.single(tune.path, f"the driver at ${base:04X} would overlap the tune "
                               f"(${tune.load:04X}-${tune.end - 1:04X})")
    store_ram(machine, base, driver.image)
    return base
