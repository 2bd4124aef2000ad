"""Playing the SID's sound while the program runs, through the ``sounddevice``
package (PortAudio), an optional extra: ``pip install 'c64tc[audio]'``.

The samples are written to a blocking output stream as they are rendered: a write
waits while the device's buffer is full, which holds the emulation to the C64's
speed (the sound is the clock), a fraction of a second ahead of what is heard.
Without the package, the PortAudio library or an output device the run stays
silent, and :func:`open_playback` says why in one line.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any, Protocol

AUDIO_EXTRA = "pip install 'c64tc[audio]'"


class OutputStream(Protocol):
    """What c64tc uses of ``sounddevice.RawOutputStream``."""

    def start(self) -> None: ...
    def write(self, data: Any) -> Any: ...
    def stop(self) -> None: ...
    def abort(self) -> None: ...
    def close(self) -> None: ...


class Playback:
    """An open output stream of 16-bit mono samples."""

    def __init__(self, stream: OutputStream, rate: int) -> None:
        self.stream = stream
        self.rate = rate
        self.played = 0  # samples written
        stream.start()

    def play(self, samples: array[int]) -> None:
        """Queue ``samples``; waits while the device's buffer is full."""
        if samples:
            self.stream.write(samples.tobytes())
            self.played += len(samples)

    def close(self, drain: bool = True) -> None:
        """Stop: ``drain`` lets what is queued play out (the run ended), else it is cut
        off (Ctrl-C)."""
        try:
            if drain:
                self.stream.stop()
            else:
                self.stream.abort()
        finally:
            self.stream.close()


StreamOpener = Callable[[int], OutputStream]


def _sounddevice_stream(rate: int) -> OutputStream:
    import sounddevice

    sounddevice.query_devices(kind="output")  # no default output device: an error here
    stream: OutputStream = sounddevice.RawOutputStream(samplerate=rate, channels=1, dtype="int16",
                                                       latency="high")
    return stream


def open_playback(rate: int, opener: StreamOpener | None = None) -> tuple[Playback | None, str]:
    """A playback at ``rate`` samples a second, or None and why there is no sound
    (one line).  ``opener`` makes the stream (default: sounddevice's)."""
    try:
        stream = (opener or _sounddevice_stream)(rate)
    except ImportError:
        return None, f"no sound: the sounddevice package is not installed ({AUDIO_EXTRA})"
    except OSError as error:  # sounddevice raises it when the PortAudio library is missing
        return None, f"no sound: {error} (install PortAudio, e.g. Debian's libportaudio2)"
    except Exception as error:  # sounddevice.PortAudioError, ValueError: no device
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        return None, f"no sound: no audio output device ({reason})"
    try:
        return Playback(stream, rate), ""
    except Exception as error:
        stream.close()
        return None, f"no sound: the audio device would not start ({error})"
