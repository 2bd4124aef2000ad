"""A monitor for BASIC programs on c64tc's runner: ``c64tc run PROG.bas --break-line N``.

The run stops when it reaches a break line (before the line's first statement, every
time), prints ``BREAK AT LINE N`` and reads commands:

* ``vars`` every variable with its value as PRINT shows it, in the order the C64
  keeps them (simple variables and DEF FN functions in the order they were created,
  then the arrays in theirs), arrays with their dimensions; ``vars NAME ...`` one
  variable, and an array's elements;
* ``g`` / ``c`` go on, ``n`` go on to the next line and stop there, ``x`` go on
  without more stops, ``q`` quit (the run ends as RUN/STOP ends it: ``BREAK IN N``);
* ``break`` the break lines, ``break N`` / ``del N`` add / remove one (``del``: all).

How it sees the program: the runtime compiles every line with a call of
``line_reached(N)`` at its start (contract.LINE_HOOK; a run without break lines is
compiled without them and pays nothing).  The variables are the compiled module's
globals, so what ``vars`` shows is what the program holds at that point.

Which variables exist: on the C64 a variable is created when it is first assigned
(LET, FOR, INPUT, READ, GET), a function and its parameter by DEF, an array by DIM
or its first use; reading a variable that does not exist gives 0 or "" and creates
nothing (PTRGET, $B11D, returns a zero constant to the expression evaluator).  The
runner declares every name in advance, so this monitor gives each simple variable a
value of its own after RUN and CLR (an object equal to 0 or "") and, at each line
start, notes those that hold another object: they were assigned.  Several created
between two looks (line starts and RETURNs) are put in the order the line's code
names them; a variable assigned its own untouched value (``A=A``) is not seen as
created.  Checked against the real ROM's variable table (tests/test_basic_break.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from toolchain.basic import floats
from toolchain.basic.detokenizer import list_character, listed_body
from toolchain.basic.runner.contract import Declared, Ended, GosubFrame, Kind
from toolchain.basic.runner.runtime import Runtime
from toolchain.basic.runner.values import Array
from toolchain.basic.tokens import TOKEN, scan_tokens
from toolchain.c64.machine import C64
from toolchain.c64.outcome import Stop
from toolchain.diagnostics import Diagnostic, UserError

__all__ = ["BasicMonitor", "BreakRuntime", "CommandError", "MonitorCommand", "lines_error", "parse_command",
           "parse_script"]

HELP = """\
vars              every variable, as PRINT shows its value (arrays: their dimensions)
vars NAME ...     these variables (A, A%, A$, FNF); an array's elements (A or A())
g, c              go on (until a break line)
n                 go on to the next line and stop there
break             the break lines
break LINE        stop at LINE too
del LINE          stop at LINE no more (del: at no line)
x                 go on without stopping again
q                 quit: the run ends here as RUN/STOP ends it (BREAK IN LINE)
"""


class CommandError(Exception):
    """A command that cannot be read; ``column`` is where in its line (1-based)."""

    def __init__(self, message: str, column: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


@dataclass(frozen=True)
class MonitorCommand:
    name: str  # vars, go, next, break, delete, exit, quit, help
    arguments: tuple[str, ...] = ()
    line: int | None = None  # break / del: the line number


_NAMES = {"vars": "vars", "g": "go", "goto": "go", "c": "go", "n": "next", "next": "next", "break": "break",
          "bk": "break", "del": "delete", "delete": "delete", "x": "exit", "exit": "exit", "q": "quit",
          "quit": "quit", "help": "help", "?": "help"}


def lines_error(line: int, lines: list[int]) -> str | None:
    """Why ``line`` cannot be a break line (not in the program), or None."""
    if line in lines:
        return None
    what = f"{lines[0]}-{lines[-1]}" if len(lines) > 1 else str(lines[0]) if lines else "none"
    return f"line {line} is not in the program (its lines: {what})"


def parse_command(text: str, lines: list[int]) -> MonitorCommand | None:
    """One command line (None: an empty one); a mistake is a CommandError."""
    words = text.split()
    if not words:
        return None
    name = _NAMES.get(words[0].lower())
    if name is None:
        raise CommandError(f"unknown command {words[0]} (help lists them)", text.index(words[0]) + 1)
    arguments = words[1:]
    if name == "vars":
        return MonitorCommand(name, tuple(arguments))
    if name in ("break", "delete") and arguments:
        column = text.index(arguments[0]) + 1
        if len(arguments) > 1 or not arguments[0].isdigit():
            raise CommandError(f"{words[0]} takes one line number", column)
        number = int(arguments[0])
        problem = lines_error(number, lines)
        if problem is not None:
            raise CommandError(problem, column)
        return MonitorCommand(name, line=number)
    if arguments:
        raise CommandError(f"{words[0]} takes nothing after it", text.index(arguments[0]) + 1)
    return MonitorCommand(name)


def parse_script(path: str, text: str, lines: list[int]) -> list[tuple[str, MonitorCommand]]:
    """The commands of a --monitor-commands file, each with its line's text; every line
    that cannot be read is reported (FILE:LINE:COL) before anything runs."""
    problems: list[Diagnostic] = []
    commands: list[tuple[str, MonitorCommand]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            command = parse_command(line, lines)
        except CommandError as exc:
            problems.append(Diagnostic(path, number, exc.column, exc.message, source_line=line))
            continue
        if command is not None:
            commands.append((line.strip(), command))
    if problems:
        raise UserError(problems)
    return commands


# -- how values look ---------------------------------------------------------------------------------
def _character(byte: int) -> str:
    """A PETSCII byte of a string's value as LIST shows it, shifted letters and the
    quote as petcat codes, so nothing is ambiguous ("A" unshifted is A, shifted
    {SHIFT-A})."""
    return "{$22}" if byte == 0x22 else list_character(byte, shifted_as_codes=True)


def shown_string(text: str) -> str:
    """A string variable's value: its PETSCII bytes (the runner keeps them as
    characters 0-255) in quotes."""
    return '"' + "".join(_character(ord(character)) for character in text) + '"'


def shown_number(value: float) -> str:
    """A number as PRINT shows it (FOUT, floats.format_number), without PRINT's space
    before a positive number."""
    text = floats.format_number(float(value))
    return text[1:] if text.startswith(" ") else text


def shown_value(value: Any, kind: Kind) -> str:
    return shown_string(value) if kind is Kind.STRING else shown_number(value)


def _listed(body: bytes) -> str:
    """Tokenized text as LIST shows it."""
    return listed_body(body, shifted_as_codes=True)


def _definitions(body: bytes) -> dict[str, str]:
    """The DEF FN statements of a line: the function's two-letter name -> its text as
    LIST shows it after FN (``F(X)=X*2``)."""
    found: dict[str, str] = {}
    statements: list[bytes] = []
    start = 0
    for index, byte, in_code in scan_tokens(body):
        if in_code and byte == 0x3A:
            statements.append(body[start:index])
            start = index + 1
    statements.append(body[start:])
    for statement in statements:
        text = statement.lstrip(b" ")
        if text[:1] != bytes([TOKEN["DEF"]]):
            continue
        text = text[1:].lstrip(b" ")
        if text[:1] != bytes([TOKEN["FN"]]):
            continue
        listed = _listed(text[1:]).strip()
        letters = "".join(c for c in listed.split("(")[0] if c.isalnum()).upper()
        found.setdefault(letters[:2], listed)
    return found


def _basic_name(generated: str) -> tuple[str, Declared, Kind]:
    """A generated name (N_AB, IS_AB, FN_F...) -> the BASIC name, what it is, its kind."""
    prefix, letters = generated.split("_", 1)
    if prefix == "FN":
        return "FN" + letters, Declared.FUNCTION, Kind.NUMBER
    declared = Declared.ARRAY if prefix.startswith("A") else Declared.SCALAR
    kind = Kind(prefix[-1])
    return letters + {Kind.NUMBER: "", Kind.INTEGER: "%", Kind.STRING: "$"}[kind], declared, kind


_GENERATED_NAME = re.compile(r"\b(?:A?[NIS]|FN)_[A-Z][A-Z0-9]?\b")


class _UnsetInteger(int):
    """An integer variable's value until it is assigned (0, but an object of its own:
    Python keeps one 0 for all)."""


class _UnsetString(str):
    """A string variable's value until it is assigned ("", an object of its own)."""


