"""WAV files: 16-bit signed mono PCM, as VICE's wav sound recorder writes them
(``-sounddev wav``), through the standard library's :mod:`wave`."""

from __future__ import annotations

import io
import sys
import wave
from array import array
from dataclasses import dataclass
from pathlib import Path

from toolchain.diagnostics import UserError
from toolchain.fileio import write_atomic

#: extensions of sound formats c64tc cannot write, and their names.  A recording is
#: always WAV; under one of these names it would be a WAV file that players and
#: converters take for the format the name says (and reject, or worse, guess at), so
#: such a name is refused before the run, as a picture format Pillow cannot write is.
#: Other names (none, .wav, .tmp, a link's) get WAV, as other names get PNG pictures.
OTHER_SOUND_FORMATS = {
    ".mp3": "an MP3", ".mp2": "an MP2", ".ogg": "an Ogg", ".oga": "an Ogg", ".opus": "an Opus",
    ".flac": "a FLAC", ".aac": "an AAC", ".m4a": "an AAC (M4A)", ".wma": "a WMA", ".aif": "an AIFF",
    ".aiff": "an AIFF", ".aifc": "an AIFF-C", ".au": "a Sun audio", ".snd": "a Sun audio",
    ".voc": "a Creative Voice",
}


def wav_bytes(samples: array[int], rate: int) -> bytes:
    """A WAV file of ``samples`` (16-bit signed, mono) at ``rate`` samples a second."""
    data = samples if sys.byteorder == "little" else _swapped(samples)
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as writer:
        writer.setnchannels(1)
        writer.setsampwidth(2)
        writer.setframerate(rate)
        writer.writeframes(data.tobytes())
    return buffer.getvalue()


def check_wav_name(path: str | Path, option: str = "--audio") -> None:
    """Refuse a recording's name that asks for another sound format (``x.mp3``): said
    before any work, not found out by the player afterwards."""
    suffix = Path(path).suffix
    format_name = OTHER_SOUND_FORMATS.get(suffix.lower())
    if format_name is not None:
        wav = Path(path).with_suffix(".wav")
        raise UserError.single(str(path), f"cannot write {format_name} file: {option} records WAV only "
                               f"(16-bit PCM): name the file {wav} (and convert that, e.g. with "
                               f"ffmpeg -i {wav} {path})")


def write_wav(path: str | Path, samples: array[int], rate: int) -> None:
    """Write the WAV file atomically (a reader never sees half of it; ``-`` is
    standard output)."""
    write_atomic(path, wav_bytes(samples, rate))


@dataclass(frozen=True)
class Sound:
    """A WAV file's samples as one channel (stereo is averaged), and its rate."""

    samples: array[int]
    rate: int

    @property
    def seconds(self) -> float:
        return len(self.samples) / self.rate


def read_wav(path: str | Path) -> Sound:
    """A 16-bit PCM WAV file (mono or stereo)."""
    with wave.open(str(path), "rb") as reader:
        if reader.getsampwidth() != 2:
            raise ValueError(f"{path}: {8 * reader.getsampwidth()}-bit samples; 16-bit PCM expected")
        channels, rate = reader.getnchannels(), reader.getframerate()
        frames = reader.readframes(reader.getnframes())
    samples = array("h", frames)
    if sys.byteorder != "little":
        samples.byteswap()
    if channels > 1:
        samples = array("h", (sum(samples[index : index + channels]) // channels
                              for index in range(0, len(samples), channels)))
    return Sound(samples, rate)


def _swapped(samples: array[int]) -> array[int]:
    copy = array("h", samples)
    copy.byteswap()
    return copy
