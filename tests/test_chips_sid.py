"""The SID's readable registers (reSID in VICE 3.10, measured in tests/test_chips_vice.py):
the bus value of write-only registers, the paddles, voice 3's oscillator and envelope."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolchain.c64.chips import NEVER
from toolchain.c64.chips.sid import (
    NOISE_DELAY,
    RATE_PERIODS,
    Sid,
    _noise_level,
    _Oscillator,
    _shift_once,
    noise_output,
    shift_register_after,
)

FREQUENCY_LO, FREQUENCY_HI, CONTROL, ATTACK_DECAY, SUSTAIN_RELEASE = 0x0E, 0x0F, 0x12, 0x13, 0x14
OSCILLATOR, ENVELOPE = 0x1B, 0x1C


def test_write_only_registers_read_the_last_value_written_until_it_fades() -> None:
    for model, lasts in (("6581", 0x1D00), ("8580", 0xA2000)):
        sid = Sid(model)
        assert sid.read(0x00, 0) == 0
        sid.write(0x05, 0xC3, 1000)
        assert sid.read(0x00, 1000) == 0xC3 and sid.read(0x1D, 1000 + lasts - 1) == 0xC3
        assert sid.read(0x00, 1000 + lasts) == 0


def test_reading_voice_3_sets_the_bus_value_and_the_paddles_read_ff() -> None:
    sid = Sid("6581")
    sid.write(CONTROL, 0x48, 0)  # pulse with the test bit: output all ones
    sid.write(0x05, 0xC3, 10)
    assert sid.read(OSCILLATOR, 20) == 0xFF and sid.read(0x01, 24) == 0xFF
    assert sid.read(ENVELOPE, 30) == 0 and sid.read(0x19, 34) == 0xFF and sid.read(0x1A, 35) == 0xFF
    assert sid.read(0x02, 38) == 0  # the paddles do not set it (VICE handles them outside reSID)


def test_registers_repeat_every_32_bytes_and_nothing_interrupts() -> None:
    sid = Sid()
    sid.write(0x20 + 0x0E, 0x34, 0)
    assert sid.registers[0x0E] == 0x34
    assert not sid.irq and sid.next_event(0) == NEVER


def test_sawtooth_is_the_accumulators_top_byte() -> None:
    sid = Sid("6581")
    sid.write(FREQUENCY_LO, 0x00, 0)
    sid.write(FREQUENCY_HI, 0x10, 0)  # $1000 a cycle: the top byte steps every 16 cycles
    sid.write(CONTROL, 0x08, 0)  # test bit: the accumulator is held at 0
    assert sid.read(OSCILLATOR, 500) == 0
    sid.write(CONTROL, 0x20, 1000)
    assert [sid.read(OSCILLATOR, 1000 + 16 * step) for step in (0, 1, 2, 255, 256)] == [0, 1, 2, 255, 0]


def test_triangle_and_pulse() -> None:
    sid = Sid("6581")
    sid.write(FREQUENCY_HI, 0x10, 0)
    sid.write(0x10, 0x00, 0)
    sid.write(0x11, 0x08, 0)  # pulse width $800: half
    sid.write(CONTROL, 0x08, 0)
    sid.write(CONTROL, 0x10, 100)
    assert [sid.read(OSCILLATOR, 100 + 16 * step) for step in (0, 64, 127, 128, 255)] == [0, 128, 254, 255, 1]
    sid.write(CONTROL, 0x08, 5000)
    sid.write(CONTROL, 0x40, 6000)
    assert sid.read(OSCILLATOR, 6000 + 16 * 100) == 0 and sid.read(OSCILLATOR, 6000 + 16 * 200) == 0xFF


def test_the_noise_shift_register() -> None:
    register = 0x7FFFFE
    for steps in (0, 1, 5, 32, 33, 1000, 123_456, (1 << 23) - 1):
        stepped = register
        for _ in range(min(steps, 2000)):
            stepped = _shift_once(stepped)
        if steps <= 2000:
            assert shift_register_after(register, steps) == stepped
    assert shift_register_after(register, (1 << 23) - 1) == register  # maximal length
    assert noise_output(0x7FFFFF) == 0xFF0 and noise_output(1 << 20) == 0x800 and noise_output(1) == 0x010


def test_noise_after_the_test_bit_starts_from_all_ones_shifted_once() -> None:
    """reSID (6581): the test bit held 35,000 cycles fills the register with ones; clearing
    it shifts once with bit 0 = NOT bit 17: $7FFFFE, which reads $FE."""
    sid = Sid("6581")
    sid.write(FREQUENCY_HI, 0x10, 0)
    sid.write(CONTROL, 0x88, 0)
    sid.write(CONTROL, 0x80, 40_000)
    assert sid.read(OSCILLATOR, 40_001) == 0xFE
    # bit 19 rises every 256 cycles, the first after 128; a clock shows 2 cycles later; the
    # zeros reach tap bit 2 with the second
    second = 40_000 + 128 + 256 + 2
    assert sid.read(OSCILLATOR, second - 1) == 0xFE and sid.read(OSCILLATOR, second) == 0xFC


def test_noise_at_the_highest_frequency_gives_random_numbers() -> None:
    """What BASIC programs do: POKE 54286,255:POKE 54287,255:POKE 54290,128, then PEEK(54299)
    (tests/data/machine/chips.bas: "VOICE 3 CHANGES -1")."""
    sid = Sid()
    sid.write(FREQUENCY_LO, 0xFF, 0)
    sid.write(FREQUENCY_HI, 0xFF, 0)
    sid.write(CONTROL, 0x80, 0)
    generator = random.Random(1)
    now, values = 10_000, []
    for _ in range(5000):
        now += generator.randrange(800, 3000)  # a BASIC statement or two apart
        values.append(sid.read(OSCILLATOR, now))
    assert values[0] != values[1] != values[2]
    counts = Counter(values)
    assert len(counts) > 240 and max(counts.values()) < 60
    assert 110 < sum(values) / len(values) < 145


def test_waveform_0_keeps_the_last_output_then_fades() -> None:
    sid = Sid("6581")
    sid.write(FREQUENCY_HI, 0x10, 0)
    sid.write(CONTROL, 0x08, 0)
    sid.write(CONTROL, 0x20, 100)
    sid.write(CONTROL, 0x00, 100 + 16 * 0x5F)
    held = sid.read(OSCILLATOR, 100 + 16 * 0x5F + 100)
    assert held == 0x5F and sid.read(OSCILLATOR, 100 + 16 * 0x5F + 180_000) == 0x5F
    assert sid.read(OSCILLATOR, 100 + 16 * 0x5F + 182_000 + 20 * 1500) == 0


def test_the_envelope_rises_and_falls() -> None:
    sid = Sid()
    sid.write(ATTACK_DECAY, 0x00, 0)  # attack 2 ms: a step every 9 cycles
    sid.write(SUSTAIN_RELEASE, 0x80, 0)  # sustain $88, release 6 ms
    sid.write(CONTROL, 0x01, 100)
    levels = [sid.read(ENVELOPE, 100 + cycle) for cycle in range(0, 2400, 100)]
    assert levels[0] < 2 and 9 <= levels[1] <= 12 and max(levels) == 0xFF  # up in 255 * 9 cycles ...
    assert sid.read(ENVELOPE, 100 + 255 * 9 + 119 * 9 + 100) == 0x88  # ... then down to the sustain level
    sid.write(CONTROL, 0x00, 10_000)
    falling = [sid.read(ENVELOPE, 10_000 + cycle) for cycle in range(0, 20_000, 500)]
    assert falling == sorted(falling, reverse=True) and falling[-1] == 0


@pytest.mark.parametrize("rate", range(16))
def test_attack_steps_once_a_rate_period(rate: int) -> None:
    sid = Sid()
    sid.write(ATTACK_DECAY, rate << 4, 0)
    sid.write(CONTROL, 0x01, 0)
    period = RATE_PERIODS[rate] + 1
    assert abs(sid.read(ENVELOPE, 100 * period) - 100) <= 1


def test_exponential_decay_steps_slower_at_low_levels() -> None:
    sid = Sid()
    sid.write(SUSTAIN_RELEASE, 0xF0, 0)  # sustain $FF; release rate 0: 9 cycles, times 1, 2, 4, 8, 16, 30
    sid.write(CONTROL, 0x01, 0)
    sid.write(CONTROL, 0x00, 10_000)  # released from $FF
    ticks = (0xFF - 0x5D) + (0x5D - 0x36) * 2 + (0x36 - 0x1A) * 4 + (0x1A - 0x0E) * 8 + (0x0E - 0x06) * 16
    assert abs(sid.read(ENVELOPE, 10_000 + ticks * 9) - 0x06) <= 1
    assert sid.read(ENVELOPE, 10_000 + (ticks + 6 * 30) * 9 + 10) == 0


def test_a_lower_rate_waits_for_the_counter_to_wrap() -> None:
    """The rate counter is not reset on a change: set past the new period, it counts
    through $7FFF first (reSID; the "ADSR bug" of the real chip)."""
    sid = Sid()
    sid.write(SUSTAIN_RELEASE, 0x0F, 0)  # release 8 s: period 31251
    sid.write(ATTACK_DECAY, 0x00, 0)
    sid.write(CONTROL, 0x01, 5_000)  # the counter is at about 5000 > 8
    assert sid.read(ENVELOPE, 5_000 + 20_000) == 0
    assert sid.read(ENVELOPE, 0x8000 + 8 + 200) > 0


def test_an_unknown_model_is_refused() -> None:
    with pytest.raises(ValueError):
        Sid("6582")


def _noise_cycle_by_cycle(writes: list[tuple[int, int]], reads: list[int]) -> list[int]:
    """$D41B with noise selected, worked out one cycle at a time (the reference for the
    model's arithmetic): the accumulator adds the frequency every cycle, and the shift
    register is clocked two cycles after bit 19 rises.  ``writes``: (cycle, frequency)."""
    accumulator, frequency, register = 0x555555, 0, 0x7FFFFE
    clocks: list[int] = []  # cycles at which a clock is applied
    pending_writes, values = sorted(writes), []
    for cycle in range(1, max(reads) + 1):
        while pending_writes and pending_writes[0][0] < cycle:
            frequency = pending_writes.pop(0)[1]
        risen = (accumulator + frequency) & 0xFFFFFF
        if risen & 0x80000 and not accumulator & 0x80000:
            clocks.append(cycle + 2)
        accumulator = risen
        while clocks and clocks[0] <= cycle:
            clocks.pop(0)
            register = _shift_once(register)
        if cycle in reads:
            values.append(noise_output(register) >> 4)
    return values


@settings(derandomize=True, max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(4, 900), st.integers(0, 0xFFFF), st.booleans()),
                min_size=1, max_size=30))
@example([(4, 0xFFFF, True), (4, 0x0001, True), (4, 0x8000, True)])  # reads right after each write
@example([(300, 0x1000, False), (4, 0x0000, True), (600, 0x0800, True)])  # stopped, then on again
def test_noise_follows_the_accumulator_through_frequency_changes(steps: list[tuple[int, int, bool]]) -> None:
    """The model counts bit 19's rises as a difference of the accumulator's values over
    any number of frequency writes; the clocks are those a cycle-by-cycle count gives.
    A read comes at least 4 cycles after a write (a 6502 store, then LDA $D41B)."""
    sid = Sid()
    sid.write(CONTROL, 0x80, 0)
    now, writes, reads, values = 0, [], [], []
    for delay, frequency, read in steps:
        now += delay
        if read:
            reads.append(now)
            values.append(sid.read(OSCILLATOR, now))
            now += 4
        sid.write(FREQUENCY_LO, frequency & 0xFF, now)
        sid.write(FREQUENCY_HI, frequency >> 8, now)
        writes.append((now, frequency))
    now += 5000
    reads.append(now)
    values.append(sid.read(OSCILLATOR, now))
    assert values == _noise_cycle_by_cycle(writes, reads)


@settings(derandomize=True, max_examples=400, deadline=None)
@given(st.integers(0, 15), st.integers(0, 15), st.integers(0, 0x7FFF), st.integers(0, 200_000))
@example(0, 1, 8, 0)  # the counter at the period
@example(0, 15, 9, 0x7FFF - 9)  # past it: at $7FFF as the new rate is written
@example(0, 15, 9, 0x7FFF - 8)  # ... and just after the wrap
@example(3, 0, 20_000, 0x8000 - 20_000 + 94)  # the tick after the wrap
def test_a_held_envelope_keeps_its_rate_counter_across_a_rate_change(release: int, new_release: int,
                                                                     count: int, elapsed: int) -> None:
    """Held at level 0, a new release rate keeps the rate counter's value (the ADSR bug):
    the shortcut (_Envelope.held_count) gives what stepping through the ticks does."""
    sid = Sid()
    sid.write(SUSTAIN_RELEASE, release, 0)
    envelope = sid.envelope
    envelope.rate_count, envelope.rate_since = count, 1000
    stepped = Sid()
    stepped.envelope.set_state(envelope.__getstate__())
    stepped.envelope.advance(1000 + elapsed)
    stepped.envelope.rebase(1000 + elapsed)
    sid.write(SUSTAIN_RELEASE, new_release, 1000 + elapsed)
    # (the counter's value then: a write of the rate it has leaves the representation alone)
    assert envelope.held_count(1000 + elapsed) == stepped.envelope.rate_count
    assert envelope.release == new_release


_EFFECT_REGISTERS = (0x07, 0x08, 0x0B, FREQUENCY_LO, FREQUENCY_HI, CONTROL, ATTACK_DECAY, SUSTAIN_RELEASE)


def _write_with_every_effect(sid: Sid, register: int, value: int, now: int) -> None:
    """``Sid.write`` as it was before a write of the byte a register holds was left out:
    the byte stored and the register's effect carried out whatever the byte."""
    sid.bus_value, sid.bus_charged = value, now
    sid.registers[register] = value
    if register in (FREQUENCY_LO, FREQUENCY_HI):
        sid.voice3_frequency_written(now)
    elif register in (0x07, 0x08):
        sid.voice2_frequency_written(now)
    elif register == 0x0B:
        if bool(value & 0x08) != sid.voice2.test:
            sid.voice2_test_written(value, now)
    elif register == CONTROL:
        sid.control_written(value, now)
    else:
        sid.rates_written(register, value, now)


@settings(derandomize=True, max_examples=300, deadline=None)
@given(st.sampled_from(["6581", "8580"]),
       st.lists(st.tuples(st.integers(4, 40_000), st.sampled_from(_EFFECT_REGISTERS),
                          st.sampled_from([0x00, 0x01, 0x08, 0x09, 0x11, 0x14, 0x21, 0x41, 0x81, 0xF0, 0xFF]),
                          st.sampled_from([None, OSCILLATOR, ENVELOPE])), max_size=40))
# noise, its frequency written again
@example("8580", [(4, CONTROL, 0x81, None), (40, FREQUENCY_HI, 0xFF, None),
                  (900, FREQUENCY_HI, 0xFF, OSCILLATOR), (4, FREQUENCY_HI, 0xFF, OSCILLATOR)])
@example("6581", [(4, SUSTAIN_RELEASE, 0x09, None), (30_000, SUSTAIN_RELEASE, 0x09, None),
                  (4, CONTROL, 0x11, None), (20_000, ATTACK_DECAY, 0x00, ENVELOPE),
                  (4, SUSTAIN_RELEASE, 0x09, ENVELOPE)])  # held at 0, then the ADSR bug's counter
@example("6581", [(4, CONTROL, 0x09, None), (40_000, CONTROL, 0x09, OSCILLATOR),
                  (4, CONTROL, 0x81, OSCILLATOR)])  # the test bit held: the shift register fills
@example("8580", [(4, CONTROL, 0x14, None), (4, 0x08, 0x41, None), (300, 0x08, 0x41, OSCILLATOR),
                  (4, 0x0B, 0x08, None), (4, 0x0B, 0x08, OSCILLATOR)])  # ring modulation by voice 2
def test_writing_the_byte_a_register_holds_changes_no_read(
        model: str, steps: list[tuple[int, int, int, int | None]]) -> None:
    """A write of the byte a register holds is only stored and charges the bus (Sid.write
    and the compiled writes leave its effect out): every later read of voice 3 is what
    it is when the effect is carried out (reads come at least four cycles after a write,
    as an LDA's after an STA)."""
    skipped, carried_out = Sid(model), Sid(model)
    now = 0
    for elapsed, register, value, read in steps:
        now += elapsed
        skipped.write(register, value, now)
        _write_with_every_effect(carried_out, register, value, now)
        if read is not None:
            now += 4
            assert skipped.read(read, now) == carried_out.read(read, now), (now, register, value)
    now += 50_000
    assert [skipped.read(register, now) for register in (OSCILLATOR, ENVELOPE)] == \
        [carried_out.read(register, now) for register in (OSCILLATOR, ENVELOPE)]


@settings(derandomize=True, max_examples=100, deadline=None)
@given(st.sampled_from(["6581", "8580"]), st.integers(1_000, 200_000), st.integers(-2_000, 30_000),
       st.integers(0, 0xFF))
@example("6581", 1_000, 0, 0x23)  # the write as the fading begins: the reads differed by a step
@example("6581", 1_000, 1_200, 0x23)
def test_a_frequency_written_while_the_test_bit_holds_leaves_the_fading_alone(
        model: str, held_at: int, written_after_fade: int, frequency: int) -> None:
    """With the test bit set, the noise shift register fades to ones a bit at a time from
    a while after the bit was set (reSID's shiftreg_bitfade); a frequency write only
    stores the frequency (writeFREQ_HI), so the register reads as without it."""
    def held_reads(write: bool) -> list[int]:
        sid = Sid(model)
        sid.write(FREQUENCY_HI, 0x91, 0)
        sid.write(CONTROL, 0x80, 4)  # noise running: the shift register takes its bits
        sid.write(CONTROL, 0x88, held_at)  # the test bit: held
        begin = held_at + sid.shift_reset
        if write:
            sid.write(FREQUENCY_HI, frequency, max(held_at + 4, begin + written_after_fade))
        step = sid.shift_reset_bit
        return [sid.read(OSCILLATOR, begin + written_after_fade + 4 + k * step // 2) for k in range(10)]

    assert held_reads(True) == held_reads(False)


class _OscillatorWithSince(_Oscillator):
    """The accumulator as it was kept before: the line held at its value at the last
    write (``since``) for a time before it."""

    __slots__ = ("since",)

    def __init__(self) -> None:
        super().__init__()
        self.since = 0

    def unwrapped(self, now: int) -> int:
        return super().unwrapped(max(now, self.since))

    def set_frequency(self, frequency: int, now: int) -> None:
        self.since = max(now, self.since)
        super().set_frequency(frequency, self.since)

    def release(self, now: int) -> None:
        super().release(now)
        self.since = now


class _SidWithSince(Sid):
    """The model as it was: the oscillators held before their last write, and a
    frequency write keeping the noise's clocks up to it in the pipeline."""

    def __init__(self, model: str) -> None:
        super().__init__(model)
        self.voice2, self.voice3 = _OscillatorWithSince(), _OscillatorWithSince()

    def voice3_frequency_written(self, now: int) -> None:
        if not self.voice3.test:
            self.shift_since = now + NOISE_DELAY
        super().voice3_frequency_written(now)

    def _write_control(self, value: int, now: int) -> None:
        released = self.voice3.test and not value & 0x08
        super()._write_control(value, now)
        if released:  # the noise's count from the line held at the release
            self.shift_level = _noise_level(self.voice3.unwrapped(now - NOISE_DELAY))


# a step of a 6502 program: a store (the cycles since the last access, register, byte), a
# read-modify-write's two stores a cycle apart (INC $D412: the byte read, then the new
# one), a read of voice 3
_WAVE_REGISTERS = (0x07, 0x08, 0x0B, FREQUENCY_LO, FREQUENCY_HI, 0x10, 0x11, CONTROL)
_WAVE_BYTES = st.one_of(st.integers(0, 255), st.sampled_from([0x00, 0x08, 0x09, 0x11, 0x14, 0x15, 0x21, 0x41,
                                                              0x49, 0x81, 0x88, 0xFF]))
_GAP = st.one_of(st.integers(0, 8), st.integers(0, 3_000), st.integers(0, 60_000))
_WAVE_REGISTER = st.sampled_from(_WAVE_REGISTERS)
_Step = tuple[str, int, int, int, int]
_STEP = st.one_of(st.tuples(st.just("store"), _GAP, _WAVE_REGISTER, _WAVE_BYTES, st.just(0)),
                  st.tuples(st.just("modify"), _GAP, _WAVE_REGISTER, _WAVE_BYTES, _WAVE_BYTES),
                  st.tuples(st.just("read"), _GAP, st.sampled_from([OSCILLATOR, ENVELOPE]), st.just(0),
                            st.just(0)))


@settings(derandomize=True, max_examples=300, deadline=None)
@given(st.sampled_from(["6581", "8580"]), st.sampled_from([0x11, 0x15, 0x21, 0x41, 0x61, 0x81]),
       st.integers(1, 0xFFFF), st.integers(0, 0xFFFF), st.lists(_STEP, min_size=1, max_size=40))
# a frequency store, then voice 3 read as soon as a 6502 can (pulse and sawtooth, noise)
@example("8580", 0x61, 0x1000, 0, [("store", 0, FREQUENCY_HI, 0x80, 0), ("store", 0, FREQUENCY_HI, 0x10, 0),
                                   ("read", 0, OSCILLATOR, 0, 0)])
@example("6581", 0x81, 0xFFFF, 0, [("store", 300, FREQUENCY_HI, 0x12, 0), ("read", 0, OSCILLATOR, 0, 0)])
# the test bit released by a read-modify-write's first store and set again by its second
@example("8580", 0x81, 0x7F00, 0, [("store", 0, CONTROL, 0x89, 0), ("modify", 40_000, CONTROL, 0x81, 0x89),
                                   ("store", 0, CONTROL, 0x81, 0), ("read", 0, OSCILLATOR, 0, 0)])
def test_voice_3_reads_as_with_the_line_held_before_a_write(model: str, waveform: int, frequency: int,
                                                           voice2: int, steps: list[_Step]) -> None:
    """The accumulators' lines are not held at their value before a write (_Oscillator):
    at a 6502's timing (a store at least four cycles after the last access, a
    read-modify-write's second store a cycle after its first, a read at least four
    cycles after a store) every read of voice 3 is what the model that held them gives."""
    sid, held, now = Sid(model), _SidWithSince(model), 0
    start = [(FREQUENCY_LO, frequency & 0xFF), (FREQUENCY_HI, frequency >> 8), (0x07, voice2 & 0xFF),
             (0x08, voice2 >> 8), (CONTROL, waveform)]
    steps = [("store", 0, register, value, 0) for register, value in start] + steps
    for kind, gap, register, value, second in steps:
        now += 4 + gap
        if kind == "read":
            assert sid.read(register, now) == held.read(register, now), (now, steps)
            continue
        sid.write(register, value, now)
        held.write(register, value, now)
        if kind == "modify":
            now += 1
            sid.write(register, second, now)
            held.write(register, second, now)
    for later in (4, 5, 6, 300, 70_000):
        assert [sid.read(register, now + later) for register in (OSCILLATOR, ENVELOPE)] == \
            [held.read(register, now + later) for register in (OSCILLATOR, ENVELOPE)]
