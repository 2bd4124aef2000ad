"""A running BASIC program: its variables, the FOR/GOSUB stack, arrays, DATA, the
machine it runs on, and the dispatcher loop that runs the compiled segments.

The program's bytes (what LOAD puts at $0801) are compiled (:mod:`.statements`,
:mod:`.linker`) into one Python module whose globals are the variables; each
segment function returns the number of the segment to run next.  Errors are raised
when a statement executes (a syntax error in line 270 is reported only when line
270 runs) and named with the BASIC line the generated code came from.
"""

from __future__ import annotations

import bisect
import time
from collections import deque
from collections.abc import Callable, Iterator
from operator import length_hint
from typing import Any, NamedTuple

from toolchain.basic import floats
from toolchain.basic.detokenizer import split_program
from toolchain.basic.runner import costs
from toolchain.basic.runner.contract import (
    BASIC_BYTES_FREE,
    FN_NESTING,
    FOR_BYTES,
    FOR_ROOM,
    GOSUB_BYTES,
    GOSUB_ROOM,
    GROUPS,
    BasicError,
    Declared,
    Ended,
    ForFrame,
    Frame,
    GosubFrame,
    Kind,
    ProgramEnded,
    scalar_name,
)
from toolchain.basic.runner.direct import crunch_typed, edit_program, line_number_of
from toolchain.basic.runner.expressions import COLON, COMMA, QUOTE
from toolchain.basic.runner.io import UNCHANGED, BasicIO, ScreenOutput, install_fout
from toolchain.basic.runner.linker import Module, link
from toolchain.basic.runner.statements import CLOCK, DIRECT_LINE, INPUT_BUFFER, Line, StatementCompiler
from toolchain.basic.runner.values import (
    Array,
    Text,
    Undimensioned,
    _address,
    _byte,
    _concat,
    _int16,
    _r,
    helpers,
    made_value,
    undefined_function,
    unset_value,
)
from toolchain.basic.tokens import PI, TOKEN_DATA, is_token, keyword_of, scan_tokens
from toolchain.c64 import kernal
from toolchain.c64.io import IO_BASE
from toolchain.c64.machine import C64, DEFAULT_MAX_CYCLES, STANDARD_IRQ_HANDLER, MachineStopped
from toolchain.c64.memory import (
    ARYTAB,
    BASIC_PROGRAM_START,
    BASIC_VECTOR_VALUES,
    CURLIN,
    CURSOR_BLINK,
    DATLIN,
    DATPTR,
    FRESPC,
    FRETOP,
    IRQ_VECTOR,
    JIFFY_CLOCK,
    KEYBOARD_COUNT,
    MEMSIZ,
    OLDLIN,
    OLDTXT,
    STREND,
    TXTPTR,
    TXTTAB,
    VARTAB,
    WATCH_MACHINE,
    read_word,
    write_word,
)
from toolchain.c64.outcome import RunResult, Stop
from toolchain.diagnostics import UserError

GENERATED = "<basic>"  # the file name of the generated code, in tracebacks
ELEMENT_BYTES = {Kind.NUMBER: 5, Kind.INTEGER: 2, Kind.STRING: 3}  # an array element in the C64's memory


class DataItem(NamedTuple):
    text: bytes
    quoted: bool
    line: int
    end: int = 0  # DATPTR after READ took it: the comma, colon or zero after the item
    # more than spaces between a closing quote and the comma, colon or end (``"AB"C``):
    # READ takes the item, then finds neither a comma nor the statement's end ($AC91)
    # and reports ?SYNTAX ERROR in the DATA line ($AB4D; VICE: `DATA "ABC"DEF` read
    # into a string stops with ?SYNTAX  ERROR IN the DATA's line)
    trailing: bool = False


class Compiled(NamedTuple):
    lines: list[Line]  # the program's (a direct-mode line not among them)
    module: Module
    variables: dict[str, Any]
    sites: list[tuple[int, int, int | None]]  # see ExpressionCompiler.site


def program_lines(program: bytes) -> list[Line]:
    """The lines of a program at $0801, each with the address of its body."""
    return [Line(line.number, line.body, BASIC_PROGRAM_START + line.offset - 2 + 4)
            for line in split_program(program, BASIC_PROGRAM_START)]


def compile_program(program: bytes, direct: bytes | None = None, line_hooks: bool = False) -> Compiled:
    """The program's lines, its generated module, the variables it declares, and its
    observation points; ``direct``: a line typed in direct mode, compiled after them;
    ``line_hooks``: each line's code starts with a call of LINE_HOOK (contract.py)."""
    lines = program_lines(program)
    typed = [Line(DIRECT_LINE, direct, INPUT_BUFFER)] if direct is not None else []
    compiled = StatementCompiler(lines + typed, line_hooks).compile()
    return Compiled(lines, link(compiled), compiled.variables, compiled.sites)


def data_items(lines: list[Line]) -> list[DataItem]:
    """Every DATA item of the program, in order, as READ finds them."""
    items: list[DataItem] = []
    for line in lines:
        body = line.body
        for index, byte, in_code in scan_tokens(body):
            if in_code and byte == TOKEN_DATA:
                items.extend(_items_after(body, index + 1, line.number, line.address))
    return items


def _data_search_stops(lines: list[Line]) -> tuple[list[int], list[int]]:
    """Where READ's search for the next DATA ($AC35) stops to look: each line's start
    (the link and the number read, $AC4C) and each colon outside quotes, the end of a
    statement DATAN ($A906) skips to, REM's included (DATAN does not know REM); the
    addresses in order (costs.py: ``data_line``, ``data_statement``)."""
    line_starts: list[int] = []
    colons: list[int] = []
    for line in lines:
        line_starts.append(line.address)
        quoted = False
        for index, byte in enumerate(line.body):
            if byte == QUOTE:
                quoted = not quoted
            elif byte == COLON and not quoted:
                colons.append(line.address + index)
    return line_starts, colons


def _items_after(body: bytes, position: int, line: int, address: int = 0) -> list[DataItem]:
    """The items of one DATA statement: up to a colon outside quotes; a quoted item
    keeps its commas and colons; anything but spaces after its closing quote makes
    READ's ?SYNTAX ERROR (DataItem.trailing)."""
    items = []
    while True:
        while position < len(body) and body[position] == 0x20:
            position += 1
        trailing = False
        if position < len(body) and body[position] == QUOTE:
            end = body.find(b'"', position + 1)
            end = len(body) if end < 0 else end
            item, quoted = body[position + 1 : end], True
            position = end + 1
            while position < len(body) and body[position] not in (COMMA, COLON):
                trailing = trailing or body[position] != 0x20  # CHRGOT passes spaces
                position += 1
        else:
            end = position
            while end < len(body) and body[end] not in (COMMA, COLON):
                end += 1
            item, quoted = body[position:end], False
            position = end
        items.append(DataItem(item, quoted, line, address + position, trailing))
        if position < len(body) and body[position] == COMMA:
            position += 1
            continue
        return items


def _end_of_program() -> int:
    raise ProgramEnded


def linked_program(machine: C64) -> bytes:
    """The BASIC program in memory from $0801, its line links set as LINKPRG ($A533)
    sets them (after a LOAD): each link points after its line's ending zero; a link
    whose high byte is 0 ends the program."""
    memory = machine.memory
    line = BASIC_PROGRAM_START
    while line < 0x9FFC and memory[line + 1]:
        end = line + 5  # LINKPRG looks for the line's zero from its fifth byte on
        while end < 0x9FFF and memory[end]:
            end += 1
        following = end + 1
        memory[line], memory[line + 1] = following & 0xFF, following >> 8
        line = following
    return bytes(memory[BASIC_PROGRAM_START : line + 2])


