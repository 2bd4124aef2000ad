"""The chips in the C64's I/O area, as programs can see them: the VIC-II's registers
and raster counter, the two CIAs (ports, timers, time-of-day clocks, interrupts) and
the SID's readable registers.  No picture, sprites or sound are produced.

The machine (:mod:`toolchain.c64.machine`) maps each chip's register block into
$D000-$DFFF (mirrored as on the C64) and calls it with the CPU's cycle count:

* ``read(register, now)`` / ``write(register, value, now)``: ``register`` is the
  offset in the chip's block after mirroring (VIC 0-$3F, SID 0-$1F, CIA 0-$0F);
* ``peek(register, now)``: the value a read would give, without its side effects
  (for the monitor and for tests);
* ``next_event(now)``: the cycle at which the chip must next be brought up to date
  because something programs can notice happens then (an interrupt, a timer
  underflow that matters), or :data:`NEVER`;
* ``advance(now)``: bring the chip's state up to cycle ``now``;
* ``irq`` (and ``nmi`` for CIA 2): whether the chip pulls the interrupt line now.

Every fact the chips model is cited where it is coded (datasheets, VICE's sources,
measurements on VICE 3.10 kept in tests/data/machine).
"""

from __future__ import annotations

from typing import Protocol

NEVER = 1 << 62  # a cycle count that is never reached

# PAL C64 timing (C64 Programmer's Reference Guide; the 6569 VIC-II datasheet): the CPU
# clock is the 17.734475 MHz crystal divided by 18
CYCLES_PER_SECOND = 985_248
CYCLES_PER_LINE = 63
LINES_PER_FRAME = 312
CYCLES_PER_FRAME = CYCLES_PER_LINE * LINES_PER_FRAME  # 19,656: 50.125 frames a second


class Chip(Protocol):
    def read(self, register: int, now: int) -> int: ...

    def peek(self, register: int, now: int) -> int: ...

    def write(self, register: int, value: int, now: int) -> None: ...

    def next_event(self, now: int) -> int: ...

    def advance(self, now: int) -> None: ...

    @property
    def irq(self) -> bool: ...
