"""``c64tc run`` and ``c64tc verify``: programs on the emulated C64."""

from __future__ import annotations

import contextlib
import math
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from toolchain.c64.outcome import Stop
from toolchain.c64.run import DEFAULT_RUN_CYCLES
from toolchain.cli.common import ADDRESS, COUNT, TYPED_INPUT, ProgressBar, not_built, reports_user_errors
from toolchain.cli.monitor_console import break_at_lines, monitor_reads_stdin, run_monitor
from toolchain.cli.progress import RunProgress
from toolchain.cli.run_options import LiveOptions, OutputOptions, RunOptions, SoundOptions
from toolchain.cli.tune import say_recorded
from toolchain.diagnostics import Diagnostic, UserError, counted, print_diagnostics
from toolchain.fileio import (
    STDIO,
    output_target,
    read_text,
    refuse_folder_name,
    refuse_replacing_inputs,
    write_atomic,
    write_stdout,
)

if TYPE_CHECKING:
    from toolchain.c64.outcome import RunResult
    from toolchain.c64.run import Program, Session


def pal_time(seconds: float) -> str:
    """A time on a PAL C64 as a person reads it: seconds, minutes or hours."""
    if seconds < 120:
        return f"{seconds:.2f} s"
    if seconds < 7200:
        return f"{seconds / 60:.1f} minutes"
    return f"{seconds / 3600:.1f} hours"


def typed_lines_from(stream: TextIO) -> Callable[[], str | None]:
    """Typed input from a pipe, one line per RETURN, read as the program asks for it (so
    an endless producer such as ``yes`` works); a character no C64 key gives is an error,
    as in --input."""
    from toolchain.c64.machine import UntypableText, text_to_keys

    count = 0

    def next_line() -> str | None:
        nonlocal count
        line = stream.readline()
        if not line:
            return None
        count += 1
        line = line.rstrip("\r\n")
        for column, character in enumerate(line, start=1):
            try:
                text_to_keys(character)
            except UntypableText as exc:
                raise UserError.single(STDIO, str(exc), count, column, source_line=line) from None
        return line

    return next_line


def _check_usage(options: RunOptions) -> None:
    """Options that cannot go together whatever the program is: said before it is read."""
    dialogue, outputs = options.dialogue, options.outputs
    if dialogue.input_text is not None and dialogue.input_file is not None:
        raise click.UsageError("--input and --input-file cannot go together: give the typed input once")
    shows = outputs.shows()
    if len(shows) > 1:
        raise click.UsageError(f"{' and '.join(shows)} cannot go together: the output is one of them")
    if options.inputs().count(STDIO) > 1:
        raise click.UsageError("standard input ('-') can be read only once")
    if options.sound.audio_path == STDIO:
        raise click.UsageError("--audio - would mix the WAV file with the program's output: name a file")
    if outputs.raw and sys.stdout.isatty():
        raise click.UsageError("--raw writes PETSCII bytes: redirect standard output to a file or a pipe")
    if outputs.screenshot_every is not None and outputs.screenshot is None:
        raise click.UsageError("--screenshot-every needs --screenshot NAME.png (the frames are numbered "
                               "after it)")
    if outputs.screenshot is not None and not Path(outputs.screenshot).name:
        raise click.UsageError(f"--screenshot {outputs.screenshot!r} names no file: give NAME.png")
    if options.sound.audio_path is not None and not Path(options.sound.audio_path).name:
        raise click.UsageError(f"--audio {options.sound.audio_path!r} names no file: give NAME.wav")
    if options.sound.audio_path is not None:
        from toolchain.sound.wav import check_wav_name

        check_wav_name(options.sound.audio_path)  # WAV under an MP3's name: said before the run


def _refuse_outputs_over_inputs(options: RunOptions) -> None:
    """No picture, film, printer output or sound of the run is written over a file it
    reads (the program or its disk image, errata, typed input, the disk in the drive,
    monitor commands, labels): refused before the run, as every command refuses it
    (fileio.refuse_replacing_inputs)."""
    from toolchain.inputs import input_path

    machine, outputs, monitoring = options.machine, options.outputs, options.monitoring
    inputs = [input_path(argument) for argument in (*options.inputs(), machine.disk_path,
                                                    monitoring.monitor_commands, *monitoring.label_files)]
    for output in (outputs.screenshot, outputs.film_path, machine.printer_path, options.sound.audio_path):
        if output is not None:
            refuse_folder_name(output)  # (before the names become Paths, which drop a final slash)
            refuse_replacing_inputs(output, inputs)
    if machine.printer_path is not None and machine.printer_path != STDIO:
        output_target(machine.printer_path)  # a paper that cannot be written: before the run, as a picture


def _check_options(program: Program, options: RunOptions) -> None:
    """Options that do not apply to ``program`` (known once it is read) say so."""
    what = "standard input" if options.path == STDIO else program.name
    outputs = options.outputs
    if program.is_basic and outputs.trace:
        raise click.UsageError(f"--trace follows machine code instruction by instruction; {what} is a BASIC "
                               "program, run by the BASIC runner (give --sys ADDRESS to trace machine code)")
    if not program.is_basic and options.machine.max_statements is not None:
        raise click.UsageError(f"--max-statements limits a BASIC program; {what} runs as machine code "
                               "(--max-cycles limits it)")
    if outputs.dump_python and outputs.shows():
        raise click.UsageError(f"--dump-python prints Python, not the program's output: it cannot go with "
                               f"{outputs.shows()[0]}")