# one turn of WAIT's loop ($B83C: LDA ($14),Y; EOR $4A; AND $49; BEQ): WAIT looks at the
# raster this often
WAIT_TURN_CYCLES = 15
READY_STOPS = (Stop.END, Stop.ERROR, Stop.BREAK, Stop.BRK)  # the runs that end at READY.
DIRECT_CACHE_SIZE = 256  # direct-mode lines kept compiled (a dynamic-keyboard loop types the same ones)
SMALL_CLOCK = 1 << 29  # BASIC's clock counts from 0 again past this (a one-digit int in CPython)
CHUNK = 16  # statement groups the dispatcher runs between looking at the time (16 ms of C64 time)
# A chunk is a tuple of zeros, not a range: taking a group from a tuple's iterator (the
# dispatcher's loop, the loops in place: linker.py) costs less than from a range's.
CHECK_EVERY = 1 << 16  # ... between looking at limits and showing progress


# BASIC's vectors that its interpreter goes through while a program runs ($0308: a
# statement, $030A: an operand); the others serve direct mode, LIST and errors
EXECUTE_VECTOR, EVALUATE_VECTOR = 0x0308, 0x030A
ERROR_VECTOR = 0x0300  # IERROR: every error, and END and the program's end ($E386, X = $80)
# BASIC's vectors whose change compiled BASIC tells of: what the program takes over, and
# what compiled BASIC does instead
_TAKEN_OVER = (
    (EXECUTE_VECTOR, "statement", "it extends BASIC", "it runs the program's statements as BASIC V2 does"),
    (EVALUATE_VECTOR, "expression", "it extends BASIC", "it runs the program's statements as BASIC V2 does"),
    (ERROR_VECTOR, "error", "it takes over BASIC's errors and END",
     "an error ends the program with the C64's message"),
)



def _groups_started(step: int, chunk: tuple[int, ...], groups: Iterator[int]) -> int:
    """The statement groups of the dispatcher's chunk that had started when something
    raised: none if it was not a group (``step`` -1), else the ones the dispatcher's
    loop and the loops in place (linker.py) took from ``groups``."""
    return len(chunk) - length_hint(groups) if step >= 0 else 0


def _groups(count: int) -> str:
    """``1 statement group``, ``1000000 statement groups`` (the limit as it was given)."""
    return f"{count} statement group{'' if count == 1 else 's'}"

