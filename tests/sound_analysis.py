"""Measuring a recorded sound, in pure Python (a radix-2 FFT over short windows is
enough for these figures, and keeps numpy out of the test tools): where the sound is
(RMS per 10 ms), its dominant frequency and its spectral centroid.  Used on VICE's
recordings (the measurements kept in tests/data/sound) and on c64tc's."""

from __future__ import annotations

import cmath
import math
from collections.abc import Sequence
from dataclasses import dataclass

WINDOW_SECONDS = 0.010  # the envelope's step: RMS per 10 ms
LOUD = 0.05  # a window is part of the sound when its RMS is above 5% of the loudest
SUSTAINED = 5  # windows
MARGIN = 10  # windows of silence kept before and after the sound in the envelope
LOWEST_TONE = 20.0  # Hz
PEAK_SIZE = 16384  # samples of the dominant frequency's FFT (0.37 s at 44.1 kHz)
CENTROID_SIZE = 4096  # samples of each window averaged for the centroid


def fft(values: Sequence[complex]) -> list[complex]:
    """The discrete Fourier transform of a power-of-two number of values."""
    size = len(values)
    bits = size.bit_length() - 1
    assert 1 << bits == size, "a power of two"
    result = [complex(values[int(f"{index:0{bits}b}"[::-1], 2)]) if bits else complex(values[0])
              for index in range(size)]
    length = 2
    while length <= size:
        step = cmath.exp(-2j * math.pi / length)
        half = length // 2
        for start in range(0, size, length):
            factor = 1 + 0j
            for offset in range(start, start + half):
                even, odd = result[offset], result[offset + half] * factor
                result[offset], result[offset + half] = even + odd, even - odd
                factor *= step
        length *= 2
    return result


def _hann(size: int) -> list[float]:
    return [0.5 - 0.5 * math.cos(2 * math.pi * index / (size - 1)) for index in range(size)]


def _spectrum(samples: Sequence[int], start: int, size: int) -> list[float]:
    """Magnitudes of a Hann-windowed stretch (its mean removed), bins 0 to size/2."""
    chunk = samples[start : start + size]
    mean = sum(chunk) / size
    window = _hann(size)
    return [abs(value) for value in fft([(x - mean) * w for x, w in zip(chunk, window, strict=True)])
            [: size // 2 + 1]]


def envelope(samples: Sequence[int], rate: int) -> list[float]:
    """RMS of each 10 ms (its mean removed: the SID's output has a DC offset)."""
    size = round(rate * WINDOW_SECONDS)
    levels = []
    for start in range(0, len(samples) - size + 1, size):
        chunk = samples[start : start + size]
        mean = sum(chunk) / size
        levels.append(math.sqrt(sum((x - mean) ** 2 for x in chunk) / size))
    return levels


@dataclass(frozen=True)
class Measurement:
    seconds: float  # the whole recording
    onset: int  # the first loud window
    windows: int  # loud windows from the first to the last: the sound's length
    dominant_hz: float
    centroid_hz: float
    envelope: list[float]  # RMS per 10 ms from MARGIN windows before the onset to MARGIN after the end

    @property
    def length(self) -> float:
        return self.windows * WINDOW_SECONDS


def measure(samples: Sequence[int], rate: int, skip: float = 0.0) -> Measurement:
    """The figures of a recording; ``skip``: seconds at its start that are not looked
    at (VICE's recording starts with the power-on's click, then two seconds of boot)."""
    levels = envelope(samples, rate)
    skipped = round(skip / WINDOW_SECONDS)
    levels[:skipped] = [0.0] * min(skipped, len(levels))
    loudest = max(levels)
    loud = [index for index, level in enumerate(levels) if level > LOUD * loudest]
    # the sound starts where it stays loud for SUSTAINED windows: a click (a volume
    # change, a program's start) is not its start
    onset = next((index for index in loud if all(level > LOUD * loudest
                                                  for level in levels[index : index + SUSTAINED])), loud[0])
    end = loud[-1] + 1
    window = round(rate * WINDOW_SECONDS)
    first, last = onset * window, end * window
    # the dominant frequency: the loudest bin of the magnitude spectrum averaged over the
    # sound (stretches of PEAK_SIZE samples), refined by a parabola through its
    # neighbours (log magnitudes)
    size = PEAK_SIZE
    while size > last - first and size > 1024:
        size //= 2
    spectrum = [0.0] * (size // 2 + 1)
    for start in range(first, max(first + 1, last - size + 1), size):
        if start + size > len(samples):
            break
        for index, value in enumerate(_spectrum(samples, start, size)):
            spectrum[index] += value
    # below 20 Hz is no tone: the output stage's high-pass lets a gate's DC step through
    # as a slow swing, loud in the lowest bins when the tone is weak or spread (noise)
    lowest = max(1, math.ceil(LOWEST_TONE * size / rate))
    peak = max(range(lowest, len(spectrum) - 1), key=spectrum.__getitem__)
    left, centre, right = (math.log(max(spectrum[peak + k], 1e-9)) for k in (-1, 0, 1))
    shift = 0.5 * (left - right) / (left - 2 * centre + right) if left - 2 * centre + right else 0.0
    dominant = (peak + shift) * rate / size
    # the spectral centroid: magnitude-weighted mean frequency over the sound's windows
    totals = [0.0] * (CENTROID_SIZE // 2 + 1)
    starts = list(range(first, max(first + 1, last - CENTROID_SIZE + 1), CENTROID_SIZE)) or [first]
    for start in starts:
        if start + CENTROID_SIZE > len(samples):
            break
        for index, value in enumerate(_spectrum(samples, start, CENTROID_SIZE)):
            totals[index] += value
    weight = sum(totals[1:])
    centroid = sum(index * value for index, value in enumerate(totals)) / weight * rate / CENTROID_SIZE \
        if weight else 0.0
    # silence before a recording that starts with its sound (c64tc's starts with the run)
    shown = [0.0] * max(0, MARGIN - onset) + levels[max(0, onset - MARGIN) : end + MARGIN]
    return Measurement(len(samples) / rate, onset, end - onset, dominant, centroid, shown)


def correlation(first: Sequence[float], second: Sequence[float]) -> float:
    """Pearson's correlation of two series (the shorter's length)."""
    count = min(len(first), len(second))
    a, b = first[:count], second[:count]
    mean_a, mean_b = sum(a) / count, sum(b) / count
    covariance = sum((x - mean_a) * (y - mean_b) for x, y in zip(a, b, strict=True))
    spread = math.sqrt(sum((x - mean_a) ** 2 for x in a) * sum((y - mean_b) ** 2 for y in b))
    return covariance / spread if spread else 0.0


def pal_frequency(register: int) -> float:
    """The tone a voice's frequency register gives on a PAL C64: Fn x 985248 / 2^24 Hz."""
    return register * 985_248 / 16_777_216
