"""The MOS 6526 CIA, as programs see it: two 8-bit ports with data direction registers,
two 16-bit interval timers, the time-of-day clock with its alarm, the interrupt control
register, and the serial data register (stored only: nothing is shifted).  The C64 has
two: CIA 1 at $DC00 (keyboard, joysticks; its interrupt is the CPU's IRQ) and CIA 2 at
$DD00 (serial bus, VIC bank, user port; its interrupt is the NMI).

Sources: the MOS 6526 datasheet (registers, timer modes, TOD, ICR); VICE 3.10's
ciacore.c and c64cia1.c/c64cia2.c (reset values, port wiring, TOD details); and
measurements on VICE 3.10 (x64sc, the default old 6526) kept in tests/test_chips_cia.py
and tests/data/machine (tod.bas: the time-of-day clock), which fix the timing:

* A timer counts down once a cycle.  Started (CRA/CRB bit 0 going to 1) by a write at
  cycle W, it counts from its held value from W+2 on; force-loaded (bit 4) by a write at
  W, it counts down from the latch from W+3 on (stopped, the counter takes the latch at
  once; so does writing the latch's high byte to a stopped timer).  A write that stops
  it freezes the value the counter has at W+2.
* Counting phi2 (the CPU clock), a timer reaches 1 and underflows on the next cycle: the
  counter shows the latch for two cycles (the underflow and the reload) and never 0, so
  an underflow comes every latch+1 cycles.  The interrupt flag is set in the cycle of
  the underflow; a one-shot timer then holds the latch and clears its start bit.
* Timer B counting timer A's underflows (CRB bits 5-6 = %10, or %11: CNT is pulled up
  on the C64) steps down two cycles after each of them and shows 0 until the next one
  reloads it; the reload shows, and its own underflow (the flag) comes, one cycle after
  timer A's.  A timer set to count CNT edges
  (CRA bit 5, CRB %01) stands still: nothing drives CNT.

Not modelled: the timers' outputs on port B (PB6/PB7, CRA/CRB bits 1-2), shifting the
serial data register in or out (and its interrupt), the FLAG pin, the 6526A's
differences (the interrupt one cycle earlier).
"""

from __future__ import annotations

from typing import Protocol

from toolchain.c64.chips import CYCLES_PER_FRAME, CYCLES_PER_SECOND, NEVER, Slotted, Source, set_slots

PRA, PRB, DDRA, DDRB = 0x0, 0x1, 0x2, 0x3
TA_LO, TA_HI, TB_LO, TB_HI = 0x4, 0x5, 0x6, 0x7
TOD_TENTHS, TOD_SECONDS, TOD_MINUTES, TOD_HOURS = 0x8, 0x9, 0xA, 0xB
SDR, ICR, CRA, CRB = 0xC, 0xD, 0xE, 0xF

# interrupt sources (ICR bits)
TIMER_A, TIMER_B, ALARM, SERIAL, FLAG = 0x01, 0x02, 0x04, 0x08, 0x10

# control register bits
START, ONE_SHOT, FORCE_LOAD = 0x01, 0x08, 0x10
CRA_COUNT_CNT = 0x20  # timer A counts CNT edges instead of phi2
CRA_TOD_50HZ = 0x80  # the TOD divides the mains by 5 (50 Hz), else by 6 (60 Hz)
CRB_INPUT = 0x60  # timer B's input: %00 phi2, %01 CNT, %10 timer A underflows, %11 those while CNT is high
CRB_ALARM = 0x80  # TOD writes go to the alarm

START_DELAY = 2  # the counter counts from W+2 after a start at W
LOAD_DELAY = 3  # ... from W+3 after a force load
STOP_DELAY = 2  # a stop at W freezes the value of W+2
CASCADE_DELAY = 2  # timer B (counting timer A) shows a step two cycles after timer A's underflow
CASCADE_FLAG_DELAY = 1  # ... and its own underflow comes one cycle after timer A's

OFTEN = CYCLES_PER_FRAME // 2  # see Cia.interrupts_often
TENTHS_A_DAY = 24 * 60 * 60 * 10  # the TOD runs through 12 AM ... 11 PM


class Ports(Protocol):
    """What drives a CIA's port pins from outside.  Each method returns the pin levels
    (1 high, 0 pulled low) of one port; ``scanning`` is False for a side-effect-free look
    (the monitor's peek)."""

    def pins_a(self, cia: Cia, now: int, scanning: bool) -> int: ...

    def pins_b(self, cia: Cia, now: int, scanning: bool) -> int: ...


