"""BASIC statements to Python: the segments of a program and where each goes next.

A *segment* is a stretch of statements that is only entered at its start: a line
start, the statement after a FOR (NEXT comes back there), the statement after a
GOSUB (RETURN comes back there).  Each compiles to a list of Python statements and
an :class:`Exit`, where the program goes when the segment is done: the next line, a
line number, another segment, the end, a computed segment (RETURN), or nowhere (the
segment raises an error).  The linker (:mod:`.linker`) turns exits into returns, or
runs the next segment's code in place when the way there is fixed.

Statements follow the ROM's statement routines ($A7ED and on): what they read, in
which order, and the errors they raise when they run.
"""

from __future__ import annotations

import enum
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from toolchain.basic import floats
from toolchain.basic.runner import costs
from toolchain.basic.runner.contract import FOR_BYTES, FOR_ROOM, LINE_HOOK, ForFrame, Kind, Variable
from toolchain.basic.runner.expressions import (
    CLOSE_PARENTHESIS,
    COLON,
    COMMA,
    EQUAL,
    FAILS,
    OPEN_PARENTHESIS,
    QUOTE,
    SEMICOLON,
    CompileError,
    ExpressionCompiler,
    short_circuits,
)
from toolchain.basic.tokenizer import linget
from toolchain.basic.tokens import PI, TOKEN, TOKEN_DATA, TOKEN_REM, LineState, keyword_of

# Generated code that can look at the time or leave the segment: the cycles counted so
# far are added to the clock (CLOCK) before it runs (costs.py)
CLOCK = "_T"
LOOKS_OR_LEAVES = ("rt.", "io.", "out.", "return", "raise", "_next(", "FN_", "lambda", "values")
THEN, GOTO = TOKEN["THEN"], TOKEN["GOTO"]

# placeholders in the code of conditional jumps until the segments are numbered
NEXT_MARK, LINE_MARK = "\x00next", "\x01"
# The number a line typed in direct mode compiles under (the ROM marks direct mode by
# CURLIN's high byte $FF): it follows the program's lines, and its end is not theirs.
DIRECT_LINE = 0xFFFF
INPUT_BUFFER = 0x0200  # where a direct-mode line is crunched and run from
# calls in generated code that show how much memory the variables take (FRE, PEEK of
# BASIC's pointers, USR's machine code)
MEMORY_OBSERVERS = ("rt.free(", "rt.peek(", "rt.usr(")
# a string variable or an element of a string array, as the expression compiler reads it
_A_VARIABLES_STRING = re.compile(r"S_\w+|AS_\w+\.cells\[[^\]]*\]")
# STR$ as an expression compiles it (io.install_fout): the function and its argument
_FOUT_CALL = re.compile(r"(?P<function>_fout_(?:text|digits))\((?P<argument>[^()]*)\)")
# calls in generated code that run the program's code (FN) or the machine's, or the
# runtime's: anything else in an expression reads, computes and assigns temporaries
RUNS_CODE = ("rt.", "io.", "FN_", "_concat(", "lambda")


def frame_name(frame: ForFrame) -> str:
    """The generated name of a FOR statement's own frame: the segment after the FOR
    (where NEXT goes back to) tells the FOR statements apart."""
    return f"_F{frame.resume}"


class ExitTo(enum.Enum):
    NEXT_LINE = "next line"
    LINE = "line"  # value: the line number
    SEGMENT = "segment"  # value: the segment number
    END = "end"
    CODE = "code"  # value: Python code that computes the segment (RETURN)
    RAISES = "raises"  # the segment ends in an error: no exit


class Exit(NamedTuple):
    to: ExitTo
    value: int | str | None = None


NEXT_LINE, END, RAISES = Exit(ExitTo.NEXT_LINE), Exit(ExitTo.END), Exit(ExitTo.RAISES)


@dataclass
class Line:
    number: int
    body: bytes
    address: int = INPUT_BUFFER  # where the body is in memory (after the link and the number)


@dataclass
class Segment:
    line: int  # the BASIC line its code comes from
    code: list[str] = field(default_factory=list)  # Python statements, indented as in the function
    exit: Exit | None = None


class Target(NamedTuple):
    """A variable that INPUT, GET or READ assigns."""

    name: str
    kind: Kind
    indexes: list[str] | None  # the subscripts' code for an array element


@dataclass
class Program:
    """A compiled program: its segments, and what the linker needs to join them."""

    segments: list[Segment]
    line_numbers: list[int]  # in program order
    line_first_segment: dict[int, int]
    variables: dict[str, Variable]
    sites: list[tuple[int, int, int | None]] = field(default_factory=list)
    # names the segments share, made once with the segments (ExpressionCompiler.define):
    # name -> the code that makes it
    definitions: dict[str, str] = field(default_factory=dict)


