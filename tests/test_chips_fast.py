"""The chips' fast path (issue 25): every register access a chip gives as source
(``compiled_read``/``compiled_write``, see toolchain.c64.chips) must do what the
chip's method does, on any state the methods can reach, and leave the chip as the
method would for everything that comes after; the I/O area must route every address
to the chip and register the methods would get; and the machine must run programs
that talk to the chips the same with the fast path as without it: the same
instructions, cycles, memory and chip registers, interrupts included.

The reference here is the chips' own methods, which the VICE measurements in
tests/test_chips_*.py pin down; these tests pin the fast path to them."""

from __future__ import annotations

import io
import pickle
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from benchmarks.chip_programs import CHIP_LOOPS, RASTER_BARS, SID_PLAYER, Loop
from benchmarks.same_counts import LATE_RASTER_IRQ, RASTER_IRQ, TIMER_IRQ
from toolchain.c64.chips import Slotted, Source
from toolchain.c64.chips.cia import Cia, SerialBusAndUserPort
from toolchain.c64.chips.keyboard import FIRE, UP, ControlPorts, KeyMatrix
from toolchain.c64.chips.power_on import KERNAL_RESET_WRITES
from toolchain.c64.chips.sid import Sid
from toolchain.c64.chips.vic import Vic
from toolchain.c64.io import CHIP_NAMES, IO_BASE, IO_SIZE, REGISTERS, ROUTES, IOArea
from toolchain.c64.machine import C64
from toolchain.disk.prg import Prg

CHIPS = {"vic": (Vic, 0x40), "sid 6581": (lambda: Sid("6581"), 0x20), "sid 8580": (lambda: Sid("8580"), 0x20),
         "cia 1": (lambda: Cia(ControlPorts(KeyMatrix()), "irq"), 0x10),
         "cia 2": (lambda: Cia(SerialBusAndUserPort(), "nmi"), 0x10)}
CHIP_BASES = {"vic": 0xD000, "sid 6581": 0xD400, "sid 8580": 0xD400, "cia 1": 0xDC00, "cia 2": 0xDD00}


def fresh(kind: str) -> Any:
    """A chip as the KERNAL's start leaves it."""
    make, _ = CHIPS[kind]
    chip = make()
    base = CHIP_BASES[kind]
    for address, value in KERNAL_RESET_WRITES:
        if base <= address < base + 0x100:
            chip.write(address & (CHIPS[kind][1] - 1), value, 0)
    return chip


def run(chip: Any, operations: list[tuple[int, bool, int, int]], now: int) -> int:
    """Reads and writes through the methods; the cycle after them."""
    for delta, write, register, value in operations:
        now += delta
        if write:
            chip.write(register, value, now)
        else:
            chip.read(register, now)
    return now


def compiled(source: Source | str, chip: Any, register: int, now: int, value: int | None = None) -> Any:
    """A read (``value`` None) or a write as the chip's source does it: its guard, the
    statements before, the code; the method where the guard does not hold."""
    if isinstance(source, str):
        source = Source(source)
    # {now} and {value} as the translated code gives them: a sum, an AND (SAX), unbracketed
    fields = {"chip": "chip", "now": "early + 3", "value": "value & 0xFF", "changed": "pass"}
    names = {"chip": chip, "early": now - 3, "value": value}
    if source.guard and not eval(source.guard.format(**fields), names):
        return chip.read(register, now) if value is None else chip.write(register, value, now)
    if source.before:
        exec(source.before.format(**fields), names)
    if value is None:
        return eval(source.code.format(**fields), names)
    exec(source.code.format(**fields), names)
    return None


def state(chip: Any) -> Any:
    """Everything a chip holds, nested objects as their attributes (for comparing two)."""
    if isinstance(chip, list | tuple):
        return [state(item) for item in chip]
    if isinstance(chip, bytearray | bytes):
        return bytes(chip)
    if isinstance(chip, Slotted) or hasattr(chip, "__dict__"):
        kept = chip.__getstate__()  # what a snapshot keeps (not caches, not listeners)
        if isinstance(kept, dict):
            return {name: state(value) for name, value in kept.items()}
    return chip


def test_what_a_snapshot_copies_keeps_its_attributes_in_slots() -> None:
    """The chips and every object of c64tc's they hold are Slotted: pickle looks at the
    ``__dict__`` of any other object it copies, and the translated code then reaches its
    attributes the slow way (toolchain.c64.chips.Slotted).  A copy holds what the
    chip held."""
    machine = C64()
    machine.io.cia1.ports.keyboard.press((1, 2))  # (a held key: the matrix's lists in use)
    chips = (machine.io.vic, machine.io.sid, machine.io.cia1, machine.io.cia2)
    copied: list[object] = []

    class Walker(pickle.Pickler):
        def reducer_override(self, obj: Any) -> Any:
            if type(obj).__module__.startswith("toolchain."):
                copied.append(obj)
            return NotImplemented

    Walker(io.BytesIO(), pickle.HIGHEST_PROTOCOL).dump(chips)
    kinds = {type(obj).__qualname__ for obj in copied}
    assert {"Vic", "Sid", "Cia", "_Timer", "_Oscillator", "_Envelope", "KeyMatrix", "ControlPorts"} <= kinds
    assert [obj for obj in copied if not isinstance(obj, Slotted) or hasattr(obj, "__dict__")] == []
    copies = pickle.loads(pickle.dumps(chips, pickle.HIGHEST_PROTOCOL))
    assert [state(chip) for chip in copies] == [state(chip) for chip in chips]


def observed(chip: Any, registers: int, now: int) -> tuple[Any, ...]:
    """What a program and the machine can see: every register, the next event, the lines."""
    return (tuple(chip.peek(register, now) for register in range(registers)), chip.next_event(now), chip.irq,
            getattr(chip, "nmi", False))


def operations(registers: int) -> st.SearchStrategy[list[tuple[int, bool, int, int]]]:
    delta = st.one_of(st.integers(0, 70), st.integers(0, 25_000))
    return st.lists(st.tuples(delta, st.booleans(), st.integers(0, registers - 1), st.integers(0, 255)),
                    max_size=25)


