"""The chips against VICE 3.10, cycle for cycle: small machine-code programs of ours
write and read the chips' registers at known cycles and store what they read at $C800;
each ran on VICE (x64sc with the original ROMs) and its bytes are kept below.  Here the
same program runs on c64tc's 6502 core with c64tc's chips and must store the same bytes.

How measured (``python tests/test_chips_vice.py [NAME ...]`` with VICE's x64sc on the
PATH or in C64TC_VICE prints MEASURED again): for each program a fresh x64sc boots
(warp, its defaults; sound emulated into a WAV file that is thrown away, else reSID is
not clocked and $D41B/$D41C read the clock; the SID model as the case says; for the
serial bus no drive and no printer), the program is poked to $C000 through the binary
monitor and started by typing SYS49152.  A checkpoint at $C000 notes VICE's cycle
counter, raster line and cycle there, so that c64tc starts the program at the same
cycle of the same raster line; the bytes are read when the program reaches its RTS.

The programs blank the screen (no bad lines steal cycles) and mask interrupts, so the
cycle between two register accesses is the sum of the instructions' cycles, the same
on both.  Every I/O access here is an absolute load, store or BIT, which touches the
register in its last cycle: that is the cycle the test machine passes to the chip.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from toolchain.asm.assembler import assemble  # noqa: E402
from toolchain.c64.chips import CYCLES_PER_FRAME, CYCLES_PER_LINE  # noqa: E402
from toolchain.c64.chips.cia import Cia, SerialBusAndUserPort  # noqa: E402
from toolchain.c64.chips.keyboard import ControlPorts  # noqa: E402
from toolchain.c64.chips.sid import Sid  # noqa: E402
from toolchain.c64.chips.vic import Vic  # noqa: E402
from toolchain.cpu.core import CPU  # noqa: E402
from toolchain.cpu.opcodes import OPCODES  # noqa: E402

START, RESULTS = 0xC000, 0xC800

# -- the programs ---------------------------------------------------------------------------------

# Blank the screen, wait for the frame's top, put the timers the KERNAL runs aside and
# clear what is pending, so that each program starts from the same state on both.
HEAD = """*=$c000
 sei
 lda #$0b
 sta $d011
w1 lda $d011
 bpl w1
w2 lda $d011
 bmi w2
 lda #$7f
 sta $dc0d
 sta $dd0d
 lda #0
 sta $dc0e
 sta $dc0f
 sta $dd0e
 sta $dd0f
 lda $dc0d
 lda $dd0d
 lda #$0f
 sta $d019
"""
# Give the KERNAL its 60 Hz interrupt back (CIA 1 timer A, latch $4025) and the screen.
TAIL = """ lda #$25
 sta $dc04
 lda #$40
 sta $dc05
 lda #$11
 sta $dc0e
 lda $dc0d
 lda #$81
 sta $dc0d
 lda #$1b
 sta $d011
 cli
done rts
"""


class _Labels:
    count = 0

    @classmethod
    def new(cls, stem: str) -> str:
        cls.count += 1
        return f"{stem}{cls.count}"


def delay(cycles: int) -> str:
    """Code that takes exactly ``cycles`` (0 or at least 2; X is used)."""
    assert cycles == 0 or cycles >= 2
    code = []
    while cycles >= 40:
        count = min(255, (cycles - 6) // 5)  # ldx #n / dex / bne: 5n + 1 cycles
        label = _Labels.new("d")
        code.append(f" ldx #{count}\n{label} dex\n bne {label}\n")
        cycles -= 5 * count + 1
    while cycles > 0:
        if cycles in (3, 5, 7):
            code.append(" bit $ea\n")
            cycles -= 3
        else:
            code.append(" nop\n")
            cycles -= 2
    return "".join(code)


def every(register: str, count: int, spacing: int, results: str = "$c800") -> str:
    """``count`` reads of ``register`` ``spacing`` cycles apart (at least 16), the first
    6 cycles after the code before; stored at ``results``."""
    label = _Labels.new("s")
    return (f" ldy #0\n{label} lda {register}\n sta {results},y\n{delay(spacing - 16)} iny\n"
            f" cpy #{count & 0xFF}\n bne {label}\n")


def every_7(register: str, count: int) -> str:
    """``count`` reads of ``register`` 7 cycles apart, the first 4 cycles after the
    store before it (lda abs + pha); stored at $C800 in order."""
    reads = "".join(f" lda {register}\n pha\n" for _ in range(count))
    stores = "".join(f" pla\n sta $c800+{count - 1 - index}\n" for index in range(count))
    return reads + stores


def frames(count: int, registers: list[str]) -> str:
    """At raster line 0 of ``count`` frames: read the registers, the i-th stored at
    $C800 + 256 * i + frame."""
    label = _Labels.new("f")
    stores = "".join(f" lda {register}\n sta $c800+{256 * index},y\n"
                     for index, register in enumerate(registers))
    return (f" ldy #0\n{label}a lda $d012\n bne {label}a\n bit $d011\n bmi {label}a\n{stores}"
            f"{label}b lda $d012\n beq {label}b\n iny\n cpy #{count}\n bne {label}a\n")


def wait_frames(count: int) -> str:
    label = _Labels.new("w")
    return (f" ldy #{count}\n{label}a lda $d012\n bne {label}a\n bit $d011\n bmi {label}a\n"
            f"{label}b lda $d012\n beq {label}b\n dey\n bne {label}a\n")


def store(register: str, slot: int) -> str:
    return f" lda {register}\n sta $c800+{slot}\n"


def poke(register: str, value: int) -> str:
    return f" lda #${value:02x}\n sta {register}\n"


class Case:
    """A program, how many result bytes it stores, and how VICE runs it."""

    def __init__(self, body: str, results: int, sid: str = "8580", what: str = "",
                 slow: bool = False) -> None:
        self.program = HEAD + body + TAIL
        self.results = results
        self.sid = sid
        self.what = what
        self.slow = slow  # over a quarter of a second on the 6502 core


CASES: dict[str, Case] = {}


def _timer_b(latch: int) -> str:
    """CIA 1's timer B stopped with its latch set (the counter keeps the old value)."""
    return poke("$dc06", latch) + poke("$dc07", 0)


