"""The SID heard: reSIDfp (the ``pyresidfp`` package, Python bindings of the reSIDfp
engine of libsidplayfp, a descendant of the reSID that VICE runs) fed with every write
the C64 makes to $D400-$D41C, at the cycle it makes it.

c64tc's :class:`~toolchain.c64.chips.sid.Sid` stamps its writes into its write log
(``Sid.write_log``: ``(cycle, register, value)``, in order) while a listener has set a
list there.  :class:`SidSound` is that listener: it drains the log, clocks reSIDfp up
to each write's cycle, writes the register, and keeps the samples reSIDfp renders.
Nothing is rendered, and nothing is logged, unless a sound is asked for (``run
--audio``, the live screen's sound, a SID tune): a C64 without a listener pays nothing.

While it listens, a program reading voice 3's oscillator ($D41B) or envelope ($D41C)
gets reSIDfp's value at that cycle (:meth:`SidSound.read_back`), so what it computes
from them (random numbers, envelope followers) follows the chip it hears.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING

from toolchain.c64.outcome import PAL_CLOCK_HZ

if TYPE_CHECKING:
    from toolchain.c64.chips.sid import Sid

SAMPLE_RATE = 44_100
SID_MODELS = ("6581", "8580")
DEFAULT_MODEL = "8580"  # VICE 3.10's default for x64sc (a C64C: sid-resources.c)
REGISTERS = 0x19  # $D400-$D418 are written; $D419-$D41C are read-only
OSCILLATOR_3, ENVELOPE_3 = 0x1B, 0x1C
# reSIDfp's resampler keeps a ring buffer of 16,384 samples at the chip's clock: the
# output rate must stay above clock * 125 / 16384 (its documentation), about 7.6 kHz
LOWEST_RATE = 8_000
WARM_UP_MS = 800
# Where reSIDfp's filter cutoff curve is set (its parameter, 0-1; 0.5 its default) so
# that its filter sounds as VICE's reSID does: fitted on a sawtooth through the
# low-pass filter (cutoff $180, resonance 15: the spectral centroids agree within 1%),
# and checked on a band-pass at $300 and a low-pass at $80 (within 3% on the 8580, 6% on
# the 6581: tests/test_sound_vice.py).  The 8580's default was 17-20% low.
FILTER_CURVES = {"8580": 0.3, "6581": 0.5}
HIGHEST_RATE = 192_000


class SoundUnavailable(Exception):
    """The sound engine cannot be had here (pyresidfp not installed, or no wheel for
    this platform); the message says what to do."""


def _pyresidfp() -> ModuleType:
    try:
        from pyresidfp import _pyresidfp
    except ImportError as error:
        raise SoundUnavailable(
            f"the SID's sound needs the pyresidfp package ({error}): pip install pyresidfp") from None
    return _pyresidfp


class SidSound:
    """reSIDfp listening to c64tc's SID.

    ``model`` "6581" or "8580", ``rate`` the samples a second, ``clock_hz`` the C64's
    clock (PAL).  :meth:`attach` it to the machine's SID at the cycle the sound starts;
    :meth:`render_to` brings the sound up to a cycle (the run's end, or a tick of the
    live screen); :attr:`samples` holds what was rendered (16-bit signed, mono),
    :meth:`take` hands out the samples made since the last call (for playback);
    ``keep``: keep every sample in :attr:`samples` (a recording), else only until
    taken."""

    def __init__(self, model: str = DEFAULT_MODEL, rate: int = SAMPLE_RATE, clock_hz: int = PAL_CLOCK_HZ,
                 keep: bool = True) -> None:
        if model not in SID_MODELS:
            raise ValueError(f"SID model must be one of {', '.join(SID_MODELS)}, not {model!r}")
        if not LOWEST_RATE <= rate <= HIGHEST_RATE:
            raise ValueError(f"the sampling rate must be {LOWEST_RATE}-{HIGHEST_RATE} Hz, not {rate}")
        engine = _pyresidfp()
        chip_model = engine.ChipModel.MOS6581 if model == "6581" else engine.ChipModel.MOS8580
        # RESAMPLE: reSIDfp's two-pass sinc resampler, no aliasing of the chip's 1 MHz
        # output (VICE's reSID offers the same as "resampling")
        self.chip = engine.SID(chip_model, engine.SamplingMethod.RESAMPLE, float(clock_hz), float(rate))
        if model == "8580":
            self.chip.set_filter_8580_curve(FILTER_CURVES[model])
        else:
            self.chip.set_filter_6581_curve(FILTER_CURVES[model])
        # a fresh reSIDfp starts with its output stage's DC step and the resampler's
        # empty history (full-scale ringing for the first samples, then a slope that
        # settles within a second): a C64 switched on a while ago has settled, so
        # does this before it listens
        self.chip.clock(clock_hz * WARM_UP_MS // 1000)
        self.model = model
        self.rate = rate
        self.clock_hz = clock_hz
        self.keep = keep
        self.samples = array("h")
        self.taken = 0  # samples handed out by take()
        self.cycle = 0  # the C64 cycle reSIDfp has been clocked to
        self.start = 0  # the C64 cycle the sound starts at
        self.log: list[tuple[int, int, int]] = []
        self.sid: Sid | None = None
        self.on_samples: Callable[[array[int]], None] | None = None

    # -- listening ---------------------------------------------------------------------------------
    def attach(self, sid: Sid, now: int) -> None:
        """Listen to ``sid`` from cycle ``now`` on: reSIDfp takes the registers' present
        values (a fresh chip written as the program left it), then every write.  Attach
        again after a machine's reset (it brings back other chips)."""
        first = self.sid is None
        if first:
            self.start = self.cycle = now
        else:
            self.render_to(now)
            self.detach()
        for register in range(REGISTERS):
            self.chip.write(register, sid.registers[register])
        self.log = []
        sid.write_log = self.log
        sid.sound = self
        self.sid = sid

    def detach(self) -> None:
        """Stop listening (the SID keeps only its registers again)."""
        sid = self.sid
        if sid is not None and sid.write_log is self.log:
            sid.write_log = None
            sid.sound = None
        self.sid = None

    def _clock(self, cycles: int) -> None:
        if cycles <= 0:
            return
        rendered = self.chip.clock(cycles)
        self.cycle += cycles
        if rendered:
            self.samples.extend(rendered)

    def render_to(self, now: int) -> None:
        """Every write logged so far, each at its cycle, and the sound up to cycle
        ``now``.  A write stamped before the cycle reSIDfp has reached (a clock that went
        back: a machine's reset) is made at once."""
        log = self.log
        if log:
            chip = self.chip
            for cycle, register, value in log:
                self._clock(cycle - self.cycle)
                chip.write(register, value)
            log.clear()
        self._clock(now - self.cycle)

    def read_back(self, register: int, now: int) -> int:
        """What voice 3's oscillator (``OSCILLATOR_3``) or envelope (``ENVELOPE_3``)
        reads at cycle ``now``, from reSIDfp."""
        # reSIDfp clocked through cycle ``now`` shows what VICE's reSID shows in that
        # cycle: measured with the VICE programs of tests/test_chips_vice.py (every 8580
        # case agrees; tests/test_sound_readback.py)
        self.render_to(now)
        return self.chip.read(register) & 0xFF

    # -- the samples -------------------------------------------------------------------------------
    def take(self) -> array[int]:
        """The samples rendered since the last call."""
        new = self.samples[self.taken :]
        if self.keep:
            self.taken = len(self.samples)
        else:
            del self.samples[:]
            self.taken = 0
        return new

    def samples_for(self, cycles: int) -> int:
        """How many samples ``cycles`` of the C64's time make."""
        return round(cycles * self.rate / self.clock_hz)

    def recording(self, end: int) -> array[int]:
        """The sound from the start to cycle ``end``, exactly as long as that time
        (reSIDfp's resampler gives a few samples more a second than the rate says: the
        last ones are dropped, or silence repeats the last level if it gave fewer)."""
        self.render_to(end)
        wanted = self.samples_for(end - self.start)
        samples = self.samples[:wanted]
        if len(samples) < wanted:
            last = samples[-1] if samples else 0
            samples.extend([last] * (wanted - len(samples)))
        return samples
