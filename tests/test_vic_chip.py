"""The VIC-II as the CPU sees it beyond its registers: sprite collisions latched in
$D01E/$D01F and cleared on read, their interrupt, and the cycles bad lines and sprite
DMA take from the CPU.  The positions are VICE's (viciisc's PAL cycle table: BA low in
cycles 12-54 of a bad line, three cycles before and the two of each sprite's fetches;
a sprite at Y first shows on line Y+1); the whole machine against VICE is in
test_vic_frames.py (collisions.asm, badlines.asm)."""

from __future__ import annotations

from toolchain.c64.chips import CYCLES_PER_FRAME, CYCLES_PER_LINE, NEVER
from toolchain.c64.chips.vic import Vic
from toolchain.c64.chips.vic_render import VideoMemory

LINE = CYCLES_PER_LINE


def sprite_memory() -> VideoMemory:
    """Sprite pointers (screen at $0400) to block 13 ($0340), all of it set."""
    bank = bytearray(0x4000)
    bank[0x0340:0x0380] = b"\xff" * 64
    bank[0x07F8:0x0800] = bytes([13]) * 8
    bank[0x0400:0x07E8] = b"\x20" * 1000  # spaces: no foreground in text mode (idle byte 0 too)
    return VideoMemory(bytes(bank), bytes(0x400))


def vic_with_sprites(positions: list[tuple[int, int]], now: int = 0) -> Vic:
    vic = Vic()
    vic.video = sprite_memory
    for register, value in ((0x11, 0x1B), (0x16, 0xC8), (0x18, 0x15)):
        vic.write(register, value, now)
    for number, (x, y) in enumerate(positions):
        vic.write(2 * number, x, now)
        vic.write(2 * number + 1, y, now)
    vic.write(0x15, (1 << len(positions)) - 1, now)
    return vic


def test_no_sprites_no_collisions() -> None:
    vic = Vic()
    assert vic.read(0x1E, 5 * CYCLES_PER_FRAME) == vic.read(0x1F, 5 * CYCLES_PER_FRAME) == 0
    assert vic.beam is None  # nothing drawn for a chip whose sprites were never on


def test_two_sprites_on_each_other_latch_until_read() -> None:
    vic = vic_with_sprites([(100, 100), (110, 105)])
    # sprite 1 shows from line 106: before its first line is drawn, nothing
    assert vic.read(0x1E, 106 * LINE) == 0
    assert vic.read(0x1E, 107 * LINE) == 0b11
    assert vic.read(0x1E, 107 * LINE + 1) == 0  # cleared by the read
    assert vic.read(0x1F, 107 * LINE) == 0  # over spaces: no background collision
    assert vic.read(0x19, 107 * LINE) & 0x04  # the latch ($D019 bit 2), whatever the mask
    assert vic.read(0x1E, 108 * LINE) == 0b11  # the next line collides again


def test_a_collision_interrupt_comes_on_the_line_it_happens() -> None:
    vic = vic_with_sprites([(100, 100), (110, 105)])
    vic.write(0x1A, 0x04, 0)
    event = vic.next_event(0)
    # the first overlapping pixel: X 110 is drawn in cycle (110 + 112) // 8 of line 106
    assert event == 106 * LINE + (110 + 112) // 8
    vic.advance(event - 1)
    assert not vic.irq
    vic.advance(event)
    assert vic.irq and vic.read(0x19, event) & 0x86 == 0x84  # bit 7: it pulls the line


def test_sprites_under_the_border_collide() -> None:
    vic = vic_with_sprites([(4, 100), (8, 100)])  # X 4 and 8: in the left border
    assert vic.read(0x1E, 110 * LINE) == 0b11


def stalls(vic: Vic, frame: int = 3) -> list[tuple[int, int, int]]:
    """A frame's stalls as (line, cycle, length)."""
    starts, lengths = vic._frame_stalls(frame)
    return [(start // LINE, start % LINE, length) for start, length in zip(starts, lengths, strict=True)]


def test_bad_lines_take_43_cycles_each_25_a_frame() -> None:
    vic = Vic()
    vic.write(0x11, 0x1B, 0)  # DEN, YSCROLL 3
    assert stalls(vic) == [(0x33 + 8 * row, 11, 43) for row in range(25)]
    vic.write(0x11, 0x1F, 0)  # YSCROLL 7: the first bad line $37, the 25th $F7, the last that
    assert stalls(vic) == [(0x37 + 8 * row, 11, 43) for row in range(25)]  # can be one (VICE, Bauer)


def test_den_clear_on_line_30_means_no_bad_lines_all_frame() -> None:
    vic = Vic()
    frame = 3 * CYCLES_PER_FRAME
    vic.write(0x11, 0x0B, frame + 0x2F * LINE)  # clear before line $30
    vic.write(0x11, 0x1B, frame + 0x31 * LINE)  # set after it: the window opens, idle
    assert stalls(vic, 3) == []
    assert len(stalls(vic, 4)) == 25  # the next frame has them again


def test_sprite_dma_takes_five_cycles_a_line_for_21_lines() -> None:
    vic = Vic()
    vic.write(0x11, 0x0B, 0)  # no bad lines
    vic.write(0x01, 100, 0)
    vic.write(0x15, 0x01, 0)
    assert stalls(vic) == [(line, 54, 5) for line in range(100, 121)]
    vic.write(0x17, 0x01, 0)  # expanded in Y: 42 lines
    assert len(stalls(vic)) == 42
    vic.write(0x0F, 100, 0)
    vic.write(0x15, 0x80, 0)  # sprite 7: cycles 6-10 of the line after (counted from 1)
    vic.write(0x17, 0x00, 0)
    assert stalls(vic) == [(line, 5, 5) for line in range(101, 122)]


def test_sprite_and_bad_line_stalls_join() -> None:
    vic = Vic()
    vic.write(0x11, 0x1B, 0)
    vic.write(0x01, 0x33, 0)  # sprite 0 on the first bad line: BA low from 12 through 59
    vic.write(0x15, 0x01, 0)
    assert (0x33, 11, 48) in stalls(vic)


def test_stolen_cycles_come_a_frame_at_a_time_unless_the_raster_is_watched() -> None:
    vic = Vic()
    vic.write(0x11, 0x1B, 0)
    first_bad, last_bad = 0x33 * LINE + 11, 0xF3 * LINE + 11
    # nobody watches the raster: one event a frame, at its last stall, for the frame's 1,075
    assert vic.next_event(0) == last_bad
    assert vic.steal(last_bad - 1) == 0
    assert vic.steal(last_bad) == 25 * 43
    assert vic.next_event(last_bad + 25 * 43) == CYCLES_PER_FRAME + last_bad
    # a read of $D012: each stall where it begins
    now = CYCLES_PER_FRAME + 10
    vic.read(0x12, now)
    assert vic.next_event(now) == CYCLES_PER_FRAME + first_bad
    assert vic.steal(CYCLES_PER_FRAME + first_bad) == 43
    # a run that ends takes what has passed, not what is to come
    vic = Vic()
    vic.write(0x11, 0x1B, 0)
    assert vic.settle(first_bad + 9 * LINE) == 2 * 43


def test_a_pulled_line_stays_pulled_and_asks_nothing_more() -> None:
    vic = Vic()
    vic.write(0x11, 0x0B, 0)  # no stolen cycles either
    vic.write(0x12, 10, 0)
    vic.write(0x1A, 0x01, 0)
    vic.advance(10 * LINE)
    assert vic.irq and vic.next_event(10 * LINE) == NEVER