@click.command("run")
@click.argument("path", metavar="PROGRAM")
@click.argument("errata", nargs=-1)
@click.option("--sys", "sys_address", type=ADDRESS, help="Start address, as SYS takes it (13312 or $3400).")
@click.option("--input", "input_text", help="What the user types; " + TYPED_INPUT)
@click.option("--input-file", type=click.Path(dir_okay=False, allow_dash=True),
              help="Read the typed input from a file ('-': standard input); " + TYPED_INPUT)
@click.option("--max-cycles", type=COUNT, default=DEFAULT_RUN_CYCLES, show_default=True,
              help="Stop the run after this many cycles of C64 time (BASIC's counted as the ROM's "
              "interpreter takes them, with the machine code it calls); the default is 100 hours.")
@click.option("--warp", is_flag=True, help="The live screen runs as fast as it can, not at the C64's speed "
              "(as VICE's warp mode; F12 toggles it while the program runs).")
@click.option("--max-statements", type=COUNT, help="BASIC: stop after this many statement groups "
              "(the runs between jumps).")
@click.option("--screen", is_flag=True, help="Print the final screen.")
@click.option("--transcript", is_flag=True,
              help="Print every screen line as it scrolled by, then the final screen (the default).")
@click.option("--raw", is_flag=True, help="Print the PETSCII bytes the program printed (not to a terminal).")
@click.option("--trace", is_flag=True, help="Machine code: print every instruction to standard error, "
              "as the monitor shows a step (VICE's format: address, bytes, instruction, registers, cycles).")
@click.option("--screenshot", type=click.Path(dir_okay=False), help="Write the final frame as a picture, "
              "as the VIC-II draws it (384x272, VICE's framing, palette indices): PNG, or the format the "
              "name's extension asks for (.gif, .jpg...).")
@click.option("--screenshot-every", type=COUNT, help="With --screenshot: also a picture every N statement "
              "groups (BASIC) or cycles (machine code), numbered NAME-0001.png, ...")
@click.option("--film", "film_path", type=click.Path(dir_okay=False), help="Write every frame of the run as "
              "an animated GIF (.gif) or APNG (.png), 50 frames a second as on a PAL C64.")
@click.option("--roms", "roms_dir", type=click.Path(),
              help="Run the C64's own ROMs (kernal, basic, chargen) from this folder; default: "
              "C64TC_ROMS, then the ROMs of the VICE on the PATH; without them, c64tc's models.")
@click.option("--no-roms", is_flag=True, help="Run on c64tc's models of the ROMs even where ROMs are found.")
@click.option("--boot", is_flag=True, help="Switch the C64 on first (its start-up screen) and type RUN "
              "(or SYS ADDR) at READY. as a user would; with the ROMs their reset runs, and BASIC itself "
              "runs the program and what is typed after it (exact, slower).")
@click.option("--stop-on-brk", is_flag=True, help="Stop at a BRK and say where (for debugging) instead of "
              "the C64's warm start (screen cleared, READY.).")
@click.option("--disk", "disk_path", type=click.Path(dir_okay=False),
              help="Put this disk image (D64, D71, D81) in drive 8 (without it the drive is empty, as on "
              "VICE's default C64); the program changes it in memory only (see --write-disk).  PROGRAM "
              "given as IMAGE:NAME puts its image there by itself.")
@click.option("--no-drive", is_flag=True, help="No disk drive on device 8 (by default there is a 1541, "
              "empty unless --disk gives it a disk).")
@click.option("--printer", "printer_path", type=click.Path(dir_okay=False, allow_dash=True),
              help="Attach a printer on device 4 (by default there is none: ?DEVICE NOT PRESENT) and write "
              "what the program printed on it (OPEN 4,4 / CMD 4) to this file, the bytes as sent, as "
              "VICE's printer text device keeps them ('-': standard output).")
@click.option("--write-disk", is_flag=True, help="When the run ends, write the disk in drive 8 back to its "
              "image (atomically; not when another program changed the file meanwhile).")
@click.option("--dump-python", is_flag=True, help="Print the Python c64tc makes of the program: a BASIC "
              "program's compiled module (without running it), or machine code's translated blocks "
              "(after the run).")
@click.option("--ascii", "ascii_glyphs", is_flag=True, help="The live screen in plain ASCII, for terminals "
              "and fonts without Unicode 13's legacy computing symbols (the PETSCII graphics).")
@click.option("--monitor", is_flag=True, help="Machine code: open a monitor in the style of VICE's before "
              "the first instruction (c64tc monitor --help).")
@click.option("--monitor-commands", type=click.Path(dir_okay=False, allow_dash=True), help="Machine code, "
              "or BASIC with --break-line: run these monitor commands ('-': standard input), like VICE's "
              "-moncommands.")
@click.option("--labels", "label_files", type=click.Path(), multiple=True,
              help="Labels for the monitor (c64tc asm --vice-labels or --symbols).")
@click.option("--break-line", "break_lines", type=click.IntRange(0, 63999), multiple=True, metavar="LINE",
              help="BASIC: stop each time the run reaches this line (before its first statement; "
              "repeatable) and read commands: vars [NAME], n, g, break LINE, del LINE, x, q, help, or a "
              "BASIC statement (print i*2, i=42); from the terminal or --monitor-commands FILE.")
