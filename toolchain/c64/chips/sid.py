"""The SID (MOS 6581/8580) as programs see it: 29 registers written, and the four that
can be read: the paddles $D419/$D41A, voice 3's oscillator $D41B and its envelope
$D41C.  No sound is produced here: voices 1 and 2 only keep their accumulators (voice
3's ring modulation reads voice 2's), the filter and volume are stored.  The sound is
toolchain.sound's: reSIDfp fed from the write log (``write_log``); while it renders,
it answers for $D41B/$D41C (``sound``), and the model below when no sound is asked.

What a read gives follows reSID as built into VICE 3.10 (resid/sid.cc, wave.cc/wave.h,
envelope.cc/envelope.h) and was measured there (tests/test_chips_sid.py):

* A write-only register reads the last value written to, or read from $D41B/$D41C of,
  the chip (the data bus's charge) until it fades: 7,424 cycles on a 6581, 663,552 on
  an 8580, then 0.  The paddles read $FF with nothing attached, and in VICE their read
  does not refresh that value.
* $D41B is the upper 8 bits of voice 3's 12-bit waveform output: sawtooth the
  accumulator's top bits, triangle those folded at the top bit (with ring modulation
  by voice 2's top bit), pulse all ones or zeros against the pulse width, noise 8 bits
  of the 23-bit shift register (taps 20, 18, 14, 11, 9, 5, 2, 0), clocked two cycles
  after accumulator bit 19 rises, feedback bit 22 XOR bit 17.  The accumulator adds the
  frequency every cycle and is held at 0 while the test bit is set; then the shift
  register fills with ones after a while (35,000 cycles on a 6581, 2,519,864 on an
  8580, then one more bit every 1,000 / 315,000 cycles) and is shifted once, with bit
  17 inverted, when the test bit is cleared.  With no waveform selected the last output
  stays (182,000 / 4,400,000 cycles) and then fades a bit at a time.
* $D41C is voice 3's envelope counter: attack counts up once a rate period, decay and
  release count down once every 1 to 30 rate periods (the exponential steps at levels
  $5D, $36, $1A, $0E, $06), decay stops at the sustain level, release at 0; the rate
  counter is not reset when the rate changes, so a lower rate can first count through
  to $7FFF (the "ADSR bug").

Not modelled: combined waveforms (their output is the AND of the single ones here;
the chips give other, measured values, and noise combined with another waveform
clears the shift register), hard sync, the pipelines of a cycle or two in the envelope,
the 8580's write delay, anything audible.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from toolchain.c64.chips import NEVER, Slotted

VOICE2_FREQUENCY, VOICE2_CONTROL = 0x07, 0x0B
FREQUENCY_LO, FREQUENCY_HI, PULSE_LO, PULSE_HI, CONTROL, ATTACK_DECAY, SUSTAIN_RELEASE = range(0x0E, 0x15)
PADDLE_X, PADDLE_Y, OSCILLATOR_3, ENVELOPE_3 = 0x19, 0x1A, 0x1B, 0x1C

GATE, SYNC, RING, TEST = 0x01, 0x02, 0x04, 0x08
TRIANGLE, SAWTOOTH, PULSE, NOISE = 0x10, 0x20, 0x40, 0x80

class VoiceThreeReadBack(Protocol):
    """A sound engine that answers for voice 3's readable registers."""

    def read_back(self, register: int, now: int) -> int: ...


# reSID (VICE 3.10) constants per chip model
class _Model(NamedTuple):
    bus_ttl: int  # cycles the data bus keeps a value
    shift_reset: int  # cycles with the test bit set before the shift register fills with ones
    shift_reset_bit: int  # ... and then for each further bit
    floating: int  # cycles the output stays with no waveform selected
    floating_bit: int  # ... and then for each further bit of fading
    delayed_wave: bool  # triangle and sawtooth reach OSC3 a cycle late


MODELS = {
    "6581": _Model(0x1D00, 35_000, 1_000, 182_000, 1_500, False),
    "8580": _Model(0xA2000, 2_519_864, 315_000, 4_400_000, 50_000, True),
}
NOISE_DELAY = 2  # the shift register is clocked two cycles after bit 19 rises (reSID's shift_pipeline)
SHIFT_MASK = 0x7FFFFF
NO_PADDLE = 0xFF  # VICE with nothing in the control ports

# envelope rate periods in cycles minus one (reSID envelope.cc, from the datasheet's
# 2 ms ... 8 s attack times)
RATE_PERIODS = (8, 31, 62, 94, 148, 219, 266, 312, 391, 976, 1953, 3125, 3906, 11719, 19531, 31250)
EXPONENTIAL_PERIODS = {0xFF: 1, 0x5D: 2, 0x36: 4, 0x1A: 8, 0x0E: 16, 0x06: 30, 0x00: 1}
ATTACK, DECAY_SUSTAIN, RELEASE = "attack", "decay", "release"


