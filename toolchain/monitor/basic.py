"""A monitor for BASIC programs on c64tc's runner: ``c64tc run PROG.bas --break-line N``.

The run stops when it reaches a break line (before the line's first statement, every
time), prints ``BREAK AT LINE N`` and reads commands:

* ``vars`` every variable with its value as PRINT shows it, in the order the C64
  keeps them (simple variables and DEF FN functions in the order they were created,
  then the arrays in theirs), arrays with their dimensions; ``vars NAME ...`` one
  variable, and an array's elements;
* ``g`` / ``c`` go on, ``n`` go on to the next line and stop there, ``x`` go on
  without more stops, ``q`` quit (the run ends as RUN/STOP ends it: ``BREAK IN N``);
* ``break`` the break lines, ``break N`` / ``del N`` add / remove one (``del``: all);
* any other line is a BASIC statement, run as direct mode runs a typed line on a C64
  stopped by STOP: ``print i*2``, ``? a$``, ``i=42``, ``a$(3)="x"`` with the program's
  variables; ``cont`` goes on as ``g`` does.

How a typed statement runs: it is crunched as the ROM crunches a typed line and
compiled with the program by the runner's own compiler, as its direct mode compiles a
line typed at READY. (toolchain/basic/runner/direct.py), into the running program's
namespace, so it reads and changes the variables the program holds.  What it prints
goes to the C64's screen, as on a C64, and is shown in the monitor's output.  An error
is shown as BASIC shows it in direct mode (``?SYNTAX  ERROR``) and the run goes on: on
a C64 an error after STOP makes CONT impossible (?CAN'T CONTINUE), which would end
the session, so here it does not.  Statements that would leave the stopped program
(GOTO, GOSUB, RETURN, RUN, NEW, LOAD) are refused with a message.

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
from toolchain.basic.runner.contract import BasicError, Declared, Ended, GosubFrame, Kind, ProgramEnded
from toolchain.basic.runner.direct import crunch_typed, line_number_of
from toolchain.basic.runner.runtime import Runtime
from toolchain.basic.runner.statements import DIRECT_LINE
from toolchain.basic.runner.values import Array, Undimensioned, undefined_function
from toolchain.basic.tokens import TOKEN, scan_tokens
from toolchain.c64.editor import LAST_LOGICAL_COLUMN
from toolchain.c64.machine import C64
from toolchain.c64.outcome import Stop
from toolchain.diagnostics import Diagnostic, UserError
from toolchain.petscii import text_to_petscii

__all__ = ["BasicMonitor", "BreakRuntime", "CommandError", "MonitorCommand", "lines_error", "parse_command",
           "parse_script"]

HELP = """\
vars              every variable as PRINT shows it (arrays: their dimensions)
vars NAME ...     these variables (A, A%, A$, FNF), array elements (A or A())
STATEMENT         a BASIC statement on the program's variables: print i*2,
                  ? a$, i=42, a$(3)="x" (errors as BASIC gives them)
g, c, cont        go on (until a break line)
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
    name: str  # vars, go, next, break, delete, exit, quit, help, basic (arguments: the statement)
    arguments: tuple[str, ...] = ()
    line: int | None = None  # break / del: the line number


_NAMES = {"vars": "vars", "g": "go", "goto": "go", "c": "go", "cont": "go", "n": "next", "next": "next",
          "break": "break", "bk": "break", "del": "delete", "delete": "delete", "x": "exit", "exit": "exit",
          "q": "quit", "quit": "quit", "help": "help", "?": "help"}
# monitor commands that are BASIC keywords too: with something after them, the line is BASIC
# (goto 100 and next i are refused or run as BASIC would, ? x prints)
_BASIC_TOO = frozenset({"goto", "next", "?", "cont"})


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
    if name is None or "=" in text or words[0].lower() in _BASIC_TOO and len(words) > 1:
        return MonitorCommand("basic", (text.strip(),))  # a BASIC statement (its mistakes: BASIC's errors)
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


# statements that would leave a stopped program (the dispatcher would go on elsewhere)
_LEAVING = ("GOTO", "GOSUB", "RETURN", "NEXT", "RUN", "NEW", "LOAD", "GO", "CONT")
_LEAVING_TOKENS = {TOKEN[name]: name for name in _LEAVING if name in TOKEN}


def _leaving_keyword(body: bytes) -> str | None:
    for _index, byte, in_code in scan_tokens(body):
        if in_code and byte in _LEAVING_TOKENS:
            return _LEAVING_TOKENS[byte]
    return None