@click.option("--audio", "audio_path", type=click.Path(dir_okay=False), metavar="FILE.wav",
              help="Record the SID's sound (reSIDfp) into a WAV file, 16-bit mono, as long as the run's C64 "
              "time (also when a limit stops it).")
@click.option("--sid-model", type=click.Choice(["6581", "8580"]), default="8580", show_default=True,
              help="The SID heard (and read back): the 6581 of the first C64s, or the 8580 of the C64C "
              "(VICE's default).")
@click.option("--sample-rate", type=click.IntRange(8_000, 192_000), default=44_100, show_default=True,
              help="Samples a second of the sound (--audio, the live screen's sound).")
@click.option("--mute", is_flag=True, help="The live screen plays no sound.")
@click.option("--song", type=click.IntRange(1, 256), help="A SID tune (.sid): which song to play (default: "
              "the tune's start song).")
@reports_user_errors
def run_command(**params: Any) -> None:
    """Run PROGRAM on the emulated C64: a BASIC program as RUN would, machine code as
    SYS would.

    PROGRAM is a PRG, a file on a disk image (IMAGE:NAME, e.g. build/seeds.d64:"fox
    hunt"), or a BASIC listing (petcat text) that is tokenized first, with ERRATA
    listings merged over it (same line number replaces); '-' reads it from standard
    input.  A PRG whose bytes are BASIC lines runs as BASIC (loaded at $0801, as
    LOAD"X",8 would) unless --sys is given.

    Typed input: --input or --input-file; else, from a terminal, the program is played
    on the live screen (the C64's 40x25 screen in the terminal, keys as they are
    pressed, Esc is RUN/STOP, Ctrl-C quits; a line teletype where TERM=dumb); from a
    pipe, each line is typed followed by RETURN
    (printf '3\\n3\\n' | c64tc run build/mastermind.prg).

    Exit status: 0 END, READY. or returned to BASIC; 1 a BASIC error, BRK, JAM or an
    unmodelled ROM call; 2 cycle or statement limit; 3 input used up while the
    program waits for more.
    """
    context = click.get_current_context()
    given = [name for name in params
             if context.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT]
    run_program(RunOptions.from_params(params, given))


def run_program(options: RunOptions) -> None:
    """Run the program as ``options`` ask (c64tc run --help says how), print what they
    ask for and exit with the run's status."""
    from toolchain.c64.run import Session, load_program
    from toolchain.inputs import Kind, read_input

    _check_usage(options)
    _refuse_outputs_over_inputs(options)
    given = read_input(options.path)
    if given.kind.kind is Kind.SID_TUNE:
        from toolchain.cli.tune import play_tune

        play_tune(given, options)
        return
    if options.sound.song is not None:
        raise click.UsageError(f"--song picks a song of a SID tune; {given.shown} is {given.kind.phrase}")
    program = load_program(given, options.errata, options.sys_address)
    _check_options(program, options)
    basic_lines = _check_break_lines(program, options)
    monitored = basic_lines is not None or _check_monitor_options(program, options)
    if options.outputs.dump_python and program.is_basic:
        from toolchain.basic.runner import compile_program

        hooks = bool(options.monitoring.break_lines)
        click.echo(compile_program(program.prg.data, line_hooks=hooks)[1].source, nl=False)
        return
    from toolchain.c64.machine import C64

    machine = C64(roms=options.machine.find_roms())
    disk = _attach_disk(machine, options, program)
    if options.machine.printer_path is not None:
        from toolchain.c64.drive import Printer

        machine.bus.attach(Printer(machine.printer))
    session = Session(program, machine=machine, boot=options.machine.boot)
    machine.stop_on_brk = options.machine.stop_on_brk
    run = _Run(session, options, basic_lines, monitored)
    result, summary = run.basic() if program.is_basic else run.machine_code()
    run.finish(result, summary)
    if disk is not None:
        _detach_disk(disk, options.machine.write_disk, result)
    if options.machine.printer_path is not None:
        write_atomic(options.machine.printer_path, result.printer)
    if run.silent:  # the live screen could not play the sound: why, once it is gone
        click.echo(f"c64tc: {run.silent}", err=True)
    sys.exit(result.exit_status)