def _unset(kind: Kind) -> Any:
    if kind is Kind.INTEGER:
        return _UnsetInteger(0)
    if kind is Kind.STRING:
        return _UnsetString("")
    return float("0")  # a new float object, not the compiled code's constant 0.0


# -- the runtime with line hooks -----------------------------------------------------------------------
class BreakRuntime(Runtime):
    """The BASIC runtime compiled with line hooks: stops at ``breaks`` (and the next
    line after ``n``) and hands over to ``monitor``; notes which variables exist."""

    line_hooks = True

    def __init__(self, program: bytes, machine: C64, monitor: BasicMonitor) -> None:
        self.monitor = monitor
        self.breaks: set[int] = set(monitor.breaks)
        self.stepping = False  # stop at the next line start
        self.detached = False  # x: no more stops
        self.created: list[str] = []  # generated names, in the order the C64 created them
        self.pending: list[tuple[str, Any]] = []  # (name, its value while it does not exist)
        self.definitions: dict[str, str] = {}  # FN_F -> "F(X)=X*2", as last defined
        self.current_line = 0  # whose code runs (since the last line start or RETURN)
        super().__init__(program, machine)
        self.name_order = self._name_order()
        monitor.runtime = self

    def _name_order(self) -> dict[int, dict[str, int]]:
        """For each BASIC line, the variables its code names, in the order it names
        them (its statements run in that order)."""
        order: dict[int, dict[str, int]] = {}
        for text, line in zip(self.module.source.splitlines(), self.module.basic_lines[:-1], strict=False):
            names = order.setdefault(line, {})
            if text.lstrip().startswith("global "):  # every function's list of them, sorted
                continue
            for name in _GENERATED_NAME.findall(text):
                if name in self.variables:
                    names.setdefault(name, len(names))
        return order

    def clear(self) -> None:
        """CLR and RUN: on the C64 every variable, function and array is gone."""
        super().clear()
        self.created = []
        self.pending = []
        self._track(self.variables)

    def _track(self, variables: Iterable[str]) -> None:
        namespace = self.namespace
        for name in variables:
            declared, kind = self.variables[name]
            if declared is Declared.SCALAR:
                namespace[name] = _unset(kind)
            self.pending.append((name, namespace[name]))  # arrays: the Undimensioned; FN: undefined

    def after_load(self) -> int:
        known = {name for name, _ in self.pending} | set(self.created)
        segment = super().after_load()
        self._track(name for name in self.variables if name not in known)
        self.name_order = self._name_order()
        return segment

    def pop_gosub(self) -> int:
        """RETURN: the variables the subroutine created are older than those the rest of
        the calling line creates."""
        if self.pending:
            self._poll()
        calls = [frame.line for frame in self.stack if isinstance(frame, GosubFrame)]
        resume = super().pop_gosub()
        self.current_line = calls[-1]
        return resume

    def _poll(self) -> None:
        """The variables assigned since the last look, in the order the text names them."""
        namespace = self.namespace
        waiting = [(name, unset) for name, unset in self.pending if namespace[name] is unset]
        if len(waiting) != len(self.pending):
            waiting_names = {name for name, _ in waiting}
            new = [name for name, _ in self.pending if name not in waiting_names]  # in the text's order
            in_line = self.name_order.get(self.current_line, {})
            new.sort(key=lambda name: in_line.get(name, len(in_line)))  # stable: the others after
            self.created.extend(new)
            self.pending = waiting

    def _create(self, name: str) -> None:
        for index, (pending, _) in enumerate(self.pending):
            if pending == name:
                del self.pending[index]
                self.created.append(name)
                return

    def define_function(self, parameter: str, body: Callable[[], float],
                        cycles: int = 0) -> Callable[[float], float]:
        """DEF: the ROM creates the function's variable, then its parameter (PTRGET for
        each, $B3B3); its text is kept for ``vars``."""
        function = super().define_function(parameter, body, cycles)
        generated_line = body.__code__.co_firstlineno
        source = self.module.source.splitlines()[generated_line - 1]
        name = source.split("=", 1)[0].strip()  # FN_F = rt.define_function(...)
        if self.pending:
            self._poll()
        self._create(name)
        self._create(parameter)
        body_line = self.module.basic_lines[generated_line - 1]
        text = next((line.body for line in self.lines if line.number == body_line), b"")
        self.definitions[name] = _definitions(text).get(name[3:], name[3:] + "(?)")
        return function

    def line_reached(self, number: int) -> None:
        """The hook at every line start (contract.LINE_HOOK)."""
        if self.pending:
            self._poll()
        self.current_line = number
        if (number in self.breaks or self.stepping) and not self.detached:
            self.stepping = False
            self.monitor.stopped_at(number)

    # -- what vars shows ---------------------------------------------------------------------------
    def variable_lines(self, names: tuple[str, ...] = ()) -> list[str]:
        """``vars``: the variables that exist, as the C64 keeps them (simple variables
        and functions, then arrays, each in the order they were created); with
        ``names``, those, and their arrays' elements."""
        if self.pending:
            self._poll()
        if names:
            return [line for name in names for line in self._one_variable(name)]
        scalars = [name for name in self.created if _basic_name(name)[1] is not Declared.ARRAY]
        arrays = [name for name in self.created if _basic_name(name)[1] is Declared.ARRAY]
        return [self._shown(name) for name in scalars + arrays]

    def _shown(self, generated: str) -> str:
        name, declared, kind = _basic_name(generated)
        value = self.namespace[generated]
        if declared is Declared.FUNCTION:
            definition = self.definitions.get(generated, name[2:] + "(?)=?")
            head, _, body = definition.partition("=")
            return f"FN{head.strip()} = {body.strip()}"
        if declared is Declared.ARRAY:
            assert isinstance(value, Array)
            return f"DIM {name}({','.join(str(size - 1) for size in value.sizes)})"
        return f"{name} = {shown_value(value, kind)}"

    def _one_variable(self, typed: str) -> list[str]:
        text = typed.upper().removesuffix("()").removesuffix("(")
        if text.startswith("FN"):
            generated = "FN_" + "".join(c for c in text[2:] if c.isalnum())[:2]
            return [self._shown(generated)] if generated in self.created else [f"{typed}: not defined (yet)"]
        kind = {"$": Kind.STRING, "%": Kind.INTEGER}.get(text[-1:], Kind.NUMBER)
        letters = text.rstrip("$%")
        if not letters[:1].isalpha() or not letters.isalnum():
            return [f"{typed}: not a variable name"]
        letters = letters[:2]
        out = []
        scalar, array = f"{kind.value}_{letters}", f"A{kind.value}_{letters}"
        if scalar in self.created:
            out.append(self._shown(scalar))
        if array in self.created:
            out.append(self._shown(array))
            value = self.namespace[array]
            name = _basic_name(array)[0]
            for key in sorted(value.cells, key=lambda key: key if isinstance(key, tuple) else (key,)):
                indexes = key if isinstance(key, tuple) else (key,)
                subscripts = ",".join(str(int(index)) for index in indexes)
                out.append(f"{name}({subscripts}) = {shown_value(value.cells[key], kind)}")
        return out or [f"{typed}: no such variable (yet)"]