@st.composite
def cases(draw: Any) -> tuple[str, list[Any], int, int, int, list[Any]]:
    kind = draw(st.sampled_from(sorted(CHIPS)))
    registers = CHIPS[kind][1]
    return (kind, draw(operations(registers)), draw(st.integers(0, registers - 1)), draw(st.integers(0, 255)),
            draw(st.one_of(st.integers(0, 70), st.integers(0, 40_000))), draw(operations(registers)))


def _compare_after(method: Any, fast: Any, kind: str, now: int, tail: list[Any]) -> None:
    registers = CHIPS[kind][1]
    end = run(method, tail, now)
    run(fast, tail, now)
    assert observed(method, registers, end + 5) == observed(fast, registers, end + 5)
    method.advance(end + 5)
    fast.advance(end + 5)
    assert state(method) == state(fast)


@settings(derandomize=True, max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
# raster compare and interrupt set up, a colour written as the compare line passes
@example(("vic", [(0, True, 0x12, 0x30), (0, True, 0x1A, 1)], 0x20, 7, 3_100, [(100, False, 0x19, 0)]))
# CIA 1's timer A one-shot, a port written across its underflow
@example(("cia 1", [(0, True, 4, 50), (0, True, 5, 0), (0, True, 0x0E, 0x19)], 0, 0xFE, 60,
          [(0, False, 0x0E, 0), (0, False, 0x0D, 0)]))
# CIA 2's data direction: the routing of CIA 1 and CIA 2 must not mix
@example(("cia 2", [], 2, 0x3F, 10, [(0, False, 0, 0)]))
@example(("sid 8580", [(0, True, 0x12, 0x81)], 0x18, 0x0F, 9, [(2, False, 0x1B, 0), (0, False, 0x18, 0)]))
def test_a_compiled_write_does_what_write_does(case: tuple[str, list[Any], int, int, int, list[Any]]) -> None:
    kind, head, register, value, delta, tail = case
    method, fast = fresh(kind), fresh(kind)
    source = type(method).compiled_write(register)
    if source is None:
        return  # the method itself runs for this register
    now = run(method, head, 1) + delta
    run(fast, head, 1)
    logged = hasattr(method, "write_log")  # the VIC-II and the SID keep one for their consumers
    if logged:
        method.write_log, fast.write_log = [], []
    method.write(register, value, now)
    compiled(source, fast, register, now, value)
    if logged:
        assert method.write_log == fast.write_log == [(now, register, value)]
    _compare_after(method, fast, kind, now, tail)


# voice 2's and voice 3's frequency, voice 3's envelope rates (Sid.compiled_write_pair)
PAIRS = ((0x07, 0x08), (0x0E, 0x0F), (0x13, 0x14))


@st.composite
def sid_runs(draw: Any) -> tuple[str, list[Any], list[tuple[int, int, int]], list[Any]]:
    """A SID, a history, a run of stores (cycles since the last one, register, byte) and
    what follows; a pair's two registers (PAIRS) often one after the other, either way
    round, with bytes they may hold already."""
    kind = draw(st.sampled_from(["sid 6581", "sid 8580"]))
    # all but the readable registers (a run leaves them out)
    joining = [register for register in range(0x20) if register not in (0x19, 0x1A, 0x1B, 0x1C)]
    value = st.one_of(st.integers(0, 255), st.sampled_from([0, 1, 0x10, 0xFF]))
    apart = st.sampled_from([3, 4, 5, 6])
    single = st.tuples(apart, st.sampled_from(joining), value).map(lambda store: [store])
    pair = st.tuples(st.sampled_from(PAIRS), st.booleans(), apart, value, apart, value).map(
        lambda drawn: [(drawn[2], drawn[0][drawn[1]], drawn[3]),
                       (drawn[4], drawn[0][not drawn[1]], drawn[5])])
    pieces = draw(st.lists(st.one_of(single, pair), min_size=1, max_size=10))
    stores = [store for piece in pieces for store in piece][:16]
    return kind, draw(operations(0x20)), stores, draw(operations(0x20))


def compiled_pair(source: str, chip: Any, first: tuple[int, int], second: tuple[int, int]) -> None:
    """Two stores (cycle, byte) as Sid.compiled_write_pair's source does them."""
    fields = {"chip": "chip", "now": "early + 3", "value": "value & 0xFF", "now2": "late + 1",
              "value2": "second & 0xFF"}
    names = {"chip": chip, "early": first[0] - 3, "value": first[1], "late": second[0] - 1,
             "second": second[1]}
    exec(source.format(**fields), names)


@settings(derandomize=True, max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sid_runs())
# voice 3's frequency, pulse width and envelope, each register's pair written one after the other
@example(("sid 6581", [(0, True, 0x12, 0x41)],
          [(4, 0x0E, 0x10), (4, 0x0F, 0x20), (4, 0x10, 0x80), (4, 0x11, 0x08), (4, 0x13, 0x21),
           (4, 0x14, 0xF0), (4, 0x12, 0x11)],
          [(30, False, 0x1B, 0), (0, False, 0x1C, 0)]))
# voice 2's frequency under ring modulation, the run's last store read back
@example(("sid 8580", [(0, True, 0x12, 0x14)], [(4, 0x07, 0xFF), (4, 0x08, 0x7F), (4, 0x18, 0x0F)],
          [(2, False, 0x00, 0), (0, False, 0x1B, 0)]))
# voice 3's control written again with what it holds, before and after the gate, with the
# ADSR bug's rate counter (a lower release rate), the envelope read back
@example(("sid 6581", [(0, True, 0x14, 0x0F), (40_000, True, 0x14, 0x00)],
          [(4, 0x12, 0x20), (6, 0x12, 0x20), (4, 0x12, 0x21), (5, 0x12, 0x21), (4, 0x12, 0x20)],
          [(3, False, 0x1C, 0), (900, False, 0x1C, 0)]))
# voice 2's test bit set, kept and cleared under voice 3's ring modulation (triangle)
@example(("sid 8580", [(0, True, 0x12, 0x14), (0, True, 0x07, 0x55), (0, True, 0x08, 0x12)],
          [(4, 0x0B, 0x09), (4, 0x0B, 0x08), (6, 0x0B, 0x41)], [(3, False, 0x1B, 0), (100, False, 0x1B, 0)]))
# voice 3's frequency high byte first, then the low byte it holds already, the noise read back
@example(("sid 8580", [(0, True, 0x12, 0x81), (0, True, 0x0E, 0x34), (0, True, 0x0F, 0x12)],
          [(4, 0x0F, 0x40), (4, 0x0E, 0x34), (4, 0x18, 0x0F)], [(1, False, 0x1B, 0), (300, False, 0x1B, 0)]))
# ... with the test bit set (the line held, the noise's fill left alone), then cleared
@example(("sid 6581", [(0, True, 0x12, 0x88), (0, True, 0x0F, 0x20)],
          [(4, 0x0E, 0x01), (5, 0x0F, 0x20), (4, 0x0F, 0x21), (4, 0x0E, 0x02)],
          [(3, True, 0x12, 0x80), (2, False, 0x1B, 0), (5_000, False, 0x1B, 0)]))
# voice 3's envelope rates held at level 0 in release, then the gate on and the rates again
@example(("sid 6581", [(0, True, 0x14, 0x0A), (30_000, False, 0x1C, 0)],
          [(4, 0x13, 0x21), (4, 0x14, 0x0A), (4, 0x14, 0x57), (4, 0x13, 0x21), (4, 0x12, 0x11),
           (4, 0x13, 0x3F), (4, 0x14, 0xF2)], [(3, False, 0x1C, 0), (9_000, False, 0x1C, 0)]))
def test_a_run_of_compiled_sid_writes_does_what_the_writes_do(
        case: tuple[str, list[Any], list[tuple[int, int, int]], list[Any]]) -> None:
    """A run of stores to the SID as the CPU's translated code writes it (the log once,
    each store's own part, the data bus once at the end: Sid.RUN_END) leaves the chip
    and its write log as the stores one by one through the method."""
    kind, head, stores, tail = case
    method, fast = fresh(kind), fresh(kind)
    now = run(method, head, 1)
    run(fast, head, 1)
    method.write_log, fast.write_log = [], []
    run_stores = []
    for delta, register, value in stores:
        now += delta
        method.write(register, value, now)
        run_stores.append((now, register, value, Sid.compiled_write_run(register)))
    assert all(source is not None for *_, source in run_stores)
    fast.write_log.extend((when, register, value) for when, register, value, _ in run_stores)
    index = 0
    while index < len(run_stores):  # two stores as one piece where the chip has one (as the translator does)
        when, register, value, source = run_stores[index]
        if index + 1 < len(run_stores):
            when2, register2, value2, _ = run_stores[index + 1]
            pair = Sid.compiled_write_pair(register, register2, when2 - when)
            if pair is not None:
                compiled_pair(pair, fast, (when, value), (when2, value2))
                index += 2
                continue
        compiled(source, fast, register, when, value)
        index += 1
    when, _, value, _ = run_stores[-1]
    compiled(Sid.RUN_END, fast, 0, when, value)
    assert fast.write_log == method.write_log
    _compare_after(method, fast, kind, now, tail)


@settings(derandomize=True, max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
@example(("vic", [(0, True, 0x12, 0x30), (0, True, 0x1A, 1)], 0x12, 0, 3_100, [(100, False, 0x19, 0)]))
@example(("vic", [(0, True, 0x11, 0x9B)], 0x11, 0, 19_655, []))  # the frame's first cycle: line 311
@example(("cia 1", [(0, True, 4, 50), (0, True, 5, 0), (0, True, 0x0E, 0x19)], 4, 0, 53,
          [(0, False, 0x0E, 0), (0, False, 0x0D, 0)]))  # a one-shot timer read as it ends
@example(("cia 2", [(0, True, 4, 3), (0, True, 5, 0), (0, True, 0x0E, 0x11), (0, True, 0x0F, 0x59)], 6, 0,
          40, [(0, False, 0x0F, 0)]))  # timer B counting timer A's underflows, one-shot
@example(("cia 1", [], 4, 0, 100, []))  # timer A as the KERNAL runs it (its inline form)
@example(("cia 2", [(0, True, 6, 9), (0, True, 7, 0), (0, True, 0x0F, 0x11)], 6, 0, 25, []))  # timer B
def test_a_compiled_read_gives_what_read_gives(case: tuple[str, list[Any], int, int, int, list[Any]]) -> None:
    kind, head, register, _, delta, tail = case
    method, fast = fresh(kind), fresh(kind)
    source = type(method).compiled_read(register)
    if source is None:
        return
    now = run(method, head, 1) + delta
    run(fast, head, 1)
    assert compiled(source, fast, register, now) == method.read(register, now)
    _compare_after(method, fast, kind, now, tail)


class _Typed:
    """Keys typed into the matrix (its ``next_key``), compared by what is left."""

    def __init__(self, codes: list[int]) -> None:
        self.codes = codes

    def __call__(self) -> int | None:
        return self.codes.pop(0) if self.codes else None


@settings(derandomize=True, max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["cia 1", "cia 2"]), operations(0x10), st.sampled_from([0, 1]), st.integers(0, 70),
       st.integers(0, 0x1F), st.integers(0, 0x1F), st.sampled_from(["idle", "held", "typing"]),
       operations(0x10))
# a row driven low with a key held in it; the joystick in port 2 pressed
@example("cia 1", [(0, True, 2, 0xFF), (0, True, 0, 0xFE)], 1, 5, 0, 0, "held", [(0, False, 1, 0)])
@example("cia 1", [(0, True, 3, 0xFF), (0, True, 1, 0x7F)], 0, 5, 0, UP | FIRE, "idle", [])
# CIA 2: the serial bus lines read back, the user port
@example("cia 2", [(0, True, 2, 0x3F), (0, True, 0, 0x17)], 0, 3, 0, 0, "idle", [(0, False, 1, 0)])
def test_a_compiled_port_read_gives_what_read_gives(kind: str, head: list[Any], register: int, delta: int,
                                                    joystick1: int, joystick2: int, keys: str,
                                                    tail: list[Any]) -> None:
    """The ports' reads as source (Cia.compiled_port_read: what the ports drive, under
    the keyboard's guard) give what the method gives, keys held, typed or not."""
    method, fast = fresh(kind), fresh(kind)
    for chip in (method, fast):
        if kind == "cia 1":
            chip.ports.joystick1, chip.ports.joystick2 = joystick1, joystick2
            if keys == "held":
                chip.ports.keyboard.press((0, 0), (1, 7))
            elif keys == "typing":
                chip.ports.keyboard.next_key = _Typed([0x41])
        else:
            chip.ports.user_port = 0xFF ^ joystick1
    source = fast.compiled_port_read(register)
    assert source is not None
    now = run(method, head, 1) + delta
    run(fast, head, 1)
    assert compiled(source, fast, register, now) == method.read(register, now)
    _compare_after(method, fast, kind, now, tail)
    if kind == "cia 1":
        assert method.ports.keyboard.held == fast.ports.keyboard.held


@pytest.mark.parametrize("kind", sorted(CHIPS))
def test_the_fast_path_covers_the_plain_registers(kind: str) -> None:
    """The registers that only store a byte, or read back what is stored or worked out
    from the clock, have source; those with effects on the chip's timing have none."""
    chip_class = type(fresh(kind))
    writes = {register for register in range(CHIPS[kind][1]) if chip_class.compiled_write(register)}
    reads = {register for register in range(CHIPS[kind][1]) if chip_class.compiled_read(register)}
    expected = {"vic": ({0x20, 0x21, 0x18, 0x00, 0x10}, {0x11, 0x12, 0x19, 0x1A, 0x15, 0x17, 0x01},
                        {0x11, 0x12, 0x20, 0x1A, 0x1E}, {0x19}),
                "sid": ({0x00, 0x04, 0x15, 0x18, 0x07, 0x08, 0x0B, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14},
                        set(),
                        {0x00, 0x19, 0x1A}, {0x1B, 0x1C}),
                "cia": ({0x00, 0x01, 0x02, 0x03}, {0x04, 0x05, 0x0D, 0x0E, 0x0F, 0x08, 0x0B},
                        {0x04, 0x05, 0x06, 0x07, 0x02}, {0x00, 0x01, 0x08, 0x0B, 0x0D, 0x0E}),
                }[kind.split()[0]]
    fast_writes, method_writes, fast_reads, method_reads = expected
    assert fast_writes <= writes and not method_writes & writes
    assert fast_reads <= reads and not method_reads & reads
    # a read that may move an event has no source, or one under a guard
    assert all(not chip_class.compiled_read(register) or chip_class.compiled_read(register).guard
               for register in chip_class.EVENT_READS)


# -- the I/O area -------------------------------------------------------------------------------------

def _areas() -> tuple[IOArea, IOArea]:
    """Two I/O areas as the machine makes them; the second one without compiled accesses."""
    areas = []
    for _ in range(2):
        memory = bytearray(0x10000)
        io = IOArea(memory, Vic(), Sid(), Cia(ControlPorts(KeyMatrix()), "irq"),
                    Cia(SerialBusAndUserPort(), "nmi"))
        for address, value in KERNAL_RESET_WRITES:
            memory[address] = value
            io.write(address, value, 0)
        areas.append(io)
    fast, slow = areas
    slow._readers = [[None] * count for count in REGISTERS]
    slow._writers = [[None] * count for count in REGISTERS]
    return fast, slow


@settings(derandomize=True, max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(IO_BASE, IO_BASE + IO_SIZE - 1), st.integers(0, 255), st.booleans(),
                          st.integers(0, 3000)), max_size=40))
