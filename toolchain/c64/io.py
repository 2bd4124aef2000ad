"""The I/O area ($D000-$DFFF) as the CPU sees it: the VIC-II at $D000 (its 64
registers repeated every 64 bytes up to $D3FF), the SID at $D400 (32 registers,
repeated to $D7FF), colour RAM at $D800 (1 KiB of 4-bit cells), CIA 1 at $DC00 and
CIA 2 at $DD00 (16 registers each, repeated through their page), and the two
expansion pages $DE00/$DF00 (nothing attached).

Reads and writes are passed to the chips with the CPU's cycle count; the bytes of the
area in the machine's memory mirror what a read would give (so the screen, colour
RAM and the VIC's registers can be rendered from memory), colour RAM keeps 4 bits.

The fast path (issue 25).  A register whose chip gives its access as source
(``compiled_read``/``compiled_write``, see :mod:`toolchain.c64.chips`) costs no
method dispatch: the CPU's translated code holds the source itself
(:meth:`IOArea.read_source`, :meth:`IOArea.write_source`), and Python's own accesses
(BASIC's PEEK and POKE, the interpreter, ROM routines) call a small function compiled
once from it.  The other registers go through the chip's ``read``/``write``.

The chips' events are scheduled: :meth:`IOArea.next_event` is the earliest cycle at
which a chip must be brought up to date (an interrupt, a timer underflow that
matters), kept from one access to the next and worked out again only for a chip
whose state an access may have changed in a way that moves its event (a write
without source, a read in its ``EVENT_READS``) or when the machine brings the chips up
to date (:meth:`IOArea.advance`).  Code that changes a chip's state by other means
calls :meth:`IOArea.changed`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple

from toolchain.c64.chips import NEVER, Chip, Source

VIC_BASE, SID_BASE, COLOUR_BASE, CIA1_BASE, CIA2_BASE = 0xD000, 0xD400, 0xD800, 0xDC00, 0xDD00
IO_BASE, IO_SIZE = 0xD000, 0x1000
CHIP_NAMES = ("vic", "sid", "cia1", "cia2")  # the IOArea's attributes, in the order of its chips
VIC, SID, CIA1, CIA2 = range(4)
# The cycles from a chip's interrupt event to the first instruction boundary at which the
# 6510 takes the interrupt: the line's delay and the CPU's two cycles, as code that reads
# the chips sees them (a read or write is timed at its instruction's first cycle here).
# VICE 3.10, measured with tests/data/machine/kernal/irq-where (a CIA timer the program
# starts) and irq-raster-exact (a start synchronised with the raster to the cycle):
# every one of 64 interrupts comes before the same instruction as on VICE.  (The VIC-II's
# was 1, fitted on irq-raster-where, whose start against the raster is known to 7 cycles
# only: at 1 it matched at the phase that run happened to start at, at 5 at another.)
CIA_SEEN_AFTER = 5
VIC_SEEN_AFTER = 5
REGISTERS = (0x40, 0x20, 0x10, 0x10)  # each chip's registers (then repeated)
LINES = ("irq", None, "irq", "nmi")  # the interrupt line each chip pulls
NO_CHIP = -1  # colour RAM and the expansion pages: memory
COLOUR = -2  # colour RAM: a write keeps four bits


def _route(address: int) -> tuple[int, int]:
    """Which chip answers at ``address`` of the I/O area, and its register there."""
    page = address >> 8
    if page < 0xD4:
        return VIC, address & 0x3F
    if page < 0xD8:
        return SID, address & 0x1F
    if page == 0xDC:
        return CIA1, address & 0x0F
    if page == 0xDD:
        return CIA2, address & 0x0F
    if page < 0xDC:
        return COLOUR, 0
    return NO_CHIP, 0  # the expansion pages


ROUTES: tuple[tuple[int, int], ...] = tuple(_route(IO_BASE + offset) for offset in range(IO_SIZE))

# A write to the VIC-II or a CIA may change the chips' timing: the CPU's translated code
# ends its block there (see the machine: a region returns to the run loop after it).
ENDS_BLOCK = (True, False, True, True)


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


def _source(chip: Chip, register: int, write: bool, ahead: bool = False) -> Source | None:
    """The chip's source for an access to ``register`` (None when it has none);
    ``ahead``: for a read ahead of the machine's clock (compiled_read_ahead)."""
    if ahead:
        found = getattr(chip, "compiled_read_ahead", lambda register: None)(register)
        return Source(found) if isinstance(found, str) else found
    method = getattr(chip, "compiled_write" if write else "compiled_read", None)
    found = None if method is None else method(register)
    if found is None and not write:
        # a port's read depends on what is plugged in: the instance's (Cia.compiled_port_read)
        port_read = getattr(chip, "compiled_port_read", None)
        found = None if port_read is None else port_read(register)
    return Source(found) if isinstance(found, str) else found