class _Run:
    """A program's run in its session as the options ask: the dialogue (typed input, the
    live screen, a terminal's lines or a pipe's), pictures and sound around the run,
    and what is printed when it ends."""

    def __init__(self, session: Session, options: RunOptions, basic_lines: list[int] | None,
                 monitored: bool) -> None:
        from toolchain.c64.machine import UntypableText
        from toolchain.c64.run import Keyboard
        from toolchain.c64.terminal import LineTerminal, can_show_live_screen

        self.session, self.options = session, options
        self.basic_lines, self.monitored = basic_lines, monitored
        machine, program, dialogue = session.machine, session.program, options.dialogue
        stdin_is_program = STDIO in (options.path, *options.errata)
        typed_by_hand = dialogue.input_text is None and dialogue.input_file is None and not stdin_is_program
        interactive = typed_by_hand and sys.stdin is not None and sys.stdin.isatty()
        input_text = dialogue.input_text if dialogue.input_file is None else read_text(dialogue.input_file)
        # BASIC in ROM runs the program after --boot with the ROMs: 6502 code, counted in cycles
        self.compiled_basic = program.is_basic and not (options.machine.boot and machine.roms is not None)
        # the live screen, unless the monitor or a trace would write over it
        shows_live = (interactive and can_show_live_screen(sys.stdin, sys.stdout) and not monitored
                      and not (options.outputs.trace and sys.stderr.isatty()))
        self.live = _live_play(session, options.live, self.compiled_basic) if shows_live else None
        self.terminal = LineTerminal(machine) if interactive and self.live is None else None
        # the progress line, unless something else writes to the terminal while the program runs
        self.progress = RunProgress(session, self.compiled_basic, sys.stderr.isatty() and self.live is None
                                    and not monitored and not options.outputs.trace
                                    and (self.terminal is None or not sys.stdout.isatty()))
        line_source: Callable[[], str | None] | None = self.progress.before(self.terminal)
        monitoring = options.monitoring
        if typed_by_hand and not interactive and sys.stdin is not None and not (
                monitored and monitor_reads_stdin(monitoring)
                or basic_lines is not None and monitoring.monitor_commands == STDIO):
            line_source = typed_lines_from(sys.stdin)  # a pipe: its lines are typed
        try:
            self.keyboard = self.live.keyboard if self.live is not None else Keyboard(input_text, line_source)
        except UntypableText as exc:
            raise UserError.single(str(dialogue.input_file or "--input"), str(exc)) from None
        self._prepare_run()

    def _prepare_run(self) -> None:
        """The pictures, the sound and the live screen's ticks around the session's run."""
        session, options, live = self.session, self.options, self.live
        outputs = options.outputs
        self.pictures = None
        if outputs.screenshot is not None or outputs.film_path is not None:
            # however the run ends, no frame is left without the final picture
            self.pictures = Pictures(session.machine, outputs, options.machine.roms_dir)
            click.get_current_context().call_on_close(self.pictures.discard)
        every = ((outputs.screenshot_every, self.pictures.frame)
                 if self.pictures is not None and outputs.screenshot_every else None)
        statements = _statements_run(session)
        if live is not None and self.compiled_basic:
            every = _together(every, live.statement_tick(), statements)
        self.run = _stopped_by_ctrl_c(session.run, session.machine, self.terminal, self.progress) \
            if live is None \
            else _on_the_live_screen(live, session.run)
        self.sound, self.silent = _run_sound(session, live, options.sound)
        if self.sound is not None:
            self.run = _finishing_sound(self.run, self.sound, options.sound.audio_path)
            if self.sound.playback is not None and self.compiled_basic:  # BASIC's statements are the ticks
                every = _together(every, (SOUND_STATEMENTS, self.sound.pump), statements)
        self.every = every

    def basic(self) -> tuple[RunResult, str]:
        """Run the BASIC program; how it ended, and the summary to say."""
        program, limits = self.session.program, self.options.machine
        lines = self.basic_lines
        basic_monitor = (None if lines is None else
                         break_at_lines(self.session, lines, self.options.monitoring, self.terminal))
        with self.progress:
            result = self.run(self.keyboard, limits.max_cycles, limits.max_statements,
                              progress=self.progress.basic, every=self.every)
        if basic_monitor is not None and basic_monitor.quit_line is not None:
            result.message = f"quit in the monitor at line {basic_monitor.quit_line}"
        if not self.compiled_basic:  # BASIC in ROM ran it: 6502 cycles, no statement groups
            summary = f"{result.message}: {result.cycles:,} cycles ({result.seconds:.2f} s on a PAL C64)"
        else:
            summary = (f"{result.message}: {counted(result.statements, 'statement group')} in "
                       f"{result.wall_seconds:.2f} s, {counted(result.cycles, 'cycle')} "
                       f"({pal_time(result.seconds)} on a PAL C64)")
        typed = program.where_typed(result.line) if result.stop in (Stop.ERROR, Stop.ROM_CALL) else None
        if typed is not None:  # where to fix it, for the editor
            summary = f"{typed.path}:{typed.source_line}:1: error: {summary}"
        elif result.stop is Stop.ROM_CALL:  # a user's error, said in the place form
            summary = f"{program.name}: error: {summary}"
        return result, summary

    def machine_code(self) -> tuple[RunResult, str]:
        """Run the machine code (under the monitor with --monitor); how it ended, and the
        summary to say."""
        session, max_cycles = self.session, self.options.machine.max_cycles
        if self.monitored:
            result = run_monitor(session, self.keyboard, max_cycles, self.options.monitoring, self.terminal)
        else:
            tracer = _tracer(session.machine) if self.options.outputs.trace else None
            with self.progress:
                result = self.run(self.keyboard, max_cycles, trace=tracer, every=self.every)
        session.ready_after_return(result)  # BASIC's READY. after the SYS, as on the C64's screen
        summary = (f"{result.message}: {counted(result.instructions, 'instruction')}, "
                   f"{counted(result.cycles, 'cycle')} ({result.seconds:.2f} s on a PAL C64)")
        if result.stop is Stop.ROM_CALL:  # a user's error, said in the place form
            summary = f"{session.program.name}: error: {summary}"
        return result, summary

    def finish(self, result: RunResult, summary: str) -> None:
        """The sound and the pictures written, the screen printed as asked, the summary said."""
        from toolchain.c64.terminal import final_screen_text

        machine, outputs, asked = self.session.machine, self.options.outputs, self.options.sound
        if self.sound is not None:
            seconds = self.sound.finish(asked.audio_path)
            say_recorded(asked.audio_path, seconds, asked.sid_model, asked.sample_rate)
        if self.pictures is not None:
            self.pictures.final(result.stop)
        if outputs.dump_python:
            click.echo(machine.cpu.translated_source(), nl=False)
        elif outputs.screen:
            click.echo(machine.screen.text(), nl=False)
        elif outputs.raw:
            write_stdout(bytes(machine.output_log), "PETSCII output")
        elif self.live is not None and not outputs.transcript:
            click.echo(final_screen_text(machine), nl=False)  # the live screen is gone: what it showed last
        elif self.terminal is None:
            click.echo(machine.screen.transcript(), nl=False)
        else:
            self.terminal.flush()  # what the program printed after the last answer
            click.echo()
        if machine.roms is not None:
            summary += f" (the C64's ROMs, from {machine.roms.origin})"
        click.echo(summary, err=True)