@example([(0xDD02, 0x3F, True, 5), (0xDC02, 0x00, False, 5)])  # CIA 2's register is CIA 2's
@example([(0xD020 + 0x40 * 5, 0x07, True, 0), (0xD3E0, 0, False, 0), (0xD81F, 0xFF, True, 1)])
def test_the_io_area_routes_every_address_as_the_methods_do(accesses: list[tuple[int, int, bool, int]],
                                                            ) -> None:
    fast, slow = _areas()
    now = 10
    for address, value, write, delta in accesses:
        now += delta
        if write:
            for io in (fast, slow):
                io.memory[address] = value
                assert io.write(address, value, now) == (ROUTES[address - IO_BASE][0] in (0, 2, 3))
        else:
            assert fast.read(address, now) == slow.read(address, now)
    assert fast.memory == slow.memory
    for io in (fast, slow):  # the methods brought the chips up to date on the way
        io.advance(now + 1)
    for name in CHIP_NAMES:
        assert state(getattr(fast, name)) == state(getattr(slow, name)), name
    assert fast.next_event(now) == slow.next_event(now)


# -- the machine: the same with the fast path as without it ----------------------------------------------

MORE_ACCESSES = Loop("more", "read-modify-writes, SAX, indexed and colour RAM accesses", """*=$c000
 ldx #0
loop inc $d020
 dec $d021
 lsr $d018
 asl $d418
 rol $dc02
 lda #$ff
 .byt $8f,$22,$d0 ; SAX $D022 (undocumented)
 sta $d800,x
 lda $d800,x
 sta $fb
 lda $de00
 sta $de00
 lda $dc0d
 inc $dc00
 lda $d019
 sta $d019
 inx
 jmp loop
""")