class Idle(Slotted):
    """Nothing attached: every input pin is pulled up."""

    __slots__ = ()

    def pins_a(self, cia: Cia, now: int, scanning: bool) -> int:
        return 0xFF

    def pins_b(self, cia: Cia, now: int, scanning: bool) -> int:
        return 0xFF

    def compiled_pins(self, port: int) -> Source | None:
        """The pins as source (see Cia.compiled_port_read)."""
        return Source("0xFF")


class SerialBusAndUserPort(Slotted):
    """CIA 2's ports on a C64 with nothing on the serial bus or the user port.

    Port A bits 3-5 drive ATN, CLOCK and DATA through inverters (7406) onto the bus,
    bits 6-7 read CLOCK and DATA back: with no other device on the bus, each line is low
    exactly when the C64 pulls it, so bit 6 reads the inverse of bit 4 and bit 7 the
    inverse of bit 5 (measured on VICE: $DD00 reads $C7 after $07 is written, $97 after
    $17, $67 after $27; an input pin is pulled up, so with DDRA 0 the outputs pull
    both lines low).  VICE's 1541, when present, also pulls DATA while ATN is asserted;
    c64tc has no drive.  Port B is the user port: ``user_port`` holds the levels there
    (idle $FF, measured)."""

    __slots__ = ("user_port",)

    def __init__(self, user_port: int = 0xFF) -> None:
        self.user_port = user_port

    def pins_a(self, cia: Cia, now: int, scanning: bool) -> int:
        level = cia.port_a_level
        return 0x3F | (~level << 2 & 0xC0)

    def pins_b(self, cia: Cia, now: int, scanning: bool) -> int:
        return self.user_port

    def compiled_pins(self, port: int) -> Source | None:
        """The pins as source (see Cia.compiled_port_read)."""
        if port == 0:
            return Source("(0x3F | (~({chip}.pra | ~{chip}.ddra) << 2 & 0xC0))")
        return Source("{chip}.ports.user_port")