def _cia_cases() -> None:
    continuous, one_shot = poke("$dc0f", 0x11), poke("$dc0f", 0x19)
    CASES["timer-continuous"] = Case(_timer_b(5) + continuous + every_7("$dc06", 24), 24,
                                     what="latch 5, force load + start: 5 shows twice, 0 never")
    CASES["timer-one-shot"] = Case(_timer_b(5) + one_shot + every_7("$dc06", 12), 12,
                                   what="one-shot: counts down once, then holds the latch")
    CASES["timer-one-shot-control"] = Case(_timer_b(5) + one_shot + every_7("$dc0f", 12), 12,
                                           what="CRB reads $09 while it runs, $08 after the underflow")
    CASES["icr-one-shot"] = Case(_timer_b(5) + one_shot + every_7("$dc0d", 12), 12,
                                 what="the ICR shows bit 1 once: reading clears it")
    CASES["icr-continuous"] = Case(_timer_b(5) + continuous + every_7("$dc0d", 12), 12,
                                   what="an underflow every 6 cycles, read every 7")
    for latch in (1, 2, 3, 7):
        CASES[f"icr-one-shot-latch-{latch}"] = Case(_timer_b(latch) + one_shot + every_7("$dc0d", 4), 4,
                                                    what="the flag in the cycle of the underflow")
        CASES[f"timer-one-shot-latch-{latch}"] = Case(_timer_b(latch) + one_shot + every_7("$dc06", 4), 4)
    CASES["timer-latch-0"] = Case(_timer_b(0) + continuous + every_7("$dc06", 6), 6)
    CASES["icr-latch-0"] = Case(_timer_b(0) + continuous + every_7("$dc0d", 6), 6,
                                what="latch 0: an underflow every cycle")
    CASES["timer-latch-1"] = Case(_timer_b(1) + continuous + every_7("$dc06", 6), 6)
    CASES["timer-start-without-load"] = Case(
        _timer_b(9) + poke("$dc0f", 0x10) + poke("$dc06", 5) + poke("$dc0f", 0x01) + every_7("$dc06", 24),
        24, what="started at 9 without force load: counts from 9, reloads 5")
    CASES["timer-stop"] = Case(_timer_b(50) + continuous + " nop\n nop\n" + poke("$dc0f", 0)
                               + every_7("$dc06", 6), 6, what="a stop freezes the value of 2 cycles later")
    CASES["timer-force-load-running"] = Case(
        _timer_b(200) + continuous + poke("$dc06", 20) + continuous + every_7("$dc06", 24), 24)
    CASES["timer-latch-high-stopped"] = Case(
        _timer_b(7) + continuous + poke("$dc0f", 0) + " lda #33\n sta $dc07\n" + every_7("$dc07", 4), 4,
        what="writing the latch's high byte loads a stopped timer")
    cascade = poke("$dd04", 2) + poke("$dd05", 0) + poke("$dd06", 3) + poke("$dd07", 0)
    start_a = poke("$dd0e", 0x11)
    CASES["timer-b-counts-timer-a"] = Case(cascade + poke("$dd0f", 0x51) + start_a + every_7("$dd06", 24), 24,
                                           what="timer B counting timer A's underflows shows 0")
    CASES["icr-timer-b-counts-timer-a"] = Case(
        cascade + poke("$dd0f", 0x51) + start_a + every_7("$dd0d", 24), 24)
    CASES["timer-b-counts-timer-a-cnt-high"] = Case(
        cascade + poke("$dd0f", 0x71) + start_a + every_7("$dd06", 12), 12,
        what="CRB %11: CNT is pulled up, so the same")
    CASES["timer-b-counts-timer-a-one-shot"] = Case(
        cascade + poke("$dd0f", 0x59) + start_a + every_7("$dd06", 12), 12)
    CASES["timer-a-counts-cnt"] = Case(poke("$dd04", 9) + poke("$dd05", 0) + poke("$dd0e", 0x31)
                                       + every_7("$dd04", 6), 6, what="nothing drives CNT: it stands still")
    timer_a = poke("$dc04", 5) + poke("$dc05", 0)
    CASES["icr-mask"] = Case(timer_a + poke("$dc0d", 0x81) + poke("$dc0e", 0x19) + every_7("$dc0d", 4), 4,
                             what="bit 7 with a masked source")
    CASES["icr-mask-after-flag"] = Case(
        poke("$dc04", 3) + poke("$dc05", 0) + poke("$dc0e", 0x19) + delay(12) + poke("$dc0d", 0x81)
        + every_7("$dc0d", 4), 4, what="masking a pending flag pulls the line at once")