# The fast path (see toolchain.c64.chips): the registers whose write only stores the byte
# and charges the data bus (voice 3 and voice 2's frequency and control, voice 3's
# envelope do more: see compiled_write; voice 3's pulse width is read from its registers
# when the waveform is), and the bus a write-only register reads back.
_STORED = frozenset(range(0x20)) - {VOICE2_FREQUENCY, VOICE2_FREQUENCY + 1, VOICE2_CONTROL, FREQUENCY_LO,
                                    FREQUENCY_HI, CONTROL, ATTACK_DECAY, SUSTAIN_RELEASE}
_BUS_EXPRESSION = "({chip}.bus_value if {now} < {chip}.bus_charged + {chip}.bus_ttl else 0)"


_RUN_END = "{chip}.bus_value = {value}\n{chip}.bus_charged = {now}"  # see Sid.RUN_END


def _indented(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


# Sid.voice2_frequency_written, voice3_frequency_written, rates_written (held at level 0,
# in release) and control_written (the byte it holds, held at level 0) as source: a
# player writes these every frame, and a call costs more than the statements
# (tests/test_chips_fast.py holds them to the methods).  The names beginning with
# ``sid_`` are the source's own.
_FREQUENCY_WRITTEN = """sid_oscillator = {{chip}}.{voice}
sid_frequency = {{chip}}.registers[{low}] + {{chip}}.registers[{high}] * 256
if not sid_oscillator.test:
    sid_oscillator.base += (sid_oscillator.frequency - sid_frequency) * ({{now}})
sid_oscillator.frequency = sid_frequency"""
_VOICE2_FREQUENCY_WRITTEN = _FREQUENCY_WRITTEN.format(voice="voice2", low=VOICE2_FREQUENCY,
                                                      high=VOICE2_FREQUENCY + 1)
_VOICE3_FREQUENCY_WRITTEN = _FREQUENCY_WRITTEN.format(voice="voice3", low=FREQUENCY_LO, high=FREQUENCY_HI)
# voice 3's envelope held at level 0 (no gate since the reset or the release's end:
# _Envelope.hold_zero) and in release, as a player leaves it between notes: the
# attack/decay register is not the one in effect, and a new release rate keeps the rate
# counter's value (_Envelope.held_count: the phase the ADSR bug needs); everything else
# is Sid.rates_written's
_HELD_IN_RELEASE = f"sid_envelope.hold_zero and sid_envelope.state == {RELEASE!r}"
_HELD_RATES_WRITTEN = {
    ATTACK_DECAY: "sid_envelope.attack, sid_envelope.decay = {chip}.NIBBLES[{value}]",
    SUSTAIN_RELEASE: f"""sid_period = {tuple(period + 1 for period in RATE_PERIODS)}[sid_envelope.release]
sid_count = sid_envelope.rate_count
sid_counted = sid_count + ({{now}}) - sid_envelope.rate_since
if sid_count < sid_period:
    sid_counted %= sid_period
elif sid_counted > 0x7FFF:
    sid_counted = (sid_counted - 0x7FFF) % sid_period
sid_envelope.rate_count = sid_counted
sid_envelope.rate_since = {{now}}
sid_envelope.sustain, sid_envelope.release = {{chip}}.NIBBLES[{{value}}]""",
}
_RATES_WRITTEN = {register: f"""sid_envelope = {{chip}}.envelope
if {_HELD_IN_RELEASE}:
{_indented(held)}
else:
    {{chip}}.rates_written({register}, {{value}}, {{now}})"""
                  for register, held in _HELD_RATES_WRITTEN.items()}
# Two stores one after the other to the two registers of a frequency (Sid.compiled_write_pair):
# the line moved once.  Written one by one, the first store (at t1) makes the frequency f1
# and the second (at t2) f2: base += (f0 - f1) * t1 + (f1 - f2) * t2, which is
# (f0 - f2) * t1 + (f1 - f2) * (t2 - t1), where f1 - f2 is the second register's old byte
# less its new one, shifted to its place; a byte a register holds already counts 0 there
# (Sid.write leaves it out: the line is the same).  Each bytecode counts here: a loop
# that writes frequencies runs this on every pass.
_FREQUENCY_PAIR_WRITTEN = """sid_frequency = {low} + {{chip}}.HIGH_BYTES[{high}]
sid_delta = {{chip}}.{voice}.frequency - sid_frequency
if sid_delta:
    if not {{chip}}.{voice}.test:
        {{chip}}.{voice}.base += (sid_delta * ({{now}})
                                  + ({{chip}}.registers[{second}] - ({{value2}})) * {apart})
    {{chip}}.{voice}.frequency = sid_frequency
    {{chip}}.registers[{first}] = {{value}}
    {{chip}}.registers[{second}] = {{value2}}"""


_FREQUENCY_PAIRS = {frozenset((VOICE2_FREQUENCY, VOICE2_FREQUENCY + 1)): "voice2",
                    frozenset((FREQUENCY_LO, FREQUENCY_HI)): "voice3"}


def _second(source: str) -> str:
    """A store's source as the second of a pair's (Sid.compiled_write_pair)."""
    return source.replace("{value}", "{value2}").replace("{now}", "{now2}")


def _rates_pair_written(first: int, second: int) -> str:
    """Voice 3's attack/decay and sustain/release registers written one after the other
    (Sid.compiled_write_pair): held at level 0 in release (_RATES_WRITTEN), the attack
    and decay rates only stored (a byte the register holds gives the rates it has),
    the release rate's counter kept where its byte is new; else each store's part."""
    values = {first: "{value}", second: "{value2}"}
    release = _HELD_RATES_WRITTEN[SUSTAIN_RELEASE] if first == SUSTAIN_RELEASE else _second(
        _HELD_RATES_WRITTEN[SUSTAIN_RELEASE])
    one_by_one = (f"{_write_without_log_and_bus(first)}\n"
                  f"{_second(_write_without_log_and_bus(second) or '')}")
    return f"""sid_envelope = {{chip}}.envelope
if {_HELD_IN_RELEASE}:
    if ({values[SUSTAIN_RELEASE]}) != {{chip}}.registers[{SUSTAIN_RELEASE}]:
{_indented(_indented(release))}
{_indented(_HELD_RATES_WRITTEN[ATTACK_DECAY].replace("{value}", values[ATTACK_DECAY]))}
    {{chip}}.registers[{ATTACK_DECAY}] = {values[ATTACK_DECAY]}
    {{chip}}.registers[{SUSTAIN_RELEASE}] = {values[SUSTAIN_RELEASE]}
else:
{_indented(one_by_one)}"""


def _write_without_log_and_bus(register: int) -> str | None:
    """What ``Sid.write`` does to ``register`` besides the log and the bus, as source (see
    Sid.compiled_write).  A register with more to do than store the byte does it only for
    a byte other than the one it holds: the same byte again changes nothing a read can
    show (Sid.write; a player rewrites its registers every frame)."""
    store = f"{{chip}}.registers[{register}] = {{value}}"
    if register in _STORED:
        return store
    if register == VOICE2_CONTROL:  # only the test bit does more (a player writes the waveform)
        return store + (f"\nif (({{value}}) & {TEST} != 0) != {{chip}}.voice2.test:\n"
                        "    {chip}.voice2_test_written({value}, {now})")
    if register in (FREQUENCY_LO, FREQUENCY_HI):
        effect = _VOICE3_FREQUENCY_WRITTEN
    elif register in (VOICE2_FREQUENCY, VOICE2_FREQUENCY + 1):
        effect = _VOICE2_FREQUENCY_WRITTEN
    elif register == CONTROL:
        effect = "{chip}.control_written({value}, {now})"
    elif register in (ATTACK_DECAY, SUSTAIN_RELEASE):
        effect = _RATES_WRITTEN[register]
    else:
        return None
    return f"if ({{value}}) != {{chip}}.registers[{register}]:\n    {store}\n" + _indented(effect)


def _noise_level(accumulator: int) -> int:
    """Bit 19's rises up to an unwrapped accumulator value, less a constant: those
    between two values are the difference of their levels."""
    return (accumulator - 0x80000) >> 20


def _shift_once(register: int) -> int:
    return ((register << 1) | ((register >> 22) ^ (register >> 17)) & 1) & SHIFT_MASK


def _linear_map_powers() -> list[tuple[list[int], list[int], list[int]]]:
    """The shift register's step is linear over GF(2): for each power 2^k of it, the
    images of every value of the register's three bytes (XOR them for the whole
    register).  Shifting n times applies the powers of n's bits."""
    images = [_shift_once(1 << bit) for bit in range(23)] + [0]  # the step, bit by bit (24: none)
    powers = []
    for _ in range(23):
        tables = []
        for byte in range(3):
            table = [0] * 256
            for value in range(1, 256):
                low = value & -value
                table[value] = table[value ^ low] ^ images[8 * byte + low.bit_length() - 1]
            tables.append(table)
        powers.append((tables[0], tables[1], tables[2]))
        # square the map: the image of each bit after twice as many steps
        images = [_apply(powers[-1], image) for image in images[:23]] + [0]
    return powers


def _apply(power: tuple[list[int], list[int], list[int]], value: int) -> int:
    low, middle, high = power
    return low[value & 0xFF] ^ middle[value >> 8 & 0xFF] ^ high[value >> 16]


_POWERS = _linear_map_powers()
_PERIOD = (1 << 23) - 1  # the feedback is maximal: any state but 0 comes back after 2^23-1 steps


def shift_register_after(register: int, steps: int) -> int:
    """The noise shift register after ``steps`` clocks."""
    if steps <= 8:
        for _ in range(steps):
            register = ((register << 1) | ((register >> 22) ^ (register >> 17)) & 1) & SHIFT_MASK
        return register
    steps %= _PERIOD
    bit = 0
    while steps:
        if steps & 1:
            register = _apply(_POWERS[bit], register)
        steps >>= 1
        bit += 1
    return register


def noise_output(register: int) -> int:
    """The 12-bit noise output: register bits 20, 18, 14, 11, 9, 5, 2, 0 as bits 11-4."""
    return ((register >> 9 & 0x800) | (register >> 8 & 0x400) | (register >> 5 & 0x200)
            | (register >> 3 & 0x100) | (register >> 2 & 0x080) | (register << 1 & 0x040)
            | (register << 3 & 0x020) | (register << 4 & 0x010))


class _Oscillator(Slotted):
    """An accumulator adding ``frequency`` every cycle, held at 0 while the test bit is
    set.  Kept as a line: its value with the carries out of 24 bits kept (``unwrapped``)
    is ``base + frequency * cycle``.  A frequency write moves ``base`` so that the new
    line goes on from where the old one was, and the count of bit 19's rises between two
    cycles (the noise's clocks) is a difference of the line's values, whatever
    frequencies came in between: a write is two statements.

    The line is the accumulator's from the last write that set it (a frequency, the
    test bit's release) on; before that write it is not, and nothing asks for it there.
    A read of voice 3 looks back at most two cycles (the pulse comparison and the
    8580's wave one, the noise's pipeline two) and comes at least four cycles after a
    6502's write (an STA's last cycle, then an LDA's fourth), as does a control write of
    another instruction; a read-modify-write's second store (INC $D412) looks back past
    a release by its first only for the noise's count, which the line there (at most
    2 * $FFFF below 0) gives as 0 does.  (A ``since`` that held the line at the write's
    value before it cost a twelfth of benchmarks/chip_speed.py's loop of SID stores;
    tests/test_chips_sid.py keeps that model and compares.)"""

    __slots__ = ("base", "frequency", "test")

    def __init__(self) -> None:
        self.base = 0x555555  # reSID's power-on value (wave.cc); a reset leaves it alone
        self.frequency = 0
        self.test = False

    def unwrapped(self, now: int) -> int:
        """The accumulator at ``now`` (at or after the last write) with its carries."""
        if self.test:
            return 0
        return self.base + self.frequency * now

    def at(self, now: int) -> int:
        return self.unwrapped(now) & 0xFFFFFF

    def set_frequency(self, frequency: int, now: int) -> None:
        """A new frequency from ``now`` on."""
        if not self.test:
            self.base += (self.frequency - frequency) * now
        self.frequency = frequency

    def hold(self) -> None:
        """The test bit set: the accumulator reads 0 until it is cleared."""
        self.test = True

    def release(self, now: int) -> None:
        """The test bit cleared at ``now``: the accumulator counts up from 0."""
        self.test = False
        self.base = -self.frequency * now


class _Envelope(Slotted):
    """Voice 3's envelope generator (see the module's description)."""

    __slots__ = ("level", "state", "attack", "decay", "sustain", "release", "gate", "rate_since",
                 "rate_count", "exponential_count", "exponential_period", "hold_zero")

    def __init__(self) -> None:
        self.level = 0  # VICE after reset and the KERNAL's start: $D41C reads 0 (measured)
        self.state = RELEASE
        self.attack = self.decay = self.sustain = self.release = 0
        self.gate = False
        self.rate_since = 0  # the rate counter shows rate_count at cycle rate_since
        self.rate_count = 0
        self.exponential_count = 0
        self.exponential_period = 1
        self.hold_zero = True

    @property
    def rate_period(self) -> int:
        state = self.state
        if state == ATTACK:
            return RATE_PERIODS[self.attack]
        return RATE_PERIODS[self.decay if state == DECAY_SUSTAIN else self.release]

    def _next_tick(self) -> int:
        period, count = self.rate_period, self.rate_count
        if count <= period:
            return self.rate_since + period - count + 1
        return self.rate_since + 0x8000 - count + period  # counts through $7FFF first

    def _static(self) -> bool:
        return self.hold_zero or (self.state == DECAY_SUSTAIN and self.level == self.sustain * 0x11)

    def advance(self, now: int, visible: bool = False) -> None:
        """Carry out the rate counter's ticks up to ``now``; ``visible``: only those whose
        step a read at ``now`` shows (reSID's pipelines: 3 cycles after the tick, 4 when a
        step waits for an exponential period above 1)."""
        while True:
            tick = self._next_tick()
            if visible:
                if tick + (3 if self.state == ATTACK or self.exponential_period == 1 else 4) > now:
                    return
            elif tick > now:
                return
            if self._static():
                # nothing changes until a write: only the rate counter's phase moves on
                period = self.rate_period + 1
                ticks = (now - tick) // period + 1
                self.rate_since, self.rate_count = tick + (ticks - 1) * period, 0
                self.exponential_count = (self.exponential_count + ticks) % self.exponential_period
                return
            self.rate_since, self.rate_count = tick, 0
            if self.state == ATTACK:
                self.exponential_count = 0
                self.level = (self.level + 1) & 0xFF
                if self.level == 0xFF:
                    self.state = DECAY_SUSTAIN
            else:
                self.exponential_count += 1
                if self.exponential_count < self.exponential_period:
                    continue
                self.exponential_count = 0
                if self.state == DECAY_SUSTAIN and self.level == self.sustain * 0x11:
                    continue
                self.level = (self.level - 1) & 0xFF
            if self.level in EXPONENTIAL_PERIODS:
                self.exponential_period = EXPONENTIAL_PERIODS[self.level]
                if self.level == 0:
                    self.hold_zero = True

    def rebase(self, now: int) -> None:
        """The rate counter's value at ``now`` (after advance(now)), kept across a rate change."""
        count = self.rate_count + (now - self.rate_since)
        if self.rate_count > self.rate_period and count > 0x7FFF:
            count -= 0x7FFF
        self.rate_since, self.rate_count = now, count

    def held_count(self, now: int) -> int:
        """The rate counter's value at ``now`` as rebase keeps it, held at level 0: no tick
        changes anything but the counter then (advance's static case; at level 0 the
        exponential period is 1, so its counter stays 0)."""
        count = self.rate_count
        counted = count + now - self.rate_since
        period = self.rate_period + 1
        if count < period:
            return counted % period
        # counting through $7FFF first (_next_tick): its wrap, then the ticks as usual
        return (counted - 0x7FFF) % period if counted > 0x7FFF else counted

    def write_control(self, value: int, now: int) -> None:
        gate = bool(value & GATE)
        if gate == self.gate:
            return
        self.rebase(now)
        self.gate = gate
        if gate:
            self.state = ATTACK
            self.hold_zero = False
        else:
            self.state = RELEASE

    def write_rates(self, register: int, value: int, now: int) -> None:
        self.rebase(now)
        if register == ATTACK_DECAY:
            self.attack, self.decay = value >> 4, value & 0x0F
        else:
            self.sustain, self.release = value >> 4, value & 0x0F


class Sid(Slotted):
    """The SID's registers and voice 3's readable outputs (see the module's description).
    ``model`` "6581" (the C64 of the 64'er years) or "8580" (VICE 3.10's default for
    x64sc: sid-resources.c)."""

    __slots__ = ("model", "bus_ttl", "shift_reset", "shift_reset_bit", "floating_ttl", "floating_bit",
                 "delayed_wave", "registers", "bus_value", "bus_charged", "voice2", "voice3", "control",
                 "shift_register", "shift_since", "shift_level", "test_since", "floating", "floating_since",
                 "envelope", "write_log", "sound")

    def __init__(self, model: str = "8580") -> None:
        if model not in MODELS:
            raise ValueError(f"SID model must be one of {sorted(MODELS)}, not {model!r}")
        self.model = model
        settings = MODELS[model]
        self.bus_ttl = settings.bus_ttl
        self.shift_reset = settings.shift_reset
        self.shift_reset_bit = settings.shift_reset_bit
        self.floating_ttl = settings.floating
        self.floating_bit = settings.floating_bit
        self.delayed_wave = settings.delayed_wave
        # a list, not a bytearray: the CPU's translated code stores a run's bytes here, and
        # CPython stores into a list's item in a third of the time
        self.registers = [0] * 32
        self.bus_value = 0
        self.bus_charged = -self.bus_ttl  # the cycle the bus took its value (it reads back bus_ttl cycles)
        self.voice2 = _Oscillator()
        self.voice3 = _Oscillator()
        self.control = 0
        self.shift_register = 0x7FFFFE  # reSID's reset value
        # the shift register holds every clock from bit 19's rises up to shift_since -
        # NOISE_DELAY, where the accumulator's bit 20 and up (less half a step: _noise_level)
        # were shift_level; a read applies the rises since (a frequency write does nothing
        # here: the accumulator's line goes on, and the rises are a difference of its values)
        self.shift_since = 0
        self.shift_level = _noise_level(self.voice3.unwrapped(-NOISE_DELAY))
        self.test_since = 0  # when the test bit was set (the shift register's reset runs from here)
        self.floating = 0  # the 12-bit output kept while no waveform is selected
        self.floating_since = 0
        self.envelope = _Envelope()
        #: every register write as (cycle, register, value), in order, while a consumer (the
        #: sound engine) has set a list here; None: nobody listens, no cost
        self.write_log: list[tuple[int, int, int]] | None = None
        #: the sound engine rendering this chip's writes (toolchain.sound.SidSound), which
        #: then answers for voice 3's oscillator and envelope; None: the model above does
        self.sound: VoiceThreeReadBack | None = None

    def __getstate__(self) -> dict[str, object]:
        # a snapshot (the machine's reset brings back copies) holds the chip, not who
        # listens to it: a listener attaches again to the chip that is plugged in
        state = super().__getstate__()
        state["write_log"] = state["sound"] = None
        return state

    # -- voice 3's waveform --------------------------------------------------------------------
    def _shift_register_at(self, now: int) -> int:
        register = self.shift_register
        if self.voice3.test:
            # held; after a while its cells fill with ones, one more bit at a time
            begin = self.test_since + self.shift_reset
            if now >= begin:
                for _ in range(min(23, (now - begin) // self.shift_reset_bit + 1)):
                    register |= 1
                    register = (register | register << 1) & SHIFT_MASK
            return register
        # the clocks a read at ``now`` shows are those up to now - NOISE_DELAY: applied and
        # kept, so that polling costs only the clocks since the last read
        if now > self.shift_since:
            self.shift_since = now
        level = _noise_level(self.voice3.unwrapped(self.shift_since - NOISE_DELAY))
        if level != self.shift_level:
            register = shift_register_after(register, level - self.shift_level)
            self.shift_register, self.shift_level = register, level
        return register

    def _waveform(self, now: int) -> int:
        """Voice 3's 12-bit waveform output at ``now``."""
        waveforms = self.control & 0xF0
        if not waveforms:
            return self._floating_at(now)
        oscillator = self.voice3
        wave_time = now - 1 if self.delayed_wave else now  # the 8580 latches tri/saw a cycle late
        accumulator = oscillator.at(wave_time)
        output = 0xFFF
        if waveforms & (TRIANGLE | SAWTOOTH):
            top = accumulator >> 12
            if waveforms & SAWTOOTH:
                output &= top
            if waveforms & TRIANGLE:
                msb = accumulator
                if self.control & RING and not waveforms & SAWTOOTH:
                    msb ^= ~self.voice2.at(wave_time) & 0x800000
                folded = top ^ 0xFFF if msb & 0x800000 else top
                output &= folded << 1 & 0xFFF
        if waveforms & PULSE:
            # the comparison's result is used a cycle later (reSID); the test bit holds it high
            registers = self.registers
            pulse_width = (registers[PULSE_LO] | registers[PULSE_HI] << 8) & 0xFFF
            if not oscillator.test and oscillator.at(now - 1) >> 12 < pulse_width:
                output = 0
        if waveforms & NOISE:
            output &= noise_output(self._shift_register_at(now))
        return output

    def _floating_at(self, now: int) -> int:
        value = self.floating
        fade = self.floating_since + self.floating_ttl
        if value and now >= fade:
            for _ in range((now - fade) // self.floating_bit + 1):
                value &= value >> 1
                if not value:
                    break
        return value

    def _write_control(self, value: int, now: int) -> None:
        old = self.control  # (a byte other than this one: Sid.write leaves the same byte out)
        oscillator = self.voice3
        if value & 0xF0 == 0 and old & 0xF0:
            self.floating, self.floating_since = self._waveform(now), now
        test = bool(value & TEST)
        if test and not oscillator.test:
            # the clocks up to now - NOISE_DELAY taken, those in the pipeline dropped
            self._shift_register_at(now)
            self.shift_since = now
            oscillator.hold()
            self.test_since = now
        elif not test and oscillator.test:
            register = self._shift_register_at(now)
            # the test bit falling shifts once with bit 0 = NOT bit 17 (reSID)
            self.shift_register = ((register << 1) | (~register >> 17 & 1)) & SHIFT_MASK
            self.shift_since = now
            oscillator.release(now)
            self.shift_level = _noise_level(0)  # the accumulator counts up from 0: no rise before
        self.control = value
        self.envelope.advance(now)
        self.envelope.write_control(value, now)

    def control_written(self, value: int, now: int) -> None:
        """Voice 3's control register was written (and stored) at ``now``."""
        self._write_control(value, now)

    def rates_written(self, register: int, value: int, now: int) -> None:
        """Voice 3's attack/decay or sustain/release register was written at ``now``."""
        envelope = self.envelope
        if not envelope.hold_zero:
            envelope.advance(now)
            envelope.write_rates(register, value, now)
            return
        # held at 0 (no gate since the reset or the release's end: in release, or in decay
        # with sustain 0): only the rate counter's phase moves on.  A write to the register
        # whose rate is in effect keeps the counter's value for the new rate from here on
        # (the ADSR bug needs it); the other register's rates take effect at a state's change
        if (register == SUSTAIN_RELEASE) == (envelope.state == RELEASE):
            envelope.rate_count, envelope.rate_since = envelope.held_count(now), now
        if register == ATTACK_DECAY:
            envelope.attack, envelope.decay = value >> 4, value & 0x0F
        else:
            envelope.sustain, envelope.release = value >> 4, value & 0x0F

    # -- the Chip interface ------------------------------------------------------------------------
    def advance(self, now: int) -> None:
        pass  # everything is worked out from the cycle count when it is read

    def next_event(self, now: int) -> int:
        return NEVER  # the SID has no interrupt

    @property
    def irq(self) -> bool:
        return False

    def _bus(self, now: int) -> int:
        return self.bus_value if now < self.bus_charged + self.bus_ttl else 0

    def peek(self, register: int, now: int) -> int:
        register &= 0x1F
        if register in (PADDLE_X, PADDLE_Y):
            return NO_PADDLE
        if register in (OSCILLATOR_3, ENVELOPE_3):
            if self.sound is not None:
                # reSIDfp renders the sound: its voice 3 is what is heard, so a program
                # reads that (its waveforms, combined ones and hard sync included, which
                # the model here does not have); the bus value and the paddles stay
                # the model's (reSIDfp does not fade the bus: its documentation)
                return self.sound.read_back(register, now)
            if register == OSCILLATOR_3:
                return self._waveform(now) >> 4
            self.envelope.advance(now, visible=True)
            return self.envelope.level
        return self._bus(now)

    # never bound again after __init__: the CPU's translated code keeps it as a local
    # (toolchain.c64.io.IOArea.plug)
    FIXED_ATTRIBUTES = ("registers", "voice2", "voice3", "envelope", "HIGH_BYTES", "NIBBLES")
    # the source's tables (fixed too: locals of the translated code, looked up as a
    # region starts where its code names them): a byte's place in a frequency, a rate
    # register's two rates; a subscript of a tuple costs less than a shift or an AND,
    # which CPython 3.11 does not specialize.  (Class attributes: slots would be copied
    # with every snapshot; a lookup as a region starts costs a few subscripts' saving.)
    HIGH_BYTES = tuple(byte << 8 for byte in range(256))
    NIBBLES = tuple((byte >> 4, byte & 0x0F) for byte in range(256))
    # and evaluated once as a region starts: the write log (its consumer, the sound engine,
    # sets it between runs; reading voice 3 back empties it in place)
    REGION_CONSTANTS = {"{chip}.write_log": "write_log"}

    EVENT_READS: frozenset[int] = frozenset()  # the SID has no interrupt
    EVENT_WRITES: frozenset[int] = frozenset()

    @staticmethod
    def compiled_read(register: int) -> str | None:
        """``read`` as source (see toolchain.c64.chips); voice 3's outputs need the method."""
        if register in (PADDLE_X, PADDLE_Y):
            return str(NO_PADDLE)
        if register in (OSCILLATOR_3, ENVELOPE_3):
            return None
        return _BUS_EXPRESSION

    # a read ahead of the machine's clock (see toolchain.c64.chips): the KERNAL's interrupt
    # handler leaves the SID alone, so every read with a source may be made ahead
    compiled_read_ahead = compiled_read

    @staticmethod
    def compiled_write(register: int) -> str | None:
        """``write`` as source: the registers that only store the byte (the pulse width
        among them), and, for a byte other than the one they hold, the frequencies,
        whose write moves the oscillator's line (the noise's clocks wait for a read of
        $D41B), voice 3's envelope registers held at level 0 in release (else a call of
        the part of ``write`` they need) and its control (a call); voice 2's control
        (the method's part only when the test bit changes)."""
        stored = _write_without_log_and_bus(register)
        if stored is None:
            return None
        return ("if {chip}.write_log is not None:\n"
                f"    {{chip}}.write_log.append(({{now}}, {register}, {{value}}))\n"
                f"{_RUN_END}\n{stored}")

    @staticmethod
    def compiled_indexed_write() -> tuple[str, str]:
        """A store indexed into the chip (toolchain.c64.io.IOArea._indexed_in_line) at
        the register ``{chip}_register``: the condition under which it does only what
        a write of the byte the register holds does (Sid.write: the log and the bus),
        and those statements; else the register's compiled write is called."""
        return ("{chip}.registers[{chip}_register] == {value}",
                "if {chip}.write_log is not None:\n"
                "    {chip}.write_log.append(({now}, {chip}_register, {value}))\n" + _RUN_END)

    @staticmethod
    def compiled_write_pair(first: int, second: int, apart: int) -> str | None:
        """Two stores of a run ``apart`` cycles apart (see RUN_END) to the two registers
        of voice 2's or voice 3's frequency or of voice 3's envelope rates, as one piece
        that does what compiled_write_run does for each: ``{value}`` and ``{now}`` are the
        first store's, ``{value2}`` and ``{now2}`` the second's.  None for any other pair."""
        pair = frozenset((first, second))
        if pair == {ATTACK_DECAY, SUSTAIN_RELEASE}:
            return _rates_pair_written(first, second)
        voice = _FREQUENCY_PAIRS.get(pair)
        if voice is None:
            return None
        low_first = first < second
        return _FREQUENCY_PAIR_WRITTEN.format(
            low="({value})" if low_first else "({value2})", high="{value2}" if low_first else "{value}",
            voice=voice, first=first, second=second, apart=(256 if low_first else 1) * apart)

    # A run of consecutive stores to the chip (the CPU's translated code: see
    # toolchain.c64.io.IOArea.write_run_source): each store does compiled_write_run's
    # part, the run appends its writes to the log first and charges the data bus once,
    # with its last store's byte and cycle (RUN_END).  The same as compiled_write store by
    # store: nothing a store's part does reads the log or the bus (they are read only by a
    # read of the chip and by the consumers, outside the run), and the registers that
    # join a run read back the bus, which after each store shows the byte stored.
    RUN_END = _RUN_END

    @staticmethod
    def compiled_write_run(register: int) -> str | None:
        """``write`` without the log and the bus, as source (see RUN_END), for the
        registers compiled_write has and whose read gives the bus (not the paddles nor
        voice 3's outputs)."""
        if register in (PADDLE_X, PADDLE_Y, OSCILLATOR_3, ENVELOPE_3):
            return None
        return _write_without_log_and_bus(register)

    def voice3_frequency_written(self, now: int) -> None:
        """Voice 3's frequency registers were written at ``now``: the new frequency from
        now on.  The shift register is left alone: the noise's clocks up to a read are a
        difference of the accumulator's line, which goes on through the write, and with
        the test bit set it fades to ones by the time since the bit was set
        (_shift_register_at; reSID's frequency write only stores the frequency: VICE 3.10
        resid/wave.cc, writeFREQ_LO/HI)."""
        registers = self.registers
        self.voice3.set_frequency(registers[FREQUENCY_LO] + registers[FREQUENCY_HI] * 256, now)

    def voice2_frequency_written(self, now: int) -> None:
        """Voice 2's frequency registers were written at ``now`` (its accumulator is
        kept for voice 3's ring modulation)."""
        registers = self.registers
        self.voice2.set_frequency(registers[VOICE2_FREQUENCY] + registers[VOICE2_FREQUENCY + 1] * 256, now)

    def read(self, register: int, now: int) -> int:
        register &= 0x1F
        value = self.peek(register, now)
        if register in (OSCILLATOR_3, ENVELOPE_3):
            self.bus_value, self.bus_charged = value, now
        return value

    def write(self, register: int, value: int, now: int) -> None:
        register &= 0x1F
        value &= 0xFF
        if self.write_log is not None:
            self.write_log.append((now, register, value))
        self.bus_value, self.bus_charged = value, now
        if value == self.registers[register]:
            # the byte the register holds: a frequency, control byte or rate the chip runs
            # with already.  The oscillator's line and the envelope's rate counter go on as
            # they were; compiled_write leaves these out the same way
            return
        self.registers[register] = value
        if register in (FREQUENCY_LO, FREQUENCY_HI):
            self.voice3_frequency_written(now)
        elif register == CONTROL:
            self._write_control(value, now)
        elif register in (ATTACK_DECAY, SUSTAIN_RELEASE):
            self.rates_written(register, value, now)
        elif register in (VOICE2_FREQUENCY, VOICE2_FREQUENCY + 1):
            self.voice2_frequency_written(now)
        elif register == VOICE2_CONTROL and bool(value & TEST) != self.voice2.test:
            self.voice2_test_written(value, now)

    def voice2_test_written(self, value: int, now: int) -> None:
        """Voice 2's control register was written at ``now`` with its test bit changed
        (the accumulator, kept for voice 3's ring modulation, is held at 0 while it is set)."""
        if value & TEST:
            self.voice2.hold()
        else:
            self.voice2.release(now)
