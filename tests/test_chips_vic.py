"""The VIC-II's registers, raster counter and raster interrupt (the 6569 datasheet: 63
cycles a line, 312 lines; values read back as VICE 3.10 shows them, measured in
tests/test_chips_vice.py and tests/data/machine)."""

from __future__ import annotations

import toolchain.c64.chips.vic as vic_module
from toolchain.c64.chips import CYCLES_PER_FRAME, NEVER
from toolchain.c64.chips.power_on import KERNAL_RESET_WRITES
from toolchain.c64.chips.vic import MemorySetup, Vic


def started_vic() -> Vic:
    """A fresh VIC-II with the KERNAL's start-up values written."""
    vic = Vic()
    for address, value in KERNAL_RESET_WRITES:
        if 0xD000 <= address < 0xD400:
            vic.write(address & 0x3F, value, 0)
    return vic


def test_after_the_kernal_peek_shows_what_vice_shows() -> None:
    vic = started_vic()
    now = 100 * 63  # line 100
    # PEEK(53280)=254, PEEK(53281)=246, PEEK(53265) AND 127 = 27, $D016 $C8, $D018 $15
    # (tests/data/machine/*.vice.json; chips.vice.txt: "D011 27")
    assert vic.read(0x20, now) == 254 and vic.read(0x21, now) == 246
    assert vic.read(0x11, now) & 127 == 27
    assert (vic.read(0x16, now), vic.read(0x18, now)) == (0xC8, 0x15)
    # sprite colours from the KERNAL's table, the last one from the byte after it ($4C)
    assert [vic.read(register, now) for register in range(0x22, 0x2F)] == [
        0xF1, 0xF2, 0xF3, 0xF4, 0xF0, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xFC]
    assert all(vic.read(register, now) == 0xFF for register in range(0x2F, 0x40))
    assert vic.read(0x1A, now) == 0xF0


def test_the_raster_counter_follows_the_cycles() -> None:
    vic = Vic()
    assert [vic.read(0x12, cycle) for cycle in (1, 62, 63, 125, 126)] == [0, 0, 1, 1, 2]
    assert vic.read(0x12, 255 * 63) == 255 and vic.read(0x11, 255 * 63) & 0x80 == 0
    # line 256: bit 8 in $D011
    assert vic.read(0x12, 256 * 63) == 0 and vic.read(0x11, 256 * 63) & 0x80 == 0x80
    assert vic.raster_line(311 * 63 + 62) == 311
    # line 0 begins a cycle late (VICE x64sc): the frame's first cycle still shows 311
    assert vic.raster_line(CYCLES_PER_FRAME) == 311 and vic.raster_line(CYCLES_PER_FRAME + 1) == 0
    assert Vic(cycle_offset=63).raster_line(0) == 1


def test_d011_bit_7_reads_the_raster_and_writes_the_compare_line() -> None:
    vic = Vic()
    vic.write(0x11, 0x9B, 0)
    vic.write(0x12, 0x37, 0)
    assert vic.compare == 0x137
    assert vic.read(0x11, 10 * 63) == 0x1B  # line 10: bit 8 of the raster is 0
    assert vic.read(0x12, 10 * 63) == 10  # the compare line is not read back


def test_the_raster_interrupt() -> None:
    vic = Vic()
    vic.write(0x12, 100, 0)
    assert not vic.irq and vic.next_event(0) == NEVER  # not enabled: nothing to wake up for
    vic.write(0x1A, 0x01, 0)
    line_100 = 100 * 63
    assert vic.next_event(0) == line_100
    vic.advance(line_100 - 1)
    assert not vic.irq
    vic.advance(line_100)
    assert vic.irq and vic.read(0x19, line_100) == 0xF1
    assert vic.next_event(line_100) == NEVER  # the line stays low until acknowledged
    vic.write(0x19, 0x01, line_100 + 5)  # writing 1 acknowledges
    assert not vic.irq and vic.read(0x19, line_100 + 5) == 0x70
    assert vic.next_event(line_100 + 5) == line_100 + CYCLES_PER_FRAME  # the next frame