# indexed stores whose addresses reach a chip that takes them as source, one that does not
# ($D40B, the VIC-II and CIA 1 through the machine), colour RAM and an expansion page
INDEXED_STORES = Loop("indexed", "indexed stores across the I/O area", """*=$c000
 ldy #0
loop ldx #$1f
copy tya
 sta $d400,x
 sta $d3f0,x
 sta $d800,y
 sta $dbf8,x
 sta $de80,y
 sta $d3f8,y
 dex
 bpl copy
 iny
 jmp loop
""")

# stores that end their block, many in a row and in turns of a loop (VIC-II colours, CIA 1's
# ports and a direction), a skip among them and a subroutine: the translated code writes
# the next block into the one a store ends (translator._Splice) where the chain comes
# back, within its limits, and the blocks must still end where the machine's write watch
# ends them
STORES_IN_A_ROW = Loop("stores", "block-ending stores in a row, a skip and a call among them", """*=$c000
 ldy #0
loop sta $d020
 stx $d021
 sty $dc00
 lda $dc01
 sta $d020
 stx $d021
 sta $d022
 iny
 sty $d023
 sty $dc02
 bne skip
 inc $d024
 sta $d020
skip stx $d021
 sty $dc00
 sta $d020
 jsr sub
""" + " sta $d020\n stx $d021\n sta $d022\n sty $d023\n" * 5 + """ inx
 jmp loop
sub lda $dc00
 sta $dc00
 sta $d020
 rts
""")