def _fill(text: str, index: int, local: bool = True, ahead: bool = False) -> str:
    """A chip's source for the CPU's translated code (``local``: the chip is the region's
    local of its name, {now} and {value} are left for the translator) or for a compiled
    function of the area (the chip is ``io``'s attribute; ``now`` and ``value`` are
    parameters); ``{changed}``: the chip's next event may have moved (:meth:`IOArea.moved`;
    translated code takes the horizon it gives)."""
    chip = CHIP_NAMES[index]
    if local:
        return text.format(chip=chip, now="{now}", value="{value}", now2="{now2}", value2="{value2}",
                           changed=f"horizon = io.moved({index}, horizon)")
    changed = f"io.stalls_moved({index})" if ahead else f"io.moved({index})"
    return text.format(chip=f"io.{chip}", now="now", value="value", changed=changed)


def _fixed_paths(chip: Chip) -> tuple[str, ...]:
    """The chip's ``FIXED_ATTRIBUTES`` (objects it never binds again: its registers, its
    timers, what is plugged into its ports) that this instance has, longest first."""
    found = []
    for path in getattr(chip, "FIXED_ATTRIBUTES", ()):
        owner: Any = chip
        for name in path.split("."):
            owner = getattr(owner, name, None)
        if owner is not None:
            found.append(path)
    return tuple(sorted(found, key=len, reverse=True))


def _local_name(index: int, path: str) -> str:
    return f"{CHIP_NAMES[index]}_{path.replace('.', '_')}"


def _indented(text: str, indent: str = "    ") -> str:
    return "\n".join(indent + line for line in text.splitlines())


Functions = list[Callable[..., Any] | None]


def _functions(chip: Chip, index: int) -> tuple[Functions, Functions, Functions]:
    """A chip's accesses as Python functions (None where the chip has no source), all
    compiled at once: ``read(io, now)``; ``write(io, address, value, now)``, which also
    puts what a read gives now into memory at ``address``; ``ahead(io, now)``, a read
    ahead of the machine's clock (compiled_read_ahead).  Where the source holds only
    under a guard, the function calls the chip's method otherwise."""
    def fill(text: str) -> str:
        return _fill(text, index, local=False)

    lines: list[str] = []
    for register in range(REGISTERS[index]):
        ahead = _source(chip, register, False, ahead=True)
        if ahead is not None:
            assert not ahead.guard, "a read ahead has no method to fall back on"
            lines.append(f"def ahead_{register}(io, now):")
            if ahead.before:
                lines.append(_indented(_fill(ahead.before, index, local=False, ahead=True)))
            lines.append(f"    return {fill(ahead.code)}")
        read = _source(chip, register, False)
        if read is not None:
            lines.append(f"def read_{register}(io, now):")
            if read.guard:
                lines.append(f"    if not ({fill(read.guard)}):\n"
                             f"        return io.method_read({index}, {register}, now)")
            if read.before:
                lines.append(_indented(fill(read.before)))
            lines.append(f"    return {fill(read.code)}")
        write = _source(chip, register, True)
        run = _run_parts(chip, register)
        if run is not None:  # as a run of one store (IOArea.write_run_source): memory shows the byte
            name = CHIP_NAMES[index]
            lines.append(f"def write_{register}(io, address, value, now):\n    {name} = io.{name}\n"
                         f"    if {name}.write_log is not None:\n"
                         f"        {name}.write_log.append((now, {register}, value))")
            lines.extend(_indented(_fill(part, index).format(value="value", now="now")) for part in run)
            lines.append("    io.memory[address] = value")
        elif write is not None:
            lines.append(f"def write_{register}(io, address, value, now):")
            if write.guard:
                lines.append(f"    if not ({fill(write.guard)}):\n"
                             f"        return io.method_write({index}, {register}, address, value, now)")
            lines.append(_indented(fill(write.code)))
            lines.append(f"    io.memory[address] = {fill(_mirror(read, register))}")
    namespace: dict[str, Any] = {}
    exec(compile("\n".join(lines) + "\n", f"<{type(chip).__name__} registers>", "exec"), namespace)
    def compiled(kind: str) -> Functions:
        return [namespace.get(f"{kind}_{register}") for register in range(REGISTERS[index])]

    return compiled("read"), compiled("write"), compiled("ahead")


