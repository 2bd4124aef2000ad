"""Monitor commands from a file (``--monitor-commands``, like VICE's ``-moncommands``):
read and checked before anything runs, and carried out line by line, each echoed
after the prompt as if typed, so that the output reads as a session.

Every line that cannot be read, and every label a command names that is not known
at that point (from ``--labels``, or an earlier ``al`` or ``ll``), is reported as
``FILE:LINE:COL: error: ...`` and nothing runs.  A command that fails while running
(an address out of range, a label file that cannot be read) ends the session with
such an error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from toolchain.diagnostics import Diagnostic, UserError
from toolchain.monitor.assemble import known_mnemonic
from toolchain.monitor.labels import Labels
from toolchain.monitor.session import CommandError, Monitor
from toolchain.monitor.syntax import (
    Command,
    Expression,
    Instruction,
    MonitorSyntaxError,
    enters_assemble_mode,
    parse_assembly_line,
    parse_line,
)

__all__ = ["ScriptLine", "parse_script", "run_script"]


@dataclass(frozen=True)
class ScriptLine:
    number: int  # 1-based
    text: str
    commands: list[Command]


def _expressions(value: object) -> Iterable[Expression]:
    if isinstance(value, Expression):
        yield value
    elif isinstance(value, Instruction):
        if value.operand is not None:
            yield value.operand
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _expressions(item)


def parse_script(path: str, text: str, labels: Labels) -> list[ScriptLine]:
    """The commands of a script, or a UserError with every line that is wrong."""
    problems: list[Diagnostic] = []
    lines: list[ScriptLine] = []
    known = Labels()  # the labels as the script goes on
    for name, address in labels.entries():
        known.add(name, address)
    assembling = False  # after 'a ADDRESS [INSTRUCTION]': lines of instructions up to an empty one
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            commands = [parse_assembly_line(line)] if assembling else parse_line(line)
        except MonitorSyntaxError as exc:
            problems.append(Diagnostic(path, number, exc.column, exc.message + (
                " (in assemble mode, which an empty line ends)" if assembling else ""), source_line=line))
            continue
        if commands:
            assembling = (assembling and commands[-1].name != "assemble_end"
                          or enters_assemble_mode(commands[-1]))
        for command in commands:
            for instruction in command.args.get("instructions", []):  # type: ignore[attr-defined]
                if not known_mnemonic(instruction.mnemonic):
                    problems.append(Diagnostic(path, number, instruction.column,
                                               f"'{instruction.mnemonic}' is not a 6502 instruction "
                                               "(VICE's names: LDA, ISB, NOOP, ...)", source_line=line))
            for expression in _expressions(list(command.args.values())):
                for label in expression.labels():
                    if known.address(label.name) is None:
                        problems.append(Diagnostic(path, number, label.column, f"unknown label {label.name} "
                                                   "(labels come from --labels, 'al' and 'll')",
                                                   source_line=line))
            if command.name == "add_label":
                known.add(str(command.args["label"]), 0)
            elif command.name == "load_labels":
                try:
                    known.load(str(command.args["file"]))
                except UserError as exc:  # about the whole file: said where the script names it
                    problems.extend(d if d.line else Diagnostic(path, number, command.column,
                                                                f"{d.path}: {d.message}", source_line=line)
                                    for d in exc.diagnostics)
        if commands:
            lines.append(ScriptLine(number, line, commands))
    if problems:
        raise UserError(problems)
    return lines


def run_script(monitor: Monitor, path: str, lines: list[ScriptLine], echo: Callable[[str], None]) -> bool:
    """Carry out the script's lines, each echoed after the prompt; False when a command
    ended the session (q, or a command that runs the program after it has ended)."""
    for line in lines:
        echo(monitor.prompt() + line.text.strip() + "\n")
        for command in line.commands:
            try:
                going_on = monitor.execute(command)
            except CommandError as exc:
                column = exc.column or command.column
                raise UserError.single(path, exc.message, line.number, column,
                                       source_line=line.text) from None
            if not going_on:
                return False
    return True