def _statements_run(session: Session) -> Callable[[], int]:
    """The statement groups the session's compiled BASIC program has run so far."""
    return lambda: session.runtime.statements if session.runtime is not None else 0


def _tracer(machine: Any) -> Callable[[Any], None]:
    """--trace: each instruction before it runs, on standard error, as the monitor shows a
    step (toolchain.monitor.display.trace_line: VICE's format), cycles since the start."""
    from toolchain.monitor.display import trace_line

    start = machine.cpu.cycles
    memory = machine.memory

    def trace(cpu: Any) -> None:
        click.echo(trace_line(cpu, memory.__getitem__, cpu.cycles - start), err=True)

    return trace


def _on_the_live_screen(live: Any, run: Callable[..., Any]) -> Callable[..., Any]:
    """``run`` with the terminal showing the live screen, given back when the run ends
    however it ends.  Ctrl-C ends c64tc with status 130, the screen as it was left
    printed as text."""
    from toolchain.c64.terminal import final_screen_text

    def run_live(*arguments: Any, **options: Any) -> Any:
        try:
            with live:
                return run(*arguments, **options)
        except KeyboardInterrupt:
            live.show_warnings()
            click.echo(final_screen_text(live.machine), nl=False)
            click.echo(f"stopped by Ctrl-C: {live.work()}", err=True)
            sys.exit(130)
        finally:
            live.show_warnings()

    return run_live


def _stopped_by_ctrl_c(run: Callable[..., Any], machine: Any, terminal: Any,
                       progress: RunProgress) -> Callable[..., Any]:
    """``run``, where Ctrl-C ends c64tc with status 130 (as a shell counts SIGINT) after
    printing what the program had printed so far (the transcript, as a finished run
    prints it) and how far it got, so a long run stopped by hand still shows where it
    was."""

    def run_until_ctrl_c(*arguments: Any, **options: Any) -> Any:
        try:
            return run(*arguments, **options)
        except KeyboardInterrupt:
            progress.clear()
            if terminal is None:
                click.echo(machine.screen.transcript(), nl=False)
            else:
                terminal.flush()
                click.echo()
            click.echo(f"stopped by Ctrl-C at {progress.where()}", err=True)
            sys.exit(130)

    return run_until_ctrl_c


SOUND_STATEMENTS = 8  # the live sound is rendered every so many BASIC statement groups (8 ms)


def _run_sound(session: Session, live: Any, options: SoundOptions) -> tuple[Any, str]:
    """The run's sound, when one is asked for: --audio records it, the live screen plays
    it (unless --mute); and why the live screen is silent ('' when it is not)."""
    from toolchain.sound import SoundUnavailable, open_playback
    from toolchain.sound.output import RunSound

    audio_path, sample_rate = options.audio_path, options.sample_rate
    play = live is not None and not options.mute
    if audio_path is None and not play:
        return None, ""  # no sound asked: the SID only stores its registers
    playback, silent = open_playback(sample_rate) if play else (None, "")
    if audio_path is None and playback is None:
        return None, silent
    try:
        sound = RunSound(session.machine, session.clock, options.sid_model, sample_rate,
                         record=audio_path is not None, playback=playback)
    except SoundUnavailable as exc:
        if audio_path is not None:
            raise UserError.single(audio_path, str(exc)) from None
        return None, f"no sound: {exc}"
    return sound, silent


def _finishing_sound(run: Callable[..., Any], sound: Any, audio_path: str | None) -> Callable[..., Any]:
    """``run``, where a run stopped by Ctrl-C (or an error) still writes the sound so far."""

    def run_with_sound(*arguments: Any, **options: Any) -> Any:
        try:
            return run(*arguments, **options)
        except BaseException:
            sound.finish(audio_path, interrupted=True)
            raise

    return run_with_sound


def _live_play(session: Session, options: LiveOptions, compiled_basic: bool) -> Any:
    """The live screen for ``session``'s program: its status line counts statement
    groups (BASIC) or cycles (machine code), and its pace follows the C64's clock."""
    from toolchain.c64.terminal import LivePlay

    program, machine = session.program, session.machine
    name = Path(program.name).name
    ascii_glyphs, warp = options.ascii_glyphs, options.warp
    if compiled_basic:
        statements = _statements_run(session)

        def basic_cycles() -> int:  # the runner's clock (the cost model's, toolchain/basic/runner/costs.py)
            runtime = session.runtime
            return machine.cpu.cycles if runtime is None else runtime.now()

        return LivePlay(machine, name, basic=True, work=lambda: counted(statements(), "statement group"),
                        machine_cycles=basic_cycles, ascii=ascii_glyphs, warp=warp)
    return LivePlay(machine, name, basic=False, work=lambda: f"{machine.cpu.cycles:,} cycles",
                    machine_cycles=lambda: machine.cpu.cycles, ascii=ascii_glyphs, warp=warp)