class _Timer(Slotted):
    """One interval timer.  Running and counting phi2, the counter shows ``value`` at cycle
    ``start`` and counts down from there (see the module's description for the pattern
    around an underflow); otherwise it holds ``value``."""

    __slots__ = ("latch", "value", "start", "running", "counting", "one_shot", "cascade", "plain_from",
                 "plain_base", "plain_period")

    latch: int
    value: int
    start: int
    running: bool
    counting: bool
    one_shot: bool
    cascade: bool
    plain_from: int  # see _plain
    plain_base: int
    plain_period: int

    def __init__(self) -> None:
        fields = dict(
            latch=0xFFFF,  # a reset sets the latches to $FFFF (datasheet; VICE ciat_reset)
            value=0xFFFF,
            start=0,
            running=False,  # the control register's start bit
            counting=True,  # counting phi2 (not CNT, not timer A's underflows)
            one_shot=False,
            cascade=False)  # timer B counting timer A's underflows
        for name, value in fields.items():  # (the fields at once: _plain needs them all)
            object.__setattr__(self, name, value)
        self._plain()

    # The fast path (Cia.compiled_read): a running timer counting phi2 continuously, from
    # a value no higher than the latch, shows (plain_base - now) mod plain_period, or the
    # latch where that is 0 (the underflow's cycle: see counter), at any cycle from
    # plain_from on (NEVER in any other mode).  Worked out again whenever one of the
    # fields it comes from is set: a program polling a timer reads it with no call.
    _COUNTING = frozenset({"latch", "value", "start", "running", "counting", "one_shot", "cascade"})

    __setstate__ = set_slots  # (a copy from a snapshot sets its slots past the hook below)

    def __setattr__(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)
        if name in _Timer._COUNTING:
            self._plain()

    def _plain(self) -> None:
        store = object.__setattr__  # (not a field _plain comes from: no hook)
        if (self.running and self.counting and not self.cascade and not self.one_shot
                and 0 < self.value <= self.latch):
            store(self, "plain_from", self.start)
            store(self, "plain_base", self.start + self.value)
            store(self, "plain_period", self.latch + 1)
        else:
            store(self, "plain_from", NEVER)
            store(self, "plain_base", 0)
            store(self, "plain_period", 1)

    # -- counting phi2 -----------------------------------------------------------------------
    # (whether it counts phi2 is spelled out in each method: a program polling a timer
    # calls counter() for every read)
    def _clocked(self) -> bool:
        return self.running and self.counting and not self.cascade

    def counter(self, now: int) -> int:
        if not (self.running and self.counting and not self.cascade) or now <= self.start:
            return self.value
        elapsed = now - self.start
        if elapsed < self.value:
            return self.value - elapsed
        if self.one_shot:
            return self.latch
        phase = (elapsed - self.value) % (self.latch + 1)
        return self.latch if phase == 0 else self.latch + 1 - phase

    def underflows(self, after: int, until: int) -> int:
        """How many underflows come at cycles in (after, until]."""
        if not (self.running and self.counting and not self.cascade) or until <= after:
            return 0
        first = self.start + self.value
        if until < first:
            return 0
        period = self.latch + 1
        lowest = 0 if after < first else (after - first) // period + 1
        if self.one_shot:
            return 1 if lowest == 0 else 0
        return max(0, (until - first) // period - lowest + 1)

    def underflow_after(self, after: int, count: int = 1) -> int:
        """The cycle of the ``count``-th underflow later than ``after``, or NEVER."""
        if not self._clocked():
            return NEVER
        first = self.start + self.value
        period = self.latch + 1
        index = (0 if after < first else (after - first) // period + 1) + count - 1
        if self.one_shot and index > 0:
            return NEVER
        return first + index * period

    def rebase(self, now: int) -> None:
        """Describe the same counting from ``now`` on (before a change of its settings)."""
        if not self._clocked() or now <= self.start:
            return
        elapsed = now - self.start
        if elapsed < self.value:
            self.value -= elapsed
            self.start = now
            return
        phase = (elapsed - self.value) % (self.latch + 1)
        if phase == 0:  # the underflow cycle: the next one shows the latch again
            self.value, self.start = self.latch, now + 1
        else:
            self.value, self.start = self.latch + 1 - phase, now


# The fast path's source (see toolchain.c64.chips and Cia.compiled_read)
def _timer_expression(timer: str, otherwise: str) -> str:
    """A timer's counter as source: worked out inline where it counts plainly (see
    _Timer._plain), else ``otherwise``."""
    timer = f"{{chip}}.{timer}"
    return (f"(((({timer}.plain_base - ({{now}})) % {timer}.plain_period or {timer}.latch)"
            f" if {{now}} >= {timer}.plain_from else {otherwise}))")


_TIMER_A = _timer_expression("timer_a", "{chip}.timer_a.counter({now})")
_TIMER_B = _timer_expression("timer_b", "({chip}._cascade_counter({now}) if {chip}.timer_b.cascade"
                                        " else {chip}.timer_b.counter({now}))")
_TIMER_EXPRESSION = {TA_LO: _TIMER_A, TA_HI: _TIMER_A, TB_LO: _TIMER_B, TB_HI: _TIMER_B}
_STORED_READS = {DDRA: "{chip}.ddra", DDRB: "{chip}.ddrb", SDR: "{chip}.sdr"}
_STORED_WRITES = {PRA: "pra", PRB: "prb", DDRA: "ddra", DDRB: "ddrb", SDR: "sdr"}


class Cia(Slotted):
    """One 6526 (see the module's description).  ``ports`` drive the port pins (CIA 1:
    :class:`toolchain.c64.chips.keyboard.ControlPorts`; CIA 2:
    :class:`SerialBusAndUserPort`); ``interrupt`` is the line it pulls, ``"irq"`` (CIA 1)
    or ``"nmi"`` (CIA 2); ``mains_hz`` the frequency that clocks the TOD (50 on a PAL
    C64: VICE's PAL machines use 50 Hz), its first tick at cycle ``mains_phase``."""

    __slots__ = ("ports", "interrupt", "name", "mains_hz", "mains_phase", "pra", "prb", "ddra", "ddrb",
                 "timer_a", "timer_b", "cra", "crb", "sdr", "flags", "mask", "time", "cascade_since", "tod",
                 "alarm", "tod_latch", "tod_stopped", "tod_ticks", "bank_log")

    def __init__(self, ports: Ports | None = None, interrupt: str = "irq", mains_hz: int = 50,
                 mains_phase: int = 0, name: str = "CIA") -> None:
        if interrupt not in ("irq", "nmi"):
            raise ValueError(f"interrupt must be 'irq' or 'nmi', not {interrupt!r}")
        self.ports: Ports = ports if ports is not None else Idle()
        self.interrupt = interrupt
        self.name = name
        self.mains_hz = mains_hz
        self.mains_phase = mains_phase
        # a reset clears every register (VICE ciacore_reset): ports are inputs
        self.pra = self.prb = self.ddra = self.ddrb = 0
        self.timer_a = _Timer()
        self.timer_b = _Timer()
        self.cra = self.crb = 0
        self.sdr = 0
        self.flags = 0  # ICR bits 0-4 that fired and were not read
        self.mask = 0
        self.time = 0  # the cycle the state describes
        self.cascade_since = 0  # timer B (counting timer A) counts timer A's underflows after this
        # TOD: tenths, seconds, minutes, hours (BCD, bit 7 of hours PM).  After a reset
        # the clock reads 1:00:00.0 AM and stands still until tenths are written (VICE
        # ciacore_reset; measured: the KERNAL never starts it)
        self.tod = [0x00, 0x00, 0x00, 0x01]
        self.alarm = [0x00, 0x00, 0x00, 0x00]
        self.tod_latch: list[int] | None = None  # the outputs held since hours were read
        self.tod_stopped = True
        self.tod_ticks = 0  # the mains divider's ring counter (VICE: 0-5)
        #: every write to port A or its direction as (cycle, the VIC-II's bank then: vic_bank),
        #: while a consumer (the pictures of CIA 2's VIC-II bank splits) has set a list here
        self.bank_log: list[tuple[int, int]] | None = None

    # -- levels on the ports --------------------------------------------------------------------
    @property
    def port_a_level(self) -> int:
        """What the CIA drives on port A: the output bits, 1 where a pin is an input (pulled up)."""
        return (self.pra | ~self.ddra) & 0xFF

    @property
    def port_b_level(self) -> int:
        return (self.prb | ~self.ddrb) & 0xFF

    def vic_bank(self) -> int:
        """The VIC-II's 16 KiB bank as CIA 2's port A bits 0-1 select it (inverted: %11 is
        bank 0 at $0000); meaningful for CIA 2 only."""
        return (3 - (self.port_a_level & 3)) * 0x4000

    # -- interrupts ---------------------------------------------------------------------------------
    @property
    def irq(self) -> bool:
        return self.interrupt == "irq" and bool(self.flags & self.mask)

    @property
    def nmi(self) -> bool:
        return self.interrupt == "nmi" and bool(self.flags & self.mask)

    @property
    def interrupts_often(self) -> bool:
        """A timer's interrupt is on with a latch under half a frame: the CPU is then
        interrupted often enough that where in a frame the VIC-II took its cycles shows
        (see Vic.steal; the KERNAL's own 60 Hz interrupt, latch $4025, does not count)."""
        mask = self.mask
        return bool((mask & TIMER_A and self.timer_a.latch < OFTEN)
                    or (mask & TIMER_B and self.timer_b.latch < OFTEN))

    def next_event(self, now: int) -> int:
        self.advance(now)
        if self.flags & self.mask:
            return NEVER  # the line stays pulled until the ICR is read
        after = max(now, self.time)
        soonest = NEVER
        if self.mask & TIMER_A:
            soonest = min(soonest, self.timer_a.underflow_after(after))
        if self.mask & TIMER_B:
            soonest = min(soonest, self._timer_b_underflow_after(after))
        if self.mask & ALARM:
            soonest = min(soonest, self._alarm_after(after))
        return soonest

    def timer_a_interrupts_acknowledged(self, now: int, until: int) -> int | None:
        """Timer A's interrupts from ``now`` up to ``until``, each taken and acknowledged
        (the interrupt control register read) in the cycle it comes, as the KERNAL's
        standard handler does it when nothing else interrupts: how many, the chip left as
        after the last read.  None (and nothing done) when another source may interrupt,
        the timer is not running on its own, or an interrupt is already pending."""
        timer = self.timer_a
        if (self.mask != TIMER_A or self.interrupt != "irq" or timer.one_shot
                or not (timer.running and timer.counting and not timer.cascade)):
            return None
        self.advance(now)
        if self.flags & self.mask:
            return None
        count = timer.underflows(now, until)
        if count:
            self.advance(timer.underflow_after(now, count))
            self.flags = 0  # the last read; the earlier ones cleared what the later ones find again
        return count

    # -- bringing the state up to date -----------------------------------------------------------
    def advance(self, now: int) -> None:
        if now <= self.time:
            return
        before = self.time
        a, b = self.timer_a, self.timer_b
        if a.underflows(before, now):
            self.flags |= TIMER_A
        if b.cascade:
            if b.running and self._timer_b_underflow_after(before) <= now:
                self.flags |= TIMER_B
                if b.one_shot:
                    b.running, b.value = False, b.latch
                    self.crb &= ~START
        elif b.running and b.underflows(before, now):
            self.flags |= TIMER_B
        for timer, register in ((a, CRA), (b, CRB)):
            if (timer.one_shot and timer.running and not timer.cascade
                    and timer.underflows(timer.start - 1, now)):
                if timer is a:
                    self._rebase_cascade(now)  # timer B keeps the underflow it counted
                timer.running, timer.value = False, timer.latch
                if register == CRA:
                    self.cra &= ~START
                else:
                    self.crb &= ~START
        if not self.tod_stopped:
            self._advance_tod(before, now)
        self.time = now

    # -- timer B counting timer A ---------------------------------------------------------------------
    def _cascade_steps(self, now: int) -> int:
        """Timer A's underflows that timer B shows at cycle ``now``."""
        return self.timer_a.underflows(self.cascade_since, now - CASCADE_DELAY)

    def _cascade_counter(self, now: int) -> int:
        b = self.timer_b
        if not b.running:
            return b.value
        steps = self._cascade_steps(now)
        if steps <= b.value:
            counter = b.value - steps
        elif b.one_shot:
            return b.latch
        else:
            counter = b.latch - (steps - b.value - 1) % (b.latch + 1)
        # at 0, the reload that timer A's next underflow brings shows a cycle sooner than
        # a step down does (measured on VICE)
        if counter == 0 and self.timer_a.underflows(self.cascade_since, now - CASCADE_FLAG_DELAY) > steps:
            return b.latch
        return counter

    def _timer_b_underflow_after(self, after: int) -> int:
        b = self.timer_b
        if not b.cascade:
            return b.underflow_after(after)
        if not b.running:
            return NEVER
        # timer B underflows at the step that finds it at 0: steps value+1, then every latch+1
        done = self.timer_a.underflows(self.cascade_since, after - CASCADE_FLAG_DELAY)
        first = b.value + 1
        if done < first:
            step = first
        elif b.one_shot:
            return NEVER
        else:
            step = first + ((done - first) // (b.latch + 1) + 1) * (b.latch + 1)
        # the step-th underflow of timer A after cascade_since
        when = self.timer_a.underflow_after(self.cascade_since, step)
        return NEVER if when >= NEVER else when + CASCADE_FLAG_DELAY

    def _rebase_cascade(self, now: int) -> None:
        """Timer B (counting timer A) takes the count it will show once timer A's
        underflows up to ``now`` have reached it, and counts only later ones: done before
        any change of either timer's settings at ``now``."""
        b = self.timer_b
        if b.cascade and b.running:
            b.value = self._cascade_counter(now + CASCADE_DELAY)
        self.cascade_since = now

    # -- the Chip interface ----------------------------------------------------------------------------
    def peek(self, register: int, now: int) -> int:
        return self._read(register & 0x0F, now, effects=False)

    def read(self, register: int, now: int) -> int:
        return self._read(register & 0x0F, now, effects=True)

    # never bound again after __init__ (the timers, what is plugged into the ports and a
    # keyboard there): the CPU's translated code keeps them as locals (toolchain.c64.io)
    FIXED_ATTRIBUTES = ("timer_a", "timer_b", "ports", "ports.keyboard")

    EVENT_READS = frozenset({ICR})  # reading the flags releases the interrupt line

    @property
    def REGION_CONSTANTS(self) -> dict[str, str]:  # (the chips' attribute: see toolchain.c64.chips)
        """Those of what is plugged into the ports (their pins' source reads them)."""
        return dict(getattr(self.ports, "REGION_CONSTANTS", {}))

    @staticmethod
    def compiled_read(register: int) -> str | None:
        """``read`` as source (see toolchain.c64.chips) for the registers worked out from
        the cycle count (the timers) or stored (data direction, serial data)."""
        if register in (TA_LO, TB_LO):
            return f"{_TIMER_EXPRESSION[register]} & 0xFF"
        if register in (TA_HI, TB_HI):
            return f"{_TIMER_EXPRESSION[register]} >> 8"
        return _STORED_READS.get(register)

    @staticmethod
    def compiled_write(register: int) -> str | None:
        """``write`` as source for the registers that only store the byte (the ports and
        their directions: nothing here counts on them; the serial data register)."""
        name = _STORED_WRITES.get(register)
        if register in (PRA, DDRA):  # port A: also the VIC-II's bank, for the pictures (bank_log)
            return (f"{{chip}}.{name} = {{value}}\nif (bl := {{chip}}.bank_log) is not None:\n"
                    "    bl.append(({now}, {chip}.vic_bank()))")
        return None if name is None else f"{{chip}}.{name} = {{value}}"

    def compiled_port_read(self, register: int) -> Source | None:
        """``read`` of a port as source, from what drives its pins (``compiled_pins`` of
        this CIA's ``ports``, under its guard; None where they have none): the level the
        CIA drives AND the pins, as _read does.  An instance's (the pins depend on what
        is plugged in), beside the chip's compiled_read (toolchain.c64.io asks both)."""
        method = getattr(self.ports, "compiled_pins", None)
        pins = None if method is None or register not in (PRA, PRB) else method(register)
        if pins is None:
            return None
        name = "a" if register == PRA else "b"
        # (the pins' source gives eight bits: the AND keeps the result to them)
        return Source(f"({{chip}}.pr{name} | ~{{chip}}.ddr{name}) & {pins.code}", guard=pins.guard)

    @staticmethod
    def compiled_read_ahead(register: int) -> str | None:
        """A read at a cycle the chip's owner has not brought the machine to yet, with
        only the KERNAL's standard interrupt handler running in between (see
        toolchain.c64.chips): the timers and the stored registers, as compiled_read,
        and the TOD clock; not the ports (the handler scans the keyboard through them)
        nor the flags and control registers (its interrupts change them)."""
        if TOD_TENTHS <= register <= TOD_HOURS:
            return f"{{chip}}.read_tod_ahead({register - TOD_TENTHS}, {{now}})"
        return Cia.compiled_read(register)

    def read_tod_ahead(self, index: int, now: int) -> int:
        """``read`` of TOD register ``index`` at ``now``, which may lie past the cycle
        the chip was brought to: the counters as they will be then, worked out on a
        copy (the flags an alarm on the way sets are left to :meth:`advance`)."""
        tod = self.tod
        if not self.tod_stopped and now > self.time:
            kept = list(tod), self.tod_ticks, self.flags
            self._advance_tod(self.time, now)
            tod = self.tod
            self.tod, self.tod_ticks, self.flags = kept
        return self._read_tod(index, tod)

    def _read_tod(self, index: int, counters: list[int]) -> int:
        """A TOD register's read, the clock's counters showing ``counters``: reading
        hours holds the outputs until tenths are read (datasheet; VICE; measured:
        tests/data/machine/tod.bas); the counters go on counting behind the latch."""
        shown = self.tod_latch if self.tod_latch is not None else counters
        value = shown[index]
        if index == TOD_HOURS - TOD_TENTHS and self.tod_latch is None:
            self.tod_latch = list(counters)
        elif index == 0:
            self.tod_latch = None
        return value

    def _read(self, register: int, now: int, effects: bool) -> int:
        # the ports, the timers and the stored registers are worked out from the cycle
        # count without bringing the chip up to date; the TOD, the flags and the control
        # registers (a one-shot timer's end clears the start bit) need it
        if register == PRA:
            return self.port_a_level & self.ports.pins_a(self, now, effects)
        if register == PRB:
            return self.port_b_level & self.ports.pins_b(self, now, effects)
        if register == DDRA:
            return self.ddra
        if register == DDRB:
            return self.ddrb
        if register in (TA_LO, TA_HI):
            value = self.timer_a.counter(now)
            return value & 0xFF if register == TA_LO else value >> 8
        if register in (TB_LO, TB_HI):
            value = self._cascade_counter(now) if self.timer_b.cascade else self.timer_b.counter(now)
            return value & 0xFF if register == TB_LO else value >> 8
        if register == SDR:
            return self.sdr
        self.advance(now)
        if TOD_TENTHS <= register <= TOD_HOURS:
            index = register - TOD_TENTHS
            if not effects:  # a look shows the counters themselves, as VICE's monitor does (ciacore_peek)
                return self.tod[index]
            return self._read_tod(index, self.tod)
        if register == ICR:
            value = self.flags | (0x80 if self.flags & self.mask else 0)
            if effects:
                self.flags = 0  # reading clears the flags and releases the line
            return value
        if register == CRA:
            return self.cra & ~FORCE_LOAD & 0xFF
        return self.crb & ~FORCE_LOAD & 0xFF

    def write(self, register: int, value: int, now: int) -> None:
        register &= 0x0F
        value &= 0xFF
        self.advance(now)
        if register == PRA:
            self.pra = value
            if self.bank_log is not None:
                self.bank_log.append((now, self.vic_bank()))
        elif register == PRB:
            self.prb = value
        elif register == DDRA:
            self.ddra = value
            if self.bank_log is not None:
                self.bank_log.append((now, self.vic_bank()))
        elif register == DDRB:
            self.ddrb = value
        elif register in (TA_LO, TA_HI, TB_LO, TB_HI):
            self._write_latch(register, value, now)
        elif TOD_TENTHS <= register <= TOD_HOURS:
            self._write_tod(register - TOD_TENTHS, value)
        elif register == SDR:
            self.sdr = value
        elif register == ICR:
            if value & 0x80:
                self.mask |= value & 0x1F
            else:
                self.mask &= ~value & 0x1F
        elif register == CRA:
            self._write_control(self.timer_a, value, now)
            self.cra = value
        else:
            self._write_control(self.timer_b, value, now)
            self.crb = value

    def _write_latch(self, register: int, value: int, now: int) -> None:
        timer = self.timer_a if register in (TA_LO, TA_HI) else self.timer_b
        self._rebase_cascade(now)
        timer.rebase(now)
        if register in (TA_LO, TB_LO):
            timer.latch = (timer.latch & 0xFF00) | value
        else:
            timer.latch = (timer.latch & 0x00FF) | value << 8
            if not timer.running:  # writing the high byte of a stopped timer loads it
                timer.value = timer.latch

    def _write_control(self, timer: _Timer, value: int, now: int) -> None:
        is_b = timer is self.timer_b
        if timer.cascade:
            current, frozen = self._cascade_counter(now), self._cascade_counter(now + STOP_DELAY)
        else:
            current, frozen = timer.counter(now), timer.counter(now + STOP_DELAY)
        self._rebase_cascade(now)
        timer.rebase(now)
        running = bool(value & START)
        cascade = is_b and bool(value & 0x40)  # %10 or %11: timer A's underflows (CNT is high)
        counting = cascade or (not value & CRA_COUNT_CNT if not is_b else not value & CRB_INPUT)
        if timer.running and not running:  # a stop freezes the value of two cycles later
            timer.value, timer.start = frozen, now
        elif timer.cascade != cascade or timer.counting != counting:
            timer.value, timer.start = current, now
        elif running and not timer.running:
            timer.start = now + START_DELAY
        timer.running, timer.one_shot = running, bool(value & ONE_SHOT)
        timer.cascade, timer.counting = cascade, counting
        if value & FORCE_LOAD:
            timer.value = timer.latch
            timer.start = now + LOAD_DELAY if running and not cascade else now

    # -- the time-of-day clock ---------------------------------------------------------------------
    # Worked out from the cycle count when something looks (a read, a write, an event): the
    # mains ticks since the last look step a ring counter, and every 5th (CRA bit 7 set) or
    # 6th (clear) tick steps the tenths.  The KERNAL leaves CRA bit 7 clear, so on a PAL C64
    # (50 Hz mains) a tenth takes 120 ms until a program sets it (measured on VICE:
    # tests/data/machine/tod.bas, "TENTH MS 120 100").  Only an enabled alarm is an event.
    def _mains_ticks(self, now: int) -> int:
        """How many mains ticks came at cycles up to ``now`` (tick k at k*CPS//hz + phase)."""
        if now < self.mains_phase:
            return 0
        return -(-((now - self.mains_phase + 1) * self.mains_hz) // CYCLES_PER_SECOND)

    def _tick_time(self, index: int) -> int:
        """The cycle of mains tick ``index`` (counting from 0)."""
        return index * CYCLES_PER_SECOND // self.mains_hz + self.mains_phase

    def _divider(self) -> int:
        """The ring counter value at which the next tick steps the tenths (VICE's ciacore:
        the 3-bit ring counter matches at 4 with CRA bit 7 set, at 5 without)."""
        return 4 if self.cra & CRA_TOD_50HZ else 5

    def _ticks_to_step(self) -> int:
        match = self._divider()
        if self.tod_ticks <= match:
            return match - self.tod_ticks + 1
        return (5 - self.tod_ticks + 1) + match + 1

    def _advance_tod(self, before: int, now: int) -> None:
        if self.tod_stopped:
            return
        ticks = self._mains_ticks(now) - self._mains_ticks(before)
        if ticks <= 0:
            return
        first = self._ticks_to_step()
        if ticks < first:
            for _ in range(ticks):
                self.tod_ticks = 0 if self.tod_ticks >= 5 else self.tod_ticks + 1
            return
        period = self._divider() + 1
        steps = 1 + (ticks - first) // period
        self.tod_ticks = (ticks - first) % period
        self._step_tod(steps)

    def _step_tod(self, steps: int) -> None:
        """The tenths step ``steps`` times, with the alarm checked at each: one by one
        while the time is no valid one (the digits carry as the counters do), then at
        once (a valid time steps as its count of tenths does: test_chips_cia), so that
        a clock left alone for hours costs no more than one looked at every tenth."""
        while steps > 0 and not _valid_time(self.tod):
            _tod_step(self.tod)
            steps -= 1
            if self.tod == self.alarm:
                self.flags |= ALARM
        if steps == 0:
            return
        start = _tenths_of(self.tod)
        if _valid_time(self.alarm):
            ahead = (_tenths_of(self.alarm) - start) % TENTHS_A_DAY
            if 0 < ahead <= steps:
                self.flags |= ALARM
        self.tod = _time_of((start + steps) % TENTHS_A_DAY)

    def _alarm_after(self, after: int) -> int:
        """The cycle at which the TOD reaches the alarm, NEVER when it will not."""
        if self.tod_stopped or not _valid_time(self.alarm) or not _valid_time(self.tod):
            return NEVER if self.tod_stopped else self._tick_time(self._mains_ticks(after) + 1)
        steps = (_tenths_of(self.alarm) - _tenths_of(self.tod)) % TENTHS_A_DAY or TENTHS_A_DAY
        ticks = self._ticks_to_step() + (steps - 1) * (self._divider() + 1)
        return self._tick_time(self._mains_ticks(after) + ticks - 1)

    def _write_tod(self, index: int, value: int) -> None:
        writing_alarm = bool(self.crb & CRB_ALARM)
        if index == 3:
            value &= 0x9F
            if (value & 0x1F) == 0x12 and not writing_alarm:
                value ^= 0x80  # writing hour 12 flips AM/PM (measured on VICE; the 6526 does it)
        elif index in (1, 2):
            value &= 0x7F
        else:
            value &= 0x0F
        target = self.alarm if writing_alarm else self.tod
        if not writing_alarm:
            if index == 3:
                self.tod_stopped = True  # writing hours stops the clock ...
            elif index == 0 and self.tod_stopped:
                self.tod_stopped = False  # ... until tenths are written
                self.tod_ticks = 0
        if target[index] != value:
            target[index] = value
            if self.tod == self.alarm:
                self.flags |= ALARM


# -- TOD arithmetic -----------------------------------------------------------------------------------

def _bcd(value: int) -> int:
    return (value >> 4) * 10 + (value & 0x0F)


def _valid_time(time: list[int]) -> bool:
    tenths, seconds, minutes, hours = time
    digits_ok = (tenths <= 9 and seconds & 0x0F <= 9 and seconds >> 4 <= 5 and minutes & 0x0F <= 9
                 and minutes >> 4 <= 5 and hours & 0x0F <= 9)
    return digits_ok and 1 <= _bcd(hours & 0x1F) <= 12


def _tenths_of(time: list[int]) -> int:
    """A valid TOD time as tenths since 12:00:00.0 AM."""
    tenths, seconds, minutes, hours = time
    hour = _bcd(hours & 0x1F) % 12 + (12 if hours & 0x80 else 0)
    return ((hour * 60 + _bcd(minutes)) * 60 + _bcd(seconds)) * 10 + tenths


def _time_of(tenths: int) -> list[int]:
    seconds, tenth = divmod(tenths, 10)
    minutes, second = divmod(seconds, 60)
    hour, minute = divmod(minutes, 60)
    shown = hour % 12 or 12
    return [tenth, second // 10 << 4 | second % 10, minute // 10 << 4 | minute % 10,
            (0x80 if hour >= 12 else 0) | shown // 10 << 4 | shown % 10]


def _tod_step(time: list[int]) -> None:
    """One tenth, digit by digit as the 6526's counters do it (VICE ciacore_inttod):
    4-bit digits that carry at 10, 3-bit tens of seconds and minutes that carry at 6,
    hours 1-12 with AM/PM flipping on the way to 12."""
    tenths = (time[0] + 1) & 0x0F
    if tenths == 10:
        tenths = 0
        carry = True
        for index in (1, 2):
            low = (time[index] + 1) & 0x0F
            high = time[index] >> 4 & 0x07
            if low == 10:
                low = 0
                high = (high + 1) & 0x07
                carry = high == 6
                if carry:
                    high = 0
            else:
                carry = False
            time[index] = high << 4 | low
            if not carry:
                break
        if carry:
            hours = time[3]
            low, high, pm = hours & 0x0F, hours >> 4 & 0x01, hours & 0x80
            if (high == 1 and low == 2) or (high == 0 and low == 9):
                low, high = high, high ^ 1
            else:
                low = (low + 1) & 0x0F
                if high == 1 and low == 2:
                    pm ^= 0x80
            time[3] = pm | high << 4 | low
    time[0] = tenths