def _vic_cases() -> None:
    CASES["raster"] = Case(every_7("$d012", 40), 40, what="$D012 steps every 63 cycles")
    registers = "".join(store(f"${0xD000 + index:04x}", index)
                        for index in range(0x40) if index not in (0x1E, 0x1F))
    CASES["vic-registers"] = Case(registers, 0x40, what="what the KERNAL's values read back as")
    CASES["vic-unused-bits"] = Case(
        store("$d019", 0) + store("$d01a", 1) + poke("$d019", 0x0F) + store("$d019", 2)
        + poke("$d01a", 1) + store("$d01a", 3) + " lda #$00\n sta $d016\n" + store("$d016", 4)
        + poke("$d018", 0) + store("$d018", 5) + poke("$d016", 0x08) + poke("$d018", 0x14)
        + poke("$d02f", 0x55) + store("$d02f", 6) + poke("$d020", 0) + store("$d020", 7)
        + poke("$d020", 0x0E) + store("$d01e", 8) + store("$d01f", 9) + store("$d013", 10)
        + store("$d014", 11) + poke("$d011", 0xFF) + store("$d011", 12) + poke("$d011", 0x0B)
        + poke("$d01a", 0) + store("$d05a", 13) + store("$d3e0", 14), 15)
    CASES["raster-latch-mask"] = Case(
        poke("$d01a", 1) + " lda #$0f\n sta $d019\nwa lda $d019\n and #1\n beq wa\n" + store("$d019", 0)
        + poke("$d019", 1) + store("$d019", 1) + poke("$d01a", 0), 2,
        what="$F1 with the source masked, $70 acknowledged")
    CASES["raster-compare-written"] = Case(
        "wa lda $d012\n cmp #50\n bne wa\n" + poke("$d019", 0x0F) + " lda $d012\n sta $d012\n"
        + store("$d019", 0) + store("$d012", 1) + poke("$d019", 0x0F) + store("$d019", 2)
        + poke("$d012", 0x37), 3, what="writing the current line fires, acknowledging does not fire again")
    latch_reads = "".join(" lda $d012\n pha\n lda $d019\n pha\n" for _ in range(16))
    latch_stores = "".join(f" pla\n sta $c800+{31 - index}\n" for index in range(32))
    CASES["raster-latch-timing"] = Case(
        poke("$d012", 60) + "wa lda $d012\n cmp #59\n bne wa\n" + poke("$d019", 0x0F) + latch_reads
        + latch_stores + poke("$d012", 0x37), 32, what="the latch in the cycle the line begins")
    timer = poke("$dd04", 0xFF) + poke("$dd05", 0xFF) + poke("$dd0e", 0x11)
    CASES["frame"] = Case(
        timer + poke("$d012", 100) + " lda $d011\n and #$7f\n sta $d011\n ldy #0\nfa lda #$0f\n sta $d019\n"
        "fb lda $d019\n and #1\n beq fb\n lda $dd04\n sta $c800,y\n lda $dd05\n sta $c810,y\n iny\n cpy #4\n"
        " bne fa\n" + poke("$d012", 0x37), 0x14, what="raster interrupts 19,656 cycles apart")


def _port_cases() -> None:
    body, slot = "", 0
    for value in (0x07, 0x0F, 0x17, 0x27, 0x37, 0x3F, 0x00, 0x04, 0x03):
        body += poke("$dd00", value) + store("$dd00", slot)
        slot += 1
    steps = [
        (poke("$dd02", 0x00), "$dd00"),
        (poke("$dd02", 0x3F) + poke("$dd00", 0x07) + poke("$dc02", 0x00), "$dc00"),
        (poke("$dc02", 0xFF) + poke("$dc00", 0x00), "$dc00"), ("", "$dc01"),
        (poke("$dc00", 0x7F) + poke("$dc03", 0xFF) + poke("$dc01", 0x00), "$dc01"), ("", "$dc03"),
        (poke("$dc03", 0x00), "$dc01"), (poke("$dd03", 0xFF) + poke("$dd01", 0x55), "$dd01"),
        (poke("$dd03", 0x00), "$dd01"), (poke("$dc02", 0xF0) + poke("$dc00", 0xA5), "$dc00"), ("", "$dc02"),
        (poke("$dc02", 0xFF) + poke("$dc00", 0x7F) + poke("$dc0c", 0x5A), "$dc0c"),
    ]
    for code, register in steps:
        body += code + store(register, slot)
        slot += 1
    CASES["ports"] = Case(body + poke("$dd00", 0x07), slot,
                          what="serial bus lines read back, DDR inputs pulled up, user port idle, SDR stored")


