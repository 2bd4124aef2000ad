"""The sound engine around reSIDfp: writes at their cycles, WAV files as long as the
run's C64 time, the live screen's playback (a fake sounddevice stream; this machine
has no audio device, so the silent path is tested for real), and the options."""

from __future__ import annotations

import os
import textwrap
import time
import wave
from array import array
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.sound_analysis import measure, pal_frequency
from toolchain.asm.assembler import assemble
from toolchain.c64.chips import CYCLES_PER_FRAME
from toolchain.c64.machine import C64
from toolchain.c64.outcome import PAL_CLOCK_HZ
from toolchain.cli import main
from toolchain.sound import Playback, open_playback, read_wav, wav_bytes

pytest.importorskip("pyresidfp._pyresidfp", reason="the sound engine (pyresidfp) is not installed")

from toolchain.sound.engine import SidSound
from toolchain.sound.output import RunSound

# voice 1: a 440 Hz sawtooth ($1D45) for FRAMES frames, then RTS (the gate stays on)
TONE = """*= $c000
 lda #$0f
 sta $d418
 lda #$45
 sta $d400
 lda #$1d
 sta $d401
 lda #$f0
 sta $d406
 lda #$21
 sta $d404
 ldx #{frames}
wait bit $d011
 bpl wait
waitb bit $d011
 bmi waitb
 dex
 bne wait
 rts
"""


def tone_prg(tmp_path: Path, frames: int = 25) -> Path:
    program = assemble(TONE.format(frames=frames))
    path = tmp_path / "tone.prg"
    path.write_bytes(program.start.to_bytes(2, "little") + program.image)
    return path