Every = tuple[int, Callable[[], None]]


def _together(first: Every | None, second: Every | None, done: Callable[[], int]) -> Every | None:
    """Two callbacks, each every so many statement groups, as the one Session.run
    takes: called every greatest common divisor of the two, each callback when
    ``done()`` (the groups run) has reached its turn, so each is called where it
    would be alone."""
    if first is None or second is None:
        return first or second
    schedules = (first, second)
    due = [count for count, _ in schedules]

    def call() -> None:
        now = done()
        for index, (count, callback) in enumerate(schedules):
            if now >= due[index]:
                due[index] = now + count
                callback()

    return math.gcd(first[0], second[0]), call


def _check_monitor_options(program: Program, options: RunOptions) -> bool:
    """Whether the run is under the monitor; options that do not go with it say so."""
    commands = options.monitoring.monitor_commands
    monitored = options.monitoring.monitor or commands is not None
    if options.monitoring.label_files and not monitored:
        raise click.UsageError("--labels names addresses for the monitor: give --monitor or "
                               "--monitor-commands")
    if not monitored:
        return False
    if program.is_basic:
        raise click.UsageError(f"the monitor follows machine code; {program.name} is a BASIC program (give "
                               "--sys ADDRESS for machine code it holds, or --break-line LINE to stop the "
                               "program at a line)")
    outputs = options.outputs
    for option, given in (("--trace", outputs.trace),
                          ("--screenshot-every", outputs.screenshot_every is not None)):
        if given:
            raise click.UsageError(f"{option} cannot go with the monitor (its z and n show each instruction)")
    _check_stdin_once(commands, options)
    return True


def _check_stdin_once(commands: str | None, options: RunOptions) -> None:
    if commands == STDIO and STDIO in options.inputs():
        raise click.UsageError("standard input ('-') can be read only once")


def _check_break_lines(program: Program, options: RunOptions) -> list[int] | None:
    """With --break-line: the program's line numbers (every break line is one of them);
    options that do not go with it say so.  None without --break-line."""
    monitoring = options.monitoring
    commands, break_lines = monitoring.monitor_commands, monitoring.break_lines
    if not break_lines:
        if program.is_basic and commands is not None and not monitoring.monitor:
            raise click.UsageError("--monitor-commands with a BASIC program gives the commands for its break "
                                   "lines: give --break-line LINE")
        return None
    if not program.is_basic:
        raise click.UsageError(f"--break-line stops a BASIC program at a line; {program.name} runs as "
                               "machine code (--monitor stops it at an address: break ADDRESS)")
    if monitoring.monitor:
        raise click.UsageError("--monitor follows machine code; with --break-line the BASIC program stops at "
                               "its lines by itself")
    if monitoring.label_files:
        raise click.UsageError("--labels names addresses for the machine-code monitor, not BASIC lines")
    if options.machine.boot:
        raise click.UsageError("--break-line stops c64tc's BASIC runner; with --boot the program runs as "
                               "the C64 starts it (leave out --boot)")
    _check_stdin_once(commands, options)
    from toolchain.basic.detokenizer import split_program
    from toolchain.c64.memory import BASIC_PROGRAM_START
    from toolchain.monitor.basic import lines_error

    lines = [line.number for line in split_program(program.prg.data, BASIC_PROGRAM_START, program.name)]
    for line in break_lines:
        problem = lines_error(line, lines)
        if problem is not None:
            raise click.UsageError(f"--break-line {line}: {problem}")
    return lines


def _attach_disk(machine: Any, options: RunOptions, program: Program) -> Any:
    """The disk in drive 8: --disk IMAGE, or the image PROGRAM (IMAGE:NAME) comes from,
    which the program is then LOADed from first, as VICE's autostart does; with
    --no-drive, no drive at all."""
    from toolchain.c64.drive import AttachedImage
    from toolchain.c64.kernal import load_before_run
    from toolchain.disk import parse_image_reference
    from toolchain.disk.tape import is_tape

    disk_path, write_disk = options.machine.disk_path, options.machine.write_disk
    reference = parse_image_reference(options.path)
    if reference is not None and is_tape(reference.image):
        reference = None  # a program from a T64 tape: loaded as a file, no disk in the drive
    if reference is not None and disk_path is not None and \
            Path(disk_path).resolve() != reference.image.resolve():
        raise click.UsageError(f"PROGRAM comes from {reference.image}, --disk puts {disk_path} in drive 8: "
                               "the drive holds one disk (leave --disk out, or give the program as a file)")
    image = Path(disk_path) if disk_path is not None else reference.image if reference is not None else None
    if options.machine.no_drive:
        if image is not None:
            given = "--disk" if disk_path is not None else "PROGRAM given as IMAGE:NAME"
            raise click.UsageError(f"--no-drive takes drive 8 away: {given} needs it to hold the disk")
        if write_disk:
            raise click.UsageError("--write-disk writes the disk in drive 8 back: --no-drive leaves no drive")
        machine.bus.detach(8)
        return None
    if image is None:
        if write_disk:
            raise click.UsageError("--write-disk writes the disk in drive 8 back: give --disk IMAGE (or "
                                   "PROGRAM as IMAGE:NAME)")
        return None
    disk = AttachedImage(image)
    machine.bus.attach(disk.drive)
    if reference is not None:
        load_before_run(machine, reference.name.upper().encode("latin-1"), 0 if program.is_basic else 1)
    return disk