def _tod_cases() -> None:
    def set_time(hours: int, minutes: int, seconds: int, tenths: int) -> str:
        return poke("$dc0b", hours) + poke("$dc0a", minutes) + poke("$dc09", seconds) + poke("$dc08", tenths)

    sixty = " lda $dc0e\n and #$7f\n sta $dc0e\n"
    fifty = " lda $dc0e\n ora #$80\n sta $dc0e\n"
    CASES["tod-power-on"] = Case(frames(8, ["$dc08", "$dc09", "$dc0a", "$dc0b"]), 0x308,
                                 what="1:00:00.0 AM, standing still until tenths are written")
    CASES["tod-60hz-setting"] = Case(
        sixty + set_time(1, 0, 0, 0) + frames(80, ["$dc08", "$dc09"]), 0x150, slow=True,
        what="CRA bit 7 clear (as the KERNAL leaves it): a tenth per 6 mains ticks")
    CASES["tod-50hz-setting"] = Case(
        fifty + set_time(1, 0, 0, 0) + frames(80, ["$dc08", "$dc09"]) + sixty, 0x150, slow=True)
    CASES["tod-hours-latch"] = Case(
        fifty + set_time(1, 0, 0x59, 8) + wait_frames(2) + " lda $dc0b\n" + frames(30, ["$dc09", "$dc0a"])
        + store("$dc08", 0x200) + store("$dc09", 0x201) + store("$dc0a", 0x202) + sixty, 0x203,
        what="reading hours holds the outputs until tenths are read", slow=True)
    CASES["tod-hours-stop"] = Case(
        fifty + set_time(1, 0, 0, 0) + wait_frames(12) + poke("$dc0b", 1) + frames(20, ["$dc08"])
        + poke("$dc08", 0) + frames(20, ["$dc08"]).replace("$c800+0,", "$c880+0,") + sixty, 0xA0,
        what="writing hours stops the clock, writing tenths starts it again", slow=True)
    checks = ""
    for slot, (hours, minutes, seconds, tenths) in enumerate(
            ((0x11, 0x59, 0x59, 9), (0x92, 0x59, 0x59, 9), (0x12, 0x59, 0x59, 9), (0x09, 0x59, 0x59, 9),
             (0x91, 0x59, 0x59, 9))):
        checks += set_time(hours, minutes, seconds, tenths) + wait_frames(3)
        checks += "".join(store(f"$dc0{register}", 4 * slot + 8 + index)
                          for index, register in enumerate("ba98"))
    CASES["tod-hours"] = Case(
        fifty + "".join(poke("$dc0b", value) + store("$dc0b", slot) + " lda $dc08\n"
                        for slot, value in enumerate((0x12, 0x92, 0x11, 0x91, 0xFF)))
        + poke("$dc0a", 0xFF) + store("$dc0a", 5) + poke("$dc09", 0xFF) + store("$dc09", 6)
        + poke("$dc08", 0xFF) + store("$dc08", 7) + checks + sixty, 28,
        what="writing hour 12 flips AM/PM; 11:59:59.9 AM -> 12 PM, 12:59 -> 1, 9:59 -> 10, 11 PM -> 12 AM")
    alarm_on, alarm_off = " lda $dc0f\n ora #$80\n sta $dc0f\n", " lda $dc0f\n and #$7f\n sta $dc0f\n"
    CASES["tod-alarm"] = Case(
        fifty + alarm_on + set_time(1, 0, 0, 3) + alarm_off + " lda $dc0d\n" + set_time(1, 0, 0, 0)
        + frames(24, ["$dc0d", "$dc08"]) + sixty, 0x118, what="ICR bit 2 when the clock reaches the alarm")


def _sid_cases() -> None:
    def frequency(value: int) -> str:
        return poke("$d40e", value & 0xFF) + poke("$d40f", value >> 8)

    for model in ("6581", "8580"):
        CASES[f"sid-{model}-bus"] = Case(poke("$d400", 0x5A) + every("$d41d", 64, 256), 64, model,
                                         what="a write-only register reads the last value written")
        CASES[f"sid-{model}-bus-fades"] = Case(poke("$d400", 0x5A) + every("$d41d", 48, 16384), 48, model,
                                               slow=True)
        CASES[f"sid-{model}-bus-reads"] = Case(
            poke("$d412", 0x48) + poke("$d405", 0xC3) + store("$d400", 0) + store("$d41b", 1)
            + store("$d401", 2) + store("$d41c", 3) + store("$d419", 4) + store("$d402", 5)
            + store("$d41a", 6) + poke("$d412", 0x08), 7, model,
            what="reading $D41B/$D41C sets the bus value, the paddles do not")
        for name, control in (("sawtooth", 0x20), ("triangle", 0x10), ("pulse", 0x40)):
            CASES[f"sid-{model}-{name}"] = Case(
                frequency(0x0123) + poke("$d410", 0) + poke("$d411", 8) + poke("$d412", 0x08)
                + poke("$d412", control) + every("$d41b", 64, 512) + poke("$d412", 0x08), 64, model)
        CASES[f"sid-{model}-ring"] = Case(
            frequency(0x0123) + poke("$d407", 0x10) + poke("$d408", 0x07) + poke("$d40b", 0x08)
            + poke("$d40b", 0) + poke("$d412", 0x08) + poke("$d412", 0x14) + every("$d41b", 64, 512)
            + poke("$d412", 0x08), 64, model, what="triangle ring-modulated by voice 2")
        noise_reset = poke("$d412", 0x88) + delay(40000) + poke("$d412", 0x80)
        CASES[f"sid-{model}-noise"] = Case(
            frequency(0x1000) + noise_reset + every("$d41b", 128, 100) + poke("$d412", 0x08), 128, model,
            what="the shift register from its reset state")
        CASES[f"sid-{model}-noise-fast"] = Case(
            frequency(0xFFFF) + noise_reset + every("$d41b", 128, 16) + poke("$d412", 0x08), 128, model,
            what="noise at the highest frequency: random numbers")
        CASES[f"sid-{model}-noise-test"] = Case(
            frequency(0x1000) + poke("$d412", 0x80) + delay(20000) + poke("$d412", 0x88)
            + every("$d41b", 80, 600), 80, model,
            what="the test bit holds the shift register, then it fills up")
        CASES[f"sid-{model}-envelope"] = Case(
            poke("$d413", 0x24) + poke("$d414", 0x85) + frequency(0x1000) + poke("$d412", 0x11)
            + every("$d41c", 128, 500) + poke("$d412", 0x10) + every("$d41c", 128, 2000, "$c880"), 256, model,
            what="attack 2, decay 4, sustain 8, release 5", slow=model == "8580")
        CASES[f"sid-{model}-floating"] = Case(
            frequency(0x0123) + poke("$d412", 0x20) + delay(3000) + poke("$d412", 0x00)
            + every("$d41b", 40, 8192), 40, model, what="no waveform: the last output stays, then fades",
            slow=model == "8580")


_cia_cases()
_vic_cases()
_port_cases()
_tod_cases()
_sid_cases()


