"""The I/O area ($D000-$DFFF) as the CPU sees it: the VIC-II at $D000 (its 64
registers repeated every 64 bytes up to $D3FF), the SID at $D400 (32 registers,
repeated to $D7FF), colour RAM at $D800 (1 KiB of 4-bit cells), CIA 1 at $DC00 and
CIA 2 at $DD00 (16 registers each, repeated through their page), and the two
expansion pages $DE00/$DF00 (nothing attached).

Reads and writes are passed to the chips with the CPU's cycle count; the bytes of the
area in the machine's memory mirror what a read would give (so the screen, colour
RAM and the VIC's registers can be rendered from memory), colour RAM keeps 4 bits.
"""

from __future__ import annotations

from collections.abc import Callable

from toolchain.c64.chips import Chip

VIC_BASE, SID_BASE, COLOUR_BASE, CIA1_BASE, CIA2_BASE = 0xD000, 0xD400, 0xD800, 0xDC00, 0xDD00


class Ticker:
    """Not a chip: a callback every ``every`` cycles of the machine's time (frames for
    pictures, the live view), scheduled like the chips' events."""

    def __init__(self, every: int, callback: Callable[[], None], now: int = 0) -> None:
        self.every = max(1, every)
        self.callback = callback
        self.due = now + self.every

    def next_event(self, now: int) -> int:
        return self.due

    def advance(self, now: int) -> None:
        while now >= self.due:
            self.due += self.every
            self.callback()

    @property
    def irq(self) -> bool:
        return False


class IOArea:
    """Dispatches the I/O area's addresses to the chips."""

    def __init__(self, memory: bytearray, vic: Chip, sid: Chip, cia1: Chip, cia2: Chip) -> None:
        self.memory = memory
        self.plug(vic, sid, cia1, cia2)
        self.tickers: list[Ticker] = []

    def plug(self, vic: Chip, sid: Chip, cia1: Chip, cia2: Chip) -> None:
        """These chips answer from now on (a machine's reset brings back saved ones)."""
        self.vic, self.sid, self.cia1, self.cia2 = vic, sid, cia1, cia2
        self.chips: tuple[Chip, ...] = (vic, sid, cia1, cia2)

    def _chip(self, address: int) -> tuple[Chip | None, int]:
        page = address >> 8
        if page < 0xD4:
            return self.vic, address & 0x3F
        if page < 0xD8:
            return self.sid, address & 0x1F
        if page == 0xDC:
            return self.cia1, address & 0x0F
        if page == 0xDD:
            return self.cia2, address & 0x0F
        return None, 0  # colour RAM and the expansion pages

    def read(self, address: int, now: int) -> int:
        chip, register = self._chip(address)
        if chip is None:
            return self.memory[address]
        return chip.read(register, now)

    def peek(self, address: int, now: int) -> int:
        chip, register = self._chip(address)
        if chip is None:
            return self.memory[address]
        return chip.peek(register, now)

    def write(self, address: int, value: int, now: int) -> None:
        """After the CPU stored ``value`` at ``address`` (the byte is in memory)."""
        if COLOUR_BASE <= address < CIA1_BASE:
            self.memory[address] = value & 0x0F  # colour RAM has four bits a cell
            return
        chip, register = self._chip(address)
        if chip is None:
            return
        chip.write(register, value, now)
        self.memory[address] = chip.peek(register, now)

    def next_event(self, now: int) -> int:
        event = min(chip.next_event(now) for chip in self.chips)
        for ticker in self.tickers:
            event = min(event, ticker.due)
        return event

    def advance(self, now: int) -> None:
        for chip in self.chips:
            chip.advance(now)
        for ticker in self.tickers:
            ticker.advance(now)

    @property
    def irq(self) -> bool:
        return self.vic.irq or self.cia1.irq

    @property
    def nmi(self) -> bool:
        return bool(getattr(self.cia2, "nmi", False))
