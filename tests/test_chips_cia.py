"""The 6526 CIAs: ports, timers, interrupt control and the time-of-day clock (the MOS
6526 datasheet; VICE 3.10's behaviour, measured in tests/test_chips_vice.py and
tests/data/machine: chips.vice.txt shows "USER PORT 255 JOY 127 255", tod.vice.txt the TOD facts)."""

from __future__ import annotations

import pytest

from toolchain.c64.chips import CYCLES_PER_SECOND, NEVER
from toolchain.c64.chips.cia import (
    ALARM,
    TENTHS_A_DAY,
    TIMER_A,
    TIMER_B,
    Cia,
    SerialBusAndUserPort,
    _tenths_of,
    _time_of,
    _tod_step,
)
from toolchain.c64.chips.keyboard import ControlPorts
from toolchain.c64.chips.power_on import KERNAL_RESET_WRITES

TENTH_50HZ = CYCLES_PER_SECOND // 10  # 5 mains ticks
TICK = CYCLES_PER_SECOND / 50


def started() -> tuple[Cia, Cia]:
    cia1 = Cia(ControlPorts(), "irq")
    cia2 = Cia(SerialBusAndUserPort(), "nmi")
    for address, value in KERNAL_RESET_WRITES:
        if address >> 8 == 0xDC:
            cia1.write(address & 0x0F, value, 0)
        elif address >> 8 == 0xDD:
            cia2.write(address & 0x0F, value, 0)
    return cia1, cia2


# -- ports ---------------------------------------------------------------------------------------------

def test_idle_ports_after_the_kernal_read_as_on_vice() -> None:
    cia1, cia2 = started()
    assert (cia1.read(0x0, 10), cia1.read(0x1, 10)) == (127, 255)  # joystick ports idle
    assert cia2.read(0x1, 10) == 255  # user port
    assert cia2.read(0x0, 10) == 0x97  # the KERNAL leaves the serial clock line pulled low
    cia2.write(0x0, 0x07, 10)
    assert cia2.read(0x0, 10) == 0xC7  # as after a LOAD (tests/data/machine: dd00 $C7)
    assert (cia1.read(0x2, 10), cia1.read(0x3, 10), cia2.read(0x2, 10)) == (0xFF, 0x00, 0x3F)


def test_serial_bus_lines_read_back_inverted_with_nothing_on_the_bus() -> None:
    cia2 = Cia(SerialBusAndUserPort(), "nmi")
    cia2.write(0x2, 0x3F, 0)
    # measured on VICE without drive or printer (tests/test_chips_vice.py, "ports")
    for written, read in ((0x07, 0xC7), (0x0F, 0xCF), (0x17, 0x97), (0x27, 0x67), (0x37, 0x37), (0x00, 0xC0)):
        cia2.write(0x0, written, 0)
        assert cia2.read(0x0, 0) == read
    cia2.write(0x2, 0x00, 0)  # all inputs: pulled up, so the outputs' inverters pull both lines low
    assert cia2.read(0x0, 0) == 0x3F


def test_input_pins_read_high_and_outputs_read_the_latch() -> None:
    cia = Cia()
    assert cia.read(0x0, 0) == 0xFF and cia.read(0x1, 0) == 0xFF  # after a reset every pin is an input
    cia.write(0x3, 0xFF, 0)
    cia.write(0x1, 0x55, 0)
    assert cia.read(0x1, 0) == 0x55
    cia.write(0x2, 0xF0, 0)
    cia.write(0x0, 0xA5, 0)
    assert cia.read(0x0, 0) == 0xAF


def test_vic_bank_from_port_a() -> None:
    _, cia2 = started()
    assert cia2.vic_bank() == 0x0000
    cia2.write(0x0, 0x94, 0)  # %00: bank 3
    assert cia2.vic_bank() == 0xC000
    cia2.write(0x0, 0x96, 0)
    assert cia2.vic_bank() == 0x4000


def test_the_serial_data_register_is_stored() -> None:
    cia = Cia()
    cia.write(0xC, 0x5A, 0)
    assert cia.read(0xC, 1000) == 0x5A


# -- timers -----------------------------------------------------------------------------------------------