def _without_fast_path(machine: C64) -> None:
    """The machine without the translated code's compiled accesses: every access of the
    CPU through the machine and the I/O area's functions (which the tests above pin to
    the chips' methods)."""
    machine.cpu.io_access = None
    machine.cpu.flush()


def _run(loop: Loop, fast: bool, cycles: int) -> tuple[Any, ...]:
    machine = C64()
    if not fast:
        _without_fast_path(machine)
    start, image = loop.image()
    machine.load(Prg(start, image))
    # the renderer's and the sound engine's record of the writes (the brief's stamped write log)
    vic_log: list[tuple[int, int, int]] = []
    sid_log: list[tuple[int, int, int]] = []
    machine.io.vic.write_log, machine.io.sid.write_log = vic_log, sid_log
    result = machine.sys(start, max_cycles=cycles)
    chips = bytes(machine.io.peek(address, machine.cpu.cycles) for address in range(0xD000, 0xDE00))
    return (result.stop, result.instructions, result.cycles, bytes(machine.memory), chips,
            state(machine.io.vic.registers), machine.cpu.p, vic_log, sid_log)


# sprites switched on and off between writes the fast path takes while no collisions are
# drawn (the translated code looks at the beam once a region: the switch ends the region)
SPRITES_ON = Loop("sprites", "colour writes and collision reads, sprites switched on and off", """*=$c000
 ldx #0
loop inc $d020
 inx
 bne skip
 lda $d015
 eor #$ff
 sta $d015
 iny
 sty $d001
skip lda $d01e
 sta $d021
 lda $d01f
 sta $d022
 jmp loop
""")

PROGRAMS = (*CHIP_LOOPS, RASTER_BARS, SID_PLAYER, RASTER_IRQ, TIMER_IRQ, LATE_RASTER_IRQ, MORE_ACCESSES,
            INDEXED_STORES, SPRITES_ON, STORES_IN_A_ROW)


@pytest.mark.parametrize("loop", PROGRAMS, ids=lambda loop: loop.name)
def test_programs_run_the_same_with_and_without_the_fast_path(loop: Loop) -> None:
    """The KERNAL's interrupt and the programs' own are on: they come at the same
    places, so the translated code's blocks end where the machine's write watch ends
    them, and the chips' events move alike.  Every VIC-II and SID write is in the
    write logs, with its cycle."""
    fast = _run(loop, True, 400_000)
    assert fast == _run(loop, False, 400_000)
    vic_log, sid_log = fast[-2:]
    if loop in (CHIP_LOOPS[0], RASTER_BARS):  # they write the border: one write each 9 cycles / each line
        assert len(vic_log) > 500 and all(register in (0x20, 0x21) for _, register, _ in vic_log)
        assert [cycle for cycle, _, _ in vic_log] == sorted(cycle for cycle, _, _ in vic_log)
    if loop is SID_PLAYER:
        assert {register for _, register, _ in sid_log} == {0x00, 0x01, 0x04, 0x05, 0x06, 0x08, 0x0B, 0x0C,
                                                            0x0D, 0x0F, 0x12, 0x13, 0x14, 0x18}


def test_a_write_that_brings_an_interrupt_closer_is_seen_at_once() -> None:
    """A raster interrupt enabled while CIA 1's is off comes at the next compare line
    (it waited for the end of the run before: issue 25), 50 a second on a PAL C64."""
    machine = C64()
    start, image = LATE_RASTER_IRQ.image()
    machine.load(Prg(start, image))
    machine.memory[0xFC] = 0
    machine.sys(start, max_cycles=2_000_000)
    frames = (2_000_000 - 130_000) // 19_656  # the program waits about 130,000 cycles first
    assert frames - 1 <= machine.memory[0xFC] <= frames + 1


@pytest.mark.parametrize("span", [100, 16_421, 16_422, 200_000, 5_000_000])
def test_the_standard_interrupts_at_once_are_those_taken_one_by_one(span: int) -> None:
    """While BASIC runs, the KERNAL's interrupts of a stretch of time are taken all at
    once (the jiffy clock, CIA 1's flags read): as the loop that takes them one by one."""
    machines = []
    for at_once in (True, False):
        machine = C64()
        if not at_once:
            machine._standard_interrupts = lambda until: False  # type: ignore[method-assign]
        machine.memory[0xA0:0xA3] = (0x4F1A01 - 5).to_bytes(3, "big")  # the clock wraps on the way
        for step in range(7):
            machine.pass_time(machine.cpu.cycles + span + step)
        machines.append(machine)
    fast, slow = machines
    assert fast.memory == slow.memory and fast.cpu.cycles == slow.cpu.cycles
    assert state(fast.io.cia1) == state(slow.io.cia1)



# -- BASIC's clock: PEEK and POKE without catching the chips up (issue 25) -------------------------
# The runner brings the machine's clock up to BASIC's where a program can notice the time.
# Three shortcuts leave that out where nothing can tell: the horizons (IOArea.quiet_horizons)
# up to which nothing but stolen cycles and the KERNAL's jiffy interrupts happen, POKEs into
# the VIC-II's and SID's plain registers made at their cycle before the clock catches up,
# PEEKs of memory the KERNAL's handler leaves alone, and PEEKs of the chip registers it
# cannot change made at their cycle (compiled_read_ahead: the raster, timers, TOD).  Each
# program here runs with them and without them; after the clock has caught up at the end,
# all must be the same.
BASIC_CHIP_PROGRAMS = {
    "pokes-and-peeks": """10 t=ti:fori=1to300:poke53280,iand15:poke54272+(iand24),iand255
20 a=peek(53266)+peek(56324)+peek(56328)+peek(56329):b=b+peek(162)+peek(828)+peek(53280)
30 poke828,iand255:c=c+peek(54299)+peek(54300):next:printti-t;a;b;c;fre(0)
40 poke53281,3:poke56333,127:x=peek(56333):poke56333,129:poke54296,15
50 fori=1to99:poke53280,i:poke54276,iand129:poke54290,iand65:next:printpeek(54299)
""",
    "sprites-and-screen": """10 poke2040,13:fori=0to62:poke832+i,255:next:poke53248,100:poke53249,60
20 poke53269,1:fori=1to40:poke53280,i:poke53287,i:printi;:x=peek(53279):next
30 poke53265,peek(53265)and239:fori=1to100:poke53281,i:a=peek(53266):next
40 poke53265,peek(53265)or16:printti;peek(160);peek(161);peek(162);x
""",
    "timers-and-tod": """10 poke56328,0:fori=1to150:poke53280,i:t=peek(56329)+peek(56328)
20 poke56590,peek(56590)or1:u=peek(56580)+peek(56581):poke54273,iand255:next
30 fori=1to50:wait162,1:poke53281,i:next:printt;u;ti
40 fori=1to60:h=peek(56331):v=peek(56330)+peek(56329)+peek(56328)+peek(56334)+peek(56327)
50 w=peek(53265)+peek(53266)+peek(54272+(iand31))+peek(56583)+peek(56585):next:printh;v;w
""",
}


