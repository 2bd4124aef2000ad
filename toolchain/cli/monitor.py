"""``c64tc monitor`` and ``c64tc run --monitor``: machine code under a monitor in the
style of VICE's (see :mod:`toolchain.monitor`)."""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable
from types import FrameType
from typing import TYPE_CHECKING, Any

import click

from toolchain.cli.common import ADDRESS, COUNT, reports_user_errors
from toolchain.fileio import STDIO, read_text

if TYPE_CHECKING:
    from toolchain.c64.machine import Keyboard
    from toolchain.c64.outcome import RunResult
    from toolchain.c64.run import Session
    from toolchain.c64.terminal import LineTerminal
    from toolchain.monitor.session import Monitor


def monitor_reads_stdin(monitor: bool, commands: str | None) -> bool:
    """Whether the monitor's commands come from standard input (then the program's typed
    input cannot): '-', or --monitor without a terminal."""
    return commands == STDIO or (monitor and commands is None and not _is_terminal())


def _is_terminal() -> bool:
    return sys.stdin is not None and sys.stdin.isatty()


def _echo(text: str) -> None:
    click.echo(text, nl=False)


def run_monitor(session: Session, keyboard: Keyboard, max_cycles: int, commands: str | None,
                label_files: tuple[str, ...], terminal: LineTerminal | None = None) -> RunResult:
    """Run the session's machine code under the monitor, opened before its first
    instruction: the commands of ``commands`` (a file, '-' standard input), then, on a
    terminal, typed ones.  How the run ended (a ``q`` ends it where it is).  With the
    program's ``terminal`` (interactive play), what it printed is shown whenever the
    monitor takes over."""
    from toolchain.monitor.labels import Labels
    from toolchain.monitor.script import parse_script, run_script
    from toolchain.monitor.session import Monitor

    labels = Labels()
    for path in label_files:
        labels.load(path)
    if commands is None and not _is_terminal():
        commands = STDIO  # --monitor on a pipe: the pipe holds the commands
    script = parse_script(commands, read_text(commands), labels) if commands is not None else []
    program = session.program
    assert program.sys_address is not None
    machine = session.machine
    machine.keyboard = keyboard
    machine.prepare_sys(program.sys_address)
    interactive = _is_terminal() and commands != STDIO
    show_output = _output_shower(terminal) if terminal is not None and interactive else None
    monitor = Monitor(machine, labels, _echo, max_cycles, show_output)
    _echo(monitor.opening())
    going_on = True
    if commands is not None:
        with _interruptible(monitor, interactive):
            going_on = run_script(monitor, commands, script, _echo)
    if going_on and interactive:
        _interactive(monitor)
    return monitor.finish()


def _output_shower(terminal: LineTerminal) -> Callable[[], None]:
    """What the program printed since the last look, on a line of its own."""

    def show() -> None:
        log = terminal.machine.output_log
        pending = log[terminal.shown :]
        terminal.flush()
        if pending and pending[-1] not in (0x0D, 0x8D):
            click.echo()

    return show


# commands after which an empty line repeats nothing (VICE: those that leave the monitor,
# and a that opens assemble mode, where an empty line ends the mode)
_LEAVING = frozenset({"goto", "exit", "until", "return", "quit", "reset", "assemble"})


def _interactive(monitor: Monitor) -> None:
    """Commands typed at the prompt until the session ends (x after the run ended, q,
    or the end of input); a mistake is a message, and the session goes on.  An empty
    line repeats the last one (z, n, m, as in VICE), unless it left the monitor."""
    from toolchain.monitor.session import CommandError
    from toolchain.monitor.syntax import MonitorSyntaxError, parse_assembly_line, parse_line

    try:
        import readline  # noqa: F401  (line editing and history for input())
    except ImportError:  # pragma: no cover - not on every platform
        pass
    last: str | None = None
    while True:
        try:
            line = input(monitor.prompt())
        except EOFError:
            click.echo()
            return
        except KeyboardInterrupt:
            click.echo()
            continue
        assembling = monitor.assemble_at is not None
        if not line.strip() and not assembling:
            if last is None:
                continue
            line = last
        try:
            commands = [parse_assembly_line(line)] if assembling else parse_line(line)
        except MonitorSyntaxError as exc:
            if assembling:  # as in VICE, a line that is no instruction ends assemble mode
                monitor.assemble_at = None
                click.echo(f"error: {exc.message} (assemble mode ended)", err=True)
            else:
                click.echo(f"error: {exc.message}", err=True)
            continue
        last = None if any(command.name in _LEAVING for command in commands) else line
        for command in commands:
            try:
                with _interruptible(monitor, True):
                    if not monitor.execute(command):
                        return
            except CommandError as exc:
                click.echo(f"error: {exc.message}", err=True)
                break