# Runs that c64tc stopped where a C64 would have gone on: the disk is not what the
# program would leave on it, so --write-disk keeps the image file as it was
STOPPED_BY_C64TC = (Stop.ROM_CALL, Stop.STATEMENT_LIMIT, Stop.CYCLE_LIMIT)


def _detach_disk(disk: Any, write_disk: bool, result: Any) -> None:
    """What became of the disk: written back with --write-disk (unless c64tc stopped the
    run: a feature it does not model, a limit), else said to be changed."""
    for name in disk.open_files():
        click.echo(f"{disk.path}: warning: {name} is still open for writing: a 1541 leaves it unclosed "
                   "(listed with *), its last block not written", err=True)
    if not disk.changed:
        return
    if write_disk and result.stop in STOPPED_BY_C64TC:
        click.echo(f"{disk.path}: not written back: c64tc stopped the run where a C64 would have gone on "
                   f"({result.message}); the image file is unchanged", err=True)
        return
    if write_disk:
        disk.write_back()
        click.echo(f"{disk.path}: written back (the disk as the program left it)", err=True)
    else:
        click.echo(f"{disk.path}: the program changed the disk in memory only (--write-disk writes it "
                   "back)", err=True)


BLINK_SWITCH, BLINK_COUNT, BLINK_ON = 0xCC, 0xCD, 0xCF  # BLNSW, BLNCT, BLNON: see toolchain/c64/editor.py
# the stops after which the C64's editor waits for a typed line, its cursor blinking
# --screenshot-every writes at most so many numbered pictures (a picture every cycle of
# an endless program filled the folder; its pictures wait as temporary files until the run
# ends, so they are bounded too)
MAX_NUMBERED_PICTURES = 10_000
WAITS_FOR_A_LINE = frozenset({Stop.END, Stop.RETURNED, Stop.READY, Stop.BREAK, Stop.ERROR,
                              Stop.INPUT_EXHAUSTED})


@contextlib.contextmanager
def _cursor_flashed(machine: Any) -> Iterator[None]:
    """The machine's memory as the IRQ's next cursor flash leaves it ($EA34-$EA60, the
    editor's ``blink``: the character under the cursor reversed in the cursor colour),
    for a picture; put back afterwards (the run's screen text stays the program's)."""
    memory = machine.memory
    saved = bytes(memory)
    try:
        memory[BLINK_SWITCH], memory[BLINK_COUNT] = 0, 1  # the editor waits; this jiffy blinks
        machine.editor.blink()
        yield
    finally:
        memory[:] = saved


