"""The monitors' consoles, shared by ``c64tc run`` and ``c64tc monitor``: the
machine-code monitor in the style of VICE's (see :mod:`toolchain.monitor`) and the BASIC
runner's break lines (:mod:`toolchain.monitor.basic`), each fed by a script of commands
(a file, '-' standard input), then, on a terminal, by typed ones."""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable
from types import FrameType
from typing import TYPE_CHECKING, Any

import click

from toolchain.fileio import STDIO, read_text

if TYPE_CHECKING:
    from toolchain.c64.machine import Keyboard
    from toolchain.c64.outcome import RunResult
    from toolchain.c64.run import Session
    from toolchain.c64.terminal import LineTerminal
    from toolchain.cli.run_options import MonitorOptions
    from toolchain.monitor.basic import BasicMonitor
    from toolchain.monitor.session import Monitor


def monitor_reads_stdin(options: MonitorOptions) -> bool:
    """Whether the monitor's commands come from standard input (then the program's typed
    input cannot): '-', or --monitor without a terminal."""
    commands = options.monitor_commands
    return commands == STDIO or (options.monitor and commands is None and not _is_terminal())


def _is_terminal() -> bool:
    return sys.stdin is not None and sys.stdin.isatty()


def _echo(text: str) -> None:
    click.echo(text, nl=False)


def run_monitor(session: Session, keyboard: Keyboard, max_cycles: int, options: MonitorOptions,
                terminal: LineTerminal | None = None) -> RunResult:
    """Run the session's machine code under the monitor, opened before its first
    instruction: the commands of --monitor-commands (a file, '-' standard input), then, on a
    terminal, typed ones.  How the run ended (a ``q`` ends it where it is).  With the
    program's ``terminal`` (interactive play), what it printed is shown whenever the
    monitor takes over."""
    from toolchain.monitor.labels import Labels
    from toolchain.monitor.script import parse_script, run_script
    from toolchain.monitor.session import Monitor

    labels = Labels()
    commands = options.monitor_commands
    for path in options.label_files:
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
    show_output = output_shower(terminal) if terminal is not None and interactive else None
    monitor = Monitor(machine, labels, _echo, max_cycles, show_output)
    _echo(monitor.opening())
    going_on = True
    if commands is not None:
        with _interruptible(monitor, interactive):
            going_on = run_script(monitor, commands, script, _echo)
    if going_on and interactive:
        _interactive(monitor)
    return monitor.finish()


def output_shower(terminal: LineTerminal) -> Callable[[], None]:
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


def break_at_lines(session: Session, lines: list[int], options: MonitorOptions,
                   terminal: LineTerminal | None) -> BasicMonitor:
    """The session's BASIC program compiled with line hooks, stopping at --break-line's
    lines (``lines``: the program's): the commands of --monitor-commands (a file, '-'
    standard input), then, on a terminal, typed ones; with none left, the program runs
    to its end without stopping."""
    from toolchain.monitor.basic import BasicMonitor, BreakRuntime, CommandError, parse_command, parse_script

    commands = options.monitor_commands
    script = parse_script(commands, read_text(commands), lines) if commands is not None else []
    interactive = _is_terminal() and commands != STDIO
    position = 0

    def next_command(prompt: str) -> Any:
        nonlocal position
        if position < len(script):
            text, command = script[position]
            position += 1
            click.echo(prompt + text)  # echoed as if typed, so that the output reads as a session
            return text, command
        while interactive:
            try:
                typed = input(prompt)
            except EOFError:
                click.echo()
                return None
            except KeyboardInterrupt:
                click.echo()
                continue
            try:
                typed_command = parse_command(typed, lines)
            except CommandError as exc:
                click.echo(f"error: {exc.message}", err=True)
                continue
            if typed_command is not None:
                return typed, typed_command
        return None

    show_output = output_shower(terminal) if terminal is not None and interactive else None
    basic_monitor = BasicMonitor(lines, options.break_lines, next_command, _echo, show_output)
    session.runtime = BreakRuntime(session.program.prg.data, session.machine, basic_monitor)
    if interactive:  # Ctrl-C stops the program at the next line start
        signal.signal(signal.SIGINT, lambda number, frame: basic_monitor.interrupt())
    return basic_monitor
