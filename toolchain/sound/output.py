"""The sound of one run: the engine listening to the machine's SID from the run's
start, rendering as the run goes, recorded into a WAV file (``run --audio``) and/or
played live."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from toolchain.c64.io import Ticker
from toolchain.sound.engine import DEFAULT_MODEL, SAMPLE_RATE, SidSound, SoundUnavailable
from toolchain.sound.playback import Playback
from toolchain.sound.wav import write_wav

if TYPE_CHECKING:
    from toolchain.c64.machine import C64

# how often the sound is brought up to date while the run goes: for playback a
# hundredth of a second of the C64's time (the device's buffer is ahead by more);
# for a recording only to keep the write log short
LIVE_CYCLES = 9_852
RECORDING_CYCLES = 246_312


class RunSound:
    """reSIDfp attached to ``machine``'s SID from now on (``machine_cycles`` reads the
    C64's clock: the CPU's, or the BASIC runner's).  ``record``: keep every sample for
    :meth:`finish` to write; ``playback``: play them as they come (the sound owns it:
    closed, unplayed, when the engine cannot be had: SoundUnavailable)."""

    def __init__(self, machine: C64, machine_cycles: Callable[[], int], model: str = DEFAULT_MODEL,
                 rate: int = SAMPLE_RATE, record: bool = True, playback: Playback | None = None) -> None:
        self.machine = machine
        self.machine_cycles = machine_cycles
        try:
            self.engine = SidSound(model, rate, keep=record)
        except SoundUnavailable:
            if playback is not None:
                playback.close(drain=False)
            raise
        self.playback = playback
        now = machine_cycles()
        self.engine.attach(machine.io.sid, now)  # type: ignore[arg-type]
        self.finished: float | None = None
        self.ticker = Ticker(LIVE_CYCLES if playback is not None else RECORDING_CYCLES, self.pump, now)
        machine.io.tickers.append(self.ticker)

    def pump(self) -> None:
        """Render up to the machine's present cycle (and play it)."""
        sid = self.machine.io.sid
        now = self.machine_cycles()
        if sid is not self.engine.sid:  # a reset plugged in other chips: listen to those
            self.engine.attach(sid, now)  # type: ignore[arg-type]
        self.engine.render_to(now)
        if self.playback is not None:
            self.playback.play(self.engine.take())

    def finish(self, audio_path: str | Path | None = None, interrupted: bool = False) -> float:
        """The run ended (``interrupted``: by Ctrl-C): the sound up to the machine's
        present cycle written to ``audio_path`` (a WAV file), the playback let play
        out (or cut off); the sound's length in seconds."""
        if self.finished is not None:
            return self.finished
        machine = self.machine
        if self.ticker in machine.io.tickers:
            machine.io.tickers.remove(self.ticker)
        end = self.machine_cycles()
        try:
            if self.playback is not None:
                self.pump()
        finally:
            if self.playback is not None:
                self.playback.close(drain=not interrupted)
        self.engine.detach()
        engine = self.engine
        if audio_path is not None:
            write_wav(audio_path, engine.recording(end), engine.rate)
        self.finished = (end - engine.start) / engine.clock_hz
        return self.finished