def _basic_run(listing: str, shortcuts: bool) -> tuple[Any, ...]:
    from toolchain.basic import tokenize
    from toolchain.c64.run import Session, program_from_prg

    program = program_from_prg(tokenize([("chips.bas", listing)])[0], "chips.bas")
    machine = C64()
    if not shortcuts:
        machine.io.quiet_horizons = lambda now: (now, now)  # type: ignore[method-assign]
    vic_log: list[tuple[int, int, int]] = []
    sid_log: list[tuple[int, int, int]] = []
    machine.io.vic.write_log, machine.io.sid.write_log = vic_log, sid_log
    session = Session(program, machine)
    original = C64.only_kernal_interrupts
    read_ahead = machine.read_io_ahead
    reads_ahead: list[int] = []

    def counted_read_ahead(address: int, now: int) -> int | None:
        value = read_ahead(address, now)
        if value is not None:
            reads_ahead.append(address)
        return value

    machine.read_io_ahead = counted_read_ahead  # type: ignore[method-assign]
    try:
        if not shortcuts:
            C64.only_kernal_interrupts = lambda self: False  # type: ignore[method-assign]
        result = session.run()
    finally:
        C64.only_kernal_interrupts = original  # type: ignore[method-assign]
    assert session.runtime is not None
    end = session.runtime.now()  # the clock caught up: the interrupts nobody looked at taken
    chips = bytes(machine.io.peek(address, end) for address in range(0xD000, 0xDE00))
    # a CIA's state as its registers show it now and later (not its bookkeeping: it works
    # its state out from the cycle count, so when it was last brought up to date differs)
    later = bytes(machine.io.peek(address, end + 100_000) for address in range(0xDC00, 0xDE00))
    assert bool(reads_ahead) == shortcuts  # the PEEKs of chips made ahead of the clock
    return (result.stop, result.cycles, end, bytes(machine.memory), chips, later, vic_log, sid_log,
            machine.screen.text())


@pytest.mark.parametrize("listing", BASIC_CHIP_PROGRAMS.values(), ids=BASIC_CHIP_PROGRAMS.keys())
def test_basic_runs_the_same_with_and_without_the_clock_shortcuts(listing: str) -> None:
    fast = _basic_run(listing, True)
    assert fast[0].name == "END"
    assert fast == _basic_run(listing, False)
    vic_log, sid_log = fast[-3:-1]
    assert len(vic_log) > 100  # the logs saw the late POKEs, in order
    assert [cycle for cycle, _, _ in vic_log] == sorted(cycle for cycle, _, _ in vic_log)
    assert [cycle for cycle, _, _ in sid_log] == sorted(cycle for cycle, _, _ in sid_log)


# voice 2's and voice 3's registers written for a while (three passes of 256 rounds), then
# $D41B/$D41C read 256 times each into $C800/$C900, 200 cycles apart (the envelope waits out
# the ADSR bug the rate changes cause), the second half with voice 2 ring-modulating
# voice 3's triangle; the writes cycle the waveforms (noise, ring
# modulation, the test bit, none) and the gate under changing frequencies, pulse widths and
# envelope rates
VOICE3_READ_BACK = Loop("voice3", "voice 2 and 3 written, then OSC3/ENV3 read back", """*=$c000
loop lda #3
 sta $fb
pass ldx #0
write txa
 sta $d40e
 eor #$5a
 sta $d40f
 sta $d407
 stx $d408
 stx $d410
 sta $d411
 sta $d414
 txa
 and #7
 tay
 lda rates,y
 sta $d413
 lda controls,y
 sta $d412
 lda voice2,y
 sta $d40b
 inx
 bne write
 dec $fb
 bne pass
 ldy #0
read lda $d41b
 sta $c800,y
 lda $d41c
 sta $c900,y
 ldx #40
delay dex
 bne delay
 iny
 cpy #$80
 bne next
 lda #$15
 sta $d412
next cpy #0
 bne read
 jmp loop
controls .byt $11,$15,$20,$41,$00,$89,$80,$81
rates .byt $00,$f4,$1a,$97,$4c,$05,$e0,$20
voice2 .byt $00,$08,$10,$00,$21,$00,$08,$00
""")


def test_voice_3_reads_back_the_fast_paths_writes() -> None:
    """Reads of $D41B/$D41C after the translated code's compiled SID writes (voice 3's
    model's part of them included) give what they give when every write goes through
    Sid.write (the I/O area's compiled writes left out too: they are the same source)."""
    def run(fast: bool) -> tuple[Any, ...]:
        machine = C64()
        if not fast:
            _without_fast_path(machine)
            machine.io._writers = [[None] * count for count in REGISTERS]
        start, image = VOICE3_READ_BACK.image()
        machine.load(Prg(start, image))
        sid_log: list[tuple[int, int, int]] = []
        machine.io.sid.write_log = sid_log
        result = machine.sys(start, max_cycles=500_000)
        return result.instructions, result.cycles, bytes(machine.memory), sid_log

    fast = run(True)
    assert fast == run(False)
    memory = fast[2]
    oscillator, envelope = memory[0xC800:0xC900], memory[0xC900:0xCA00]
    assert len(set(oscillator)) > 20 and len(set(envelope)) > 2  # the reads saw the voice move