class Pictures:
    """--screenshot: the final frame as a PNG, with --screenshot-every numbered frames
    beside it (NAME-0001.png, ...); --film: every frame, as an animated GIF or APNG.
    All of them or none: a FileSet, where the frames wait as temporary files until the
    final picture is written with them.  Drawn by the VIC-II renderer from the chip's
    write log (nothing is logged or drawn for a run without pictures)."""

    def __init__(self, machine: Any, options: OutputOptions, roms_dir: str | None) -> None:
        from toolchain.c64.roms import find_chargen
        from toolchain.c64.video import FrameRecorder
        from toolchain.display.picture_files import picture_format
        from toolchain.display.png import FILM_FORMATS, Film, character_rom_of
        from toolchain.fileio import FileSet

        path, numbered, film = options.screenshot, bool(options.screenshot_every), options.film_path
        if film is not None and Path(film).suffix.lower() not in FILM_FORMATS:
            raise click.UsageError(f"--film {film}: a film is a .gif or .png (APNG) file")
        self.machine = machine
        self.path = Path(path) if path is not None else None
        # a picture that cannot be written is an error before the run
        if self.path is not None:
            for name in (self.path, self._numbered(1)) if numbered else (self.path,):
                output_target(name)
            picture_format(self.path)
        if film is not None:
            output_target(film)
        if machine.roms is not None:
            chargen = machine.roms.chargen
        else:
            found = find_chargen(Path(roms_dir) if roms_dir else None)
            chargen = found[0] if found is not None else None
        self.film_path = film
        self.film = Film() if film is not None else None
        self.recorder = FrameRecorder(machine, character_rom_of(chargen),
                                      on_frame=self.film.add if self.film is not None else None)
        self.frames = 0
        self.files = FileSet()

    def _numbered(self, frame: int) -> Path:
        assert self.path is not None
        return self.path.with_name(f"{self.path.stem}-{frame:04d}{self.path.suffix or '.png'}")

    def _stage(self, path: Path, cursor_shown: bool = False) -> None:
        from toolchain.display.picture_files import picture_file
        from toolchain.display.png import frame_png

        if cursor_shown:
            with _cursor_flashed(self.machine):
                picture = self.recorder.picture()
        else:
            picture = self.recorder.picture()
        self.files.stage(path, picture_file(path, frame_png(picture)))

    def frame(self) -> None:
        if self.frames >= MAX_NUMBERED_PICTURES:
            if self.frames == MAX_NUMBERED_PICTURES:  # (said once)
                print_diagnostics([Diagnostic(
                    str(self.path), 0, 0, f"--screenshot-every: {MAX_NUMBERED_PICTURES:,} pictures written; "
                    "the run goes on without more", "warning")])
                self.frames += 1
            return
        self.frames += 1
        self._stage(self._numbered(self.frames))

    def final(self, stop: Stop | None = None) -> None:
        """The final picture (and the film).  A run that ends with the editor waiting
        for a line (READY. after the program, BREAK, an error, INPUT with the typed input
        used up) shows the cursor as VICE's screenshot does then: printing READY. left
        the blink countdown BLNCT ($CD) at 2 ($EA13), so the IRQ shows the cursor
        reversed two jiffies later and keeps it 20 (measured: tests/data/cursor-blink)."""
        from toolchain.display.png import FILM_FORMATS, MAX_FILM_FRAMES

        if self.path is not None:
            self._stage(self.path, stop in WAITS_FOR_A_LINE and self._cursor_can_blink())
        if self.film is not None and self.film_path is not None:
            if not len(self.film):  # the run ended within its first frame: the picture so far
                self.film.add(self.recorder.picture())
            kind = FILM_FORMATS[Path(self.film_path).suffix.lower()]
            self.files.stage(self.film_path, self.film.encode(kind))
            if self.film.full:
                print_diagnostics([Diagnostic(
                    str(self.film_path), 0, 0, f"the film ends after its first {MAX_FILM_FRAMES:,} "
                    "different frames (about a minute of a picture that changes every frame); the run went "
                    "on without it", "warning")])
        self.files.commit()
        self.recorder.detach()

    def _cursor_can_blink(self) -> bool:
        """The editor's cursor is on the screen the VIC-II shows and not already
        reversed by the blink (BLNON, $CF)."""
        from toolchain.c64.memory import SCREEN_PAGE, visible_screen

        memory = self.machine.memory
        return memory[SCREEN_PAGE] << 8 == visible_screen(memory) and not memory[BLINK_ON] & 1

    def discard(self) -> None:
        """The frames of a run that did not get to its final picture: removed."""
        self.files.discard()
        self.recorder.detach()


class _VerifierName(click.Choice):
    """The registered verifiers, looked up when the command runs (the registry imports
    the machine; ``c64tc --help`` should not pay for that)."""

    def __init__(self) -> None:
        super().__init__([])

    def _names(self) -> list[str]:
        from toolchain.verify import VERIFIERS

        return sorted(VERIFIERS)

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        self.choices = tuple(self._names())
        return super().convert(value, param, ctx)

    def get_missing_message(self, param: Any, ctx: Any = None) -> str:
        self.choices = tuple(self._names())  # `c64tc verify` alone said "Choose from:" and no name
        return super().get_missing_message(param, ctx)

    def get_metavar(self, param: Any, ctx: Any = None) -> str:
        return "[" + "|".join(self._names()) + "]"


@click.command("verify")
@click.argument("name", type=_VerifierName())
@click.option("--prg", "prg_file", help="The built program: a PRG or IMAGE:NAME (default: the verifier's in "
              "build/, e.g. build/superhirn2.prg).")
@click.option("--sample", type=COUNT, help="Play this many secrets (chosen at random, fixed seed) "
              "instead of all.")
@click.option("--jobs", "-j", type=COUNT, default=os.cpu_count() or 1, show_default="the number of cores",
              help="Play the games in this many processes (the same games, in the same order).")
@reports_user_errors
def verify_command(name: str, prg_file: str | None, sample: int | None, jobs: int) -> None:
    """Play every game of a built program against an independent Python model.

    superhirn: all 1296 secrets of Superhirn II, each answered correctly by an
    automatic player; every game must agree with the model of the article's algorithm.

    superhirn3: the same for Superhirn III against the minimax model.

    strategies: the Python models of Superhirn II, Superhirn III (minimax over the
    consistent codes) and Knuth's minimax compared over all 1296 codes.
    """
    from toolchain.inputs import PRG_KINDS, read_program
    from toolchain.verify import VERIFIERS, NotTheProgram, guess_statistics, verify_program
    from toolchain.verify.superhirn import all_secrets, secrets_sample

    verifier = VERIFIERS[name]
    if verifier.default_prg is None:
        click.echo(verifier.run(), nl=False)
        return
    if sample is not None and sample > len(all_secrets()):
        raise click.BadParameter(f"{sample} is more than the {len(all_secrets())} secrets there are (without "
                                 "--sample every one is played)", param_hint="'--sample'")
    if prg_file is None:
        prg_file = str(Path("build") / verifier.default_prg)
        if not Path(prg_file).exists():
            raise not_built(prg_file, "--prg FILE (the built program)")
    prg = read_program(prg_file, "verify", "a PRG", PRG_KINDS).prg
    progress = ProgressBar("games")
    try:
        verification = verify_program(name, prg, secrets_sample(sample) if sample else None, progress, jobs)
    except NotTheProgram as exc:
        raise UserError.single(prg_file, str(exc)) from None
    finally:
        progress.close()
    click.echo(guess_statistics(verification), nl=False)
    sys.exit(0 if verification.passed else 1)