# -- the session -----------------------------------------------------------------------------------------
CommandSource = Callable[[str], tuple[str, MonitorCommand] | None]  # prompt -> (text, command) or None


class BasicMonitor:
    """The commands at a break line.  ``next_command(prompt)`` gives the next command
    (with its text) or None when there are no more: the program then goes on without
    stopping again.  ``write`` prints; ``show_output`` (interactive) shows what the
    program printed before the monitor speaks."""

    def __init__(self, lines: list[int], breaks: Iterable[int], next_command: CommandSource,
                 write: Callable[[str], None] = print, show_output: Callable[[], None] | None = None) -> None:
        self.lines = lines
        self.breaks = sorted(set(breaks))
        self.next_command = next_command
        self.write = write
        self.show_output = show_output
        self.runtime: BreakRuntime | None = None
        self.quit_line: int | None = None  # the line q ended the run at
        self.prompting = False  # at a stop, reading commands
        self.interrupted = False  # Ctrl-C pressed while the program runs

    def interrupt(self) -> None:
        """Ctrl-C: while the program runs, it stops at the next line start (a second
        Ctrl-C before that stops c64tc); at the prompt, the typed line is dropped."""
        if self.prompting or self.interrupted or self.runtime is None:
            raise KeyboardInterrupt
        self.interrupted = True
        self.runtime.stepping, self.runtime.detached = True, False

    def stopped_at(self, line: int) -> None:
        """The run is at the start of ``line``: commands until one lets it go on."""
        runtime = self.runtime
        assert runtime is not None
        if self.show_output is not None:
            self.show_output()
        self.write(f"BREAK AT LINE {line}\n")
        self.interrupted, self.prompting = False, True
        try:
            while True:
                given = self.next_command(f"(LINE {line}) ")
                if given is None:  # nothing more to do: the program runs to its end
                    runtime.detached = True
                    return
                if self._execute(given[1], line):
                    return
        finally:
            self.prompting = False

    def _execute(self, command: MonitorCommand, line: int) -> bool:
        """Carry out ``command``; True when the program goes on."""
        runtime = self.runtime
        assert runtime is not None
        name = command.name
        if name == "vars":
            shown = runtime.variable_lines(command.arguments)
            self.write("".join(text + "\n" for text in shown) if shown else "(no variables yet)\n")
        elif name == "go":
            return True
        elif name == "next":
            runtime.stepping = True
            return True
        elif name == "exit":
            runtime.detached = True
            return True
        elif name == "quit":
            self.quit_line = line
            raise Ended(Stop.BREAK, f"quit in the monitor at line {line}")
        elif name == "break":
            if command.line is not None:
                runtime.breaks.add(command.line)
            self.write(self._break_list())
        elif name == "delete":
            if command.line is None:
                runtime.breaks.clear()
            elif command.line in runtime.breaks:
                runtime.breaks.discard(command.line)
            else:
                self.write(f"no break at line {command.line}\n")
            self.write(self._break_list())
        else:
            self.write(HELP)
        return False

    def _break_list(self) -> str:
        assert self.runtime is not None
        breaks = sorted(self.runtime.breaks)
        return "break lines: " + (" ".join(map(str, breaks)) if breaks else "none") + "\n"