def _run_parts(chip: Chip, register: int) -> tuple[str, str] | None:
    """A write to ``register`` as one of a run of stores (see IOArea.write_run_source):
    the store's own statements and the run's end, unfilled; None where the chip has none."""
    method = getattr(chip, "compiled_write_run", None)
    end = getattr(chip, "RUN_END", None)
    code = None if method is None or end is None else method(register)
    return None if code is None or end is None else (code, end)


def _mirror(read: Source | None, register: int) -> str:
    """What memory shows after a write: what a read gives without its effects (the
    chip's source where it needs nothing, else its peek)."""
    if read is not None and not read.before:
        if not read.guard:
            return read.code
        return f"({read.code} if {read.guard} else {{chip}}.peek({register}, {{now}}))"
    return f"{{chip}}.peek({register}, {{now}})"


def _colour_write(io: IOArea, address: int, value: int, now: int) -> None:
    io.memory[address] = value & 0x0F  # colour RAM has four bits a cell


def _memory_write(io: IOArea, address: int, value: int, now: int) -> None:
    io.memory[address] = value  # the expansion pages: nothing attached


# a write's source that begins by storing the byte in an attribute of the chip (or a cell of it)
_STORES_VALUE = re.compile(r"(\{chip\}\.\w+(?:\[\d+\])?) = \{value\}$", re.MULTILINE)


class RunStore(NamedTuple):
    """A store as one of a run of stores to one chip (:meth:`IOArea.write_run_source`)."""

    chip: str
    register: int
    code: str
    end: str
    log: str = ""  # the chip's write log (an expression of the translated code)


_tables: dict[tuple[type, ...], tuple[list[Any], list[Any], list[Any], list[Any], list[Any]]] = {}
_AddressTables = tuple[list[Callable[["IOArea", int], int] | None],
                       list[Callable[["IOArea", int, int, int], None] | None],
                       list[Callable[["IOArea", int, int, int], None] | None]]
_address_tables: dict[tuple[type, ...], _AddressTables] = {}
# per kinds of chip: their fixed objects, region constants and the names both get in the
# translated code (see IOArea.plug)
_RegionNames = tuple[list[tuple[str, ...]], list[dict[str, str]], dict[str, str]]
_region_names: dict[tuple[type, ...], _RegionNames] = {}


