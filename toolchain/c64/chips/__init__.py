"""The chips in the C64's I/O area, as programs can see them: the VIC-II's registers,
raster counter, sprite collisions and the cycles it takes from the CPU, the two CIAs
(ports, timers, time-of-day clocks, interrupts) and the SID's readable registers.  The
VIC-II's picture is drawn by :mod:`.vic_render` when one is asked for.

The machine (:mod:`toolchain.c64.machine`) maps each chip's register block into
$D000-$DFFF (mirrored as on the C64) and calls it with the CPU's cycle count:

* ``read(register, now)`` / ``write(register, value, now)``: ``register`` is the
  offset in the chip's block after mirroring (VIC 0-$3F, SID 0-$1F, CIA 0-$0F), ``now``
  the cycle in which the CPU touches the register (for an absolute load or store, the
  instruction's last cycle; the chips are exact to the cycle when it is);
* ``peek(register, now)``: the value a read would give, without its side effects
  (for the monitor and for tests);
* ``next_event(now)``: the cycle at which the chip must next be brought up to date
  because something programs can notice happens then (an interrupt, a timer
  underflow that matters), or :data:`NEVER`;
* ``advance(now)``: bring the chip's state up to cycle ``now``;
* ``irq`` (and ``nmi`` for CIA 2): whether the chip pulls the interrupt line now.

The fast path (issue 25).  A chip may also say how an access to one register can be
done without a method call, as Python source that the machine compiles into the CPU's
translated code and into its own per-register functions (:mod:`toolchain.c64.io`):

* ``compiled_read(register)``: an expression giving what ``read`` gives (its effect,
  if it has one, as statements run before: :class:`Source`), for a register whose read
  moves no event, or says so with ``{changed}`` (other than what ``advance`` would
  bring anyway);
* ``compiled_write(register)``: statements doing what ``write`` does, for a register
  whose write changes no event (``next_event``) and no interrupt line;
* ``compiled_write_run(register)`` and ``RUN_END`` (the SID): a write as one of a run
  of consecutive stores to the chip, which the CPU's translated code writes as one
  piece: each store's own statements, the write log appended to and ``RUN_END`` (the
  data bus) once for the run (:meth:`toolchain.c64.io.IOArea.write_run_source`), and
  ``compiled_write_pair(first, second, apart)`` two of a run's stores, one after the
  other, as one piece (the SID's frequency and envelope rate registers:
  :meth:`toolchain.c64.io.IOArea.write_pair_source`);
* ``compiled_port_read(register)`` (a CIA instance): a port's read from what drives its
  pins (``compiled_pins`` of the ports plugged in, an expression of eight bits: the
  keyboard matrix while it is idle, the joysticks, CIA 2's bus lines and user port);
* ``compiled_read_ahead(register)``: ``read`` as source for a cycle the machine's
  clock has not reached yet, with nothing but the KERNAL's standard interrupt handler
  running in between (it acknowledges CIA 1's timer and scans the keyboard): for the
  registers whose value and effects that handler cannot change.  BASIC's PEEK reads
  so without bringing the chips up to its time first.  ``{changed}`` in such a source
  may move only the VIC-II's stolen cycles (the raster's watch), which no CPU takes
  while BASIC runs;
* ``compiled_poll(register, kind)`` (the VIC-II's raster): a loop that polls the
  register until its value changes, as the name of a method that says how many of the
  loop's reads can be left out, changing nothing but the time (the CPU's translated code
  adds their cycles at once: :meth:`toolchain.c64.io.IOArea.poll_source`);
* ``FIXED_ATTRIBUTES`` (objects the chip never binds again: its registers, timers,
  oscillators, what is plugged into its ports) and ``REGION_CONSTANTS`` (expressions
  that keep their value while a translated region runs: the VIC-II's ``beam is None``,
  the write logs): the translated code looks them up once as a region starts;
* ``EVENT_READS``, ``EVENT_WRITES``: the registers whose ``read`` or ``write`` can
  change the chip's next event or its interrupt line (CIA: reading the interrupt
  control register releases the line; the SID has none); a chip without them is asked
  for its next event after any access that goes through its methods.

In the source ``{chip}`` stands for the chip, ``{now}`` for the cycle and ``{value}``
for the byte written (each may be used several times, so they are simple names or
sums and AND expressions, unbracketed: bracket them where an operator binds tighter),
``{changed}`` for the statement that tells the machine the chip's next event
may have moved; None means the register needs the method.  A source may hold only
while a ``guard`` is true (the VIC-II's while it draws no sprite collisions): else the
method runs.  ``tests/test_chips_fast.py`` checks
every piece of source against the methods on random states: whoever changes what a
register does changes its source beside it.

Nothing is stepped cycle by cycle: counters, raster, clocks and oscillators are worked
out from the cycle count when they are looked at, so a program polling $D012 or $DC01
costs a few microseconds a read, and a gap of a day costs nothing.

What is modelled (each fact cited where it is coded; measured on VICE 3.10 in
tests/test_chips_vice.py, tests/data/machine):

* VIC-II (:mod:`.vic`): the 47 registers as read back (unused bits 1, $D02F-$D03F
  $FF), the raster counter in $D012 and $D011 bit 7 (PAL: 63 cycles, 312 lines), the
  raster compare and its interrupt ($D019/$D01A), where the screen and character set
  are ($D018: :meth:`.vic.Vic.memory_setup`), sprite-sprite and sprite-background
  collisions ($D01E/$D01F, cleared on read, their interrupts), bad lines and sprite DMA
  taking the CPU's cycles; the picture of every mode and all sprites (:mod:`.vic_render`).
* CIA 6526 (:mod:`.cia`), twice: ports with data direction registers and what drives
  them (CIA 1: keyboard matrix and joysticks, :mod:`.keyboard`; CIA 2: the serial bus
  lines read back, the VIC bank, the user port), both timers in every mode that needs
  no CNT pulses (continuous, one-shot, force load, timer B counting timer A), the
  interrupt control register, the time-of-day clock from 50 Hz mains (hold on reading
  hours, stop on writing hours, AM/PM, the alarm), the serial data register stored.
* SID (:mod:`.sid`, 6581 or 8580): registers stored, write-only ones reading the
  fading data bus, paddles $FF, voice 3's oscillator $D41B (sawtooth, triangle with
  ring modulation, pulse, noise from the 23-bit shift register: random numbers) and
  envelope $D41C (ADSR with the real rate table and exponential decay).
* The KERNAL's start-up writes (:mod:`.power_on`) for a machine without the ROMs.

Not modelled: the light pen, the VIC-II's tricks that need more than a line's writes
(sprite crunch, VSP, FLI's half-fetched cells; writes to memory during a frame show as
the memory is when the frame is drawn), sound output and the filter, the SID's
combined waveforms (approximated) and hard sync, the CIAs' serial shift register
transfers, CNT and FLAG pins, timer outputs on
port B, RESTORE, devices on the serial bus (no drive, no printer at this level),
paddles, light pens and mice in the control ports.
"""