class StatementCompiler(ExpressionCompiler):
    """Tokenized lines -> segments."""

    def __init__(self, lines: list[Line], line_hooks: bool = False) -> None:
        super().__init__()
        self.lines = lines
        self.line_hooks = line_hooks  # each line starts with a call (LINE_HOOK in contract.py)
        self.line_first_segment: dict[int, int] = {}
        self.segments: list[Segment] = []
        self.indent = 1
        # the variables of the FOR loops open at this point of the text, innermost last
        self.open_loops: list[str] = []
        # per variable, the frame of its latest FOR in the text, if it has one of its own
        self.open_frames: dict[str, ForFrame | None] = {}
        # the number element an assignment just stored, as expressions read it, and
        # where the code stood after it (its segment, its length): see statement_IF
        self.just_stored: tuple[str, Segment, int] | None = None

    def compile(self) -> Program:
        self.line_order = {line.number: index for index, line in enumerate(self.lines)}
        for line in self.lines:
            self.line_first_segment[line.number] = len(self.segments)
            self.segments.append(Segment(line.number))
            self.body = line.body
            self.position = 0
            self.indent = 1
            if self.line_hooks and line.number != DIRECT_LINE:
                self.emit(f"{LINE_HOOK}({line.number})")
            self.line_number_now = line.number
            self.program_text = line.number != DIRECT_LINE
            self.body_address = line.address
            # NEWSTT keeps OLDTXT (the CONT pointer) only for program text: at a line's
            # start it points at the zero ending the line before ($A7B1)
            self.statement_start = None if line.number == DIRECT_LINE else line.address - 5
            self.compile_line(line)
        return Program(self.segments, [line.number for line in self.lines], self.line_first_segment,
                       self.variables, self.sites, self.definitions)

    def emit(self, code: str) -> None:
        assert self.segments[-1].exit is None, "code after the segment's exit"
        looks_or_leaves = any(mark in code for mark in LOOKS_OR_LEAVES)
        if abs(self.cost) >= 0.5 and not code.startswith(" ") and looks_or_leaves:
            self.flush()
        self.segments[-1].code.append("    " * self.indent + code)

    def flush(self) -> None:
        """The cycles counted so far onto the C64's clock (costs.py)."""
        cycles = round(self.cost)
        self.cost = 0.0
        if cycles:
            self.segments[-1].code.append("    " * self.indent + f"{CLOCK} += {cycles}")

    def leave(self, exit: Exit) -> None:
        """End the segment: where the program goes on (the linker writes the return,
        or runs the next segment's code right here)."""
        assert self.indent == 1 and self.segments[-1].exit is None
        self.flush()
        self.segments[-1].exit = exit

    def search_cycles(self, target: int) -> int:
        """FNDLIN's time to find line ``target`` from the line being compiled: from the
        next line when the target's number is larger, else from the first line."""
        order = self.line_order
        if target not in order:
            return 0
        forward = target > self.line_number_now
        first = order.get(self.line_number_now, len(order)) + 1 if forward else 0
        numbers = [line.number for line in self.lines[first : order[target]]]
        return round(costs.search_cycles(numbers, target, forward))

    def search_code(self, target: int) -> str:
        """The search's cycles onto the clock, as code before a conditional jump."""
        cycles = self.search_cycles(target)
        return f"{CLOCK} += {cycles}; " if cycles else ""

    def count_text(self, entry: str) -> None:
        """The statement starting here: how NEWSTT reached it (``entry``) and the bytes
        CHRGET reads of it: up to the colon or the line's end outside quotes, or to THEN
        or GOTO after an IF; REM's and DATA's rest is skipped by REMN and DATAN."""
        if self.recording is not None:
            self.features = Counter()
            self.recording.append((self.line_number_now, self.statement_start, self.features))
        self.count(entry)
        body, position = self.body, self.position
        while position < len(body) and body[position] == 0x20:
            position += 1
        skipping = position < len(body) and body[position] in (TOKEN_REM, TOKEN_DATA)
        rem = position < len(body) and body[position] == TOKEN_REM
        quoted = False
        bytes_read = spaces = skipped = 0
        while position < len(body):
            byte = body[position]
            if byte == QUOTE:
                quoted = not quoted
            elif not quoted and (byte == COLON and not rem or byte in (THEN, GOTO) and not skipping):
                if byte != COLON:
                    bytes_read += 1
                break
            if skipping and bytes_read:
                skipped += 1
            elif byte == 0x20 and not quoted:  # STRLIT takes a quoted one as any byte
                spaces += 1
            else:
                bytes_read += 1
            position += 1
        self.count("byte", bytes_read)
        self.count("space", spaces)
        self.count("rest_byte", skipped)
        self.observed_in_statement = False

    def new_segment(self, line: int) -> None:
        """A segment that is entered from elsewhere starts here; this one falls into it."""
        self.leave(Exit(ExitTo.SEGMENT, len(self.segments)))
        self.segments.append(Segment(line))
        self.indent = 1

    @staticmethod
    def jump(number: int) -> str:
        """The code that goes to a line, inside a condition (resolved when linking)."""
        return f"return {LINE_MARK}{number}{LINE_MARK}"

    @staticmethod
    def next_line_marker() -> str:
        """The code that goes on with the next line, inside a condition."""
        return "return " + NEXT_MARK

    def compile_line(self, line: Line) -> None:
        entry = "line"
        while True:
            start = self.position
            self.count_text(entry)
            entry = "then"  # unless a colon follows
            try:
                done = self.statement(line.number)
            except CompileError as error:
                self.indent = 1
                self.emit(f"raise BasicError({error.name!r})")
                self.leave(RAISES)
                return
            if done is None:  # THEN: a statement follows without a colon
                continue
            if done:
                return
            byte = self.peek()
            if byte == 0:
                self.leave(NEXT_LINE)
                return
            if byte != COLON:
                self.emit("raise BasicError('SYNTAX')")
                self.leave(RAISES)
                return
            if self.statement_start is not None:
                self.statement_start = self.body_address + self.position  # the colon
            self.position += 1
            entry = "colon"
            if self.position == start:
                self.leave(NEXT_LINE)
                return

    def statement(self, number: int) -> bool | None:
        """Compile one statement; True if the rest of the line is not reached, None if
        another statement follows directly (after THEN)."""
        byte = self.peek()
        if byte == 0:
            self.leave(NEXT_LINE)
            return True
        if byte == COLON:
            return False
        if 0x41 <= byte <= 0x5A:
            self.count("stmt:LET")
            self.assignment()
            return False
        if byte == TOKEN["LET"]:
            self.position += 1
            self.count("stmt:LET")
            self.assignment()
            return False
        if byte == PI or byte < 0x80 or byte > TOKEN["NEW"] and byte != TOKEN["GO"]:
            raise CompileError("SYNTAX")
        self.position += 1
        keyword = keyword_of(byte)
        handler = getattr(self, "statement_" + keyword.replace("#", "_FILE").replace("$", "_S"), None)
        if handler is None:
            raise CompileError("SYNTAX")
        self.count("stmt:" + keyword)
        return handler(number)

    def assignment(self) -> None:
        name, kind = self.variable_name()
        self.count({Kind.NUMBER: "assign", Kind.INTEGER: "assign_int", Kind.STRING: "assign_str"}[kind])
        if self.peek() == OPEN_PARENTHESIS:
            indexes = self.subscripts()
            self.expect(EQUAL)
            array = self.array(name, kind)
            self.element(array, len(indexes))
            value = self.value_for(kind)
            # the ROM finds the element first, then evaluates the value (LET, $A9A5)
            key = indexes[0] if len(indexes) == 1 else f"({', '.join(indexes)})"
            if not self.is_simple(key):
                self.emit(f"_k = {key}")
                key = "_k"
            if kind is Kind.NUMBER and all(self.is_simple(index) for index in indexes):
                # the value kept for an IF right after that reads the element (statement_IF)
                self.emit(f"if {key} in (_a := {array}).settable: _a.cells[{key}] = (_stored := {value})")
                self.emit(f"else: _a.place({key})(_stored := {value})")
                self.just_stored = (f"{array}.cells[{', '.join(indexes)}]", self.segments[-1],
                                    len(self.segments[-1].code))
            elif kind is not Kind.INTEGER:
                self.emit(f"if {key} in (_a := {array}).settable: _a.cells[{key}] = {value}")
                self.emit(f"else: _a.place({key})({value})")
            else:
                self.emit(f"{array}.place({key})({value})")
            return
        self.expect(EQUAL)
        if name == "TI" and kind is Kind.STRING:
            self.emit(f"rt.set_time({self.string()})")
            return
        if name in ("TI", "ST"):
            raise CompileError("SYNTAX")
        target = self.scalar(name, kind)
        self.found(target)
        value = self.value_for(kind)
        if any(observer in value for observer in MEMORY_OBSERVERS):
            # LET finds (makes) the variable before it evaluates the value ($A9A5): a
            # FRE(0) there already counts it
            self.emit(f"rt.make({target!r})")
        self.emit(f"{target} = {value}")

    def value_for(self, kind: Kind) -> str:
        value = self.expression()
        if value.code.startswith(FAILS):
            return value.code  # it raises before LET looks at its kind
        if value.kind.is_string != kind.is_string:
            raise CompileError("TYPE MISMATCH")
        if kind is Kind.STRING and _A_VARIABLES_STRING.fullmatch(value.code):
            # another variable's string: LET copies it when it lies in string space
            return f"_copied({value.code})"
        if kind is Kind.INTEGER:
            # assigning to an integer rounds first, then floors ($A9C4)
            return f"_int16({self.stored(value)})"
        if kind is Kind.NUMBER:
            return self.stored(value)
        if self.program_text and value.code[:1] in ("'", '"'):
            # a literal of a program line: the variable's descriptor points at the text
            # (values.Text, no string space); a typed line's is copied out of the input
            # buffer into string space (measured with BASIC in ROM: 7 + 5 bytes for
            # A$="HELLO" typed)
            return f"_LIT[{value.code}]"
        if not value.code.startswith("_concat("):
            # a string a function made (STR$, CHR$, LEFT$, MID$, RIGHT$, TI$): the variable
            # takes the temporary's room in string space, which the run counts so that
            # the garbage collection and ?OUT OF MEMORY come when the C64's do (STR$ of
            # its own, without another call: io.install_fout)
            fout = _FOUT_CALL.fullmatch(value.code)
            if fout is not None:
                return f"{fout['function']}_kept({fout['argument']})"
            return f"_kept({value.code})"
        return value.code

    def statement_END(self, number: int) -> bool:
        return self.ending("rt.end_statement")

    def ending(self, method: str) -> bool:
        """END or STOP: the run ends, and CONT goes on after the statement ($A831),
        in a segment of its own; a direct-mode line keeps the CONT of before."""
        direct = self.line_number_now == DIRECT_LINE
        self.emit(f"{method}({None if direct else len(self.segments)}, {self.line_number_now})")
        self.leave(RAISES)
        self.segments.append(Segment(self.line_number_now))
        self.indent = 1
        return False

    def statement_REM(self, number: int) -> bool:
        self.leave(NEXT_LINE)
        return True

    def statement_DATA(self, number: int) -> bool:
        state = LineState()
        state.data = True
        while self.position < len(self.body):
            state.character(self.body[self.position])
            if not state.data:
                break
            self.position += 1
        return False

    def statement_GOTO(self, number: int) -> bool:
        target = self.line_number()
        self.cost += self.search_cycles(target)
        self.leave(Exit(ExitTo.LINE, target))
        return True

    def statement_GO(self, number: int) -> bool:
        if self.take() != TOKEN["TO"]:
            raise CompileError("SYNTAX")
        return self.statement_GOTO(number)

    def line_number(self) -> int:
        """LINGET: GOTO without a number goes to line 0, as on the C64; spaces between
        the digits are skipped; above 63999 is ?SYNTAX ERROR."""
        try:
            value, self.position = linget(self.body, self.position)
        except ValueError:
            raise CompileError("SYNTAX") from None
        return value

    def statement_GOSUB(self, number: int) -> bool:
        target = self.line_number()
        self.emit(f"rt.push_gosub({len(self.segments)}, {number})")
        self.cost += self.search_cycles(target)
        self.leave(Exit(ExitTo.LINE, target))
        self.segments.append(Segment(number))  # where RETURN comes back to
        self.indent = 1
        # RETURN skips the rest of the GOSUB's statement (DATAN, $A8FB)
        rest = 0
        while self.position + rest < len(self.body) and self.body[self.position + rest] != COLON:
            rest += 1
        self.count("rest_byte", rest)
        return False

    def statement_RETURN(self, number: int) -> bool:
        self.leave(Exit(ExitTo.CODE, "rt.pop_gosub()"))
        return True

    def statement_RUN(self, number: int) -> bool:
        self.emit("rt.clear()")
        if self.at_statement_end():
            self.leave(Exit(ExitTo.SEGMENT, 0))
        else:
            self.leave(Exit(ExitTo.LINE, self.line_number()))
        return True

    def statement_IF(self, number: int) -> bool | None:
        stored = self.just_stored
        code, kind, _, condition, _ = self.expression()
        if kind is Kind.STRING:
            condition = f"len({code})"
        elif condition is None:
            condition = f"({code})"
        if (stored is not None and stored[1] is self.segments[-1] and stored[2] == len(stored[1].code)
                and not any(mark in condition for mark in RUNS_CODE)):
            # ``A(I)=V:IF A(I)...``: nothing ran since the element was stored (no code,
            # the same subscripts), and the condition runs nothing that could change it:
            # the element holds V, which a number array stores as it is (values.Array)
            condition = re.sub(rf"\b{re.escape(stored[0])}", "_stored", condition)
        condition = short_circuits(condition)
        byte = self.take()
        # a false condition skips the rest of the line (REM's REMN, $A93B)
        rest = round((len(self.body) - self.position) * costs.weight("rest_byte"))
        if byte == TOKEN["GOTO"]:
            target = self.line_number()
            self.flush()
            jump = self.search_cycles(target) + round(costs.weight("then_line"))
            self.emit(f"if {condition}: {CLOCK} += {jump}; {self.jump(target)}")
            self.cost += rest
            self.leave(NEXT_LINE)
            return True
        if byte != TOKEN["THEN"]:
            raise CompileError("SYNTAX")
        # the false path's skip is paid with the test and given back on the true path:
        # one addition to the clock less where the condition is false
        self.cost += rest
        self.flush()
        self.emit(f"if not {condition}: {self.next_line_marker()}")
        self.cost -= rest
        if 0x30 <= self.peek() <= 0x39:
            target = self.line_number()
            self.count("then_line")
            self.cost += self.search_cycles(target)
            self.leave(Exit(ExitTo.LINE, target))
            return True
        return None

    def statement_FOR(self, number: int) -> bool:
        name, kind = self.variable_name()
        if kind is not Kind.NUMBER or self.peek() == OPEN_PARENTHESIS:
            raise CompileError("SYNTAX")
        variable = self.scalar(name, Kind.NUMBER)
        self.found(variable)
        self.count("assign")
        self.expect(EQUAL)
        start = self.value_for(Kind.NUMBER)
        self.expect(TOKEN["TO"])
        limit = self.value_for(Kind.NUMBER)
        step = "1.0"
        if self.peek() == TOKEN["STEP"]:
            self.position += 1
            step = self.value_for(Kind.NUMBER)
        self.emit(f"{variable} = {start}")
        constant = self.constant(start)
        # NEXT may add in Python from the first step (see ForFrame)
        whole = constant is not None and constant == int(constant) and abs(constant) < 4294967296.0
        frame = self.own_frame(variable, limit, step, number)
        if frame is not None:
            # Runtime.push_frame's way when it has nothing to search (the stack below the
            # frame is the one it was pushed on before) and the frame fits, in line
            name, value = frame_name(frame), variable if whole else None
            self.emit(f"if STACK == {name}.below and rt.stack_bytes <= {FOR_ROOM}: "
                      f"rt.stack_bytes += {FOR_BYTES}; {name}.value = {value}; STACK.append({name})")
            self.emit(f"else: rt.push_frame({name}, {value})")
        else:
            self.emit(f"rt.push_for({variable!r}, {limit}, {step}, {len(self.segments)}, {number})")
            if whole:
                self.emit(f"STACK[-1].value = {variable}")
        if variable in self.open_loops:
            del self.open_loops[self.open_loops.index(variable):]
        self.open_loops.append(variable)
        self.open_frames[variable] = frame
        self.new_segment(number)
        return False

    def own_frame(self, variable: str, limit: str, step: str, number: int) -> ForFrame | None:
        """The frame of a FOR whose limit and step are literals: all its fields but
        ``value`` are the same each time the FOR runs, so it is made once, when the
        program is compiled, and the FOR pushes that very object (Runtime.push_frame)
        instead of making one (a FOR inside a loop runs as often as the loop's body).
        Its NEXT then finds the numbers it works with in its code (statement_NEXT)."""
        limit_value, step_value = self.stored_constant(limit), self.stored_constant(step)
        if limit_value is None or step_value is None:
            return None
        frame = ForFrame(variable, limit_value, step_value, len(self.segments), number)
        self.define(frame_name(frame), f"_ForFrame({variable!r}, {limit_value!r}, {step_value!r}, "
                                       f"{frame.resume}, {number})")
        return frame

    def stored_constant(self, code: str) -> float | None:
        """The number a literal's code stores: the literal, the literal rounded
        (``_r(literal)``, a literal with more bits than a variable holds), either
        negated (``(-literal or 0.0)``, expressions.unary); None for any other code, or
        a literal whose rounding overflows (it raises when run)."""
        value = self.constant(code)
        if value is not None:
            return value
        if code.startswith("(-") and code.endswith(" or 0.0)"):
            value = self.stored_constant(code[2:-len(" or 0.0)")])
            return None if value is None else -value or 0.0
        if not (code.startswith("_r(") and code.endswith(")")):
            return None
        value = self.stored_constant(code[3:-1])
        if value is None:
            return None
        try:
            return floats.rounded(value)
        except floats.FloatError:
            return None

    def statement_NEXT(self, number: int) -> bool:
        names: list[str | None] = [None]
        if not self.at_statement_end():
            names = []
            while True:
                name, kind = self.variable_name()
                if kind is not Kind.NUMBER:
                    raise CompileError("SYNTAX")
                names.append(self.scalar(name, Kind.NUMBER))
                if self.peek() != COMMA:
                    break
                self.position += 1
        for position, variable in enumerate(names):
            # each variable's part of NEXT costs its time only when the loop before it ended
            if position:
                self.count("stmt:NEXT")
            if variable is not None:
                self.found(variable)
                self.count("next_var")  # NEXT's own PTRGET and the frame's compare ($AD24, FNDFOR)
            self.flush()
            # The loop this NEXT closes, as far as the program's text tells (FOR and
            # NEXT nest in it): its variable gets the shortcut, checked when it runs.
            guess = variable
            if variable is None:
                guess = self.open_loops.pop() if self.open_loops else None
            elif variable in self.open_loops:
                del self.open_loops[self.open_loops.index(variable):]
            if guess is None:
                self.emit(f"if _next(rt, {variable!r}): return STACK[-1].resume")
                continue
            shortcut = self.next_shortcut(guess, variable)
            frame = self.open_frames.get(guess)
            if frame is not None and math.isfinite(frame.low):
                # the frame of the FOR that opened the loop in the text on top: its
                # numbers are known here (own_frame); else the shortcut for any frame.
                # The range's far end (below the start for a positive step) holds for
                # every whole variable inside +-(2**32 - 1): v - step is the variable
                # (ForFrame), so it is tested on the variable, and not at all when
                # the variable is the frame's value (whole and inside +-2**32).
                name = frame_name(frame)
                if frame.step > 0.0:
                    inside, goes_on = f"{guess} >= -4294967295.0", f"v <= {frame.high!r}"
                else:
                    inside, goes_on = f"{guess} <= 4294967295.0", f"v >= {frame.low!r}"
                self.emit(f"if STACK and STACK[-1] is {name} "
                          f"and ({guess} is {name}.value or ({guess} % 1.0 == 0.0 and {inside})):")
                self.emit(f"    v = {guess} + {frame.step!r}")
                self.emit(f"    if {goes_on}:")
                self.emit(f"        {name}.value = {guess} = v")
                self.emit(f"        return {frame.resume}")
                self.emit(f"    if {frame.past_low!r} < v < {frame.past_high!r}:")
                self.emit(f"        {guess} = v")
                self.emit(f"        STACK.pop(); rt.stack_bytes -= {FOR_BYTES}")  # rt.pop_for(), in line
                self.emit(f"    elif _next(rt, {variable!r}): return STACK[-1].resume")
                shortcut[0] = "el" + shortcut[0]
            for code in shortcut:
                self.emit(code)
        return False

    @staticmethod
    def next_shortcut(guess: str, variable: str | None) -> list[str]:
        """NEXT on the innermost frame when it is ``guess``'s loop, whichever FOR made it."""
        return [
            # a whole step added to a whole number, the sum inside +-2**32, is what
            # FADD and the store give: the loop goes on or ends without the ROM's
            # routine (see ForFrame).  x % 1.0 == 0.0 is "x is whole" for the finite
            # numbers BASIC has, without int()'s call.
            f"if STACK and (frame := STACK[-1]).variable == {guess!r} "
            f"and ({guess} is frame.value or {guess} % 1.0 == 0.0):",
            f"    v = {guess} + frame.step",
            "    if frame.low <= v <= frame.high:",
            f"        frame.value = {guess} = v",
            "        return frame.resume",
            "    if frame.past_low < v < frame.past_high:",
            f"        {guess} = v",
            "        rt.pop_for()",
            f"    elif _next(rt, {variable!r}): return STACK[-1].resume",
            f"elif _next(rt, {variable!r}): return STACK[-1].resume",
        ]

    def statement_DIM(self, number: int) -> bool:
        while True:
            name, kind = self.variable_name()
            indexes = self.subscripts()
            array = self.array(name, kind)
            self.emit(f"rt.dim({array!r}, K.{kind.name}, {', '.join(indexes)})")
            if self.peek() != COMMA:
                return False
            self.position += 1

    def statement_PRINT(self, number: int) -> bool:
        return self.print_items("io.output")

    def statement_PRINT_FILE(self, number: int) -> bool:
        channel = self.numeric()
        self.emit(f"out = io.channel_output({channel})")
        if self.peek() == COMMA:
            self.position += 1
        self.print_items("out")
        self.emit("out.done()")  # PRINT# ends in CLRCHN ($AA83)
        return False

    def statement_CMD(self, number: int) -> bool:
        channel = self.numeric()
        self.emit(f"io.cmd({channel})")
        if self.peek() == COMMA:
            self.position += 1
        return self.print_items("io.output")

    def print_items(self, output: str) -> bool:
        newline = True
        while not self.at_statement_end():
            byte = self.peek()
            newline = False
            if byte == SEMICOLON:  # PRINT's chain of compares down to ";", and CHRGET ($AAE8)
                self.position += 1
                self.count("print_semicolon")
                continue
            if byte == COMMA:
                self.position += 1
                self.count("print_comma")
                self.emit(f"{output}.comma()")
                continue
            if byte in (TOKEN["TAB("], TOKEN["SPC("]):
                self.position += 1
                amount = self.numeric()
                self.expect(CLOSE_PARENTHESIS)
                method = "tab" if byte == TOKEN["TAB("] else "spc"
                self.emit(f"{output}.{method}(_byte({amount}))")
                continue
            code, kind, _, _, _ = self.expression()
            self.count("print_string" if kind is Kind.STRING else "print_number")
            self.emit(f"{output}.{'text' if kind is Kind.STRING else 'number'}({code})")
            newline = self.at_statement_end()
        if newline:
            self.count("print_newline")
            self.emit(f"{output}.newline()")
        return False

    def statement_INPUT(self, number: int) -> bool:
        prompt = "''"
        if self.peek() == QUOTE:
            prompt = self.primary()[0]
            self.expect(SEMICOLON)
        if number == DIRECT_LINE:  # the prompt is printed before ERRDIR's check ($ABCB, $ABCE)
            if prompt != "''":
                self.emit(f"io.output.text({prompt})")
            raise CompileError("ILLEGAL DIRECT")
        return self.input_items(f"io.input({prompt}, {{}})")

    def statement_INPUT_FILE(self, number: int) -> bool:
        channel = self.numeric()
        self.expect(COMMA)
        return self.input_items(f"io.input_file({channel}, {{}})")

    def targets(self) -> list[Target]:
        """The variables INPUT, GET and READ assign, in order."""
        targets = []
        while True:
            name, kind = self.variable_name()
            indexes = self.subscripts() if self.peek() == OPEN_PARENTHESIS else None
            if indexes is None and name in ("TI", "ST"):
                raise CompileError("SYNTAX")
            targets.append(Target(name, kind, indexes))
            if self.peek() != COMMA:
                return targets
            self.position += 1

    @staticmethod
    def value_kinds(targets: list[Target]) -> str:
        """The kinds of value to read, one per target, as generated code (integers read
        as numbers)."""
        kinds = ", ".join("K.STRING" if target.kind is Kind.STRING else "K.NUMBER" for target in targets)
        return f"({kinds},)"

    def assign_targets(self, values: str, targets: list[Target], partial: bool = False) -> None:
        """``partial``: ``values`` may hold fewer values than there are targets (INPUT's
        variables a ?REDO FROM START left assigned): the first ones are assigned."""
        for position, (name, kind, indexes) in enumerate(targets):
            value = f"{values}[{position}]"
            self.emit(f"if len({values}) > {position}:" if partial else f"if {values} is not UNCHANGED:")
            self.indent += 1
            # what FIN read (the FAC, rounding byte and all) is stored rounded, as any
            # number is (MOVMF, $BBD4)
            if kind is Kind.INTEGER:
                value = f"_int16(_r({value}))"
            elif kind is Kind.NUMBER:
                value = f"_r({value})"
            if indexes is None:
                self.emit(f"{self.scalar(name, kind)} = {value}")
            else:
                self.emit(f"{self.array(name, kind)}.set({value}, {', '.join(indexes)})")
            self.indent -= 1

    def input_items(self, call: str) -> bool:
        targets = self.targets()
        self.emit(f"values = {call.format(self.value_kinds(targets))}")
        # an empty line leaves the variables and goes on after the INPUT statement ($ABEA)
        self.emit("if values is None: values = UNCHANGED")
        self.assign_targets("values", targets, partial=True)
        return False

    def statement_GET(self, number: int) -> bool:
        channel = None
        if self.peek() == ord("#"):
            self.position += 1
            channel = self.numeric()
            self.expect(COMMA)
        targets = self.targets()
        if number == DIRECT_LINE:  # GET and GET# check for direct mode first ($AB7B)
            raise CompileError("ILLEGAL DIRECT")
        self.emit(f"values = io.get({self.value_kinds(targets)}, {channel})")
        self.assign_targets("values", targets)
        return False

    def statement_READ(self, number: int) -> bool:
        targets = self.targets()
        self.emit(f"values = rt.read({self.value_kinds(targets)})")
        self.assign_targets("values", targets)
        return False

    def statement_RESTORE(self, number: int) -> bool:
        self.emit("rt.data_position = 0")
        return False

    def statement_STOP(self, number: int) -> bool:
        return self.ending("rt.stop_statement")

    def statement_ON(self, number: int) -> bool:
        selector = self.numeric()
        kind = self.take()
        if kind not in (TOKEN["GOTO"], TOKEN["GOSUB"]):
            raise CompileError("SYNTAX")
        targets = [self.line_number()]
        while self.peek() == COMMA:
            self.position += 1
            targets.append(self.line_number())
        self.emit(f"choice = _byte({selector})")
        if kind == TOKEN["GOSUB"]:
            self.emit(f"if 1 <= choice <= {len(targets)}: rt.push_gosub({len(self.segments)}, {number})")
        self.flush()
        for index, target in enumerate(targets, start=1):
            self.emit(f"if choice == {index}: {self.search_code(target)}{self.jump(target)}")
        if kind == TOKEN["GOSUB"]:
            self.new_segment(number)
        return False

    def statement_WAIT(self, number: int) -> bool:
        address = self.numeric()
        self.expect(COMMA)
        mask = self.numeric()
        invert = "0.0"
        if self.peek() == COMMA:
            self.position += 1
            self.count("wait_invert")  # the third number's CHRGOT and GETBYT ($B833)
            invert = self.numeric()
        self.emit(f"rt.wait({address}, {mask}, {invert})")
        return False

    def statement_POKE(self, number: int) -> bool:
        address = self.numeric()
        self.expect(COMMA)
        value = self.numeric()
        self.count_qint(address)
        self.count_qint(value, typical=(3, 4))
        self.emit(f"rt.poke(_address({address}), _byte({value}))")
        return False

    def count_qint(self, code: str, typical: tuple[int, int] = (2, 4)) -> None:
        """QINT's shifting of a number made an address or a byte (costs.qint_features)."""
        for feature, times in costs.qint_features(self.constant(code), typical).items():
            self.count(feature, times)

    def statement_SYS(self, number: int) -> bool:
        address = self.numeric()
        self.emit(f"rt.sys(_address({address}), {self.site()})")
        # the ROM skips whatever follows the address up to the end of the statement
        while not self.at_statement_end():
            self.take()
        return False

    def statement_DEF(self, number: int) -> bool:
        if self.take() != TOKEN["FN"]:
            raise CompileError("SYNTAX")
        name, kind = self.variable_name()
        if number == DIRECT_LINE:  # after the function's name, ERRDIR ($B3B6)
            raise CompileError("ILLEGAL DIRECT")
        self.expect(OPEN_PARENTHESIS)
        parameter, parameter_kind = self.variable_name()
        if kind is not Kind.NUMBER or parameter_kind is not Kind.NUMBER:
            raise CompileError("SYNTAX")
        self.expect(CLOSE_PARENTHESIS)
        self.expect(EQUAL)
        # the body's time is each call's: the ROM reads its text at every call
        before = self.cost
        body = self.numeric()
        body_cycles = round(self.cost - before)
        self.cost = before
        function = self.function_variable(name)
        variable = self.scalar(parameter, Kind.NUMBER)
        self.emit(f"{function} = rt.define_function({variable!r}, lambda: {body}, {body_cycles})")
        return False

    def statement_CLR(self, number: int) -> bool:
        self.emit("rt.clear()")
        return False

    def statement_NEW(self, number: int) -> bool:
        if not self.at_statement_end():
            raise CompileError("SYNTAX")
        self.emit("rt.new_program()")
        self.leave(RAISES)
        return True

    def statement_LIST(self, number: int) -> bool:
        """LIST [n][-[m]] ($A69C): from the first line >= n to m; without a '-' just n,
        and n = 0 (or none) lists to the end; anything else after it is ?SYNTAX."""
        byte = self.peek()
        if byte >= 0x80 and byte != TOKEN["-"] or byte == PI:
            raise CompileError("SYNTAX")
        first = self.line_number()
        last = first
        if self.peek() == TOKEN["-"]:
            self.position += 1
            last = self.line_number()
        if not self.at_statement_end():
            raise CompileError("SYNTAX")
        self.emit(f"rt.list_program({first}, {last or 0xFFFF})")
        self.leave(END)
        return True

    def statement_CONT(self, number: int) -> bool:
        if not self.at_statement_end():
            raise CompileError("SYNTAX")
        self.leave(Exit(ExitTo.CODE, "rt.cont()"))
        return True

    def statement_OPEN(self, number: int) -> bool:
        arguments = [self.numeric()]
        while self.peek() == COMMA and len(arguments) < 3:
            self.position += 1
            arguments.append(self.numeric())
        name = "''"
        if self.peek() == COMMA:
            self.position += 1
            name = self.string()
        while len(arguments) < 3:
            arguments.append("None")
        self.emit(f"io.open_file({', '.join(arguments)}, {name})")
        return False

    def statement_CLOSE(self, number: int) -> bool:
        self.emit(f"io.close_file({self.numeric()})")
        return False

    def file_parameters(self) -> str:
        """LOAD's, SAVE's and VERIFY's parameters as $E1D4 reads them: a name (empty when
        none), then ``,device`` (1 when none) and ``,secondary address`` (0 when none)."""
        name, device, secondary = "''", "1.0", "0.0"
        if not self.at_statement_end():
            name = self.string()
            if not self.at_statement_end():
                self.expect(COMMA)
                device = self.numeric()
                if not self.at_statement_end():
                    self.expect(COMMA)
                    secondary = self.numeric()
        return f"{name}, {device}, {secondary}"

    def statement_LOAD(self, number: int) -> bool:
        self.emit(f"io.load({self.file_parameters()}, False)")
        if self.line_number_now == DIRECT_LINE:
            # typed at READY.: the program is loaded, not run; READY. ($E1A1-$E1B2)
            self.emit("rt.loaded_in_direct_mode()")
            self.leave(RAISES)
            return True
        # in a program, LOAD runs the program (the one loaded) again from its first line,
        # the variables kept ($E1B5)
        self.leave(Exit(ExitTo.CODE, "rt.after_load()"))
        return True

    def statement_SAVE(self, number: int) -> bool:
        self.emit(f"io.save({self.file_parameters()}, rt.program)")
        return False

    def statement_VERIFY(self, number: int) -> bool:
        self.emit(f"io.load({self.file_parameters()}, True)")
        return False