def test_a_continuous_timer_shows_the_latch_twice_and_never_0() -> None:
    cia = Cia()
    cia.write(0x6, 5, 0)
    cia.write(0x7, 0, 0)
    cia.write(0xF, 0x11, 100)  # force load and start at cycle 100: counts from 103
    assert [cia.read(0x6, cycle) for cycle in range(103, 116)] == [5, 4, 3, 2, 1, 5, 5, 4, 3, 2, 1, 5, 5]
    assert cia.timer_b.underflow_after(100) == 108 and cia.timer_b.underflow_after(108) == 114


def test_a_one_shot_timer_stops_and_clears_its_start_bit() -> None:
    cia = Cia()
    cia.write(0x6, 3, 0)
    cia.write(0x7, 0, 0)
    cia.write(0xF, 0x19, 0)
    assert cia.read(0xF, 1) == 0x09  # force load reads 0
    assert cia.read(0x6, 4) == 2
    assert cia.read(0xD, 6) == TIMER_B  # underflow at 3 + 3
    assert cia.read(0xF, 7) == 0x08 and cia.read(0x6, 1000) == 3
    assert cia.read(0xD, 1000) == 0  # reading cleared the flag; no second underflow


def test_start_stop_and_loading() -> None:
    cia = Cia()
    cia.write(0x4, 0x10, 0)
    cia.write(0x5, 0x27, 0)  # stopped: writing the high byte loads the counter
    assert cia.read(0x4, 5) == 0x10 and cia.read(0x5, 5) == 0x27
    cia.write(0xE, 0x01, 10)  # start: counts from cycle 12
    assert cia.read(0x4, 12) == 0x10 and cia.read(0x4, 20) == 0x08
    cia.write(0xE, 0x00, 30)  # stop: the value of cycle 32 stays
    frozen = 0x2710 - 20
    assert cia.read(0x4, 40) == frozen & 0xFF and cia.read(0x5, 5000) == frozen >> 8
    cia.write(0x4, 0x00, 50)  # the low byte alone only sets the latch
    assert cia.read(0x4, 51) == frozen & 0xFF
    cia.write(0xE, 0x10, 60)  # force load while stopped
    assert cia.read(0x4, 61) == 0x00 and cia.read(0x5, 61) == 0x27


def test_timer_b_counts_timer_a_underflows() -> None:
    cia = Cia()
    cia.write(0x4, 9, 0)
    cia.write(0x5, 0, 0)
    cia.write(0x6, 2, 0)
    cia.write(0x7, 0, 0)
    cia.write(0xF, 0x51, 0)  # timer B: timer A's underflows, force load, start
    cia.write(0xE, 0x11, 100)  # timer A: underflows at 103 + 9 = 112, 122, 132, 142
    assert cia.read(0x6, 110) == 2
    # a step shows 2 cycles after timer A's underflow; at 0, the reload after 1
    assert [cia.read(0x6, cycle) for cycle in (113, 114, 124, 132, 133, 143, 144)] == [2, 1, 0, 0, 2, 2, 1]
    assert cia.read(0xD, 143) == TIMER_A | TIMER_B


def test_timer_b_keeps_the_underflow_of_a_one_shot_timer_a() -> None:
    cia = Cia()
    for register, value in ((0x4, 4), (0x5, 0), (0x6, 7), (0x7, 0)):
        cia.write(register, value, 0)
    cia.write(0xF, 0x51, 0)
    cia.write(0xE, 0x19, 10)  # timer A once: underflow at 13 + 4 = 17
    cia.advance(1000)
    assert cia.read(0x6, 1001) == 6 and cia.read(0xE, 1001) == 0x08 and cia.read(0xF, 1001) == 0x41


def test_timer_a_counting_cnt_stands_still() -> None:
    cia = Cia()
    cia.write(0x4, 9, 0)
    cia.write(0x5, 0, 0)
    cia.write(0xE, 0x31, 0)
    assert cia.read(0x4, 10_000) == 9 and cia.read(0xD, 10_000) == 0