from __future__ import annotations

import copyreg
from typing import Any, NamedTuple, Protocol, SupportsIndex

NEVER = 1 << 62  # a cycle count that is never reached

# PAL C64 timing (C64 Programmer's Reference Guide; the 6569 VIC-II datasheet): the CPU
# clock is the 17.734475 MHz crystal divided by 18
CYCLES_PER_SECOND = 985_248
CYCLES_PER_LINE = 63
LINES_PER_FRAME = 312
CYCLES_PER_FRAME = CYCLES_PER_LINE * LINES_PER_FRAME  # 19,656: 50.125 frames a second


# The names compiled register source may use besides {chip}, {now} and {value} (the
# write log, held while it is appended to); the CPU's translated code keeps clear of them.
COMPILED_NAMES = ("wl",)


_SLOT_NAMES: dict[type, tuple[str, ...]] = {}  # each Slotted class's slots, its bases' first


class Slotted:
    """A base for the chips and the objects they hold, whose attributes are declared in
    ``__slots__``.  CPython (3.11 and on) reaches an attribute fastest in a slot or in
    the class's shared inline layout; an object whose ``__dict__`` was ever looked at
    (by pickle and copy, which the machine's snapshot and reset use, or by ``vars``)
    keeps its attributes in a dictionary of its own from then on, and every attribute
    access of the CPU's translated code on it takes the slow path: the SID's 14-store
    loop ran in 1.6x the CPU instructions (callgrind, benchmarks/chip_speed.py).  Slots
    have no ``__dict__`` to look at: a snapshot copies them by name, here."""

    __slots__ = ()

    def __getstate__(self) -> dict[str, Any]:
        kind = type(self)
        names = _SLOT_NAMES.get(kind)
        if names is None:
            names = _SLOT_NAMES[kind] = tuple(name for base in reversed(kind.__mro__)
                                              for name in base.__dict__.get("__slots__", ()))
        return {name: getattr(self, name) for name in names if hasattr(self, name)}

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[Any, ...]:
        # the slots as pickle's "slot state" (None, slots): the unpickler sets them in C,
        # with no Python call per object (a __setstate__ for each was half of a machine's
        # reset, which each of a verifier's thousand games begins with).  A class whose
        # __setattr__ works something out is given its state whole (see set_slots)
        state = self.__getstate__()
        kind = type(self)
        # (copyreg.__newobj__ is what pickle writes as its NEWOBJ opcode; typeshed omits it)
        newobj = copyreg.__newobj__  # type: ignore[attr-defined]
        return newobj, (kind,), state if hasattr(kind, "__setstate__") else (None, state)

    def set_state(self, state: dict[str, Any]) -> None:
        """The attributes ``state`` (from :meth:`__getstate__`) names, as they are there."""
        for name, value in state.items():
            setattr(self, name, value)


def set_slots(self: Slotted, state: dict[str, Any]) -> None:
    """A ``__setstate__`` for a Slotted class whose ``__setattr__`` works fields out from
    others: the state is whole, so the hook is passed by (it would look at slots not set yet)."""
    for name, value in state.items():
        object.__setattr__(self, name, value)


class Source(NamedTuple):
    """A register's access as source (see the fast path above): ``code`` is a read's
    expression or a write's statements; ``before``, statements a read runs first (its
    own effect); ``guard``, an expression under which the source holds (else the chip's
    method runs).  A chip may give a plain string for ``code`` alone."""

    code: str
    before: str = ""
    guard: str = ""


class Chip(Protocol):
    def read(self, register: int, now: int) -> int: ...

    def peek(self, register: int, now: int) -> int: ...

    def write(self, register: int, value: int, now: int) -> None: ...

    def next_event(self, now: int) -> int: ...

    def advance(self, now: int) -> None: ...

    @property
    def irq(self) -> bool: ...