# -- a loop that polls the raster: the turns left out (issue 25) ---------------------------------------

def _polls_by_reading(vic: Vic, now: int, horizon: int, value: int, step: int, until_equal: bool,
                      register: int = 0x12, mask: int = 0xFF) -> int:
    """The turns of a polling loop that change nothing, read one by one with the chip's
    ``peek`` (what ``read`` gives) and the watch ``read`` keeps: each read gives what the
    loop goes on with (``mask``: the bits it looks at), leaves the watch alone, and the
    horizon check after it passes."""
    turns = 0
    while True:
        cycle = now + step * turns
        if vic.watched_until < cycle + 2 * 19_656:  # (read would start a watch: vic.WATCH_FRAMES)
            return turns
        if (vic.peek(register, cycle) & mask == value & mask) is until_equal:
            return turns
        if cycle + step >= horizon:
            return turns
        turns += 1


@settings(derandomize=True, max_examples=800, deadline=None)
@given(st.integers(0, 3 * 19_656), st.integers(0, 19_655), st.integers(0, 255),
       st.sampled_from([5, 7, 9, 11, 62]), st.booleans(), st.integers(1, 2 * 19_656),
       st.integers(-1000, 3 * 19_656))
@example(19_656 - 9, 0, 55, 9, True, 19_656, 19_656 * 3)  # line 311 reaches into the frame's first cycle
@example(19_656, 0, 55, 9, False, 19_656, 19_656 * 3)  # ... and is left at its second
@example(0, 0, 0, 62, True, 19_656, 19_656 * 3)  # line 0: 62 cycles, the longest step
@example(100, 0, 56, 7, True, 40_000, 19_656 * 3)  # no line 312: a value with one line
@example(100, 0, 0x80, 9, True, 40_000, 39_312 + 100)  # the watch runs out at the first read
@example(100, 0, 0x80, 9, True, 40_000, 39_312 + 99)  # ... before it
@example(100, 0, 0x80, 9, True, 10, 19_656 * 3)  # the horizon comes first
def test_the_raster_polls_left_out_are_those_read_one_by_one(now: int, offset: int, value: int, step: int,
                                                               until_equal: bool, ahead: int,
                                                               watched: int) -> None:
    """Vic.raster_polls (the translated polling loop's skip: translator.poll_skip) gives
    the turns reading $D012 one by one gives, for any raster position, value, loop speed,
    horizon and watch."""
    vic = Vic(cycle_offset=offset)
    vic.watched_until = max(0, now + watched)
    horizon = now + ahead
    expected = _polls_by_reading(vic, now, horizon, value, step, until_equal)
    assert vic.raster_polls(now, horizon, value, step, until_equal) == expected


@settings(derandomize=True, max_examples=500, deadline=None)
@given(st.integers(0, 3 * 19_656), st.integers(0, 19_655), st.sampled_from([0, 0x80]), st.booleans(),
       st.sampled_from([5, 7, 9, 62]), st.integers(1, 2 * 19_656), st.integers(-1000, 3 * 19_656),
       st.integers(0, 255))
@example(0, 0, 0x80, True, 7, 19_656, 19_656 * 3, 0x1B)  # waits for line 256
@example(16_128, 0, 0x80, False, 7, 19_656, 19_656 * 3, 0x9B)  # ... for line 0 (the frame's second cycle)
@example(19_656 - 3, 0, 0x80, False, 62, 19_656, 19_656 * 3, 0)
def test_the_raster_bit_8_polls_left_out_are_those_read_one_by_one(
        now: int, offset: int, value: int, until_equal: bool, step: int, ahead: int, watched: int,
        control: int) -> None:
    """Vic.raster_high_polls (BIT $D011 / BPL and the like) against reading $D011's bit 7
    one by one, whatever else $D011 holds."""
    vic = Vic(cycle_offset=offset)
    vic.registers[0x11] = control
    vic.watched_until = max(0, now + watched)
    horizon = now + ahead
    expected = _polls_by_reading(vic, now, horizon, value, step, until_equal, register=0x11, mask=0x80)
    assert vic.raster_high_polls(now, horizon, value, step, until_equal) == expected


POLLS = Loop("polls", "polling loops of each form: LDA/LDX/LDY and CMP/CPX/CPY, BNE and BEQ, BIT, BPL, BMI",
             """*=$c000
loop lda $d012
 cmp #$30
 bne loop
wait ldx $d052 ; a mirror
 cpx #$31
 bne wait
 ldy $d012
same cpy $d012
 beq same
 lda #$f8
bottom cmp $d012
 bne bottom
 ldx #$37 ; line 311's low byte: the frame's first cycle
last cpx $d012
 bne last
high bit $d011
 bpl high
low lda $d011
 bmi low
 ldy #$10
high2 ldy $d051 ; a mirror
 bpl high2
 inc $fb
 jmp loop
""")


@pytest.mark.parametrize("cycles", [60_000, 400_000, 1_000_003])
def test_polling_loops_run_the_same_with_and_without_the_skip(cycles: int) -> None:
    """The polling loops' turns left out (the translated code's skip) leave the machine
    as running them does: the same instructions, cycles, registers and memory, the
    KERNAL's interrupt taken at the same places (without the fast path, every turn runs,
    its read through the I/O area)."""
    fast = _run(POLLS, True, cycles)
    assert fast == _run(POLLS, False, cycles)
    assert fast[1] > cycles // 20  # it ran (not stuck at one place)


def _fixed_objects(chip: Any) -> list[Any]:
    found = []
    for path in chip.FIXED_ATTRIBUTES:
        owner = chip
        for name in path.split("."):
            owner = getattr(owner, name, None)
        found.append(owner)
    return found


@settings(derandomize=True, max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(CHIPS)), st.data())
@example("vic", [(0, True, 0x15, 0xFF), (30_000, False, 0x1E, 0), (0, True, 0x15, 0)])  # the collisions' beam
@example("cia 1", [(0, True, 4, 2), (0, True, 0x0E, 0x11), (10_000, False, 0x0D, 0), (0, True, 1, 0)])
def test_a_chips_fixed_objects_stay_what_they_are(kind: str, data: Any) -> None:
    """The translated code keeps a chip's FIXED_ATTRIBUTES as locals for a whole region
    (toolchain.c64.io.IOArea.plug): the chip's methods never bind them again."""
    chip = fresh(kind)
    operations_run = data if isinstance(data, list) else data.draw(operations(CHIPS[kind][1]))
    before = _fixed_objects(chip)
    run(chip, operations_run, 10)
    chip.advance(200_000)
    after = _fixed_objects(chip)
    for old, new in zip(before, after, strict=True):
        assert old is new or (isinstance(old, int) and old == new)