def test_the_interrupt_mask_and_the_line() -> None:
    cia1, cia2 = started()
    # the KERNAL's system interrupt: timer A every 16,422 cycles (latch $4025 + 1)
    first = cia1.next_event(0)
    assert cia1.next_event(first - 1) == first
    cia1.advance(first)
    assert cia1.irq and not cia1.nmi
    assert cia1.read(0xD, first + 5) == 0x81  # bit 7: a masked source fired; reading clears
    assert not cia1.irq
    assert cia1.next_event(first + 5) == first + 16_422
    cia1.write(0xD, 0x01, first + 6)  # bit 7 clear: the mask bit goes
    cia1.advance(first + 16_422)
    assert not cia1.irq and cia1.next_event(first + 16_422) == NEVER
    assert cia1.read(0xD, first + 16_423) == 0x01  # the flag is still set


def test_cia_2_pulls_the_nmi_line() -> None:
    _, cia2 = started()
    cia2.write(0x4, 100, 0)
    cia2.write(0x5, 0, 0)
    cia2.write(0xD, 0x81, 0)
    cia2.write(0xE, 0x19, 0)
    assert cia2.next_event(0) == 103
    cia2.advance(103)
    assert cia2.nmi and not cia2.irq


def test_an_unknown_interrupt_line_is_refused() -> None:
    with pytest.raises(ValueError):
        Cia(interrupt="firq")


def test_long_runs_are_worked_out_not_stepped() -> None:
    cia1, _ = started()
    cia1.advance(10**12)  # a 1-day gap costs nothing and sets the flag once
    assert cia1.read(0xD, 10**12) == 0x81
    assert cia1.read(0x4, 10**12 + 1) != cia1.read(0x4, 10**12 + 2)


# -- time of day --------------------------------------------------------------------------------------------

def set_time(cia: Cia, hours: int, minutes: int, seconds: int, tenths: int, now: int) -> None:
    for register, value in ((0xB, hours), (0xA, minutes), (0x9, seconds), (0x8, tenths)):
        cia.write(register, value, now)


def read_time(cia: Cia, now: int) -> tuple[int, int, int, int]:
    return cia.read(0xB, now), cia.read(0xA, now), cia.read(0x9, now), cia.read(0x8, now)


def test_the_clock_stands_at_1_am_until_tenths_are_written() -> None:
    cia1, _ = started()
    assert read_time(cia1, 50 * CYCLES_PER_SECOND) == (0x01, 0x00, 0x00, 0x00)
    cia1.write(0x8, 0, 50 * CYCLES_PER_SECOND)
    assert read_time(cia1, 52 * CYCLES_PER_SECOND) != (0x01, 0x00, 0x00, 0x00)


@pytest.mark.parametrize(("cra", "seconds"), [(0x00, 0x10), (0x80, 0x12)])
def test_the_mains_divider(cra: int, seconds: int) -> None:
    """50 Hz mains (PAL): the 50 Hz setting counts real time, the 60 Hz setting the KERNAL
    leaves counts 5/6 of it (VICE: a tenth every 6 frames, tests/test_chips_vice.py)."""
    cia = Cia()
    cia.write(0xE, cra, 0)
    set_time(cia, 1, 0, 0, 0, 0)
    hours, minutes, secs, tenths = read_time(cia, 12 * CYCLES_PER_SECOND)
    assert (hours, minutes, secs) == (0x01, 0x00, seconds) and tenths in (0, 1)


def test_reading_hours_holds_the_outputs_until_tenths_are_read() -> None:
    cia = Cia()
    cia.write(0xE, 0x80, 0)
    set_time(cia, 1, 0x59, 0x59, 9, 0)
    assert cia.read(0xB, 1) == 0x01
    later = 3 * CYCLES_PER_SECOND
    assert (cia.read(0xA, later), cia.read(0x9, later)) == (0x59, 0x59)  # held
    assert cia.read(0x8, later) == 0x09  # the held tenths, and the hold ends
    now_shown = read_time(cia, later)
    assert now_shown == (0x02, 0x00, 0x02, 0x09) or now_shown[:3] == (0x02, 0x00, 0x03)


def test_writing_hours_stops_the_clock_and_tenths_start_it() -> None:
    cia = Cia()
    cia.write(0xE, 0x80, 0)
    set_time(cia, 1, 0, 0, 0, 0)
    cia.write(0xB, 0x01, 0)
    assert read_time(cia, 5 * CYCLES_PER_SECOND) == (0x01, 0x00, 0x00, 0x00)
    cia.write(0x8, 0x00, 5 * CYCLES_PER_SECOND)
    assert read_time(cia, 7 * CYCLES_PER_SECOND)[2] in (0x01, 0x02)