class Runtime:
    """The state a running program shares with its compiled code."""

    line_hooks = False  # a subclass that defines line_reached(number) sets it (see LINE_HOOK)

    def __init__(self, program: bytes, machine: C64) -> None:
        self.program = self.loaded = program
        self.machine = machine
        machine.errors_to_caller = True  # an error in machine code is the calling statement's
        self._stretch_key = -1  # what stretch() was worked out for: $D011's DEN, the IRQ vector
        # stretch() while the KERNAL's own handler runs in Python, by $D011's DEN
        self._kernal_stretch = (costs.stretch(False, True), costs.stretch(True, True))
        self._stretch = 1.0
        self.warned_vectors: set[int] = set()  # BASIC's vectors a program changed (said once)
        compiled = compile_program(program, line_hooks=self.line_hooks)
        self.lines, self.module, self.variables, self.sites = compiled
        self.io = BasicIO(machine)
        self.stack: list[Frame] = []
        self.namespace: dict[str, Any] = {**helpers(), "rt": self, "io": self.io, "STACK": self.stack,
                                          "UNCHANGED": UNCHANGED}
        self.namespace["globals_"] = self.namespace
        self.namespace[CLOCK] = 0  # BASIC's cycles (costs.py), added by the generated code
        self.namespace[GROUPS] = iter(())  # outside the dispatcher no loop runs in place (linker.py)
        # the string space in use, and the room for strings until the next garbage
        # collection: a list the generated code's functions share (string_space_used and
        # string_room name them)
        self.strings = [0, BASIC_BYTES_FREE]
        # string concatenation with the ROM's time: the bytes copied, the string space
        # used up and the garbage collection that follows (costs.py)
        self.namespace["_concat"] = self._timed_concat
        self.namespace["_copied"] = self._copied
        self.namespace["_kept"] = self._keeper()
        # STR$: FOUT's text on FOUT's time (it only adds time: the cycles counted before it
        # need not be on the clock first, as they must before code that looks)
        install_fout(self.namespace, self.strings, self._string_room_taken)
        self._copy_cycles = round(costs.weight("let_copy"))
        self.io.clock = self.namespace
        exec(compile(self.module.source, GENERATED, "exec"), self.namespace)
        self.segments: list[Callable[[], int]] = self.namespace["_make"]()
        self.segment_lines = [line for line in self._segment_lines()]
        self.segments.append(_end_of_program)  # the number after the last segment ends the run
        self.data = data_items(self.lines)
        self._data_cycles_of: list[DataItem] | None = None
        self._data_cycles_list: list[tuple[int, int]] = []
        self.max_cycles = DEFAULT_MAX_CYCLES  # the run's time: BASIC's and its machine code's
        self.cycle_limit = 1 << 62  # the machine's cycle at which the run stops (set by run())
        self.max_call_cycles: int | None = None  # a bound of each SYS and USR call's own, if any
        self.run_started = machine.cpu.cycles
        self.clock_limit = 1 << 62  # ... as BASIC's clock will read then, roughly (looked at often)
        self.direct_cache: dict[tuple[bytes, bytes], tuple[Any, Compiled]] = {}
        self.cont_segment: int | None = None  # where CONT goes on (OLDTXT), None: ?CAN'T CONTINUE
        self.old_line = 0  # OLDLIN: the line END, STOP or BREAK stopped in
        self.old_text = 0  # OLDTXT as the last statement or END left it
        self.restart()

    def _segment_lines(self) -> list[int]:
        source = self.module.source.splitlines()
        return [self.module.basic_lines[number] for number, text in enumerate(source)
                if text.startswith("    def s")]

    def restart(self) -> None:
        """The state of a new RUN on a freshly loaded machine (the compiled program is
        kept)."""
        if self.program != self.loaded:  # direct mode changed the program: the loaded one again
            self._use_program(self.loaded, compile_program(self.loaded, line_hooks=self.line_hooks))
        self.random = floats.Random()
        self.io.restart()
        self.statements = 0
        self.clock_seen = self.namespace[CLOCK]  # BASIC's clock when the machine's last caught up
        self.clock_carry = 0.0  # the part of a machine cycle not yet passed on
        self.irq_hooked = False
        self.clear()

    # -- variables and stack -------------------------------------------------------------------
    def value(self, name: str) -> Any:
        """A variable's value by its BASIC name (``X``, ``A$``, ``N%``; two characters
        count), as the program sees it."""
        kind = {"$": Kind.STRING, "%": Kind.INTEGER}.get(name[-1:], Kind.NUMBER)
        letters = name.rstrip("$%").upper()[:2]
        value = self.namespace.get(scalar_name(letters, kind), kind.initial())
        return float(value) if kind is Kind.INTEGER else value

    def clear(self) -> None:
        """CLR (and RUN): variables to zero and empty, arrays and functions gone, the
        stack empty, READ from the first DATA."""
        namespace = self.namespace
        self.unset = {}
        for name, (declared, kind) in self.variables.items():
            if declared is Declared.SCALAR:
                namespace[name] = self.unset[name] = unset_value(kind)
            elif declared is Declared.FUNCTION:
                namespace[name] = undefined_function
            else:
                namespace[name] = Undimensioned(namespace, name, kind)
        self.array_bytes = 0
        self.string_space_used = 0
        self.string_room = BASIC_BYTES_FREE - len(self.program)
        self.stack.clear()  # the generated code holds this list as STACK
        self.stack_bytes = 0
        self.function_depth = 0  # FN calls under way
        self.data_position = 0
        self.io.close_all()  # CLR's CLALL ($A660)
        self.cont_segment = None  # $A67A clears OLDTXT's high byte: CONT cannot continue
        self.old_text = 0

    def push_for(self, variable: str, limit: float, step: float, resume: int, line: int) -> None:
        """FOR with a frame made now (its limit or step is computed when it runs)."""
        self.push_frame(ForFrame(variable, limit, step, resume, line), None)

    def push_frame(self, frame: ForFrame, value: float | None) -> None:
        """FOR: a loop on the same variable is dropped with everything above it (the
        ROM's FNDFOR, $A38A), then the new frame must fit.  ``frame`` may be one made
        once when compiling (statements.own_frame); ``value``: the start, if NEXT may
        add in Python from the first step (ForFrame.value)."""
        stack = self.stack
        if stack != frame.below:
            variable = frame.variable
            for other in reversed(stack):
                if other.variable == variable or other.variable is None:
                    frame = self._drop_loop(frame)
                    break
            else:
                # nothing to drop: while the stack holds these very frames again (a
                # frame's variable never changes), the search would find nothing again
                frame.below = stack[:]
        if self.stack_bytes > FOR_ROOM:
            raise BasicError("OUT OF MEMORY")
        self.stack_bytes += FOR_BYTES
        frame.value = value
        stack.append(frame)

    def _drop_loop(self, frame: ForFrame) -> ForFrame:
        """FNDFOR's search down to the first GOSUB: the loop on ``frame``'s variable
        goes, with everything above it.  The frame to push: ``frame``, or a copy when
        that very frame is still on the stack (below a GOSUB, a FOR run again in a
        subroutine its loop called)."""
        stack = self.stack
        for index in range(len(stack) - 1, -1, -1):
            other = stack[index].variable
            if other is None:
                break
            if other == frame.variable:
                del stack[index:]
                self.stack_bytes = self._frame_bytes()
                break
        if frame in stack:
            return ForFrame(frame.variable, frame.limit, frame.step, frame.resume, frame.line)
        return frame

    def _frame_bytes(self) -> int:
        return sum(FOR_BYTES if isinstance(frame, ForFrame) else GOSUB_BYTES for frame in self.stack)

    def for_frame(self, variable: str | None) -> ForFrame:
        """NEXT's loop when it is not the innermost frame: loops above it are dropped."""
        stack = self.stack
        for index in range(len(stack) - 1, -1, -1):
            frame = stack[index]
            if not isinstance(frame, ForFrame):
                break
            if variable is None or frame.variable == variable:
                if index != len(stack) - 1:
                    del stack[index + 1 :]
                    self.stack_bytes = self._frame_bytes()
                return frame
        raise BasicError("NEXT WITHOUT FOR")

    def pop_for(self) -> None:
        self.stack.pop()
        self.stack_bytes -= FOR_BYTES

    def push_gosub(self, resume: int, line: int) -> None:
        if self.stack_bytes > GOSUB_ROOM:
            raise BasicError("OUT OF MEMORY")
        self.stack_bytes += GOSUB_BYTES
        self.stack.append(GosubFrame(resume, line))

    def pop_gosub(self) -> int:
        """RETURN: back after the latest GOSUB, dropping the loops opened since."""
        stack = self.stack
        while stack:
            frame = stack.pop()
            if isinstance(frame, GosubFrame):
                self.stack_bytes = self._frame_bytes()
                return frame.resume
        self.stack_bytes = 0
        raise BasicError("RETURN WITHOUT GOSUB")

    def undefined_statement(self) -> int:
        raise BasicError("UNDEF'D STATEMENT")

    def dim(self, name: str, kind: Kind, *sizes: float) -> None:
        if not isinstance(self.namespace[name], Undimensioned):
            raise BasicError("REDIM'D ARRAY")
        dimensions = []
        for size in sizes:
            value = _int16(size)
            if value < 0:
                raise BasicError("ILLEGAL QUANTITY")
            dimensions.append(value + 1)
        self.namespace[name] = self.new_array(tuple(dimensions), kind)

    def new_array(self, sizes: tuple[int, ...], kind: Kind) -> Array:
        """An array, if it fits in the C64's memory (5 bytes a number, 2 an integer, 3
        a string descriptor, and a header) beside the program and its variables."""
        count = 1
        for size in sizes:
            count *= size
        size_in_bytes = 5 + 2 * len(sizes) + count * ELEMENT_BYTES[kind]
        if size_in_bytes > self._free_bytes():
            raise BasicError("OUT OF MEMORY")
        self.array_bytes += size_in_bytes
        self.string_room -= size_in_bytes  # arrays grow up into the strings' room
        return Array(sizes, kind)

    def _free_bytes(self) -> int:
        """FRETOP - STREND after a garbage collection: what FRE(0) tells ($B37D)."""
        made, strings, _ = self._memory_in_use()
        return BASIC_BYTES_FREE - len(self.program) - 7 * made - self.array_bytes - strings

    def make(self, name: str) -> None:
        """The variable ``name`` is made (as PTRGET makes it) if it is not yet: it
        takes its 7 bytes, and its value is the initial one."""
        if self.namespace[name] is self.unset.get(name):
            self.namespace[name] = made_value(self.variables[name].kind)

    def define_function(self, parameter: str, body: Callable[[], float],
                        cycles: int = 0) -> Callable[[float], float]:
        """DEF FN: the function, its parameter saved and restored around each call.  Each
        call nested in another takes room on the 6502 stack (the ROM pushes the
        parameter's value and the text pointer, then evaluates the body): FN_NESTING
        calls fit, one more is ?OUT OF MEMORY, as a function defined through itself
        ends on the C64.  Each call takes ``cycles`` of the C64's time (the ROM reads the
        body's text again at every call, $B3F4)."""
        namespace = self.namespace
        self.make(parameter)  # DEF makes its parameter (measured: 14 bytes with the function)

        def function(argument: float) -> float:
            if self.function_depth >= FN_NESTING:
                raise BasicError("OUT OF MEMORY")
            namespace[CLOCK] += cycles
            saved = namespace[parameter]
            namespace[parameter] = _r(argument)
            self.function_depth += 1
            try:
                return body()
            finally:
                self.function_depth -= 1
                namespace[parameter] = saved

        return function

    # -- DATA ------------------------------------------------------------------------------------
    def read(self, kinds: tuple[Kind, ...]) -> list[Any]:
        """READ: the next DATA items, as the kinds of the variables they go to."""
        values: list[Any] = []
        for kind in kinds:
            if self.data_position >= len(self.data):
                raise BasicError("OUT OF DATA")
            item, quoted, line, _, trailing = self.data[self.data_position]
            scan, number = self._data_cycles()[self.data_position]
            self.namespace[CLOCK] += scan if kind is Kind.STRING else scan + number
            self.data_position += 1
            if trailing:
                raise BasicError("SYNTAX", line)
            if kind is Kind.STRING:
                # the string's descriptor points at the DATA item in the program's text
                values.append(Text(item.decode("latin-1")))
                continue
            if quoted:
                raise BasicError("SYNTAX", line)
            value, end = floats.parse_number(item)
            if item[end:].strip(b" "):
                raise BasicError("SYNTAX", line)
            values.append(value)
        return values

    def _data_cycles(self) -> list[tuple[int, int]]:
        """For each DATA item, READ's time (costs.py): finding it from the item before (the
        bytes DATAN passes, from the program's start for the first) and taking it, and
        FIN's for reading it as a number."""
        if self._data_cycles_of is not self.data:
            self._data_cycles_of = self.data
            read_item, scanned = costs.weight("read_item"), costs.weight("rest_byte")
            passed_line, passed_statement = costs.weight("data_line"), costs.weight("data_statement")
            line_starts, colons = _data_search_stops(self.lines)
            previous = BASIC_PROGRAM_START
            self._data_cycles_list = []
            for item in self.data:
                lines = bisect.bisect_left(line_starts, item.end) - bisect.bisect_right(line_starts, previous)
                statements = bisect.bisect_left(colons, item.end) - bisect.bisect_right(colons, previous)
                scan = round(read_item + scanned * max(item.end - previous, 0)
                             + passed_line * max(lines, 0) + passed_statement * max(statements, 0))
                self._data_cycles_list.append((scan, costs.cycles(costs.number_features(item.text))))
                previous = item.end
        return self._data_cycles_list

    # -- memory and machine code ---------------------------------------------------------------
    def peek(self, address: float, site: int | None = None, cycles: int = 0) -> float:
        """PEEK; ``cycles``: the statement's time since its PEEK before (costs.py), so
        two reads of a chip in one statement see it move on (VICE: two PEEK(53266) in
        one line read raster lines 59 apart)."""
        if cycles:
            self.namespace[CLOCK] += cycles
        where = _address(address)
        # the chips are brought up to the program's time first; RAM and ROM need it only
        # where the interrupts in between may have changed them: with the KERNAL's own
        # handler in Python and no cursor blinking, that is the jiffy clock alone.  Most
        # chip registers (the raster, the timers, the TOD clock) are read at the program's
        # time without it then: the handler does not change them (compiled_read_ahead)
        if 0xD000 <= where < 0xE000:
            if not self.irq_hooked:
                value = self.machine.read_io_ahead(where, self._catch_up_cycle())
                if value is not None:
                    return float(value)
            self.catch_up()
        elif (JIFFY_CLOCK <= where < JIFFY_CLOCK + 3 or not self._only_kernal_interrupts()
                or not self.machine.memory[CURSOR_BLINK]):
            self.catch_up()
        if TXTTAB <= where <= DATPTR + 1 or where == TXTPTR or where == TXTPTR + 1:
            self.publish_pointers(site)
        return float(self.machine.read(where))

    # -- BASIC's pointers in memory --------------------------------------------------------------
    # The compiled program keeps no 6502 pointers while it runs; where a program can look
    # (PEEK of 43-66 or TXTPTR, SYS, USR, FRE, the end of a run) they are written as the
    # ROM would have them: the program's end (VARTAB), 7 bytes for each variable made so
    # far, the arrays' bytes, the strings' space below MEMSIZ, the line and statement
    # running, the DATA read.  See _memory_in_use for what is made and what takes string
    # space; FRESPC is FRETOP plus the length of one of the strings.
    def _memory_in_use(self) -> tuple[int, int, int]:
        """The simple variables made so far, the bytes of string space in use after a
        garbage collection, and the length of one of those strings (the newest, as far
        as c64tc knows).  As the ROM does (measured with BASIC in ROM,
        tests/test_basic_strings.py): a variable is made (7 bytes) when it is first
        assigned (LET, FOR, INPUT, READ, GET), a DEF FN makes the function and its
        parameter; reading one that is not there makes nothing (PTRGET, $B0E7, hands
        EVAL a zero).  A string takes string space unless it lives in the program's text
        (a literal or DATA item, values.Text, whose descriptor points there); every
        other string a variable or array element holds is its own copy (LET copies a
        string another variable holds), and garbage collection (FRE, $B526) leaves
        exactly those.  Temporaries pending while FRE runs inside an expression are not
        counted."""
        made, strings, newest = 0, 0, 0
        namespace, unset = self.namespace, self.unset
        for name, (declared, kind) in self.variables.items():
            value = namespace.get(name)
            if declared is Declared.SCALAR:
                if value is not unset.get(name):
                    made += 1
                    if kind is Kind.STRING and value and type(value) is not Text:
                        strings += len(value)
                        newest = len(value)
            elif declared is Declared.FUNCTION:
                made += value is not undefined_function
            elif kind is Kind.STRING and isinstance(value, Array):
                # comprehensions and C-level filter/sum: a SYS in a loop pays this each time
                texts = [text for text in filter(None, value.cells.values()) if type(text) is not Text]
                if texts:
                    strings += sum(map(len, texts))
                    newest = len(texts[-1])
        return made, strings, newest

    def publish_pointers(self, site: int | None = None) -> None:
        """BASIC's pointers 43-66 and TXTPTR in memory, as the ROM has them at ``site``
        (a point of the compiled program; None: BASIC is in direct mode)."""
        memory = self.machine.memory
        start = read_word(memory, TXTTAB)
        variables = start + len(self.program)
        made, strings, newest = self._memory_in_use()
        arrays = variables + 7 * made
        top = read_word(memory, MEMSIZ)
        write_word(memory, VARTAB, variables)
        write_word(memory, ARYTAB, arrays)
        write_word(memory, STREND, arrays + self.array_bytes)
        write_word(memory, FRETOP, top - strings)
        write_word(memory, FRESPC, top - strings + newest)
        write_word(memory, OLDLIN, self.old_line)
        if self.data_position:
            item = self.data[self.data_position - 1]
            write_word(memory, DATLIN, item.line)
            write_word(memory, DATPTR, item.end)
        else:  # RESTORE ($A81D): before the program's first byte
            write_word(memory, DATPTR, start - 1)
        if site is None:
            memory[CURLIN + 1] = DIRECT_LINE >> 8
            write_word(memory, OLDTXT, self.old_text)
            return
        line, text, statement = self.sites[site]
        if line == DIRECT_LINE:
            memory[CURLIN + 1] = DIRECT_LINE >> 8
        else:
            write_word(memory, CURLIN, line)
        if statement is not None:
            self.old_text = statement
        write_word(memory, OLDTXT, self.old_text)
        write_word(memory, TXTPTR, text)

    def poke(self, address: int, value: int) -> None:
        if 0xD000 <= address < 0xE000:
            # POKE stores with STA ($14),Y, and the 6502 reads the address before it
            # writes there: an I/O register sees a read first (POKE 56331,x latches the
            # TOD clock, POKE 56589,x clears CIA 2's interrupt flags: measured on VICE,
            # tests/data/machine/poke-reads.bas); RAM and ROM reads change nothing.
            # The chips are brought up to the program's time first, as for PEEK; a
            # register whose write moves nothing, and whose read does nothing, is written
            # at that time without it (the next look at the clock brings the chips there)
            # where only the KERNAL's handler can interrupt: machine.poke's work, in line
            # (BASIC's hottest chip access) and outside a run, where the CPU's bookkeeping
            # of a store is not needed
            machine = self.machine
            io = machine.io
            writer = io.ahead_writers[address - IO_BASE] if io.visible else None
            if (writer is not None and not self.irq_hooked and machine.map.watch[address] == WATCH_MACHINE
                    and machine.only_kernal_interrupts()):
                # the cycle catch_up would bring the clock to (_catch_up_cycle), the stretch
                # as stretch() has it with the KERNAL's handler in Python: DEN alone decides
                stretch = self._kernal_stretch[machine.memory[0xD011] >> 4 & 1]
                pending = (self.namespace[CLOCK] - self.clock_seen) * stretch + self.clock_carry
                writer(io, address, value, machine.cpu.cycles + int(pending))
                return
            self.catch_up()
            machine.poke(address, value)
            return
        self.machine.write(address, value)
        # a program POKEs a vector's low byte, then its high byte: judged after the high byte
        if address in (IRQ_VECTOR, IRQ_VECTOR + 1, EXECUTE_VECTOR + 1, EVALUATE_VECTOR + 1, ERROR_VECTOR + 1):
            self._vectors_changed()

    def wait(self, address: float, mask: float, invert: float) -> None:
        """WAIT: until (PEEK(address) EOR invert) AND mask is not 0, the time passing as
        the ROM's loop ($B83C) reads the address again and again: the raster's registers
        line by line, the rest from one event of the chips (an interrupt, a timer) to the
        next.  A program waiting for the keyboard buffer ($C6) gets the next typed key
        then.  A wait nothing can end (memory that neither the chips nor the KERNAL's
        interrupt handler change, or a mask of 0) ends the run with a message."""
        machine = self.machine
        where, bits, flip = _address(address), _byte(mask), _byte(invert)
        self.catch_up()
        if (machine.read(where) ^ flip) & bits:
            return
        if where == KEYBOARD_COUNT and machine.keyboard.fill(1) and (machine.read(where) ^ flip) & bits:
            return
        if where == KEYBOARD_COUNT:
            raise Ended(Stop.INPUT_EXHAUSTED, f"WAIT {where},{bits} waits for a key, but the input is "
                        "used up")
        if not bits or not self._changes_with_time(where):
            raise Ended(Stop.INPUT_EXHAUSTED, f"WAIT {where},{bits},{flip} would wait forever: nothing "
                        "changes that memory in a headless run")
        cpu, io = machine.cpu, machine.io
        raster = where & 0xFC3F in (0xD011, 0xD012)  # the VIC-II's registers repeat every 64 bytes
        while True:
            if cpu.cycles >= self.cycle_limit:
                raise Ended(Stop.CYCLE_LIMIT, f"stopped after {self.max_cycles:,} cycles of C64 time (in "
                            f"WAIT {where},{bits},{flip})")
            if raster:
                until = cpu.cycles + WAIT_TURN_CYCLES
            else:
                until = max(io.next_event(cpu.cycles), cpu.cycles + WAIT_TURN_CYCLES)
            result = machine.pass_time(min(until, self.cycle_limit), max(self.cycle_limit - cpu.cycles, 1))
            if result is not None:
                handler = read_word(machine.memory, IRQ_VECTOR)
                raise Ended(result.stop, f"the interrupt handler at ${handler:04X}: {result.message}")
            if (machine.read(where) ^ flip) & bits:
                return

    def _changes_with_time(self, where: int) -> bool:
        """Whether memory at ``where`` can change while BASIC waits: the chips' registers
        that count (the raster, the CIAs' timers, TOD and interrupt flags, SID's voice 3),
        and the RAM the interrupt handler changes (the KERNAL's: the jiffy clock; a
        program's own handler: anything)."""
        if self.irq_hooked:
            return True
        if 0xD000 <= where < 0xD400:
            return where & 0x3F in (0x11, 0x12, 0x19)
        if 0xD400 <= where < 0xD800:
            return where & 0x1F in (0x1B, 0x1C)
        if 0xDC00 <= where < 0xDE00:
            return where & 0x0F in (4, 5, 6, 7, 8, 9, 10, 11, 13)
        return JIFFY_CLOCK <= where <= JIFFY_CLOCK + 2

    def sys(self, address: int, site: int | None = None) -> None:
        """SYS: machine code from ``address`` as the ROM's SYS calls it (the registers
        from 780-783 and back: :meth:`C64.sys`), BASIC's pointers in memory."""
        self.catch_up()
        self.publish_pointers(site)
        machine = self.machine
        cpu = machine.cpu
        budget = max(self.cycle_limit - cpu.cycles, 1)
        if self.max_call_cycles is not None:
            budget = min(budget, self.max_call_cycles)
        result = machine.sys(address, budget)
        self._vectors_changed()
        if result.stop is Stop.INPUT_EXHAUSTED:
            raise Ended(Stop.INPUT_EXHAUSTED, result.message)
        if result.stop is Stop.ERROR and machine.caller_error is not None:
            name, machine.caller_error = machine.caller_error, None
            raise BasicError(name)
        if machine.reset_by_program:  # SYS 64738: BASIC started again, NEW'd ($A644)
            machine.reset_by_program = False
            self._use_program(b"\0\0", compile_program(b"\0\0", line_hooks=self.line_hooks))
            self.clear()
        if result.stop is not Stop.RETURNED:
            raise Ended(result.stop, f"SYS {address}: {result.message}")

    def usr(self, value: float, site: int | None = None) -> float:
        """USR: the number in FAC, machine code called through the USR vector ($0311;
        after power-on $B248, ?ILLEGAL QUANTITY), FAC its result."""
        memory = self.machine.memory
        data = floats.to_bytes(value)
        memory[0x61] = data[0]
        memory[0x62:0x66] = bytes([data[1] | 0x80]) + data[2:]
        memory[0x66] = 0xFF if value < 0 else 0
        self.sys(memory[0x0311] | memory[0x0312] << 8, site)
        mantissa = bytes([memory[0x62] & 0x7F | (memory[0x66] & 0x80)]) + bytes(memory[0x63:0x66])
        return floats.from_bytes(bytes([memory[0x61]]) + mantissa)

    def _timed_concat(self, left: str, right: str) -> str:
        text = _concat(left, right)
        self._string_made(len(text))
        return text

    def _copied(self, text: str) -> str:
        """LET of a string that another variable (or array element) holds: the ROM copies
        it when it lies in string space ($AA2C: the string at or above FRETOP, its
        descriptor a variable's, at or above VARTAB), since each string there has one
        owner for the garbage collection; a literal or DATA item of the program's text
        keeps its pointer.  Measured on the ROM: 214 cycles more, and 18 a byte."""
        if type(text) is str and text:
            self.namespace[CLOCK] += self._copy_cycles
            self._string_made(len(text))
        return text

    @property
    def string_space_used(self) -> int:
        return self.strings[0]

    @string_space_used.setter
    def string_space_used(self, used: int) -> None:
        self.strings[0] = used

    @property
    def string_room(self) -> int:
        return self.strings[1]

    @string_room.setter
    def string_room(self, room: int) -> None:
        self.strings[1] = room

    def _keeper(self) -> Callable[[str], str]:
        """``_kept``: LET of a string a function made (LEFT$, CHR$, TI$...; STR$ has its
        own, io.install_fout): its bytes were copied on the function's time (costs.py),
        here they take their room in string space.  A closure: a call per such LET, and
        no more while the room lasts."""
        strings, room_taken = self.strings, self._string_room_taken

        def kept(text: str) -> str:
            used = strings[0] + len(text)
            if used > strings[1]:
                room_taken(len(text))  # the garbage collected first, or ?OUT OF MEMORY
            else:
                strings[0] = used
            return text

        return kept

    def _string_made(self, size: int) -> None:
        """A new string of ``size`` bytes in string space (GETSPA, $B4F4; MOVSTR copies
        its bytes), collecting the garbage when the space is used up."""
        self.namespace[CLOCK] += round(size * costs.weight("string_byte"))
        self._string_room_taken(size)

    def _string_room_taken(self, size: int) -> None:
        """``size`` bytes more in string space, after a garbage collection if the room
        is used up (GETSPA, $B4F4)."""
        if self.string_space_used + size > self.string_room:
            self.collect_garbage()
            if self.string_space_used + size > self.string_room:
                # GETSPA collects once, then gives up ($B50A): the strings still in use
                # and the new one do not fit between the arrays and the top of memory
                raise BasicError("OUT OF MEMORY")
        self.string_space_used += size

    def collect_garbage(self) -> None:
        """The ROM's garbage collection ($B526) on the C64's clock: for each string in use
        it looks through every string descriptor for the highest one (so the time grows
        with the square of their number), and moves it up."""
        in_use, count = 0, 0
        for name, (declared, kind) in self.variables.items():
            if kind is not Kind.STRING:
                continue
            value = self.namespace.get(name)
            if declared is Declared.SCALAR:
                texts = [value] if value and type(value) is not Text else []
            elif isinstance(value, Array):
                texts = [text for text in value.cells.values() if text and type(text) is not Text]
            else:
                continue
            count += len(texts)
            in_use += sum(map(len, texts))
        descriptors = count + 3  # the temporary strings' descriptors are looked at too
        cycles = (costs.weight("gc") + descriptors * descriptors * costs.weight("gc_pair")
                  + in_use * costs.weight("string_byte"))
        self.namespace[CLOCK] += round(cycles)
        made = self._memory_in_use()[0]
        self.string_room = BASIC_BYTES_FREE - len(self.program) - 7 * made - self.array_bytes
        self.string_space_used = in_use

    def free(self) -> float:
        """FRE: the bytes free after a garbage collection, as a signed 16-bit number."""
        self.collect_garbage()  # FRE collects the garbage first ($B526), on the C64's clock
        free = self._free_bytes()
        return float(free - 65536 if free > 32767 else free)

    def rnd(self, argument: float) -> float:
        return self.random.next(argument, self.statements)

    # -- the clock ----------------------------------------------------------------------------------
    # The generated code counts BASIC's cycles in its global _T, as the ROM's interpreter
    # would take them (costs.py); the machine's clock is brought up to date where a
    # program can notice the time: TI and TI$, PEEK, POKE into the chips, SYS and USR,
    # WAIT, PRINT.  The chips catch up then and their interrupts happen (the jiffy clock at
    # $A0-$A2 counts CIA 1's); a program's own handler (a changed $0314) runs each of
    # them, so the dispatcher also looks every CHUNK statement groups.
    def stretch(self) -> float:
        """The machine's cycles per cycle of BASIC now (costs.stretch): the bad lines while
        the screen is on, the KERNAL's handler where it runs in Python."""
        memory = self.machine.memory
        # DEN: the VIC-II reads the screen.  Memory at $D011 shows the register as a read
        # would (the I/O area keeps it so), without the read's effect: a CPU's read of
        # $D011 would tell the VIC-II that the program watches the raster
        key = memory[0xD011] & 0x10 | memory[IRQ_VECTOR] << 8 | memory[IRQ_VECTOR + 1] << 16
        if key != self._stretch_key:
            irq_in_python = self.machine.roms is None and key >> 8 == STANDARD_IRQ_HANDLER
            self._stretch_key, self._stretch = key, costs.stretch(bool(key & 0x10), irq_in_python)
        return self._stretch

    def _only_kernal_interrupts(self) -> bool:
        """Whether catching the machine's clock up can run nothing but the KERNAL's own
        interrupt handler (C64.only_kernal_interrupts; no program's handler either).
        Then a POKE into a register of IOArea.ahead_writers is made at its cycle before
        the clock catches up with it, a PEEK of most chip registers too
        (C64.read_io_ahead), and a PEEK of memory those interrupts leave alone needs no
        catching up."""
        return not self.irq_hooked and self.machine.only_kernal_interrupts()

    def _catch_up_cycle(self) -> int:
        """The machine's cycle :meth:`catch_up` would bring the clock to now."""
        pending = (self.namespace[CLOCK] - self.clock_seen) * self.stretch() + self.clock_carry
        return self.machine.cpu.cycles + int(pending)

    def catch_up(self) -> None:
        machine = self.machine
        basic = self.namespace[CLOCK]
        if basic <= self.clock_seen:
            return
        stretch = self.stretch()
        exact = (basic - self.clock_seen) * stretch + self.clock_carry
        whole = int(exact)
        self.clock_carry = exact - whole
        self.clock_seen = basic
        cpu = machine.cpu
        result = machine.pass_time(cpu.cycles + whole, max(self.cycle_limit - cpu.cycles, 1))
        if result is not None:
            handler = read_word(machine.memory, IRQ_VECTOR)
            raise Ended(result.stop, f"the interrupt handler at ${handler:04X}: {result.message}")
        self.clock_limit = basic + max(self.cycle_limit - cpu.cycles, 0) / stretch

    def cycle_reached(self) -> int:
        """The machine's cycle BASIC has reached, without bringing the chips up to it."""
        pending = (self.namespace[CLOCK] - self.clock_seen) * self.stretch() + self.clock_carry
        return self.machine.cpu.cycles + round(pending)

    def now(self) -> int:
        """The machine's cycle BASIC has reached (the clock caught up)."""
        self.catch_up()
        return self.machine.cpu.cycles

    def check_cycle_limit(self) -> None:
        """The run's time is up (--max-cycles): it stops, as machine code would."""
        self.catch_up()
        if self.machine.cpu.cycles >= self.cycle_limit:
            raise Ended(Stop.CYCLE_LIMIT, f"stopped after {self.max_cycles:,} cycles of C64 time")

    def _vectors_changed(self) -> None:
        """After a POKE into the vectors or a SYS: whether a program's IRQ handler runs,
        and whether the program has taken over BASIC's statement or expression vector
        (IGONE $0308, IEVAL $030A), which the ROM's interpreter calls for every statement
        and every operand: a BASIC extension; or its error vector (IERROR $0300), which
        every error and END go through (an error trap, an "ON ERROR GOTO").  Compiled
        BASIC goes on without it (most extensions pass ordinary statements on, as
        8409_list-stop does), and says so once."""
        memory = self.machine.memory
        self.irq_hooked = read_word(memory, IRQ_VECTOR) != STANDARD_IRQ_HANDLER
        for vector, name, taken, instead in _TAKEN_OVER:
            value = read_word(memory, vector)
            if value != BASIC_VECTOR_VALUES[(vector - 0x0300) // 2] and vector not in self.warned_vectors:
                self.warned_vectors.add(vector)
                self.machine.warn(
                    f"the program points BASIC's {name} vector (${vector:04X}) at ${value:04X}: {taken}, "
                    f"which c64tc's compiled BASIC does not follow ({instead}); BASIC in the C64's ROM "
                    "follows it: --roms DIR --boot")

    def jiffies(self) -> float:
        """TI: the jiffy clock."""
        self.catch_up()
        memory = self.machine.memory
        return float(memory[JIFFY_CLOCK] << 16 | memory[JIFFY_CLOCK + 1] << 8 | memory[JIFFY_CLOCK + 2])

    def time_string(self) -> str:
        """TI$: the jiffy clock as hours, minutes, seconds."""
        seconds = int(self.jiffies()) // 60
        return f"{seconds // 3600:02d}{seconds // 60 % 60:02d}{seconds % 60:02d}"

    def set_time(self, text: str) -> None:
        """TI$ = "HHMMSS": the jiffy clock set ($A9E7 and the KERNAL's SETTIM).  The ROM
        checks the length and each character, not the ranges: a character is a digit
        for it when CHRGET's test from $0080 says so, which passes every code from "0"
        up ($30-$FF; below: ?ILLEGAL QUANTITY, $AA1D), worth its code less $30 as a
        signed byte ($BD7E adds it through $BC3C); the pairs are hours, minutes and
        seconds at any value (FIN's add, MUL10 and times 6, $A9ED-$AA11), and SETTIM
        takes the three low bytes of the jiffies' two's complement (QINT).  VICE:
        TI$="999999" reads back 230018 (99:99:99 is 21,746,340 jiffies, less 2^24),
        "0A0000" 170000, CHR$(200) for the second digit 712040; UDTIM sets the clock
        to 0 at 24 hours or past."""
        if len(text) != 6 or min(map(ord, text)) < 0x30:
            raise BasicError("ILLEGAL QUANTITY")
        digits = [(ord(character) - 0x30 ^ 0x80) - 0x80 for character in text]
        hours, minutes, seconds = (10 * digits[i] + digits[i + 1] for i in (0, 2, 4))
        self.catch_up()
        jiffies = (hours * 3600 + minutes * 60 + seconds) * 60 % 0x1000000
        memory = self.machine.memory
        memory[JIFFY_CLOCK : JIFFY_CLOCK + 3] = jiffies.to_bytes(3, "big")

    def end_statement(self, cont: int | None, line: int) -> None:
        """END: the run ends; CONT goes on at segment ``cont`` (None in direct mode, which
        keeps CONT as it was), OLDLIN is the line ($A831)."""
        if cont is not None:
            self.cont_segment, self.old_line = cont, line
        raise ProgramEnded

    def stop_statement(self, cont: int | None, line: int) -> None:
        if cont is not None:
            self.cont_segment, self.old_line = cont, line
        raise Ended(Stop.BREAK, "STOP")

    def cont(self) -> int:
        """CONT ($A857): on where END, STOP or BREAK stopped the program."""
        if self.cont_segment is None:
            raise BasicError("CAN'T CONTINUE")
        return self.cont_segment

    def direct_done(self) -> int:
        """The end of a line typed in direct mode: READY."""
        raise ProgramEnded

    def new_program(self) -> None:
        """NEW ($A642): no program (its two zero bytes at the start of BASIC), CLR."""
        memory = self.machine.memory
        start = read_word(memory, TXTTAB)
        memory[start : start + 2] = b"\0\0"
        self._use_program(b"\0\0", compile_program(b"\0\0", line_hooks=self.line_hooks))
        self.clear()
        raise ProgramEnded

    def list_program(self, first: int = 0, last: int = 0xFFFF) -> None:
        """LIST ($A69C): each line from the first numbered ``first`` or more up to
        ``last``, through CHROUT as the ROM prints it: RETURN, the number, a space, the
        bytes with the keywords spelled out (not inside quotes: the quote flag toggles on
        every quote, REM and DATA do not count); RUN/STOP ends it."""
        output = self.io.output
        for line in self.lines:
            if line.number < first:
                continue
            self.check_stop()
            output.newline()  # before the number is compared with the end ($A6D4)
            if line.number > last:
                break
            output.text(f"{line.number} ")
            quoted = False
            for byte in line.body:
                if byte == QUOTE:
                    quoted = not quoted
                if byte < 0x80 or byte == PI or quoted or not is_token(byte):
                    output.byte(byte)
                else:
                    output.text(keyword_of(byte))

    def check_stop(self) -> None:
        """The STOP key, as the ROM's statements that loop check it ($A82C)."""
        if self.machine.keyboard.stop_pressed():
            raise Ended(Stop.BREAK, "BREAK")

    # -- LOAD in a program -------------------------------------------------------------------------
    def after_load(self) -> int:
        """After LOAD in a program ($E1B5): the lines in memory linked anew (LINKPRG), then
        run from the first line with the variables, arrays and open files kept, the
        FOR/GOSUB stack emptied and READ back at the first DATA ($A677).  A program that
        is not the one running is compiled into the same namespace, so its variables
        carry over by name (on a C64 they stay where they were in memory: a longer
        program loaded over them would spoil them, which c64tc does not model)."""
        program = linked_program(self.machine)
        if program != self.program:
            compiled = self._compile_loaded(program)
            self._use_program(program, compiled)
        self.stack.clear()
        self.stack_bytes = 0
        self.data_position = 0
        return 0

    def loaded_in_direct_mode(self) -> None:
        """After LOAD typed at READY. ($E1A1): the program's end becomes the start of
        the variables, then $A52A: CLR, the lines linked anew, READY.; nothing runs."""
        program = linked_program(self.machine)
        compiled = self._compile_loaded(program)
        self._use_program(program, compiled)
        self.clear()
        self.publish_pointers()
        raise ProgramEnded

    def _compile_loaded(self, program: bytes) -> Compiled:
        """The program LOAD put in memory, compiled; bytes without BASIC's line structure
        (split_program's UserError) are what c64tc cannot run (a C64 would run whatever
        they say): the run stops as on an unmodelled ROM call.  Anything else raised is
        c64tc's own failure and goes on up."""
        try:
            return compile_program(program, line_hooks=self.line_hooks)
        except UserError as error:
            raise Ended(Stop.ROM_CALL, "LOAD put bytes at $0801 that are not a BASIC program: c64tc "
                        f"cannot run them ({error.diagnostics[0].message})") from None

    def _use_program(self, program: bytes, compiled: Compiled, code: Any = None) -> None:
        """Run ``compiled`` from now on, in the same namespace: the variables it shares
        with the program before keep their values, new ones start empty."""
        exec(code or compile(compiled.module.source, GENERATED, "exec"), self.namespace)
        for name, (declared, kind) in compiled.variables.items():
            if name not in self.variables:
                if declared is Declared.SCALAR:
                    self.namespace[name] = self.unset[name] = unset_value(kind)
                elif declared is Declared.FUNCTION:
                    self.namespace[name] = undefined_function
                else:
                    self.namespace[name] = Undimensioned(self.namespace, name, kind)
        if program != self.program:
            self.data = data_items(compiled.lines)
        self.program, self.lines, self.module, self.sites = program, compiled.lines, compiled.module, \
            compiled.sites
        self.variables = {**self.variables, **compiled.variables}
        self.segments[:] = [*self.namespace["_make"](), _end_of_program]
        self.segment_lines = self._segment_lines()

    # -- running ---------------------------------------------------------------------------------
    def run(self, max_statements: int | None = None,
            progress: Callable[[int, int], None] | None = None,
            every: tuple[int, Callable[[], None]] | None = None) -> RunResult:
        """RUN: from the first line, until END, an error or a limit; then direct mode
        reads what is typed (:meth:`direct_mode`).  ``every``: a callback every so many
        statement groups (frames of a film, the live view)."""
        started = time.perf_counter()
        limit = max_statements if max_statements is not None else 1 << 62
        self.run_started = self.machine.cpu.cycles
        self.cycle_limit = self.run_started + self.max_cycles
        self.clock_limit = self.namespace[CLOCK] + self.max_cycles / self.stretch()
        result = self._execute(0, limit, progress, every, started)
        return self.direct_mode(result, limit, progress, every, started)

    def _execute(self, index: int, limit: int, progress: Callable[[int, int], None] | None,
                 every: tuple[int, Callable[[], None]] | None, started: float) -> RunResult:
        """The dispatcher: segments from ``index`` on until the run ends."""
        segments = self.segments
        executed = self.statements
        if executed >= limit:
            return self._finish(Stop.STATEMENT_LIMIT, f"stopped after {_groups(executed)} in line "
                                f"{self._line_at(index)}", started)
        step = -1
        chunk = (0,) * min(CHUNK, limit - executed)
        next_check = min(executed + CHECK_EVERY, limit)
        every_count, every_call = every if every is not None else (1 << 62, None)
        every_due = every_count
        self._vectors_changed()
        clock = self.namespace
        groups = iter(chunk)
        try:
            try:
                while True:
                    before = clock[CLOCK]
                    # the chunk's groups, taken by this loop's calls and by the loops that
                    # run in place in the generated code (linker.py)
                    clock[GROUPS] = groups = iter(chunk)
                    for step in groups:  # noqa: B007 (step >= 0: a statement group raised)
                        index = segments[index]()
                    executed += len(chunk)
                    step = -1
                    self.statements = executed
                    if self.irq_hooked:
                        self.catch_up()
                    after = clock[CLOCK]
                    if after > SMALL_CLOCK:
                        # the clock's count starts again from 0 (its reference points move
                        # with it): a small int adds faster than a large one
                        self.clock_seen -= after
                        self.clock_limit -= after
                        before -= after
                        clock[CLOCK] = after = 0
                    if 2 * after - before >= self.clock_limit:
                        # the next chunk may pass the cycle limit: one group at a time from
                        # here, so that the run stops where the C64's time is up
                        chunk = (0,)
                        if after >= self.clock_limit:
                            self.check_cycle_limit()
                    if executed >= every_due and every_call is not None:
                        every_due = executed + every_count
                        every_call()
                    if executed < next_check:
                        continue
                    if executed >= limit:
                        return self._finish(Stop.STATEMENT_LIMIT,
                                            f"stopped after {_groups(executed)} in line "
                                            f"{self._line_at(index)}", started)
                    if progress is not None:
                        progress(executed, self._line_at(index))
                    next_check = min(executed + CHECK_EVERY, limit)
                    chunk = (0,) * min(CHUNK, limit - executed)
            except ProgramEnded:
                self.statements = executed + _groups_started(step, chunk, groups)
                if index == len(segments) - 1 and self._line_at(index) != DIRECT_LINE:
                    self.cont_segment = index  # ran off the end: CONT ends again ($A7CB)
            except BasicError as error:
                self.statements = executed + _groups_started(step, chunk, groups)
                line = error.line if error.line is not None else self._line_of(error, index)
                self._print_error(error.name, DIRECT_LINE if error.unnumbered else line)
                message = f"?{error.name}  ERROR" if error.unnumbered else f"?{error.name}  ERROR IN {line}"
                note = f"in line {line}, which the C64 does not name" if error.unnumbered else ""
                note = "; ".join(filter(None, (note, error.note)))
                if note:
                    message += f" ({note})"
                return self._finish(Stop.ERROR, message, started, line)
            except floats.FloatError as error:
                self.statements = executed + _groups_started(step, chunk, groups)
                line = self._line_of(error, index)
                self._print_error(error.error, line)
                return self._finish(Stop.ERROR, f"?{error.error}  ERROR IN {line}", started, line)
        except (Ended, MachineStopped) as ended:  # MachineStopped: in a program's CHROUT hook
            self.statements = executed + _groups_started(step, chunk, groups)
            if ended.stop is Stop.BREAK:
                line = self._line_of(ended, index)
                if line == DIRECT_LINE:
                    self._show("\rBREAK\rREADY.\r")
                    return self._finish(Stop.BREAK, "BREAK", started, line)
                if ended.message != "STOP":  # RUN/STOP: CONT runs the statement group again
                    self.cont_segment = self._group_start(ended, index)
                self.old_line = line
                self._show(f"\rBREAK IN {line}\rREADY.\r")
                return self._finish(Stop.BREAK, f"BREAK IN {line}", started, line)
            if ended.stop is Stop.ROM_CALL:  # where the call was, for the message's place
                return self._finish(ended.stop, ended.message, started, self._line_of(ended, index))
            return self._finish(ended.stop, ended.message, started)
        finally:
            clock[GROUPS] = iter(())  # no loop in place outside the dispatcher (the monitor's lines)
        # END and the end of the program reach READY. without CLRCHN ($A84B, $E386): after
        # CMD it goes to the file, as on a C64
        output = self.io.output
        # the ROM's string is RETURN, line feed, READY., RETURN, line feed ($A377): the
        # screen ignores the line feeds, a file gets them
        stopped = self._show("\rREADY.\r" if type(output) is ScreenOutput else "\r\nREADY.\r\n", output)
        if stopped is not None:
            return self._finish(stopped.stop, stopped.message, started)
        return self._finish(Stop.END, "program ended", started)

    def _show(self, text: str, output: ScreenOutput | None = None) -> MachineStopped | None:
        """BASIC's last words on the screen (or ``output``); how printing them stopped,
        if a program's CHROUT hook went where the machine cannot follow."""
        try:
            (output or self.io.to_screen()).text(text)
        except MachineStopped as stopped:
            return stopped
        except Ended as ended:
            return MachineStopped(ended.stop, ended.message)
        return None

    # -- direct mode -----------------------------------------------------------------------------
    def direct_mode(self, result: RunResult, limit: int, progress: Callable[[int, int], None] | None,
                    every: tuple[int, Callable[[], None]] | None, started: float) -> RunResult:
        """After READY.: the lines queued in the keyboard buffer, as BASIC's main loop
        reads them ($A480) with the screen editor, until the buffer is empty; the result
        is how the last program run ended (an error in a direct statement does not change
        it, as on a C64 with the ROMs)."""
        return self._direct_lines(result, limit, progress, every, started)

    def _direct_lines(self, result: RunResult, limit: int, progress: Callable[[int, int], None] | None,
                      every: tuple[int, Callable[[], None]] | None, started: float) -> RunResult:
        machine = self.machine
        memory = machine.memory
        while result.stop in READY_STOPS:
            memory[kernal.MESSAGES] = 0x80  # READY. turns control messages on ($A47B)
            if not memory[KEYBOARD_COUNT]:
                break
            if self.statements >= limit:
                return self._finish(Stop.STATEMENT_LIMIT, f"stopped after {_groups(self.statements)} "
                                    "in direct mode", started)
            # Only the keys queued in the keyboard buffer are typed at READY. (what the
            # dynamic keyboard leaves there): the typed input (--input, a pipe, the player)
            # stays the program's, as in the VICE measurements, which type none at READY.
            # A line begun from the buffer and not ended waits for its RETURN: the run ends.
            keyboard = machine.keyboard
            saved = keyboard.keys, keyboard.line_source, keyboard.live
            keyboard.keys, keyboard.line_source, keyboard.live = deque(), None, None
            try:
                text = machine.read_line()
                if not memory[kernal.OUTPUT_DEVICE] > kernal.SCREEN:
                    machine.print_byte(0x0D)  # INLIN's RETURN ($AACA), not while CMD is in force
            except MachineStopped:  # a line begun, not ended: the C64 waits for its RETURN
                break
            finally:
                keyboard.keys, keyboard.line_source, keyboard.live = saved
            self.statements += 1
            line_result = self._direct_line(text, limit, progress, every, started)
            if line_result is None:
                continue
            if line_result.line == DIRECT_LINE and line_result.stop in (Stop.ERROR, Stop.BREAK):
                result = RunResult(result.stop, result.message, line_result.cycles, line_result.instructions,
                                   line_result.statements, line_result.wall_seconds, result.line,
                                   line_result.printer)
            else:
                result = line_result
        return result

    def _direct_line(self, text: bytes, limit: int, progress: Callable[[int, int], None] | None,
                     every: tuple[int, Callable[[], None]] | None, started: float) -> RunResult | None:
        """One typed line: a numbered line changes the program (None: no READY.), any
        other is run as a direct statement."""
        try:
            numbered = line_number_of(text)
        except ValueError:
            self._print_error("SYNTAX", DIRECT_LINE)
            return self._finish(Stop.ERROR, "?SYNTAX  ERROR", started, DIRECT_LINE)
        memory = self.machine.memory
        start = read_word(memory, TXTTAB)
        if numbered is not None:
            number, rest = numbered
            program = edit_program(self.program, start, number, crunch_typed(rest))
            memory[start : start + len(program)] = program
            self._use_program(program, compile_program(program, line_hooks=self.line_hooks))
            self.clear()  # $A4ED: the line entered, then CLR
            self.publish_pointers()
            return None
        body = crunch_typed(text)
        if not body.strip(b" "):
            return None  # an empty line: BASIC reads the next one ($A48E)
        code, compiled = self.compile_typed(body)
        self._use_program(self.program, compiled, code)
        first = self.segment_lines.index(DIRECT_LINE)
        return self._execute(first, limit, progress, every, started)

    def compile_typed(self, body: bytes) -> tuple[Any, Compiled]:
        """A crunched line typed in direct mode: put in the input buffer as the ROM reads
        it ($0200), and compiled after the program's lines (kept for the next time)."""
        memory = self.machine.memory
        memory[INPUT_BUFFER : INPUT_BUFFER + len(body) + 3] = body + b"\0\0\0"
        key = (self.program, body)
        cached = self.direct_cache.get(key)
        if cached is None:
            compiled = compile_program(self.program, body, self.line_hooks)
            cached = (compile(compiled.module.source, GENERATED, "exec"), compiled)
            if len(self.direct_cache) < DIRECT_CACHE_SIZE:
                self.direct_cache[key] = cached
        return cached

    def _line_of(self, error: BaseException, index: int) -> int:
        """The BASIC line being run when ``error`` was raised: from the generated
        code's line in the traceback (a segment may run several BASIC lines)."""
        traceback = error.__traceback__
        while traceback is not None:
            # the outermost frame of generated code is the segment; deeper ones are
            # DEF FN bodies, and the C64 reports the line that called the function
            if traceback.tb_frame.f_code.co_filename == GENERATED:
                return self.module.basic_lines[traceback.tb_lineno - 1]
            traceback = traceback.tb_next
        return self._line_at(index)

    def _group_start(self, error: BaseException, index: int) -> int:
        """The segment whose statement group was running when ``error`` was raised: the
        one the dispatcher called, or the one whose code that function ran in place."""
        traceback = error.__traceback__
        while traceback is not None:
            if traceback.tb_frame.f_code.co_filename == GENERATED:
                return self.module.group_starts.get(traceback.tb_lineno, index)
            traceback = traceback.tb_next
        return index

    def _line_at(self, index: int) -> int:
        """The BASIC line of segment ``index`` (the end counts as the last line)."""
        lines = self.segment_lines
        return lines[min(index, len(lines) - 1)] if lines else 0

    def _print_error(self, name: str, line: int) -> None:
        self.cont_segment = None  # the error routine clears OLDTXT ($A462, $A67A)
        self.old_text = 0
        if line == DIRECT_LINE:  # no " IN" in direct mode ($A46C)
            self._show(f"\r?{name}  ERROR\rREADY.\r")
        else:
            self._show(f"\r?{name}  ERROR IN {line}\rREADY.\r")

    def _finish(self, stop: Stop, message: str, started: float, line: int | None = None) -> RunResult:
        """The run's result; its cycles: the C64's time from RUN to here (the chips are
        not brought up to it: hours of interrupts nobody looks at would take a while; a
        later look at the time does it)."""
        self.publish_pointers()
        cpu = self.machine.cpu
        return RunResult(stop, message, cycles=self.cycle_reached() - self.run_started,
                         instructions=cpu.instructions,
                         statements=self.statements, wall_seconds=time.perf_counter() - started,
                         line=line, printer=bytes(self.io.printer))