class IOArea:
    """Dispatches the I/O area's addresses to the chips (see the module's description).
    ``visible`` says whether the processor port shows the I/O area (the machine keeps
    it); the compiled accesses of the CPU's translated code hold only then."""

    def __init__(self, memory: bytearray, vic: Chip, sid: Chip, cia1: Chip, cia2: Chip) -> None:
        self.memory = memory
        self.visible = False
        self.tickers: list[Ticker] = []
        self.hooked: frozenset[int] = frozenset()  # addresses a debugger watches: no compiled writes
        self.on_moved: Callable[[], int] | None = None  # see moved()
        self._events: list[int | None] = []
        self._pulled: list[bool] = []  # whether the chip pulled its line when its event was worked out
        self._event: int | None = None
        self._lines = False  # an interrupt line was pulled when the event was worked out
        # counts every change that may move an event (changed(), advance()): a horizon
        # worked out from the events holds while the count stays (see quiet_horizon)
        self.changes = 0
        self.plug(vic, sid, cia1, cia2)

    def plug(self, vic: Chip, sid: Chip, cia1: Chip, cia2: Chip) -> None:
        """These chips answer from now on (a machine's reset brings back saved ones)."""
        self.vic, self.sid, self.cia1, self.cia2 = vic, sid, cia1, cia2
        self.chips: tuple[Chip, ...] = (vic, sid, cia1, cia2)
        # per chip and register: the compiled accesses (None: the chip's method), and the
        # registers whose access may move the chip's event (the same for the same kinds of chip)
        kinds = (*map(type, self.chips), *(type(getattr(chip, "ports", None)) for chip in self.chips))
        tables = _tables.get(kinds)
        if tables is None:
            functions = [_functions(chip, index) for index, chip in enumerate(self.chips)]
            tables = _tables[kinds] = ([reads for reads, _, _ in functions],
                                       [writes for _, writes, _ in functions],
                                       [getattr(chip, "EVENT_READS", None) for chip in self.chips],
                                       [getattr(chip, "EVENT_WRITES", None) for chip in self.chips],
                                       [aheads for _, _, aheads in functions])
        self._readers, self._writers, self._event_reads, self._event_writes, aheads = tables
        # the per-address tables below are the same for the same kinds of chip: worked out
        # once (a machine's reset plugs chips in before every run, and these loops over
        # the area were 4% of a Superhirn game)
        address_tables = _address_tables.get(kinds)
        if address_tables is None:
            address_tables = _address_tables[kinds] = self._address_tables(aheads)
        self.ahead_readers, self.address_writers, self.ahead_writers = address_tables
        # the chips' fixed objects as locals of the CPU's translated code (set as a region
        # starts, like the chips: an attribute lookup less at each access), and the
        # expressions that keep their value while a region runs (REGION_CONSTANTS)
        names = _region_names.get(kinds)
        if names is None:
            names = _region_names[kinds] = self._region_names()
        self._fixed, self._constants, self.entry_names = names
        self.changed()

    def _region_names(self) -> _RegionNames:
        fixed = [_fixed_paths(chip) for chip in self.chips]
        constants = [dict(getattr(chip, "REGION_CONSTANTS", {})) for chip in self.chips]
        entry_names = {**IOArea.entry_names,
                       **{_local_name(index, path): f"io.{CHIP_NAMES[index]}.{path}"
                          for index, paths in enumerate(fixed) for path in paths},
                       **{_local_name(index, name): expression.format(chip=f"io.{CHIP_NAMES[index]}")
                          for index, constants_of in enumerate(constants)
                          for expression, name in constants_of.items()}}
        return fixed, constants, entry_names

    def _address_tables(self, aheads: list[Any]) -> _AddressTables:
        """Per address of the area: the read ahead of the machine's clock (None: there is
        none); the compiled write that an indexed store may call (indexed_write_source;
        None where the write goes through the machine); the compiled write of a VIC-II
        or SID register that moves no event, whose read (a POKE reads first) has none
        either: BASIC's POKE may make it ahead of the machine's clock where only the
        KERNAL's interrupt handler can run in between (C64.only_kernal_interrupts):
        nothing it does depends on them."""
        ahead_readers: list[Callable[[IOArea, int], int] | None] = [
            aheads[index][register] if index >= 0 else None for index, register in ROUTES]
        writers: list[Callable[[IOArea, int, int, int], None] | None] = [None] * IO_SIZE
        for offset, (index, register) in enumerate(ROUTES):
            if index == COLOUR:
                writers[offset] = _colour_write
            elif index == NO_CHIP:
                writers[offset] = _memory_write
            elif not ENDS_BLOCK[index]:
                writers[offset] = self._writers[index][register]
        ahead_writers: list[Callable[[IOArea, int, int, int], None] | None] = [
            self._writers[index][register] if index in (VIC, SID) and self._readers[index][register]
            else None for index, register in ROUTES]
        return ahead_readers, writers, ahead_writers

    # -- events ---------------------------------------------------------------------------------
    def changed(self, index: int | None = None) -> None:
        """A chip's state changed behind the area's back (``index``: which chip; None:
        any): its next event is worked out again when it is asked for."""
        if index is None:
            self._events = [None] * len(self.chips)
            self._pulled = [False] * len(self.chips)
        else:
            self._events[index] = None
        self._event = None
        self.changes += 1

    def stalls_moved(self, index: int) -> None:
        """A read ahead of the machine's clock moved the VIC-II's stolen cycles (the
        raster's watch): its next event is worked out again; the quiet horizons, which
        leave the stolen cycles out, hold (:attr:`changes` stays)."""
        self._events[index] = None
        self._event = None

    def moved(self, index: int, horizon: int = 0) -> int:
        """A compiled access may have moved chip ``index``'s next event (its source's
        ``{changed}``): as :meth:`changed`, and the owner's ``on_moved`` (the machine
        lowers the running blocks' horizon where the event comes sooner: the lower of the
        two horizons is returned)."""
        self.changed(index)
        return horizon if self.on_moved is None else min(horizon, self.on_moved())

    @property
    def rescheduling(self) -> bool:
        """Whether the next event is to be worked out again (an access may have moved it)."""
        return self._event is None

    def quiet(self, now: int, until: int, but: int | None = None) -> bool:
        """Whether nothing happens from ``now`` up to ``until``: no event, and no chip
        pulls an interrupt line (kept with the events: a line changes only where an
        event may move); ``but``: in the chips other than that one."""
        event = self._event
        if event is None or self.tickers:
            event = self.next_event(now)  # (works out every chip's event)
        if but is None:
            return event > until and not self._lines
        events, pulled = self._events, self._pulled
        for index in range(len(events)):
            if index != but and (events[index] <= until or pulled[index]):  # type: ignore[operator]
                return False
        return all(ticker.due > until for ticker in self.tickers)

    def next_event(self, now: int) -> int:
        """The earliest cycle at which a chip or a ticker must be brought up to date."""
        event = self._event
        if event is None:
            events, pulled = self._events, self._pulled
            for index, chip in enumerate(self.chips):
                if events[index] is None:
                    events[index] = chip.next_event(now)
                    line = LINES[index]
                    pulled[index] = line is not None and bool(getattr(chip, line, False))
            event = self._event = min(event for event in events if event is not None)
            self._lines = True in pulled
        for ticker in self.tickers:
            if ticker.due < event:
                event = ticker.due
        return event

    def quiet_horizons(self, now: int) -> tuple[int, int]:
        """While no CPU runs (BASIC's runner passes the time): the first cycle from ``now``
        at which something happens other than the VIC-II's stolen cycles (which need a
        CPU to steal from): a chip's event; and the same leaving CIA 1 out.  ``now``
        when an interrupt line is pulled already (CIA 1's: only the first), a ticker
        runs, or the VIC-II cannot tell its interrupts from its stalls.  They hold while
        :attr:`changes` stays as it is.  Each chip is asked, not the events kept for
        :meth:`next_event`: those would have the VIC-II's stolen cycles worked out.
        """
        interrupts = getattr(self.vic, "next_interrupt", None)
        if self.tickers or interrupts is None:
            return now, now
        without_cia1 = int(interrupts(now))
        cia1 = NEVER
        for index, chip in enumerate(self.chips):
            line = LINES[index]
            pulled = line is not None and getattr(chip, line, False)
            if index == CIA1:
                cia1 = now if pulled else chip.next_event(now)
            elif pulled:
                return now, now
            elif index != VIC:
                without_cia1 = min(without_cia1, chip.next_event(now))
        return min(cia1, without_cia1), without_cia1

    def next_pull(self, now: int, irq: bool = True) -> tuple[int, int]:
        """The next pull of an interrupt line: the chips' event where it comes (CIA 2's
        NMI, and with ``irq`` CIA 1's and the VIC-II's IRQ: a CIA's event is always one
        of its interrupts, see Cia.next_event; the VIC-II's stolen cycles are no pull),
        and the first cycle at which the 6510 sees it, the line's and the CPU's delays
        after it: (NEVER, NEVER) when no pull comes."""
        self.next_event(now)  # (every chip's event worked out)
        events = self._events
        pull, after = NEVER, 0
        for index in (CIA2, CIA1) if irq else (CIA2,):
            event = events[index]
            if event is not None and event < pull:
                pull, after = event, CIA_SEEN_AFTER
        interrupts = getattr(self.vic, "next_interrupt", None) if irq else None
        if interrupts is not None:
            event = int(interrupts(now))
            if event < pull:
                pull, after = event, VIC_SEEN_AFTER
        return (NEVER, NEVER) if pull >= NEVER else (pull, pull + after)

    def event_of(self, index: int, now: int) -> int:
        """The next event of one chip (as :meth:`next_event` works it out)."""
        self.next_event(now)
        event = self._events[index]
        assert event is not None
        return event

    def advance(self, now: int) -> None:
        """Bring the chips whose event has come up to date (the others' state is worked
        out from the cycle count when they are next looked at), and the tickers."""
        events = self._events
        for index, chip in enumerate(self.chips):
            event = events[index]
            if event is None or event <= now:
                chip.advance(now)
                events[index] = None
                self._event = None
                self.changes += 1
        for ticker in self.tickers:
            ticker.advance(now)

    @property
    def irq(self) -> bool:
        return self.vic.irq or self.cia1.irq

    @property
    def nmi(self) -> bool:
        return bool(getattr(self.cia2, "nmi", False))

    # -- accesses from Python ---------------------------------------------------------------------
    def read(self, address: int, now: int) -> int:
        index, register = ROUTES[address - IO_BASE]
        if index < 0:
            return self.memory[address]
        reader = self._readers[index][register]
        if reader is not None:
            return int(reader(self, now))
        return self.method_read(index, register, now)

    def method_read(self, index: int, register: int, now: int) -> int:
        """A read through the chip's method (the register has no source, or it does not
        hold now)."""
        value = self.chips[index].read(register, now)
        event_reads = self._event_reads[index]
        if event_reads is None or register in event_reads:
            self.changed(index)
        return value

    def peek(self, address: int, now: int) -> int:
        index, register = ROUTES[address - IO_BASE]
        if index < 0:
            return self.memory[address]
        return self.chips[index].peek(register, now)

    def read_has_effects(self, address: int) -> bool:
        """Whether a read of ``address`` does more than give a value (the 6502 reads an
        address before it writes it with a read-modify-write, and BASIC's POKE does)."""
        index, register = ROUTES[address - IO_BASE]
        return index >= 0 and self._readers[index][register] is None

    def write(self, address: int, value: int, now: int, read_first: bool = False) -> bool:
        """After the CPU stored ``value`` at ``address`` (the byte is in memory); True
        when the chip's timing may have changed (the VIC-II, the CIAs).  ``read_first``:
        the register is read before (STA ($14),Y does: BASIC's POKE), where that read does
        more than give a value."""
        index, register = ROUTES[address - IO_BASE]
        if index < 0:
            if index == COLOUR:
                self.memory[address] = value & 0x0F  # colour RAM has four bits a cell
            return False
        if read_first and self._readers[index][register] is None:
            self.read(address, now)
        writer = self._writers[index][register]
        if writer is not None:
            writer(self, address, value, now)
        else:
            self.method_write(index, register, address, value, now)
        return ENDS_BLOCK[index]

    def method_write(self, index: int, register: int, address: int, value: int, now: int) -> None:
        """A write through the chip's method (the register has no source, or it does not
        hold now); memory shows what a read gives."""
        chip = self.chips[index]
        chip.write(register, value, now)
        self.memory[address] = chip.peek(register, now)
        event_writes = self._event_writes[index]
        if event_writes is None or register in event_writes:
            self.changed(index)

    # -- accesses compiled into the CPU's translated code -----------------------------------------
    # the names the source uses: "io" (this area), "mem" (the memory), "io_on" (whether the
    # I/O area is shown) and the chips by their names: looked up once as a region starts
    # (a bank switch ends the region; the chips change only with a reset, between runs)
    namespace_name = "io"
    guard = "io.visible"
    entry_names = {**{name: f"io.{name}" for name in CHIP_NAMES}, "io_writers": "io.address_writers"}

    def _local(self, text: str, index: int) -> str:
        """A chip's source for the CPU's translated code: its fixed objects and region
        constants (see :meth:`plug`) as the region's locals, then filled (:func:`_fill`)."""
        for expression, name in self._constants[index].items():
            text = text.replace(expression, "{chip}_" + name)
        for path in self._fixed[index]:  # (the whole name: voice3, not voice3_frequency_written)
            text = re.sub(re.escape("{chip}." + path) + r"(?!\w)", "{chip}_" + path.replace(".", "_"), text)
        return _fill(text, index)

    def read_source(self, address: int) -> Source | None:
        """A read of ``address`` (in the I/O area) as source with ``{now}``: the chip's,
        else its ``read`` called straight where the read cannot move an event; None when
        the read must go through the machine (it may move the next event)."""
        index, register = ROUTES[address - IO_BASE]
        if index < 0:
            return Source(f"mem[{address}]")
        source = _source(self.chips[index], register, False)
        if source is not None:
            return Source(self._local(source.code, index), self._local(source.before, index),
                          self._local(source.guard, index))
        event_reads = self._event_reads[index]
        if event_reads is None or register in event_reads:
            return None
        return Source(f"{CHIP_NAMES[index]}.read({register}, {{now}})")

    def poll_source(self, address: int, kind: str) -> str | None:
        """A loop that reads ``address`` (in the I/O area) until the value changes, as the
        callable (with the chip's name of the CPU's translated code) that says how many of
        its reads can be left out: ``(now, horizon, value, step, until_equal)``, see
        :meth:`Vic.raster_polls`; ``kind`` "compare" (the value read compared with
        ``value``) or "sign" (its bit 7 with ``value``'s); None where the chip has none
        (``compiled_poll``)."""
        index, register = ROUTES[address - IO_BASE]
        if index < 0:
            return None
        method = getattr(self.chips[index], "compiled_poll", None)
        code = None if method is None else method(register, kind)
        return None if code is None else self._local(code, index)

    def indexed_write_source(self, base: int) -> Source | None:
        """A store at ``{address}``, ``base`` plus an index of up to $FF, as source with
        ``{value}`` and ``{now}``: the area's compiled write for the address it reaches
        (a register of a chip whose write ends no block and has source, colour RAM, the
        expansion pages: the same as the machine's write), under the guard that there is
        one and that the chips' next event is known (the machine's write would work it
        out again otherwise); else the store goes through the machine.  None where the
        addresses leave the area, or a debugger watches stores in it.  Where every
        address reached is colour RAM (a colour copy or clear: STA $D800,X), the store
        itself, as the machine's write does it."""
        if self.hooked or not IO_BASE <= base <= IO_BASE + IO_SIZE - 0x100:
            return None
        if all(ROUTES[offset][0] == COLOUR for offset in (base - IO_BASE, base - IO_BASE + 0xFF)):
            return Source("mem[{address}] = ({value}) & 0x0F", guard="True")  # (colour RAM is one range)
        in_line = self._indexed_in_line(base)
        if in_line is not None:
            return in_line
        return Source("io_writer(io, {address}, {value}, {now})",  # (the guard looked it up)
                      guard=f"(io_writer := io_writers[{{address}} - {IO_BASE}]) is not None "
                            "and io._event is not None")

    def _indexed_in_line(self, base: int) -> Source | None:
        """An indexed store whose 256 addresses all reach one chip (its registers
        repeated), as the chip's own in-line part where it has one
        (``compiled_indexed_write``: a condition on the register, known only as the
        program runs, and what the store is then), else the call of the area's compiled
        write for the address, under the guard of indexed_write_source.  A player's
        register copy (STA $D400,X) rewrites mostly the bytes the SID holds: the SID's
        part is then the log and the bus, without a call."""
        index = ROUTES[base - IO_BASE][0]
        if index < 0 or ENDS_BLOCK[index]:
            return None
        mask = REGISTERS[index] - 1
        if any(ROUTES[offset] != (index, (IO_BASE + offset) & mask)
               for offset in range(base - IO_BASE, base - IO_BASE + 0x100)):
            return None
        method = getattr(self.chips[index], "compiled_indexed_write", None)
        parts = None if method is None else method()
        if parts is None:
            return None
        condition, statements = (self._local(part, index) for part in parts)
        register = self._local("{chip}_register", index)
        return Source(f"{register} = {{address}} & {mask}\n"
                      f"if {condition}:\n{_indented(statements)}\n    mem[{{address}}] = {{value}}\n"
                      f"else:\n    io_writers[{{address}} - {IO_BASE}](io, {{address}}, {{value}}, {{now}})",
                      guard="io._event is not None")

    def write_run_source(self, address: int) -> RunStore | None:
        """A store at ``address`` as one of a run of consecutive stores to the same chip
        (the CPU's translated code writes them as one piece: a store to the SID costs
        then its register and its memory byte): the chip (its name in the source), the
        store's statements with ``{value}`` and ``{now}`` (the store into memory, which
        shows the byte written, included) and the statements the run ends with (with
        its last store's ``{value}`` and ``{now}``); the run first appends all its
        writes to ``<chip>.write_log`` when there is one.  None where the chip has no
        such source (``compiled_write_run`` and ``RUN_END``: only for registers whose
        write moves no event, ends no block and needs no guard), or a debugger watches
        the address."""
        index, register = ROUTES[address - IO_BASE]
        if index < 0 or address in self.hooked or ENDS_BLOCK[index]:
            return None
        run = _run_parts(self.chips[index], register)
        if run is None:
            return None
        code, end = run
        stored = f"{self._local(code, index)}\nmem[{address}] = {{value}}"
        return RunStore(CHIP_NAMES[index], register, stored, self._local(end, index),
                        self._local("{chip}.write_log", index))

    def write_pair_source(self, first: int, second: int, apart: int) -> str | None:
        """Two stores of a run (see write_run_source), ``apart`` cycles apart, as one
        piece where their chip has one (``compiled_write_pair``: the SID's frequency and
        envelope rate registers), the stores into memory included: ``{value}`` and ``{now}`` are the
        first store's, ``{value2}`` and ``{now2}`` the second's.  None otherwise."""
        index, register = ROUTES[first - IO_BASE]
        second_index, second_register = ROUTES[second - IO_BASE]
        if index < 0 or index != second_index or first in self.hooked or second in self.hooked:
            return None
        method = getattr(self.chips[index], "compiled_write_pair", None)
        code = None if method is None else method(register, second_register, apart)
        if code is None:
            return None
        return f"{self._local(code, index)}\nmem[{first}] = {{value}}\nmem[{second}] = {{value2}}"

    def write_back_source(self, address: int) -> Source | None:
        """A read-modify-write's first write at ``address`` (the byte it read, written
        back a cycle before the new one: VICE 3.10, 6510core.c's RMW opcodes) as source
        with ``{value}`` and ``{now}``, where it is less than the write's own source: a
        write that only stores the byte and appends it to the chip's write log (the
        VIC-II's plain registers) is stored over in the next cycle, so only the log sees
        it.  None: the write's source (:meth:`write_source`) as it is."""
        index, register = ROUTES[address - IO_BASE]
        if index < 0 or address in self.hooked:
            return None
        source = _source(self.chips[index], register, True)
        lines = [] if source is None else source.code.split("\n")
        if len(lines) != 3 or not _STORES_VALUE.match(lines[0]) \
                or lines[1] != "if {chip}.write_log is not None:":
            return None
        return Source(self._local("\n".join(lines[1:]), index))

    def write_source(self, address: int) -> tuple[Source, bool] | None:
        """A write at ``address`` as source with ``{value}`` and ``{now}`` (the store into
        memory included), and whether the CPU's block ends after it: the chip's source,
        else its ``write`` called straight where the write cannot move an event; None
        when the write must go through the machine (or a debugger watches it)."""
        index, register = ROUTES[address - IO_BASE]
        if address in self.hooked:
            return None
        if index == NO_CHIP:
            return Source(f"mem[{address}] = {{value}}"), False
        if index == COLOUR:
            return Source(f"mem[{address}] = {{value}} & 0x0F"), False
        chip = self.chips[index]
        source = _source(chip, register, True)
        if source is None:
            event_writes = self._event_writes[index]
            if event_writes is None or register in event_writes:
                return None
            source = Source(f"{{chip}}.write({register}, {{value}}, {{now}})")
        mirror = _mirror(_source(chip, register, False), register)
        stored = _STORES_VALUE.match(source.code)
        if stored is not None:  # what the write has just stored there: the byte itself
            mirror = re.sub(re.escape(stored.group(1)) + r"(?!\w)", "({value})", mirror)
        code = f"{self._local(source.code, index)}\nmem[{address}] = {self._local(mirror, index)}"
        return Source(code, guard=self._local(source.guard, index)), ENDS_BLOCK[index]