# -- what VICE 3.10 stored: (VICE's cycle counter, raster line and raster cycle where the
# program starts, the program's digest, the bytes), written by ``python tests/test_chips_vice.py``
MEASURED: dict[str, tuple[int, int, int, str, str]] = {
    'timer-continuous': (2162405, 3, 61, '740df73e4fc0',
        '040302010505040302010505040302010505040302010505'),
    'timer-one-shot': (2162405, 3, 61, 'd193db6d6dd9',
        '040505050505050505050505'),
    'timer-one-shot-control': (2162405, 3, 61, '15a410212eae',
        '090808080808080808080808'),
    'icr-one-shot': (2162405, 3, 61, 'e31428dc9b6e',
        '000200000000000000000000'),
    'icr-continuous': (2162405, 3, 61, 'af3886bbb3cc',
        '000202020202020202020202'),
    'icr-one-shot-latch-1': (2162405, 3, 61, 'aa6953737e33',
        '02000000'),
    'timer-one-shot-latch-1': (2162405, 3, 61, '4c61dde81dc0',
        '01010101'),
    'icr-one-shot-latch-2': (2162405, 3, 61, '623fb187fc91',
        '00020000'),
    'timer-one-shot-latch-2': (2162405, 3, 61, '2f38f948276b',
        '01020202'),
    'icr-one-shot-latch-3': (2162405, 3, 61, '7d4692fb5415',
        '00020000'),
    'timer-one-shot-latch-3': (2162405, 3, 61, 'd900b5764ac2',
        '02030303'),
    'icr-one-shot-latch-7': (2162405, 3, 61, 'abb63b499f3d',
        '00020000'),
    'timer-one-shot-latch-7': (2162405, 3, 61, '27d17b806a7a',
        '06070707'),
    'timer-latch-0': (2162405, 3, 61, 'ed558309db2e',
        '000000000000'),
    'icr-latch-0': (2162405, 3, 61, 'ed7cb7dbdb05',
        '020202020202'),
    'timer-latch-1': (2162405, 3, 61, 'a3a3d0573efb',
        '010101010101'),
    'timer-start-without-load': (2162405, 3, 61, 'ee6d848e7678',
        '070505040302010505040302010505040302010505040302'),
    'timer-stop': (2162405, 3, 61, 'd848d2aeafa7',
        '292929292929'),
    'timer-force-load-running': (2162405, 3, 61, 'e4e0a03c34f2',
        '130c05130c05130c05130c05130c05130c05130c05130c05'),
    'timer-latch-high-stopped': (2162405, 3, 61, 'cef7421ff110',
        '21212121'),
    'timer-b-counts-timer-a': (2162405, 3, 61, 'dd67fae97b8f',
        '030103000203010301020002030103000203010301020002'),
    'icr-timer-b-counts-timer-a': (2162405, 3, 61, '17773d9f46a0',
        '000103010303010301030103030103010303010301030103'),
    'timer-b-counts-timer-a-cnt-high': (2162405, 3, 61, 'a6daf0f187c9',
        '030103000203010301020002'),
    'timer-b-counts-timer-a-one-shot': (2162405, 3, 61, 'a447ee21e474',
        '030103030303030303030303'),
    'timer-a-counts-cnt': (2162405, 3, 61, '027da84954df',
        '090909090909'),
    'icr-mask': (2162405, 3, 61, '45d1b8800928',
        '00810000'),
    'icr-mask-after-flag': (2162405, 3, 61, '5ef694557a8a',
        '81000000'),
    'raster': (2162405, 3, 61, 'fe2b50bb0eb7',
        '00000101010101010101010202020202020202020303030303030303030404040404040404040505'),
    'vic-registers': (2162405, 3, 61, '10f17396a606',
        '00000000000000000000000000000000000b03000000c8001570f00000000000fef6f1f2f3f4f0f1f2f3f4f5f6f7fcff'
        'ffffffffffffffffffffffffffffffff'),
    'vic-unused-bits': (2162405, 3, 61, '1c7ed43c8f3a',
        '70f070f1c001fff0000000007ff0fe'),
    'raster-latch-mask': (2162405, 3, 61, '56974e3b6895',
        'f170'),
    'raster-compare-written': (2162405, 3, 61, '745575940a28',
        '713270'),
    'raster-latch-timing': (2162405, 3, 61, '548e37c16c1c',
        '3b703b703b703b713c713c713c713c713d713d713d713d713d713e713e713e71'),
    'frame': (2162405, 3, 61, '1b90ae6440a9',
        '9cd10644000000000000000000000000e79a4d01'),
    'ports': (2162405, 3, 61, '379e158d7012',
        'c7cf9767373fc0c4c33fff00ff00ffff55ffaff05a'),
    'tod-power-on': (2162405, 3, 61, 'a81917fc362b',
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '0101010101010101'),
    'tod-60hz-setting': (2162405, 3, 61, 'b89e74ceddc3',
        '000000000001010101010102020202020203030303030304040404040405050505050506060606060607070707070708'
        '080808080809090909090900000000000001010101010102020202020203030300000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000010101010101010101010101010101010101010101'),
    'tod-50hz-setting': (2162405, 3, 61, 'ac47fb35e0dd',
        '000000000101010101020202020203030303030404040404050505050506060606060707070707080808080809090909'
        '090000000000010101010102020202020303030303040404040405050505050600000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000001010101010101010101010101010101010101010101010101010101010101'),
    'tod-hours-latch': (2162405, 3, 61, '24fbc3158c44',
        '595959595959595959595959595959595959595959595959595959595959000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '0000000000000000000000000000000000000000000000000000000000000000080001'),
    'tod-hours-stop': (2162405, 3, 61, '30af239c8251',
        '020202020202020202020202020202020202020200000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000010101010102020202020303'
        '03030304000000000000000000000000'),
    'tod-hours': (2162405, 3, 61, '058975bbd7f4',
        '921211919f7f7f0f1159590912595909925959090959590991595909'),
    'tod-alarm': (2162405, 3, 61, '131ef6f84d88',
        '000000000000000000000000000004000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '00000000000000000000000000000000000000000101010101020202020203030303030404040404'),
    'sid-6581-bus': (2162405, 3, 61, '910bd60ea815',
        '5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a00000000000000000000000000000000000000'
        '00000000000000000000000000000000'),
    'sid-6581-bus-fades': (2162405, 3, 61, 'fef476bd2530',
        '5a0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'),
    'sid-6581-bus-reads': (2162405, 3, 61, '84f8f841f432',
        'c3ffff00ff00ff'),
    'sid-6581-sawtooth': (2162405, 3, 61, '687172cd8e1a',
        '00020406090b0d0f121416191b1d1f222426282b2d2f323436383b3d3f414446484b4d4f515456585a5d5f616466686a'
        '6d6f717376787a7d7f818386888a8c8f'),
    'sid-6581-triangle': (2162405, 3, 61, '2d7d12ed27e1',
        '0004090d12161b1f24282d32363b3f44484d51565a5f64686d71767a7f83888d91969a9fa3a8acb1b5babfc3c8ccd1d5'
        'dadee3e7ecf1f5fafefcf8f3efeae6e1'),
    'sid-6581-pulse': (2162405, 3, 61, '97c27689a5c0',
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000ffffffffffffff'),
    'sid-6581-ring': (2162405, 3, 61, '34198febb2e4',
        'fffbf6f2ede9e4e0dbd72d32363b3f44484d51a9a5a09b97928e89857f83888d91969a9fa357534e4a45403c3733d1d5'
        'dadee3e7ecf1f5050103070c1015191e'),
    'sid-6581-noise': (2162405, 3, 61, 'ce017ef86f31',
        'fefefefefcfcfcfcfcfcfcfcf8f8f8f8f8f8f8f8f8f8f0f0f0f0f0e0e0e0e0e0e0e0e0c0c0c0c0c0c0c0c0c0c0818181'
        '81810303030303030303060606060604040404040c0c0c08081818181818181818303030303020202020206161614141'
        'c3c3c3c3c3c3c3c3878787878707070707070f0f0f0e0e1e1e1e1c1c1c1c1c3c'),
    'sid-6581-noise-fast': (2162405, 3, 61, '0785eff1213b',
        'fefefcfcfcf8f8f8f8f0f0e0e0e0c0c0c0c08181030303060604040c08181818303020206141c3c3c3878707070f0e1e'
        '1c1c3c3838387971f3e3e3e6c6c4c4cc89991b1b33362624654dcbdbdb9fb737272f6f5fdfdfffbfbf3f7e7efdfdfffa'
        'fafcfcf4f0e8e8f8d0d0e0e0a1814242c0848401010b0a121404242008085951'),
    'sid-6581-noise-test': (2162405, 3, 61, 'd90139bfec02',
        'b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7'
        'b7b7b7b7b7b7b7b7b7b7b7b7b7b7bfbfffffffffffffffffffffffffffffffff'),
    'sid-6581-envelope': (2162405, 3, 61, 'c8d91541bbe8',
        '0008101820282f373f474f575f676f777f878f979fa7aeb6bec6ced6dee6eef6fefcf9f6f2efece8e5e2dedbd8d4d1cd'
        'cac7c3c0bdb9b6b3afaca9a5a29e9b9894918e8a88888888888888888888888888888888888888888888888888888888'
        '8888888888888888888888888888888888888888888888888888888888888888887f766d645c57534e4a45413c383533'
        '302e2c29272523201e1c1a1918171514131211100f0e0d0d0c0c0b0b0a09090808070706060605050504040404030303'
        '020202010101010000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '00000000000000000000000000000000'),
    'sid-6581-floating': (2162405, 3, 61, 'ea21c363268c',
        '62626262626262626262626262626262626262626262620000000000000000000000000000000000'),
    'sid-8580-bus': (2162405, 3, 61, '910bd60ea815',
        '5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a'
        '5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a'),
    'sid-8580-bus-fades': (2162405, 3, 61, 'fef476bd2530',
        '5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a00000000000000'),
    'sid-8580-bus-reads': (2162405, 3, 61, '84f8f841f432',
        'c3ffff00ff00ff'),
    'sid-8580-sawtooth': (2162405, 3, 61, '687172cd8e1a',
        '00020406090b0d0f121416191b1d1f222426282b2d2f323436383b3d3f414446484b4d4f515456585a5d5f616466686a'
        '6d6f717376787a7d7f818386888a8c8f'),
    'sid-8580-triangle': (2162405, 3, 61, '2d7d12ed27e1',
        '0004090d12161b1f24282d32363b3f44484d51565a5f64686d71767a7f83888c91969a9fa3a8acb1b5babfc3c8ccd1d5'
        'dadee3e7ecf1f5fafefcf8f3efeae6e1'),
    'sid-8580-pulse': (2162405, 3, 61, '97c27689a5c0',
        '000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000ffffffffffffff'),
    'sid-8580-ring': (2162405, 3, 61, '34198febb2e4',
        'fffbf6f2ede9e4e0dbd72d32363b3f44484d51a9a5a09b97928e89857f83888c91969a9fa357534e4a45403c3733d1d5'
        'dadee3e7ecf1f5050103070c1015191e'),
    'sid-8580-noise': (2162405, 3, 61, 'ce017ef86f31',
        'fefefcfcfcfcfcfcfcf8f8f8f8f8f8f8f8f8f8f8f0f0f0f0f0e0e0e0e0e0e0e0c0c0c0c0c0c0c0c0c0c0c08181818181'
        '0303030303030306060606060604040404040c0c0808081818181818181818303030303020202020206161414141c3c3'
        'c3c3c3c3c3c3878787878707070707070f0f0e0e0e1e1e1c1c1c1c1c1c3c3c38'),
    'sid-8580-noise-fast': (2162405, 3, 61, '0785eff1213b',
        'fcfcfcf8f8f8f8f0f0e0e0e0c0c0c0c08181030303060604040c08181818303020206141c3c3c3878707070f0e1e1c1c'
        '3c3838387971f3e3e3e6c6c4c4cc89991b1b33362624654dcbdbdb9fb737272f6f5fdfdfffbfbf3f7e7efdfdfffafafc'
        'fcf4f0e8e8f8d0d0e0e0a1814242c0848401010b0a12140424200808595192a2'),
    'sid-8580-noise-test': (2162405, 3, 61, 'd90139bfec02',
        'b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7'
        'b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7'),
    'sid-8580-envelope': (2162405, 3, 61, 'c8d91541bbe8',
        '0008101820282f373f474f575f676f777f878f979fa7aeb6bec6ced6dee6eef6fefcf9f6f2efece8e5e2dedbd8d4d1cd'
        'cac7c3c0bdb9b6b3afaca9a5a29e9b9894918e8a88888888888888888888888888888888888888888888888888888888'
        '8888888888888888888888888888888888888888888888888888888888888888887f766d645c57534e4a45413c383533'
        '302e2c29272523201e1c1a1918171514131211100f0e0d0d0c0c0b0b0a09090808070706060605050504040404030303'
        '020202010101010000000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '00000000000000000000000000000000'),
    'sid-8580-floating': (2162405, 3, 61, 'ea21c363268c',
        '62626262626262626262626262626262626262626262626262626262626262626262626262626262'),
}


# -- c64tc: the program on the 6502 core with c64tc's chips ---------------------------------------

# Where VICE's free-running counters stand relative to its cycle counter, fitted once to
# the cases (any value in the ranges makes every case agree): VICE's raster cycle (the
# monitor's CYC) in the cycle c64tc's VIC-II counts as a line's first (-1 or 0), and
# the cycle at which reSID's envelope rate counter was 0 after power-on (5 to 7).  A
# real C64's are arbitrary; c64tc's chips start both at cycle 0.
VICE_CYCLE_OF_LINE_START = 0
VICE_ENVELOPE_RATE_PHASE = 6


_LAST_CYCLE = bytes(OPCODES[code].cycles - 1 if code in OPCODES else 0 for code in range(256))


class ChipsMachine:
    """64 KiB of RAM with the chips at their C64 addresses (VIC-II $D000-$D3FF, SID
    $D400-$D7FF, CIA 1 $DC00, CIA 2 $DD00, each mirrored), after the KERNAL's reset
    writes; interrupts are not wired (the programs mask them)."""

    def __init__(self, sid: str, start: int, line: int, cycle: int) -> None:
        from toolchain.c64.chips.power_on import KERNAL_RESET_WRITES

        self.ram = bytearray(0x10000)
        position = line * CYCLES_PER_LINE + cycle - VICE_CYCLE_OF_LINE_START
        self.vic = Vic(cycle_offset=(position - start) % CYCLES_PER_FRAME)
        self.sid = Sid(sid)
        self.sid.envelope.rate_since = VICE_ENVELOPE_RATE_PHASE
        self.cia1 = Cia(ControlPorts(), "irq", name="CIA 1")
        self.cia2 = Cia(SerialBusAndUserPort(), "nmi", name="CIA 2")
        self.cpu = CPU(self)
        self.cycle = 0  # the cycle of the access being made
        for address, value in KERNAL_RESET_WRITES:
            self[address] = value
        self.cycle = self.cpu.cycles = start

    def _chip(self, address: int) -> tuple[Vic | Sid | Cia | None, int]:
        if address < 0xD400:
            return self.vic, address & 0x3F
        if address < 0xD800:
            return self.sid, address & 0x1F
        if 0xDC00 <= address < 0xDD00:
            return self.cia1, address & 0x0F
        if 0xDD00 <= address < 0xDE00:
            return self.cia2, address & 0x0F
        return None, 0

    def __getitem__(self, address: int) -> int:
        if 0xD000 <= address < 0xE000:
            chip, register = self._chip(address)
            if chip is not None:
                return chip.read(register, self.cycle)
        return self.ram[address]

    def __setitem__(self, address: int, value: int) -> None:
        if 0xD000 <= address < 0xE000:
            chip, register = self._chip(address)
            if chip is not None:
                chip.write(register, value, self.cycle)
                return
        self.ram[address] = value

    def run(self, start: int, stop: int, limit: int = 20_000_000) -> None:
        cpu, ram, step = self.cpu, self.ram, self.cpu.step
        cpu.pc, cpu.sp = start, 0xF0
        end = cpu.cycles + limit
        while cpu.pc != stop:
            # the access is in the instruction's last cycle (absolute loads and stores)
            self.cycle = cpu.cycles + _LAST_CYCLE[ram[cpu.pc]]
            step()
            assert cpu.cycles < end, "the program does not end"


def run_in_c64tc(name: str) -> bytes:
    case, measured = CASES[name], MEASURED[name]
    program = assemble(case.program)
    assert program.start == START and program.end <= RESULTS, f"{name}: the program overlaps its results"
    machine = ChipsMachine(case.sid, *measured[:3])
    machine.ram[START : program.end] = program.image
    machine.run(START, program.symbols["done"].value)
    return bytes(machine.ram[RESULTS : RESULTS + case.results])


# -- VICE ---------------------------------------------------------------------------------------------

def digest(name: str) -> str:
    """A fingerprint of the program's bytes: a measurement belongs to the program it was made with."""
    import hashlib

    return hashlib.sha256(assemble(CASES[name].program).image).hexdigest()[:12]


def measure_on_vice(names: list[str]) -> dict[str, tuple[int, int, int, str, str]]:
    """Each program in a fresh x64sc (see the module's description): the cycle counter,
    raster line and raster cycle where it starts, and the bytes it stores."""
    import contextlib
    import os
    import shutil
    import socket
    import struct
    import subprocess
    import tempfile
    import time

    from tests.test_corpus_screens import load_tool
    from toolchain import vice
    from toolchain.c64.machine import text_to_keys

    tool = load_tool()
    emulator = vice.find_emulator(None)
    results = {}
    for name in names:
        case = CASES[name]
        program = assemble(case.program)
        state = Path(tempfile.mkdtemp(prefix="c64tc-chips-"))
        try:
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = probe.getsockname()[1]
            arguments = [str(emulator), "-default", "-warp", "-binarymonitor", "-binarymonitoraddress",
                         f"ip4://127.0.0.1:{port}", "-sound", "-sounddev", "wav",
                         "-soundarg", str(state / "sid.wav"), "-soundwarpmode", "1",
                         "-sidenginemodel", "256" if case.sid == "6581" else "257",
                         "-drive8type", "0", "-logfile", str(state / "vice.log")]
            data = vice.data_directory(emulator)
            if data is not None:
                arguments += ["-directory", str(data)]
            environment = dict(os.environ)
            for variable in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
                (state / variable.lower() / "vice").mkdir(parents=True)
                environment[variable] = str(state / variable.lower())
            process = subprocess.Popen(arguments, env=environment, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            machine = object.__new__(tool.Vice)
            machine.process = process
            deadline = time.monotonic() + 30
            while True:
                try:
                    connection = socket.create_connection(("127.0.0.1", port), timeout=1)
                    break
                except OSError:
                    assert process.poll() is None and time.monotonic() < deadline, "VICE did not start"
                    time.sleep(0.05)
            connection.settimeout(120)
            machine.monitor = tool.BinaryMonitor(connection)
            machine.monitor.command(tool.BinaryMonitor.PING)
            machine.banks = machine._banks()
            try:
                ready = machine.checkpoint(tool.EDITOR_WAITS, "@cpu:$c6 == $00")
                while ready not in machine.run_until_stopped(time.monotonic() + 60).checkpoints:
                    pass
                machine.write(START, program.image)
                machine.write(RESULTS, bytes(case.results))
                begin = machine.checkpoint(START)
                done = machine.checkpoint(program.symbols["done"].value)
                keys = text_to_keys(f"sys{START}") + b"\r"
                machine.write(tool.KEYBOARD_BUFFER, keys)
                machine.write(tool.KEYBOARD_COUNT, bytes([len(keys)]))
                while begin not in machine.run_until_stopped(time.monotonic() + 60).checkpoints:
                    pass
                registers = machine.monitor.command(0x31, b"\x00")
                named, position = {}, 2
                for _ in range(struct.unpack("<H", registers[:2])[0]):
                    size = registers[position]
                    value = registers[position + 2 : position + 4]
                    named[registers[position + 1]] = struct.unpack("<H", value)[0]
                    position += size + 1
                clock = machine.clock()
                while done not in machine.run_until_stopped(time.monotonic() + 120).checkpoints:
                    pass
                # register ids of x64sc's main CPU: 53 raster line (LIN), 54 raster cycle (CYC)
                results[name] = (clock, named[53], named[54], digest(name),
                                 machine.read(RESULTS, RESULTS + case.results - 1).hex())
            finally:
                with contextlib.suppress(Exception):
                    machine.close()
        finally:
            shutil.rmtree(state, ignore_errors=True)
        print(f"{name}: {results[name][:3]}", file=sys.stderr)
    return results


if __name__ == "__main__":
    chosen = sys.argv[1:] or list(CASES)
    for name, (clock, line, cycle, program, data) in measure_on_vice(chosen).items():
        chunks = "\n".join(f"        {data[index:index + 96]!r}" for index in range(0, len(data), 96))
        print(f"    {name!r}: ({clock}, {line}, {cycle}, {program!r},\n{chunks}),")


# -- the tests ------------------------------------------------------------------------------------------

def test_every_program_was_measured() -> None:
    assert sorted(MEASURED) == sorted(CASES)
    for name, (_, _, _, program, data) in MEASURED.items():
        assert program == digest(name), f"{name}: the program changed since it was measured"
        assert len(bytes.fromhex(data)) == CASES[name].results, name


@pytest.mark.parametrize("name", [pytest.param(name, marks=[pytest.mark.slow] if CASES[name].slow else [])
                                  for name in sorted(CASES)])
def test_c64tc_stores_what_vice_stores(name: str) -> None:
    expected = bytes.fromhex(MEASURED[name][4])
    got = run_in_c64tc(name)
    differing = [index for index in range(len(expected)) if got[index] != expected[index]]
    assert not differing, (f"{name} ({CASES[name].what}): {len(differing)} bytes differ, first at "
                           f"{differing[0]}:\nVICE  {expected[:64].hex(' ')}\nc64tc {got[:64].hex(' ')}")