def test_the_latch_is_set_without_the_mask_and_a_mask_pulls_the_line_at_once() -> None:
    vic = Vic()
    vic.write(0x12, 20, 0)
    assert vic.read(0x19, 30 * 63) == 0x71 and not vic.irq  # as the KERNAL's PAL test sees it
    vic.write(0x1A, 0x01, 30 * 63)
    assert vic.irq and vic.read(0x19, 30 * 63) == 0xF1


def test_writing_the_current_line_fires_once() -> None:
    vic = Vic()
    now = 50 * 63 + 10
    vic.write(0x12, 50, now)
    assert vic.read(0x19, now) & 1  # measured on VICE: the write itself fires
    vic.write(0x19, 0x0F, now + 1)
    vic.write(0x12, 50, now + 2)  # still matching: no new edge
    assert vic.read(0x19, now + 3) & 1 == 0


def test_lines_beyond_311_never_come() -> None:
    vic = Vic()
    vic.write(0x11, 0x80, 0)
    vic.write(0x12, 0x40, 0)  # line 320
    vic.write(0x1A, 1, 0)
    assert vic.next_event(0) == NEVER
    vic.advance(5 * CYCLES_PER_FRAME)
    assert vic.read(0x19, 5 * CYCLES_PER_FRAME) == 0x70


def test_registers_repeat_every_64_bytes_and_unused_ones_read_ff() -> None:
    vic = Vic()
    vic.write(0x40 + 0x20, 0x05, 0)  # $D060 is $D020
    assert vic.read(0x20, 0) == 0xF5 and vic.read(0xE0, 0) == 0xF5
    vic.write(0x30, 0x00, 0)
    assert vic.read(0x30, 0) == 0xFF
    assert vic.peek(0x1E, 0) == 0 and vic.peek(0x1F, 0) == 0 and vic.peek(0x13, 0) == 0


def test_memory_setup_from_d018() -> None:
    vic = started_vic()
    assert vic.memory_setup() == MemorySetup(screen=0x0400, characters=0x1000)  # upper case
    vic.write(0x18, 0x17, 0)  # POKE 53272,23: lower case
    assert vic.memory_setup() == MemorySetup(screen=0x0400, characters=0x1800)
    vic.write(0x18, 0x3C, 0)
    assert vic.memory_setup() == MemorySetup(screen=0x0C00, characters=0x3000)
    assert (vic.border, vic.background) == (14, 6)


def test_a_frames_stalls_from_the_registers_as_they_are_when_no_write_comes_later() -> None:
    """_compute_frame_stalls takes the registers as they are for a frame that no kept
    write reaches into: the same schedule as rebuilding them from the kept writes."""
    def rebuilt(vic: Vic, frame: int) -> tuple[list[int], list[int]]:
        start = frame * CYCLES_PER_FRAME
        registers = vic._registers_at(start)
        writes = tuple((seen - start, register, value) for seen, register, _old, value in vic.stall_writes
                       if start < seen < start + CYCLES_PER_FRAME)
        order = vic_module._STALL_REGISTER_ORDER
        return vic_module._stall_schedule(bytes(registers[r] for r in order), writes)

    vic = started_vic()
    # the screen off and on again, YSCROLL moved, a sprite switched on at line 100: in
    # frames 1 and 2 (frame 0: none), then frames 3 and 4 with no write of their own
    for frame, cycle, register, value in ((1, 63 * 40, 0x11, 0x0B), (1, 63 * 200, 0x11, 0x1D),
                                          (2, 63 * 10, 0x01, 100), (2, 63 * 20, 0x15, 0x01)):
        vic.write(register, value, frame * CYCLES_PER_FRAME + cycle)
    for frame in range(5):
        assert vic._compute_frame_stalls(frame) == rebuilt(vic, frame), frame
    # the sprite's DMA shows in the frames after the writes, not before them
    assert vic._compute_frame_stalls(4) != vic._compute_frame_stalls(0)