def test_hours_12_and_the_am_pm_flag() -> None:
    cia = Cia()
    for written, read in ((0x12, 0x92), (0x92, 0x12), (0x11, 0x11), (0xFF, 0x9F)):
        cia.write(0xB, written, 0)
        assert cia.read(0xB, 0) == read  # writing 12 flips AM/PM (measured on VICE)
        cia.read(0x8, 0)  # ends the hold that reading hours began
    cia.write(0xF, 0x80, 0)  # alarm registers: no flip
    cia.write(0xB, 0x12, 0)
    assert cia.alarm[3] == 0x12
    for before, after in (((0x11, 0x59, 0x59, 9), (0x92, 0, 0, 0)), ((0x92, 0x59, 0x59, 9), (0x81, 0, 0, 0)),
                          ((0x09, 0x59, 0x59, 9), (0x10, 0, 0, 0)), ((0x91, 0x59, 0x59, 9), (0x12, 0, 0, 0)),
                          ((0x12, 0x59, 0x59, 9), (0x01, 0, 0, 0))):
        time = [before[3], before[2], before[1], before[0]]
        _tod_step(time)
        assert time == [after[3], after[2], after[1], after[0]]


def test_the_alarm_fires_when_the_clock_reaches_it() -> None:
    cia = Cia()
    cia.write(0xE, 0x80, 0)
    cia.write(0xF, 0x80, 0)
    set_time(cia, 1, 0, 0, 3, 0)  # the alarm: 1:00:00.3
    assert cia.read(0xD, 0) == ALARM  # on the way it equalled the time (1:00:00.0)
    cia.write(0xF, 0x00, 0)
    cia.write(0xD, 0x84, 0)
    set_time(cia, 1, 0, 0, 0, 0)
    when = cia.next_event(0)
    assert abs(when - 3 * TENTH_50HZ) < TICK + 1
    cia.advance(when - 1)
    assert not cia.irq
    cia.advance(when)
    assert cia.irq and cia.read(0xD, when) == 0x80 | ALARM


def test_a_long_gap_counts_the_clock_and_finds_the_alarm() -> None:
    cia = Cia()
    cia.write(0xE, 0x80, 0)
    cia.write(0xF, 0x80, 0)
    set_time(cia, 0x83, 0x15, 0x00, 0, 0)  # alarm 3:15 PM
    cia.write(0xF, 0x00, 0)
    set_time(cia, 0x11, 0x00, 0x00, 0, 0)  # 11 AM
    cia.advance(5 * 3600 * CYCLES_PER_SECOND)  # five hours in one step
    assert cia.read(0xD, 5 * 3600 * CYCLES_PER_SECOND) & ALARM
    hours, minutes = cia.read(0xB, 5 * 3600 * CYCLES_PER_SECOND), cia.read(0xA, 5 * 3600 * CYCLES_PER_SECOND)
    assert (hours, minutes) in ((0x83, 0x59), (0x84, 0x00))


def test_the_clock_arithmetic_agrees_with_stepping() -> None:
    # every tenth of the day: Cia._step_tod jumps over any number of valid times at once
    for tenths in range(TENTHS_A_DAY):
        time = _time_of(tenths)
        assert _tenths_of(time) == tenths
        _tod_step(time)
        assert time == _time_of((tenths + 1) % TENTHS_A_DAY)


@pytest.mark.parametrize(("start", "alarm"), [
    ([0x05, 0x59, 0x59, 0x11], [0x02, 0x00, 0x00, 0x12]),  # over 12 (AM to PM) and the alarm
    ([0x09, 0x59, 0x59, 0x91], [0x00, 0x00, 0x00, 0x92]),  # over PM 11:59:59.9: the day wraps
    ([0x0F, 0x59, 0x59, 0x01], [0x03, 0x00, 0x00, 0x02]),  # an invalid tenth first, then valid
    ([0x00, 0x00, 0x00, 0x01], [0x00, 0x00, 0x00, 0x00]),  # an alarm no valid time reaches
    ([0x04, 0x00, 0x00, 0x01], [0x04, 0x00, 0x00, 0x01]),  # the alarm is where it starts
])
def test_many_tenths_at_once_as_one_by_one(start: list[int], alarm: list[int]) -> None:
    for steps in (1, 2, 5, 10, 50, 100, 4097):
        cia = Cia()
        cia.tod, cia.alarm = list(start), list(alarm)
        cia._step_tod(steps)
        time, fired = list(start), False  # the counters' way: a tenth, the alarm compared
        for _ in range(steps):
            _tod_step(time)
            fired = fired or time == alarm
        assert (cia.tod, bool(cia.flags & ALARM)) == (time, fired), steps