def _unshifted(text: str) -> str:
    """A typed line as the C64's keyboard gives it without SHIFT: letters in either case
    are the unshifted ones (petcat's lower case), braces ({clr}) kept."""
    return re.sub(r"\{[^}]*\}|[A-Z]+", lambda found: found.group() if found.group().startswith("{")
                  else found.group().lower(), text)


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

    # -- typed statements ---------------------------------------------------------------------------
    def run_statement(self, text: str) -> str:
        """A statement typed at a break, run as direct mode runs a typed line (see the
        module's description); what to say about it beyond what it printed ('' when it
        ran)."""
        try:
            typed = text_to_petscii(_unshifted(text))
        except ValueError as exc:
            return f"{text}: {exc}"
        if len(typed) > LAST_LOGICAL_COLUMN + 1:
            # the screen editor's logical line ends at column 79 (LNMX, $D5), so no longer
            # line reaches BASIC's 89-byte input buffer at $0200 (a longer one would run over
            # into the KERNAL's tables and vectors at $0259-$0333)
            return (f"a line typed on a C64 holds at most {LAST_LOGICAL_COLUMN + 1} characters "
                    f"(two screen rows); this one has {len(typed)}")
        try:
            numbered = line_number_of(typed)
        except ValueError:
            numbered = (0, b"")
        if numbered is not None:
            return ("a numbered line would change the program, which ends CONT on a C64: not at a break "
                    "(type it into the listing)")
        body = crunch_typed(typed)
        if not body.strip(b" "):
            return ""
        leaving = _leaving_keyword(body)
        if leaving is not None:
            return (f"{leaving} would leave the stopped program: at a break c64tc runs statements in place "
                    "(g goes on, n to the next line, q ends the run)")
        if self.pending:
            self._poll()
        code, compiled = self.compile_typed(body)  # as direct mode compiles a typed line
        self._add_variables(compiled.variables)
        namespace = self.namespace
        exec(code, namespace)  # defines _make only: the running segments stay as they are
        segments = namespace["_make"]()
        lines = [compiled.module.basic_lines[number] for number, source_line in
                 enumerate(compiled.module.source.splitlines()) if source_line.startswith("    def s")]
        typed_segments = {index for index, number in enumerate(lines) if number == DIRECT_LINE}
        saved = self.module, self.sites
        self.module, self.sites = compiled.module, compiled.sites  # the typed code's sites and lines
        index = min(typed_segments)
        try:
            while True:
                index = segments[index]()
                if index == len(segments):  # the end (LIST ends the line so)
                    return ""
                if index not in typed_segments:
                    return ("the statement went into the program: at a break c64tc runs statements in place "
                            "(g goes on)")
        except ProgramEnded:  # the end of the typed line (direct_done), or END
            return ""
        except BasicError as error:
            self._show_error(error.name)
        except floats.FloatError as error:
            self._show_error(error.error)
        except RecursionError:
            self._show_error("OUT OF MEMORY")
        except Ended as ended:
            if ended.stop is not Stop.BREAK:
                raise
            self._show("\rBREAK\r")
        finally:
            self.module, self.sites = saved
            if self.pending:
                self._poll()
        return ""

    def _show_error(self, name: str) -> None:
        """An error in a typed statement, as BASIC prints it in direct mode ($A469:
        no line number), without READY. (the program stays stopped, not ended)."""
        self._show(f"\r?{name}  ERROR\r")

    def _add_variables(self, variables: dict[str, tuple[Declared, Kind]]) -> None:
        """Variables a typed statement names that the program does not: they start as
        the runtime starts its own (and exist once assigned, as the program's do)."""
        new = [name for name in variables if name not in self.variables]
        if not new:
            return
        for name in new:
            declared, kind = variables[name]
            if declared is Declared.SCALAR:
                self.namespace[name] = kind.initial()
            elif declared is Declared.FUNCTION:
                self.namespace[name] = undefined_function
            else:
                self.namespace[name] = Undimensioned(self.namespace, name, kind)
        self.variables = {**self.variables, **{name: variables[name] for name in new}}
        self._track(new)

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


def _printed_text(data: bytes) -> str:
    """What a typed statement printed, as text lines (RETURN ends a line, the cursor
    right after a number is the space it leaves; other bytes as LIST shows them)."""
    text = "".join("\n" if byte in (0x0D, 0x8D) else " " if byte == 0x1D else '"' if byte == 0x22
                   else _character(byte) for byte in data)
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "".join(line + "\n" for line in lines)


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
        if name == "basic":
            shown_before = len(runtime.machine.output_log)
            message = runtime.run_statement(command.arguments[0])
            printed = bytes(runtime.machine.output_log[shown_before:])
            if self.show_output is not None:
                self.show_output()  # the terminal shows what the program printed, this too
            elif printed:
                self.write(_printed_text(printed))
            if message:
                self.write(message + "\n")
        elif name == "vars":
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