@pytest.mark.parametrize("loop", [CHIP_LOOPS[0], CHIP_LOOPS[2], RASTER_BARS, SID_PLAYER],
                         ids=lambda loop: loop.name)
def test_a_write_log_set_again_at_an_event_gets_the_writes_from_then_on(loop: Loop) -> None:
    """A consumer may set a chip's write log again between regions (the picture's frame
    ticker does, every frame): the translated code takes the log as a region starts, so
    each list gets the writes the machine makes while it is set, the same with and
    without the fast path, and all of them together are the log of one list."""
    def segments(fast: bool, every: int | None) -> list[list[tuple[int, int, int]]]:
        from toolchain.c64.io import Ticker

        machine = C64()
        if not fast:
            _without_fast_path(machine)
        start, image = loop.image()
        machine.load(Prg(start, image))
        logs: list[list[tuple[int, int, int]]] = [[]]
        machine.io.vic.write_log = machine.io.sid.write_log = logs[0]

        def fresh_log() -> None:
            logs.append([])
            machine.io.vic.write_log = machine.io.sid.write_log = logs[-1]

        if every is not None:
            machine.io.tickers.append(Ticker(every, fresh_log, machine.cpu.cycles))
        machine.sys(start, max_cycles=200_000)
        return logs

    fast = segments(True, 7_001)
    assert fast == segments(False, 7_001)
    assert len(fast) > 20 and sum(bool(log) for log in fast) > 5
    assert [write for log in fast for write in log] == segments(True, None)[0]


def test_a_loop_storing_to_a_cia_port_each_turn_stays_in_one_block() -> None:
    """The keyboard scan's stores to $DC00 end their blocks (a CIA write may change the
    chips' timing): the next block is written into the one the store ends, after the
    look at the horizon, so the loop comes back to its own block's start without the
    region's dispatch (the with/without test above holds it to the write watch's ends)."""
    from toolchain.cpu.translator import _Goto, _RegionWriter, _Splice

    keyboard = next(loop for loop in CHIP_LOOPS if loop.name == "cia-ports")
    machine = C64()
    start, image = keyboard.image()
    machine.load(Prg(start, image))
    machine.sys(start, max_cycles=200_000)
    writer = _RegionWriter(machine.cpu, start, True)
    writer.write()
    after_first_store = start + 5  # LDA #$FE / STA $DC00
    assert set(writer.blocks) >= {start, after_first_store}

    def lines_in(lines: Any) -> list[Any]:
        found = []
        for line in lines:
            found.append(line)
            if isinstance(line, _Splice):
                found.extend(lines_in(line.lines))
        return found

    splices = [line for line in writer.blocks[after_first_store] if isinstance(line, _Splice)]
    assert [splice.target for splice in splices] == [after_first_store + 10]  # LDA $DC00 ... JMP
    # the JMP's target copied in, its STA $DC00 leads back to the block's own start
    gotos = [line.target for line in lines_in(splices[0].lines) if isinstance(line, _Goto)]
    assert gotos == [after_first_store]


def test_keys_and_joysticks_changed_at_an_event_reach_a_scanning_loop() -> None:
    """The translated code takes CIA 1's pins' idleness and the joysticks once as a region
    starts (ControlPorts.REGION_CONSTANTS): a key held down or a joystick moved at an
    event (here a ticker, as the live screen's keys come) reaches the next region, as it
    does without the fast path."""
    from toolchain.c64.io import Ticker

    keyboard = next(loop for loop in CHIP_LOOPS if loop.name == "cia-ports")

    def run(fast: bool) -> tuple[Any, ...]:
        machine = C64()
        if not fast:
            _without_fast_path(machine)
        start, image = keyboard.image()
        machine.load(Prg(start, image))
        ports = machine.io.cia1.ports
        seen: list[tuple[int, int]] = []

        def change() -> None:  # every 30,000 cycles: what the loop stored, then a change
            seen.append((machine.memory[0xFB], machine.memory[0xFC]))
            if len(seen) == 2:
                ports.keyboard.press((0, 1))  # row 0 (the loop drives it low), column 1
            elif len(seen) == 4:
                ports.keyboard.release()
                ports.joystick2 = FIRE | UP
            elif len(seen) == 6:
                ports.joystick2 = 0

        machine.io.tickers.append(Ticker(30_000, change, machine.cpu.cycles))
        result = machine.sys(start, max_cycles=250_000)
        return result.instructions, result.cycles, tuple(seen), bytes(machine.memory)

    fast = run(True)
    assert fast == run(False)
    # port B's column 1 low while the key is down; port A's fire and up low while the
    # joystick is moved (the loop keeps bits 0-4 of $DC00)
    assert fast[2][:8] == ((0xFF, 0x1F), (0xFF, 0x1F), (0xFD, 0x1F), (0xFD, 0x1F), (0xFF, 0x0E), (0xFF, 0x0E),
                           (0xFF, 0x1F), (0xFF, 0x1F))


def test_blocks_are_written_in_only_where_they_close_a_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A raster routine's dozens of stores that end their blocks: written into each
    other everywhere, they made the region's source about ten times as long, and the
    region compiled as long as it then ran.  Now only a chain of blocks that comes back
    to where it started is written in (the keyboard loop's), so the source stays
    about as long as without any (and the counts are the same: see above)."""
    import toolchain.cpu.translator as translator

    def source_length() -> int:
        machine = C64()
        start, image = STORES_IN_A_ROW.image()
        machine.load(Prg(start, image))
        machine.sys(start, max_cycles=100_000)
        units = {id(unit): unit for unit in machine.cpu._owner.values()}.values()
        return sum(len(unit.source) for unit in units)

    written_in = source_length()
    monkeypatch.setattr(translator, "MAX_SPLICED", 0)
    assert written_in <= 1.25 * source_length()
