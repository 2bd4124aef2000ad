"""``c64tc run TUNE.sid``: a SID tune played (or recorded) on the emulated C64."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from toolchain.c64.outcome import PAL_CLOCK_HZ, Stop
from toolchain.diagnostics import UserError

if TYPE_CHECKING:
    from toolchain.c64.machine import C64
    from toolchain.c64.outcome import RunResult
    from toolchain.cli.run_options import RunOptions
    from toolchain.inputs import InputFile
    from toolchain.sound.psid import SidTune

TUNE_SECONDS = 180  # how long a tune plays unless --max-cycles says


def play_tune(given: InputFile, options: RunOptions) -> None:
    """Play ``given`` (a SID tune): through the audio device when c64tc runs on a
    terminal (unless --mute), into a file with --audio; for --max-cycles of the C64's
    time (default three minutes), or until Ctrl-C; on --sid-model's SID, by default the
    model the tune was made for (the 8580 when it does not say)."""
    from toolchain.c64.machine import C64
    from toolchain.sound import SoundUnavailable, open_playback
    from toolchain.sound.output import RunSound
    from toolchain.sound.psid import parse_tune

    asked = options.sound
    song, audio_path, sample_rate, mute = asked.song, asked.audio_path, asked.sample_rate, asked.mute
    sid_model = asked.sid_model if "sid_model" in options.given else None
    max_cycles = options.machine.max_cycles if "max_cycles" in options.given else None
    if options.errata:
        raise click.UsageError(f"errata are merged over a BASIC listing; {given.shown} is a SID tune")
    tune = parse_tune(given.data, given.name)
    if song is not None and song > tune.songs:
        plural = "s" if tune.songs > 1 else ""
        raise click.UsageError(f"--song {song}: the tune has {tune.songs} song{plural}")
    song = song or tune.start_song
    model = sid_model or (tune.sid_model if tune.sid_model in ("6581", "8580") else "8580")
    roms = options.machine.find_roms()
    play = not mute and sys.stdout.isatty()
    playback, silent = open_playback(sample_rate) if play else (None, "")
    if audio_path is None and playback is None:
        reason = silent or ("--mute: nothing to hear" if mute else "standard output is no terminal")
        raise UserError.single(given.name, f"{reason}; give --audio FILE.wav to record the tune")
    cycles = max_cycles if max_cycles is not None else TUNE_SECONDS * PAL_CLOCK_HZ
    for line in _describe(tune, song, model):
        click.echo(line)
    machine = C64(roms=roms)
    run, clock = _prepare(machine, tune, song)
    try:
        sound = RunSound(machine, clock, model, sample_rate,
                         record=audio_path is not None, playback=playback)
    except SoundUnavailable as exc:
        raise UserError.single(given.name, str(exc)) from None
    if playback is not None:
        click.echo(f"playing for {cycles / PAL_CLOCK_HZ:.1f} s: Ctrl-C stops", err=True)
    try:
        result = run(cycles)
    except KeyboardInterrupt:
        seconds = sound.finish(audio_path, interrupted=True)
        say_recorded(audio_path, seconds, model, sample_rate)
        click.echo(f"stopped by Ctrl-C after {seconds:.2f} s", err=True)
        sys.exit(130)
    seconds = sound.finish(audio_path)
    say_recorded(audio_path, seconds, model, sample_rate)
    if result.stop not in (Stop.CYCLE_LIMIT, Stop.STATEMENT_LIMIT, Stop.END, Stop.READY, Stop.RETURNED):
        raise UserError.single(given.name, f"the tune stopped after {seconds:.2f} s: {result.message}")
    if silent:
        click.echo(f"c64tc: {silent}", err=True)


def say_recorded(audio_path: str | None, seconds: float, model: str, rate: int) -> None:
    """What --audio wrote (nothing without --audio)."""
    if audio_path is not None:
        click.echo(f"{audio_path}: {seconds:.2f} s of sound (SID {model}, reSIDfp, {rate} Hz)", err=True)


def _describe(tune: SidTune, song: int, model: str) -> list[str]:
    lines = [f"{tune.title or '(no title)'}", f"by {tune.author or '(unknown)'}"]
    if tune.released:
        lines.append(tune.released)
    what = "a BASIC program" if tune.is_basic else f"init ${tune.init:04X}" + (
        f", play ${tune.play:04X}" if tune.play else "")
    lines.append(f"{tune.magic} v{tune.version}: song {song} of {tune.songs}; ${tune.load:04X}-"
                 f"${tune.end - 1:04X}, {what}, played from {tune.speed_text(song)}; SID {model}"
                 + (f" (made for the {tune.sid_model})" if tune.sid_model not in ("unknown", model) else ""))
    if tune.clock == "NTSC":
        lines.append("an NTSC tune: the C64 here is a PAL one, so it plays a little slower, as on a PAL C64")
    if tune.second_sid or tune.third_sid:
        lines.append("the tune plays on more than one SID: c64tc has one, the others' writes reach it as "
                     "on a C64 with one")
    return lines


def _prepare(machine: C64, tune: SidTune, song: int) -> tuple[Callable[[int], RunResult], Callable[[], int]]:
    """The tune in the machine: a function that runs it for so many cycles, and the
    C64's clock while it runs."""
    from toolchain.sound.psid import SONG_REGISTERS, load_tune, store_ram

    if tune.is_basic:
        from toolchain.c64.run import Program, Session
        from toolchain.disk.prg import Prg

        store_ram(machine, SONG_REGISTERS, bytes([song - 1] * 3))
        session = Session(Program(Prg(tune.load, tune.data), tune.path, is_basic=True), machine)
        # --max-cycles bounds BASIC's time too (the cost model's, issue 22)
        return lambda cycles: session.run(max_cycles=cycles), session.clock
    start = load_tune(machine, tune, song)

    def run(cycles: int) -> RunResult:
        machine.cpu.pc = start
        return machine.run(cycles)

    return run, lambda: machine.cpu.cycles