def test_an_invalid_time_counts_as_the_6526_does() -> None:
    time = [0x0F, 0x59, 0x59, 0x01]  # tenths 15: counts to 0 without a carry
    _tod_step(time)
    assert time == [0x00, 0x59, 0x59, 0x01]
    cia = Cia()
    cia.write(0xE, 0x80, 0)
    set_time(cia, 0x01, 0x7F, 0x7F, 0x0F, 0)
    cia.advance(20_000 * CYCLES_PER_SECOND // 10)  # long enough to count through the oddities
    assert cia.read(0xB, 20_000 * CYCLES_PER_SECOND // 10) in range(0x01, 0x13)


# -- time of day: the facts of tests/data/machine/tod.bas at cycle level -------------------------------------

def mains_tick(index: int) -> int:
    """The cycle of mains tick ``index`` of a Cia with the default phase (50 Hz)."""
    return index * CYCLES_PER_SECOND // 50


@pytest.mark.parametrize(("cra", "ticks"), [(0x80, 5), (0x00, 6)])
def test_the_first_tenth_comes_5_or_6_mains_ticks_after_tenths_are_written(cra: int, ticks: int) -> None:
    cia = Cia()
    cia.write(0xE, cra, 0)
    written = mains_tick(3) + 100  # between ticks 3 and 4: the ring counter starts from 0
    set_time(cia, 1, 0, 0, 0, written)
    step = mains_tick(3 + ticks)
    assert cia.read(0x8, step - 1) == 0 and cia.read(0x8, step) == 1
    # then one every 5 or 6 ticks: 100 ms or 120 ms (VICE: "TENTH MS 120 100")
    assert cia.read(0x8, mains_tick(3 + 2 * ticks) - 1) == 1 and cia.read(0x8, mains_tick(3 + 2 * ticks)) == 2


def test_changing_the_divider_keeps_the_ring_counter() -> None:
    """VICE's ring counter goes on from where it is; at 5 (past the 50 Hz match) it wraps."""
    cia = Cia()
    set_time(cia, 1, 0, 0, 0, 0)  # 60 Hz: the match at 5
    cia.advance(mains_tick(5))  # ticks 1..5 counted: the ring counter is at 5
    assert cia.tod_ticks == 5 and cia.read(0x8, mains_tick(5)) == 0
    cia.write(0xE, 0x80, mains_tick(5))  # now the match is at 4: 5 -> 0 -> ... -> 4, then the step
    assert cia.read(0x8, mains_tick(11) - 1) == 0 and cia.read(0x8, mains_tick(11)) == 1


@pytest.mark.parametrize(("before", "after"), [
    ((0x1F, 0x59, 0x59, 9), (0x10, 0x00, 0x00, 0)),  # invalid hours count on: $1F -> $10
    ((0x13, 0x59, 0x59, 9), (0x14, 0x00, 0x00, 0)),
    ((0x01, 0x00, 0x79, 9), (0x01, 0x00, 0x00, 0)),  # seconds' 3-bit tens: 7 -> 0, no carry
    ((0x01, 0x5F, 0x59, 9), (0x01, 0x50, 0x00, 0)),  # minutes' units 15 -> 0, no carry
    ((0x00, 0x59, 0x59, 9), (0x01, 0x00, 0x00, 0)),
])
def test_carries_from_invalid_bcd_as_measured(before: tuple[int, int, int, int],
                                              after: tuple[int, int, int, int]) -> None:
    cia = Cia()
    cia.write(0xE, 0x80, 0)
    set_time(cia, *before, 0)
    assert read_time(cia, TENTH_50HZ + 1) == after


def test_tenths_15_count_to_0_without_a_carry() -> None:
    cia = Cia()
    cia.write(0xE, 0x80, 0)
    set_time(cia, 1, 0, 0, 0xFF, 0)  # written as $FF: 15
    assert cia.read(0x8, 1) == 0x0F
    assert read_time(cia, TENTH_50HZ + 1) == (0x01, 0x00, 0x00, 0x00)
    assert read_time(cia, mains_tick(55) - 1) == (0x01, 0x00, 0x00, 0x09)  # 11 steps: 15, 0, ..., 9
    assert read_time(cia, mains_tick(55)) == (0x01, 0x00, 0x01, 0x00)


def test_written_values_are_masked() -> None:
    cia = Cia()
    for register, read in ((0xA, 0x7F), (0x9, 0x7F), (0x8, 0x0F)):
        cia.write(register, 0xFF, 0)
        assert cia.read(register, 0) == read
    cia.write(0xB, 0x80, 0)
    assert cia.read(0xB, 0) == 0x80  # hour 0 PM stays as written


def test_an_alarm_written_equal_to_the_stopped_time_sets_the_flag_at_once() -> None:
    for cia in (Cia(), Cia(interrupt="nmi")):  # after reset: 1:00:00.0 stopped, the alarm 0:00:00.0
        cia.write(0xF, 0x80, 10)
        cia.write(0xB, 0x01, 10)
        assert cia.read(0xD, 10) == ALARM
        cia.write(0x8, 0x03, 10)  # 1:00:00.3: no longer equal
        assert cia.read(0xD, 10) == 0
        cia.write(0xF, 0x00, 10)
        cia.write(0x8, 0x00, 10)  # tenths unchanged: no match looked for; the clock starts
        assert cia.read(0xD, 10) == 0
        assert cia.read(0xD, 10 + CYCLES_PER_SECOND // 2) == ALARM  # at 0.36 s; masked: no line pulled
        assert cia.read(0xD, 10 + CYCLES_PER_SECOND // 2) == 0


def test_the_alarm_of_cia_2_pulls_the_nmi_line() -> None:
    _, cia2 = started()
    cia2.write(0xE, 0x80, 0)
    cia2.write(0xF, 0x80, 0)
    set_time(cia2, 1, 0, 0, 2, 0)
    cia2.write(0xF, 0x00, 0)
    set_time(cia2, 1, 0, 0, 0, 0)
    assert cia2.read(0xD, 0) == ALARM  # the alarm's hours met the stopped time on the way
    assert cia2.next_event(0) == NEVER  # the alarm is no event while it is masked
    cia2.write(0xD, 0x84, 0)
    when = cia2.next_event(0)
    assert when == mains_tick(10)  # the second tenth, 10 ticks after the start
    cia2.advance(when)
    assert cia2.nmi and not cia2.irq


def test_reading_minutes_alone_does_not_latch_and_a_look_shows_the_counters() -> None:
    cia = Cia()
    cia.write(0xE, 0x80, 0)
    set_time(cia, 1, 0, 0, 0, 0)
    assert cia.read(0x9, 0) == 0 and cia.read(0x9, 2 * CYCLES_PER_SECOND) == 0x02  # not held
    assert cia.read(0xB, 2 * CYCLES_PER_SECOND) == 0x01  # held from here
    assert cia.peek(0x9, 4 * CYCLES_PER_SECOND) == 0x04  # the monitor sees the counters (VICE)
    assert cia.read(0x9, 4 * CYCLES_PER_SECOND) == 0x02  # a program the held value
    assert cia.read(0x8, 4 * CYCLES_PER_SECOND) == 0x00
    assert cia.read(0x9, 4 * CYCLES_PER_SECOND) == 0x04


def test_a_copied_cia_counts_on_alone() -> None:
    """Machine snapshots deep-copy the chips: the copy's clock is its own."""
    import copy

    cia = Cia()
    cia.write(0xE, 0x80, 0)
    set_time(cia, 1, 0, 0, 0, 0)
    cia.read(0xB, 100)  # latched
    twin = copy.deepcopy(cia)
    cia.read(0x8, 100)
    assert read_time(twin, 3 * CYCLES_PER_SECOND) == (0x01, 0x00, 0x00, 0x00)  # twin: still held
    assert read_time(twin, 3 * CYCLES_PER_SECOND) == read_time(cia, 3 * CYCLES_PER_SECOND) == (1, 0, 3, 0)