def test_writes_reach_residfp_at_their_cycles() -> None:
    sound = SidSound("8580")
    sid = C64().io.sid
    sound.attach(sid, 1000)  # type: ignore[arg-type]
    for register, value in ((0x18, 0x0F), (0x01, 0x1D), (0x00, 0x45), (0x06, 0xF0), (0x04, 0x21)):
        sid.write(register, value, 1000 + PAL_CLOCK_HZ // 10)  # the tone starts a tenth of a second in
    samples = sound.recording(1000 + PAL_CLOCK_HZ)
    assert len(samples) == 44100  # a second of the C64's time
    first = next(index for index, value in enumerate(samples) if abs(value - samples[0]) > 200)
    assert abs(first - 4410) < 50  # where the writes were stamped
    assert abs(measure(samples, 44100).dominant_hz / pal_frequency(0x1D45) - 1) < 0.005


def test_a_wav_file_is_16_bit_mono_and_reads_back() -> None:
    samples = array("h", [0, 1000, -1000, 32767, -32768])
    data = wav_bytes(samples, 22050)
    assert data[:4] == b"RIFF" and data[8:16] == b"WAVEfmt "
    import io

    with wave.open(io.BytesIO(data)) as reader:
        assert (reader.getnchannels(), reader.getsampwidth(), reader.getframerate(), reader.getnframes()) == (
            1, 2, 22050, 5)


def test_run_audio_is_as_long_as_the_runs_c64_time_also_at_a_limit(tmp_path: Path) -> None:
    wav = tmp_path / "tone.wav"
    result = CliRunner().invoke(main, ["run", str(tone_prg(tmp_path)), "--sys", "49152", "--audio", str(wav)])
    assert result.exit_code == 0, result.output
    cycles = int(result.output.split("instructions, ")[1].split(" cycles")[0].replace(",", ""))
    sound = read_wav(wav)
    assert sound.rate == 44100 and len(sound.samples) == round(cycles * 44100 / PAL_CLOCK_HZ)
    assert abs(cycles - 25 * CYCLES_PER_FRAME) < CYCLES_PER_FRAME
    assert f"{wav}: 0.50 s of sound (SID 8580, reSIDfp, 44100 Hz)" in result.output
    # a run stopped by its cycle limit: the sound up to there
    result = CliRunner().invoke(main, ["run", str(tone_prg(tmp_path, 200)), "--sys", "49152", "--audio",
                                       str(wav), "--max-cycles", "300000", "--sample-rate", "22050",
                                       "--sid-model", "6581"])
    assert result.exit_code == 2 and "stopped after 300,0" in result.output
    cycles = int(result.output.split("instructions, ")[1].split(" cycles")[0].replace(",", ""))
    sound = read_wav(wav)
    assert sound.rate == 22050 and len(sound.samples) == round(cycles * 22050 / PAL_CLOCK_HZ)
    assert "SID 6581" in result.output


def test_basic_pokes_are_heard_and_the_sound_lasts_the_runners_time(tmp_path: Path) -> None:
    listing = tmp_path / "beep.bas"
    listing.write_text("10 s=54272:pokes+24,15:pokes+1,29:pokes+6,240:pokes+4,33\n"
                       "20 t=ti+30\n30 ifti<tthen30\n40 pokes+4,32\n")
    wav = tmp_path / "beep.wav"
    result = CliRunner().invoke(main, ["run", str(listing), "--audio", str(wav)])
    assert result.exit_code == 0, result.output
    sound = read_wav(wav)
    figures = measure(sound.samples, sound.rate)
    assert abs(figures.dominant_hz / pal_frequency(29 * 256) - 1) < 0.01
    assert 0.49 <= figures.length <= 0.52  # half a second by the jiffy clock
    assert 0.5 <= sound.seconds < 0.56


def test_no_sound_asked_leaves_the_sid_without_a_log(tmp_path: Path) -> None:
    from toolchain.c64.run import Session, load_program

    session = Session(load_program(str(tone_prg(tmp_path)), sys_address=49152))
    session.run()
    sid = session.machine.io.sid
    assert sid.write_log is None and sid.sound is None  # type: ignore[attr-defined]


class FakeStream:
    """A sounddevice.RawOutputStream that keeps what it was given."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.calls: list[str] = []

    def start(self) -> None:
        self.calls.append("start")

    def write(self, data: bytes) -> bool:
        self.data += data
        return False

    def stop(self) -> None:
        self.calls.append("stop")

    def abort(self) -> None:
        self.calls.append("abort")

    def close(self) -> None:
        self.calls.append("close")


def test_playback_gets_the_samples_as_the_run_goes() -> None:
    machine = C64()
    program = assemble(TONE.format(frames=25))
    machine.load(__import__("toolchain.disk.prg", fromlist=["Prg"]).Prg(program.start, program.image))
    stream = FakeStream()
    playback, reason = open_playback(44100, opener=lambda rate: stream)
    assert playback is not None and reason == "" and stream.calls == ["start"]
    sound = RunSound(machine, lambda: machine.cpu.cycles, record=False, playback=playback)
    sizes = []
    original = playback.play

    def counting(samples: array[int]) -> None:
        sizes.append(len(samples))
        original(samples)

    playback.play = counting  # type: ignore[method-assign]
    result = machine.sys(0xC000)
    seconds = sound.finish()
    assert stream.calls == ["start", "stop", "close"]
    assert len(stream.data) // 2 == pytest.approx(result.cycles * 44100 / PAL_CLOCK_HZ, abs=20)
    assert seconds == pytest.approx(result.cycles / PAL_CLOCK_HZ)
    assert len(sizes) > 40 and max(sizes) < 600  # a hundredth of a second at a time, as it is rendered


@pytest.mark.parametrize(("error", "says"), [
    (ImportError("No module named 'sounddevice'"), "no sound: the sounddevice package is not installed"),
    (OSError("PortAudio library not found"), "no sound: PortAudio library not found (install PortAudio"),
    (ValueError("No output device matching"), "no sound: no audio output device (No output device matching)"),
])
def test_without_a_device_the_run_is_silent_and_says_why(error: Exception, says: str) -> None:
    def opener(rate: int) -> FakeStream:
        raise error

    playback, reason = open_playback(44100, opener)
    assert playback is None and reason.startswith(says) and "\n" not in reason


def test_this_machine_has_no_audio_device() -> None:
    playback, reason = open_playback(44100)
    if playback is not None:
        playback.close(drain=False)
        pytest.skip("this machine has an audio device")
    assert reason.startswith("no sound: ")


def _fake_sounddevice(folder: Path, device: bool) -> Path:
    """A sounddevice module for a subprocess: its stream writes what it plays to
    played.raw (and takes the wall time the samples last), or there is no device."""
    module = folder / "sounddevice.py"
    module.write_text(textwrap.dedent(f"""
        import time
        def query_devices(kind=None):
            if not {device}:
                raise ValueError("No output device matching the query")
        class RawOutputStream:
            def __init__(self, samplerate, channels, dtype, latency):
                self.rate, self.file = samplerate, open({str(folder / "played.raw")!r}, "wb")
            def start(self):
                self.started = time.monotonic()
            def write(self, data):
                self.file.write(data)
                played = self.file.tell() // 2 / self.rate
                time.sleep(max(0.0, played - 0.2 - (time.monotonic() - self.started)))  # a 0.2 s buffer
            def stop(self):
                pass
            def abort(self):
                pass
            def close(self):
                self.file.close()
    """))
    return folder


def test_the_live_screen_plays_the_sound_at_the_c64s_speed(tmp_path: Path) -> None:
    from tests.test_live_run import Play

    fake = _fake_sounddevice(tmp_path, device=True)
    started = time.monotonic()
    game = Play(str(tone_prg(tmp_path, 50)), "--sys", "49152",
                environment={"PYTHONPATH": f"{fake}{os.pathsep}{Path(__file__).resolve().parent.parent}"})
    try:
        assert game.finish(30) == 0
        elapsed = time.monotonic() - started
        after = game.after_the_live_screen()
    finally:
        game.close()
    assert "returned to BASIC" in after and "no sound" not in after
    played = (tmp_path / "played.raw").read_bytes()
    assert len(played) // 2 == pytest.approx(44100, abs=0.03 * 44100)  # 50 frames: a second
    assert elapsed >= 0.8  # held to the C64's pace by the device's buffer
    samples = array("h", played)
    assert abs(measure(samples, 44100).dominant_hz / pal_frequency(0x1D45) - 1) < 0.01


def test_the_live_screen_without_a_device_says_why_after_the_run(tmp_path: Path) -> None:
    from tests.test_live_run import Play

    fake = _fake_sounddevice(tmp_path, device=False)
    game = Play(str(tone_prg(tmp_path, 5)), "--sys", "49152",
                environment={"PYTHONPATH": f"{fake}{os.pathsep}{Path(__file__).resolve().parent.parent}"})
    try:
        assert game.finish(30) == 0
        after = game.after_the_live_screen()
    finally:
        game.close()
    assert "returned to BASIC" in after
    assert "c64tc: no sound: no audio output device (No output device matching the query)" in after
    assert not (tmp_path / "played.raw").exists()


def test_options_that_do_not_fit(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["run", str(tone_prg(tmp_path)), "--sys", "49152", "--song", "2"])
    assert result.exit_code == 2 and "--song picks a song of a SID tune" in result.output
    result = CliRunner().invoke(main, ["run", str(tone_prg(tmp_path)), "--sys", "49152", "--sample-rate",
                                       "4000"])
    assert result.exit_code == 2
    result = CliRunner().invoke(main, ["run", str(tone_prg(tmp_path)), "--sys", "49152", "--audio", "-"])
    assert result.exit_code == 2 and "--audio - would mix the WAV file" in result.output
    result = CliRunner().invoke(main, ["vice", str(tone_prg(tmp_path)), "--audio", str(tmp_path / "v.wav")])
    assert result.exit_code == 2 and "--audio needs --check" in result.output


@pytest.mark.parametrize("name", ["tone.mp3", "tone.OGG", "tone.flac"])
def test_a_name_asking_for_another_sound_format_is_refused_before_the_run(tmp_path: Path, name: str) -> None:
    """`--audio x.mp3` wrote a WAV file under the MP3's name, which players then
    refused or misread; c64tc writes WAV only, so such a name is an error, before the
    run and without a file, for run and for vice --check alike."""
    wav = tmp_path / name
    result = CliRunner().invoke(main, ["run", str(tone_prg(tmp_path)), "--sys", "49152", "--audio", str(wav)])
    assert result.exit_code == 1
    assert result.output.startswith(f"{wav}: error: cannot write ")
    assert f"records WAV only (16-bit PCM): name the file {wav.with_suffix('.wav')}" in result.output
    assert "instructions" not in result.output and not wav.exists()
    result = CliRunner().invoke(main, ["vice", str(tone_prg(tmp_path)), "--check", "--audio", str(wav)])
    assert result.exit_code == 1 and f"{wav}: error: cannot write " in result.output
    assert not wav.exists()


def test_playback_close_cuts_off_on_ctrl_c() -> None:
    stream = FakeStream()
    playback = Playback(stream, 44100)
    playback.play(array("h", [1, 2, 3]))
    playback.close(drain=False)
    assert stream.calls == ["start", "abort", "close"] and len(stream.data) == 6


def test_a_tune_plays_on_a_terminal_through_the_device(tmp_path: Path) -> None:
    from tests.test_live_run import Play
    from tests.test_psid import sid_file

    tune = tmp_path / "tune.sid"
    tune.write_bytes(sid_file())
    fake = _fake_sounddevice(tmp_path, device=True)
    game = Play(str(tune), "--max-cycles", str(PAL_CLOCK_HZ // 2),
                environment={"PYTHONPATH": f"{fake}{os.pathsep}{Path(__file__).resolve().parent.parent}"})
    try:
        assert game.finish(30) == 0
        game.read(0.2)
        shown = game.output.decode(errors="replace").replace("\r", "")
    finally:
        game.close()
    assert "Test tune\nby c64tc\n" in shown and "playing for 0.5 s: Ctrl-C stops" in shown
    assert len((tmp_path / "played.raw").read_bytes()) // 2 == pytest.approx(22050, abs=5)


def test_vice_check_records_vices_sound(tmp_path: Path) -> None:
    import shutil

    from toolchain import vice

    if not (os.environ.get(vice.EMULATOR_ENV) or shutil.which("x64sc")):
        pytest.skip("VICE's x64sc is not installed (put it on the PATH or name it in C64TC_VICE)")
    wav = tmp_path / "vice.wav"
    cycles = 4_000_000  # the boot (READY. at 2.1 million cycles), SYS typed, the tone
    result = CliRunner().invoke(main, ["vice", str(tone_prg(tmp_path)), "--check", "--max-cycles",
                                       str(cycles), "--audio", str(wav), "--expect", "READY."])
    assert result.exit_code == 0, result.output
    sound = read_wav(wav)
    assert sound.seconds == pytest.approx(cycles / PAL_CLOCK_HZ, abs=0.05)
    assert f"{wav}: {sound.seconds:.2f} s of VICE's sound (reSID, SID 8580)" in result.output
    figures = measure(sound.samples, sound.rate, skip=1.5)
    assert abs(figures.dominant_hz / pal_frequency(0x1D45) - 1) < 0.01
    # the tone starts once SYS is typed after the boot, and its gate stays on to the end
    assert 2.0 < figures.onset * 0.01 and figures.onset + figures.windows >= len(sound.samples) // 441 - 1