class _interruptible:
    """Ctrl-C while the program runs stops it at its next instruction and the monitor
    takes over (a second Ctrl-C interrupts c64tc itself)."""

    def __init__(self, monitor: Monitor, active: bool) -> None:
        self.monitor = monitor
        self.active = active
        self.previous: Any = None
        self.pressed = False

    def _handler(self, number: int, frame: FrameType | None) -> None:
        if self.pressed:
            raise KeyboardInterrupt
        self.pressed = True
        self.monitor.interrupt()

    def __enter__(self) -> None:
        if self.active:
            self.previous = signal.signal(signal.SIGINT, self._handler)

    def __exit__(self, *exc: object) -> None:
        if self.active:
            signal.signal(signal.SIGINT, self.previous)


@click.command("monitor")
@click.argument("path", metavar="PROGRAM")
@click.option("--sys", "sys_address", type=ADDRESS,
              help="Start address, as SYS takes it (13312 or $3400); default: where a machine-code PRG "
                   "loads.")
@click.option("--monitor-commands", "commands", type=click.Path(dir_okay=False, allow_dash=True),
              help="Run the monitor commands in this file ('-': standard input) first, like VICE's "
                   "-moncommands; then, on a terminal, read typed ones.")
@click.option("--labels", "label_files", type=click.Path(dir_okay=False, exists=True), multiple=True,
              help="Labels for the monitor: a VICE label file (c64tc asm --vice-labels) or a symbol table "
                   "(c64tc asm --symbols).")
@click.option("--input", "input_text", help="What the user types; RETURN is '|' or a line break.")
@click.option("--input-file", type=click.Path(dir_okay=False, allow_dash=True),
              help="Read the typed input from a file; RETURN is '|' or a line break.")
@click.option("--max-cycles", type=COUNT, default=2_000_000_000, show_default=True,
              help="Stop the program after this many cycles in all (the monitor's runs together).")
@click.option("--roms", "roms_dir", type=click.Path(file_okay=False, exists=True),
              help="Run the C64's own ROMs from this folder (see c64tc run --help).")
@click.option("--no-roms", is_flag=True, help="Run on c64tc's models of the ROMs even where ROMs are found.")
@click.option("--stop-on-brk", is_flag=True, help="Stop at a BRK instead of the C64's warm start.")
@click.option("--disk", "disk_path", type=click.Path(dir_okay=False),
              help="Put this disk image in drive 8 (the monitor's device 8: s \"NAME\" 8 ..., l \"NAME\" 8); "
              "changed in memory only, unless --write-disk.")
@click.option("--write-disk", is_flag=True,
              help="When the run ends, write the disk in drive 8 back to its image.")
@click.pass_context
@reports_user_errors
def monitor_command(ctx: click.Context, path: str, sys_address: int | None, commands: str | None,
                    label_files: tuple[str, ...], input_text: str | None, input_file: str | None,
                    max_cycles: int, roms_dir: str | None, no_roms: bool, stop_on_brk: bool,
                    disk_path: str | None, write_disk: bool) -> None:
    """Run machine code under a monitor in the style of VICE's, opened before the first
    instruction: r, m, d, a, f, h, c, t, z, n, ret, g, x, q, break, watch, del, s, l, bs,
    bl, io, bank, reset, sc, help.

    Numbers in the monitor are hex ($c000 or c000; +49152 decimal); .name is a label.
    Scripted: --monitor-commands FILE runs the commands without a terminal (each echoed
    after the prompt), e.g. 'break .antwort', 'g', 'r', 'm .runde', 'x'.  At the end of
    the commands the program runs on without the monitor.  The same as c64tc run
    PROGRAM --sys ADDRESS --monitor.
    """
    from toolchain.cli.run import run_command

    if sys_address is None and path != STDIO:
        sys_address = _load_address_of_machine_code(path)
    ctx.invoke(run_command, path=path, sys_address=sys_address, input_text=input_text, input_file=input_file,
               max_cycles=max_cycles, roms_dir=roms_dir, no_roms=no_roms, stop_on_brk=stop_on_brk,
               monitor=True, monitor_commands=commands, label_files=label_files, disk_path=disk_path,
               write_disk=write_disk)


def _load_address_of_machine_code(path: str) -> int | None:
    """Where a machine-code PRG loads (the monitor starts there unless --sys says);
    None for anything else (c64tc run then says what fits)."""
    from toolchain.diagnostics import UserError
    from toolchain.inputs import RUNNABLE, Kind, read_program

    try:
        given = read_program(path, "monitor", "machine code (a PRG)", RUNNABLE)
    except UserError:
        return None
    return given.prg.load_address if given.kind is Kind.MACHINE_CODE_PRG else None
