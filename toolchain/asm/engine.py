"""The pass structure for the 64tass and ACME dialects: passes over the whole source
until every label keeps its value.

The dialects are front ends (``tass.py``, ``acme.py``): they cut lines into the
statements of ``parser.py`` (labels, instructions, data, directives) plus a few of their
own, and carry out their directives.  This module is the part they share with each other
and with Profi-Ass (``assembler.py``, whose ``_Assembly`` it extends): the evaluator
(``expressions.py``), the symbol table, the instruction encoder and its range checks,
the 64 KiB image with its overlap rule, diagnostics and the ``Program`` every output
format is written from.

A pass walks the statements from the first source to the last, following includes,
macro expansions and loops; it lays out and emits at once, so a variable (``.var``,
``!set``, a loop counter) has its value of that moment.  A symbol not defined yet takes
its value from the previous pass.  The passes repeat until no label changes (64tass
shrinks forward references to zero page that way; ACME keeps the size it chose in the
first pass); the errors of the last pass are the ones reported.

Bounded work: passes, statements a pass carries out, loop iterations, macro nesting and
include depth all have limits, and the walk uses explicit stacks, never Python recursion.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolchain.asm import values as V
from toolchain.asm.assembler import (
    _ALL_ENCODINGS,
    AssemblyOptions,
    Program,
    SymbolInfo,
    _Assembly,
    _hex,
)
from toolchain.asm.cpus import InstructionSet
from toolchain.asm.expressions import Expr, ExpressionError, UnknownSymbol, evaluate, symbols_in
from toolchain.asm.parser import Instruction, Label, ParseError, SourceLine, Statement, Syntax
from toolchain.cpu.opcodes import Mode, Opcode
from toolchain.diagnostics import Diagnostic, UserError

#: Passes before the assembler gives up on sizes that keep changing.
MAX_PASSES = 20
#: Statements one pass may carry out (loops and macros included), and all passes together.
MAX_STEPS = 1_000_000
MAX_TOTAL_STEPS = 4_000_000
#: Errors after which a pass stops (a cascade of them is no news).
MAX_PASS_ERRORS = 200
#: Iterations of one loop.
MAX_ITERATIONS = 65_536
#: Macros and loops inside one another, and includes inside one another.
MAX_DEPTH = 256
MAX_INCLUDE_DEPTH = 64


# -- the statements the dialects add ---------------------------------------------------------
@dataclass(slots=True)
class Failed(Statement):
    """A line that did not parse: its error is reported only if the walk reaches it (a
    line in an ``.if`` that is false, or after ``!eof``, is never checked)."""

    message: str


@dataclass(slots=True)
class Op(Statement):
    """A directive of a dialect: ``name`` is its canonical spelling, ``args`` its
    expressions, ``text`` the argument text as written, ``extra`` what the front end
    parsed beyond expressions (a macro's parameters, a loop's variable...)."""

    name: str
    args: list[Expr] = field(default_factory=list)
    text: str = ""
    extra: Any = None
    label: str | None = None  # the label in front of it, as written
    label_column: int = 0


@dataclass(slots=True)
class Assign(Statement):
    """``name = value`` (a constant), ``name := value`` / ``!set name = value`` (a
    variable), ``name += value`` and the other compound forms."""

    name: str
    expr: Expr | None
    kind: str  # "const", "var", "update" (compound), "reassign"
    op: str = ""  # the binary operation of a compound assignment


@dataclass(slots=True)
class DialectInstruction(Instruction):
    """An instruction with what the dialects add: a forced operand size (64tass ``@w``,
    ACME ``lda+2``), 64tass's signed immediate ``#-1``."""

    force: int = 0  # 1 or 2 operand bytes, 0 for the value's own size
    signed: bool = False


@dataclass(slots=True)
class Frame:
    """A list of statements the walk is going through."""

    statements: list[Statement]
    index: int
    end: int
    kind: str  # "file", "macro", "loop", "block"
    on_exit: Callable[[], None] | None = None
    path: str = ""  # for "file": the file, to find cycles


class Unknown(Exception):
    """A symbol without a value yet (this pass or an earlier one)."""

    def __init__(self, name: str, column: int) -> None:
        super().__init__(name)
        self.name = name
        self.column = column


@dataclass
class Scope:
    key: str  # the prefix of every symbol key in it ("" for the global scope)
    parent: Scope | None
    kind: str = "global"
    children: int = 0  # anonymous scopes opened in it so far (their keys count up)
    minus: int = 0  # anonymous '-' labels defined so far
    plus: int = 0  # anonymous '+' labels defined so far
    owner: str = ""  # 64tass: the last code label, which the '_local' symbols belong to


class Environment:
    """What an expression sees: symbols through the front end's rules, functions, ``*``."""

    def __init__(self, assembly: DialectAssembly) -> None:
        self.assembly = assembly

    def __call__(self, name: str, column: int) -> Any:
        return self.assembly.lookup(name, column)

    def call(self, name: str, args: list[Any], column: int) -> Any:
        return self.assembly.call_function(name, args, column)

    def text_number(self, text: str) -> Any:
        return self.assembly.text_number(text)


class DialectAssembly(_Assembly):
    """The shared core for a dialect that assembles in passes (see the module text)."""

    #: the dialect's name as the command line spells it
    name = ""
    #: whether symbol names are case-sensitive
    case_sensitive = True
    #: ACME keeps its symbol table from pass to pass: a symbol defined once stays defined
    #: even when a later pass skips its definition (``!ifdef lib !eof`` relies on that)
    persistent_symbols = False

    def __init__(self, sources: list[tuple[str, str]], options: AssemblyOptions) -> None:
        super().__init__(sources, options)
        self.environment = Environment(self)
        self.parsed: dict[tuple[str, str], list[Statement]] = {}  # (path, text) -> statements
        self.previous: dict[str, Any] = {}
        self.previous_kinds: dict[str, str] = {}
        self.previous_unknown: set[str] = set()
        self.pass_number = 0
        self.macros: dict[str, Any] = {}
        self.sticky: dict[str, Any] = {}  # front-end state that lasts across passes
        self.dialect_reason = ""
        self.fill_byte = 0  # what gaps between segments hold (ACME's !initmem)
        self.overlap_policy = "overwrite"
        self.encodings_table: dict[tuple[str, Mode], Opcode] = dict(_ALL_ENCODINGS)
        self.handlers: dict[type, Callable[[Any], None]] = {
            DialectInstruction: self.instruction, Op: self.execute_op, Label: self.label, Assign: self.assign,
            Failed: self.report_failed}

    def set_instructions(self, instruction_set: InstructionSet) -> None:
        """The processor's instructions from here on (the start of a pass, .cpu, !cpu):
        its dialect and encodings; the addressing-mode rules worked out for the old set
        are forgotten."""
        self.dialect = instruction_set.dialect
        self.encodings_table = dict(instruction_set.encodings)
        self.rules = {}

    # -- front-end hooks -----------------------------------------------------------------------
    def parse_file(self, path: str, text: str) -> list[Statement]:
        raise NotImplementedError

    def execute_op(self, op: Op) -> None:
        raise NotImplementedError

    def resolve(self, name: str, column: int) -> str:
        """The key of the symbol a name means here (for a definition or a lookup)."""
        raise NotImplementedError

    def define_key(self, name: str) -> str:
        raise NotImplementedError

    def display_name(self, key: str) -> str:
        return key

    def start_pass(self) -> None:
        """Reset the front end's per-pass state."""

    def end_pass(self) -> None:
        """Check what must be closed at the end of the source."""

    def size_of(self, ins: DialectInstruction, value: Any, known: bool) -> int:
        """The operand size (1 or 2) for an instruction that has both forms."""
        raise NotImplementedError

    # -- passes ------------------------------------------------------------------------------------
    def run(self) -> Program:
        self.total_steps = 0
        for number in range(1, MAX_PASSES + 1):
            self.pass_number = number
            self.run_pass()
            self.total_steps += self.steps
            if self.settled() or self.stopped_by_limit:
                break  # a limit of work was reached: another pass would only reach it again
            if self.total_steps > MAX_TOTAL_STEPS:
                self.errors.append(Diagnostic(self.sources[-1][1] if self.sources else "<source>", 0, 0,
                                              f"more than {MAX_TOTAL_STEPS:,} statements in {number} passes: "
                                              "stopped"))
                break
            if self.persistent_symbols:
                for key, kind in self.previous_kinds.items():
                    if kind != "var" and key not in self.kinds and key in self.previous:
                        self.values[key] = self.previous[key]
                        self.kinds[key] = kind
            self.previous = dict(self.values)
            self.previous_kinds = dict(self.kinds)
            self.previous_unknown = set(self.unknown_keys)
        else:
            self.errors.append(Diagnostic(self.sources[-1][1] if self.sources else "<source>", 0, 0,
                                          f"the program did not settle after {MAX_PASSES} passes (sizes or "
                                          "addresses keep changing from one pass to the next)"))
        if not self.errors and not self.spans:
            self.errors.append(Diagnostic(self.sources[-1][1] if self.sources else "<source>", 0, 0,
                                          "the source produced no code or data"))
        if self.errors:
            from toolchain.asm.assembler import AssemblyFailed

            raise AssemblyFailed(self.errors, self.warnings)
        return self.program()

    def settled(self) -> bool:
        """No symbol changed its value and the same names are still unknown: another pass
        would give the same result."""
        if self.pass_number == 1:
            return False
        if self.unknown_keys != self.previous_unknown:
            return False
        constants = {key: self.values.get(key) for key, kind in self.kinds.items() if kind != "var"}
        before = {key: self.previous.get(key) for key, kind in self.previous_kinds.items() if kind != "var"}
        if self.persistent_symbols:
            before = {key: value for key, value in before.items() if key in constants}
        return constants == before

    def run_pass(self) -> None:
        self.errors = []
        self.warnings = []
        self.values = {}
        self.kinds: dict[str, str] = {}
        self.symbols = {}
        self.definitions: dict[str, Statement] = {}
        self.unknown_keys: set[str] = set()
        self.image = bytearray([self.fill_byte]) * 0x10000
        self.written = bytearray(0x10000)
        self.spans = []
        self.lines = []
        self.line_index = {}
        self.line_output = {}
        self.pc: int | None = None
        self.offset = 0  # real address - program counter (.logical, !pseudopc)
        self.steps = 0
        self.scope = Scope("", None)
        self.frames: list[Frame] = []
        self.include_depth = 0
        self.listed_line: SourceLine | None = None
        self.stopped = False
        self.stopped_by_limit = False
        self.pass_errors = 0
        self.past_end = False
        self.start_pass()
        for name, value in self.options.defines:
            self.set_symbol(self.define_key(name), value, "const", None, name)
        for text, path in reversed(self.sources):
            self.frames.append(self.file_frame(path, text))
        self.walk()
        self.end_pass()

    # -- the walk ----------------------------------------------------------------------------
    def file_frame(self, path: str, text: str) -> Frame:
        key = (path, text)
        statements = self.parsed.get(key)
        if statements is None:
            statements = self.parsed[key] = self.parse_file(path, text)
        return Frame(statements, 0, len(statements), "file", path=path)

    def walk(self) -> None:
        frames = self.frames
        while frames and not self.stopped:
            frame = frames[-1]
            if frame.index >= frame.end:
                frames.pop()
                if frame.on_exit is not None:
                    frame.on_exit()
                continue
            statement = frame.statements[frame.index]
            frame.index += 1
            self.steps += 1
            if self.steps > MAX_STEPS:
                self.error(statement, f"more than {MAX_STEPS:,} statements in one pass (a loop or macro "
                           "that does not end?)")
                self.stopped = self.stopped_by_limit = True
                return
            try:
                self.execute(statement)
            except ParseError as exc:
                self.limited_error(statement, str(exc), exc.column)
            except ExpressionError as exc:
                self.limited_error(statement, str(exc), exc.column)
            except V.ValueError_ as exc:
                self.limited_error(statement, str(exc))
            except Unknown as exc:
                self.error(statement, self.undefined_message(exc.name), exc.column)

    def push(self, statements: list[Statement], kind: str, on_exit: Callable[[], None] | None = None,
             start: int = 0, end: int | None = None, statement: Statement | None = None) -> bool:
        # a loop's iteration or a macro's expansion is work too (an empty body included)
        self.steps += 1
        if self.steps > MAX_STEPS:
            if statement is not None:
                self.error(statement, f"more than {MAX_STEPS:,} statements in one pass (a loop or macro that "
                           "does not end?)")
            self.stopped = self.stopped_by_limit = True
            return False
        if len(self.frames) > MAX_DEPTH:
            if statement is not None:
                self.error(statement, f"macros, loops and includes nested more than {MAX_DEPTH} deep")
            self.stopped = self.stopped_by_limit = True
            return False
        self.frames.append(Frame(statements, start, len(statements) if end is None else end, kind, on_exit))
        return True

    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    def execute(self, statement: Statement) -> None:
        self.note_line(statement.line)
        handler = self.handlers.get(type(statement))
        if handler is None:
            raise AssertionError(f"statement {type(statement).__name__} has no meaning in {self.name}")
        handler(statement)

    def report_failed(self, statement: Failed) -> None:
        self.limited_error(statement, statement.message)

    def note_line(self, line: SourceLine) -> None:
        """The listing shows every line the final pass carries out, once per time."""
        if line is not self.listed_line:
            self.listed_line = line
            self.line_index[id(line)] = len(self.lines)
            self.lines.append(line)

    # -- diagnostics ----------------------------------------------------------------------------
    def error(self, statement: Statement, message: str, column: int | None = None) -> None:
        self.diagnostic(statement.line, statement.column if column is None else column, message)

    def limited_error(self, statement: Statement, message: str, column: int | None = None) -> None:
        """An error that is no forward reference: after MAX_PASS_ERRORS of them (the first 20
        are shown) the rest of the pass would only add more, and it stops."""
        self.error(statement, message, column)
        self.pass_errors += 1
        if self.pass_errors >= MAX_PASS_ERRORS:
            self.stopped = self.stopped_by_limit = True

    def warn(self, statement: Statement, message: str, column: int | None = None) -> None:
        self.diagnostic(statement.line, statement.column if column is None else column, message, "warning")

    # -- symbols ----------------------------------------------------------------------------------
    def lookup(self, name: str, column: int) -> Any:
        key = self.resolve(name, column)
        value = self.values.get(key)
        if value is not None:
            return value
        if key in self.values:
            return value
        if self.previous_kinds.get(key) not in (None, "var") and key in self.previous:
            return self.previous[key]
        self.unknown_keys.add(key)
        raise Unknown(name, column)

    def is_defined(self, key: str) -> bool:
        return key in self.values or (key in self.previous and self.previous_kinds.get(key) != "var")

    def set_symbol(self, key: str, value: Any, kind: str, statement: Statement | None, shown: str) -> None:
        """Define a symbol of this pass: "label" and "const" once, "var" any number of times."""
        old_kind = self.kinds.get(key)
        if old_kind is not None and (kind != "var" or old_kind != "var"):
            if statement is not None:
                first = self.definitions.get(key)
                where = f" (first defined at {self.where(first.line)})" if first is not None else ""
                self.error(statement, f"duplicate definition of '{shown}'{where}")
            return
        self.values[key] = value
        self.kinds[key] = kind
        if statement is not None and key not in self.definitions:
            self.definitions[key] = statement
        if kind != "var" and isinstance(value, (int, V.Bits)) and not isinstance(value, bool):
            info_statement = statement if statement is not None else Label(
                SourceLine("<command line>", 0, f"-D {shown}={value}", None, 0), 1, shown)
            shown = self.display_name(key)
            self.symbols[shown] = SymbolInfo(shown, int(value), kind == "label", info_statement)

    def label(self, statement: Label) -> None:
        if self.pc is None:
            self.no_address(statement)
            return
        self.set_symbol(self.define_key(statement.name), self.pc, "label", statement, statement.name)

    def assign(self, statement: Assign) -> None:
        key = self.define_key(statement.name) if statement.kind in ("const", "var") else \
            self.resolve(statement.name, statement.column)
        value: Any
        try:
            value = self.compute(statement.expr) if statement.expr is not None else self.pc
        except Unknown:
            if statement.kind == "const":
                # a constant defined in terms of a later label: known in a later pass
                self.kinds.setdefault(key, "pending")
                self.definitions.setdefault(key, statement)
                return
            raise
        if statement.kind == "update":
            if key not in self.values:
                self.error(statement, f"'{statement.name}' must be defined (as a variable) before it is "
                           "updated")
                return
            value = V.apply_binary(statement.op, self.values[key], value)
            self.values[key] = value
            return
        self.set_symbol(key, value, statement.kind, statement, statement.name)

    # -- expressions -----------------------------------------------------------------------------
    def compute(self, expr: Expr) -> Any:
        """The value of an expression now; Unknown when a symbol has no value yet."""
        try:
            return evaluate(expr, self.environment, self.pc)
        except UnknownSymbol as exc:
            raise Unknown(exc.name, exc.column) from None

    def evaluate_or_report(self, statement: Statement, expr: Expr) -> Any:
        """The value, or None after an error (an unknown symbol is an error only when the
        passes have settled: until then the error list is thrown away)."""
        try:
            return self.compute(expr)
        except Unknown as exc:
            self.error(statement, self.undefined_message(exc.name), exc.column)
        except ExpressionError as exc:
            self.error(statement, str(exc), exc.column)
        return None

    def undefined_message(self, name: str) -> str:
        return f"undefined symbol '{name}'"

    def call_function(self, name: str, args: list[Any], column: int) -> Any:
        raise ExpressionError(f"unknown function '{name}'", column)

    def text_number(self, text: str) -> Any:
        """A string where a number is wanted: its code(s) in the current encoding."""
        raise V.ValueError_(f"{V.describe(text)} is not a number")

    def known_now(self, statement: Statement, expr: Expr, what: str) -> Any:
        """A value that must be known where it stands (an origin, a repeat count)."""
        try:
            return self.compute(expr)
        except Unknown as exc:
            self.error(statement, f"{what} must be known where it stands: '{exc.name}' is not defined "
                       "above this line", exc.column)
        return None

    # -- output ---------------------------------------------------------------------------------
    def no_address(self, statement: Statement) -> None:
        self.error(statement, "no origin: set the start address with '*= address' before the first "
                   "label or instruction")

    def set_pc(self, statement: Statement, value: int) -> None:
        self.past_end = False
        if not 0 <= value <= 0xFFFF:
            self.error(statement, f"origin {_hex(value)} is outside the 64 KiB address space")
            return
        self.pc = value
        self.offset = 0

    def emit_bytes(self, statement: Statement, data: bytes | bytearray) -> None:
        """Put bytes at the program counter (at its real address under .logical)."""
        if self.pc is None:
            self.no_address(statement)
            return
        address = self.pc + self.offset
        end = address + len(data)
        if address < 0 or end > 0x10000:
            if not self.past_end:  # said once until a new origin
                self.error(statement, "the program runs past $FFFF, the end of memory")
                self.past_end = True
            self.pc += len(data)
            return
        if data:
            self.store(statement, address, bytes(data))
        self.pc += len(data)

    def store(self, statement: Statement, address: int, data: bytes) -> None:
        end = address + len(data)
        self.image[address:end] = data
        self.written[address:end] = b"\x01" * len(data)
        self.spans.append((address, end, statement.line))
        index = self.line_index.get(id(statement.line))
        if index is not None:
            self.line_output.setdefault(index, []).append((address, data))

    def reserve(self, statement: Statement, count: int) -> None:
        """Advance the program counter without writing (64tass's .fill without a value)."""
        if self.pc is None:
            self.no_address(statement)
            return
        if self.pc + self.offset + count > 0x10000:
            self.error(statement, "the program runs past $FFFF, the end of memory")
        self.pc += count

    def program(self) -> Program:
        if not self.spans:
            start, image = 0, b""
        else:
            start, end = self.written.find(1), self.written.rfind(1) + 1
            image = bytes(self.image[start:end])
        program = Program(image, start, self.symbols, self.lines, self.line_output, self.listing_requested,
                          self.warnings)
        program.dialect = self.name
        program.dialect_reason = self.dialect_reason
        return program

    # -- instructions -------------------------------------------------------------------------------
    def instruction(self, ins: DialectInstruction) -> None:
        if self.pc is None:
            self.no_address(ins)
            return
        value: Any = None
        unknown: Unknown | None = None
        if ins.expr is not None:
            try:
                value = self.compute(ins.expr)
            except Unknown as exc:
                unknown = exc
        if isinstance(value, (list, tuple)):
            # 64tass: an instruction with a list operand is assembled once per element
            for item in value:
                self.one_instruction(ins, item, None)
            return
        self.one_instruction(ins, value, unknown)

    def one_instruction(self, ins: DialectInstruction, value: Any, unknown: Unknown | None) -> None:
        modes = self.dialect.mnemonics[ins.mnemonic]
        mode = self.choose(ins, modes, value, unknown is None)
        if mode is None:
            return
        opcode = self.encodings_table.get((ins.mnemonic, mode))
        if opcode is None:
            self.error(ins, f"addressing mode {ins.syntax.value} is not available for '{ins.mnemonic}'")
            return
        if mode.operand_length == 0:
            self.emit_bytes(ins, bytes((opcode.code,)))
            return
        if unknown is not None:
            self.error(ins, self.undefined_message(unknown.name), unknown.column)
            self.emit_bytes(ins, bytes(1 + mode.operand_length))
            return
        operand = self.operand_number(ins, value)
        if operand is None:
            self.emit_bytes(ins, bytes(1 + mode.operand_length))
            return
        self.encode(ins, mode, opcode.code, operand)

    def operand_number(self, ins: DialectInstruction, value: Any) -> int | None:
        assert ins.expr is not None
        if isinstance(value, str):
            value = self.text_value(ins, value)
            if value is None:
                return None
        try:
            return V.integer(value)
        except V.ValueError_ as exc:
            self.error(ins, str(exc), ins.expr.column)
            return None

    def text_value(self, statement: Statement, text: str) -> int | None:
        self.error(statement, f"a string of {len(text)} characters has no numeric value here")
        return None

    def choose(self, ins: DialectInstruction, modes: frozenset[Mode], value: Any, known: bool) -> Mode | None:
        syntax = ins.syntax
        if Mode.REL in modes:
            if syntax is Syntax.DIRECT:
                return Mode.REL
            self.error(ins, f"'{ins.mnemonic}' is a branch: it takes a target address only")
            return None
        rule = self.mode_rule(ins.mnemonic, syntax)
        short, long, error = rule
        if short is None:
            if error is not None:
                self.error(ins, error)
            return long
        if ins.force:
            return short if ins.force == 1 else long
        size = self.size_of(ins, value, known)
        return short if size == 1 else long

    def encode(self, ins: DialectInstruction, mode: Mode, opcode: int, value: int) -> None:
        assert ins.expr is not None
        column = ins.expr.column
        pc = self.pc
        assert pc is not None
        if mode is Mode.REL:
            offset = value - (pc + 2)
            if not -128 <= offset <= 127:
                if self.long_branch(ins, opcode, value):
                    return
                distance = offset - 127 if offset > 0 else -128 - offset
                self.error(ins, f"branch out of range: target {_hex(value)} is {distance} byte"
                           f"{'s' if distance != 1 else ''} too far ({'forward' if offset > 0 else 'back'})",
                           column)
                self.emit_bytes(ins, bytes((opcode, 0)))
                return
            self.emit_bytes(ins, bytes((opcode, offset & 0xFF)))
        elif mode.operand_length == 1:
            if mode is Mode.IMM:
                low, high = self.immediate_range(ins)
                if not low <= value <= high:
                    self.error(ins, f"value {value} does not fit in a byte ({low}..{high})", column)
            elif not 0 <= value <= 0xFF:
                self.error(ins, f"address {_hex(value)} is not in zero page, but '{ins.mnemonic}' has only "
                           f"the zero-page form for {ins.syntax.value}", column)
            self.emit_bytes(ins, bytes((opcode, value & 0xFF)))
        else:
            if not 0 <= value <= 0xFFFF:
                self.error(ins, f"address {_hex(value)} is outside $0000-$FFFF", column)
            self.emit_bytes(ins, bytes((opcode, value & 0xFF, (value >> 8) & 0xFF)))

    def immediate_range(self, ins: DialectInstruction) -> tuple[int, int]:
        return -128, 255

    def long_branch(self, ins: DialectInstruction, opcode: int, target: int) -> bool:
        return False

    # -- files ----------------------------------------------------------------------------------------
    def find_file(self, statement: Statement, name: str, column: int, kind: str,
                  library: bool = False) -> Path | None:
        wanted = Path(name)
        line = statement.line
        base = Path(line.path).parent if line.path not in ("-", "<command line>", "<source>") else Path(".")
        if wanted.is_absolute():
            candidates = [wanted]
        elif library:
            candidates = [directory / wanted for directory in self.library_paths()]
        else:
            candidates = [self.relative_to(base) / wanted, *(directory / wanted for directory in
                                                             self.options.include_paths)]
        from toolchain.fileio import is_file

        for candidate in candidates:
            if is_file(candidate):
                return candidate
        searched = ", ".join(dict.fromkeys(str(c.parent) if str(c.parent) != "" else "." for c in candidates))
        self.error(statement, f"{kind} file '{name}' not found (looked in {searched or 'no folder'})", column)
        return None

    def relative_to(self, including_folder: Path) -> Path:
        """Where a relative file name starts: the including file's folder (64tass)."""
        return including_folder

    def library_paths(self) -> list[Path]:
        return list(self.options.include_paths)

    def include_file(self, statement: Statement, name: str, column: int, library: bool = False,
                     on_exit: Callable[[], None] | None = None) -> bool:
        path = self.find_file(statement, name, column, "include", library)
        if path is None:
            return False
        real = os.path.realpath(path)
        open_files = [os.path.realpath(f.path) for f in self.frames if f.kind == "file" and f.path not in
                      ("-", "<command line>", "<source>")]
        if real in open_files:
            chain = " -> ".join([*(f.path for f in self.frames if f.kind == "file"), str(path)])
            self.error(statement, f"include cycle: {chain}", column)
            return False
        if sum(1 for f in self.frames if f.kind == "file") > MAX_INCLUDE_DEPTH:
            self.error(statement, f"includes nested more than {MAX_INCLUDE_DEPTH} deep", column)
            return False
        text = self.read_source(statement, path, column)
        if text is None:
            return False
        frame = self.file_frame(str(path), text)
        frame.on_exit = on_exit
        if len(self.frames) > MAX_DEPTH:
            self.error(statement, f"macros, loops and includes nested more than {MAX_DEPTH} deep")
            return False
        self.frames.append(frame)
        return True

    def read_source(self, statement: Statement, path: Path, column: int) -> str | None:
        from toolchain import fileio

        read = self.options.read_text or fileio.read_text
        try:
            return read(path)
        except UserError as exc:
            self.error(statement, exc.diagnostics[0].message if exc.diagnostics else "cannot read", column)
            return None

    def read_binary(self, statement: Statement, name: str, column: int,
                    library: bool = False) -> bytes | None:
        path = self.find_file(statement, name, column, "binary", library)
        if path is None:
            return None
        from toolchain import fileio

        read = self.options.read_bytes or fileio.read_bytes
        try:
            return read(path)
        except UserError as exc:
            self.error(statement, exc.diagnostics[0].message if exc.diagnostics else "cannot read", column)
            return None

    # -- scanning for the end of a block ----------------------------------------------------------
    def scan(self, opens: frozenset[str], closes: frozenset[str], stops: frozenset[str],
             start: int | None = None) -> tuple[int, str] | None:
        """From the current frame's position, the index of the first statement named in
        ``stops`` at the same depth (blocks named in ``opens``/``closes`` nest), and its name;
        None when the frame ends first."""
        frame = self.frame
        statements = frame.statements
        depth = 0
        for index in range(frame.index if start is None else start, frame.end):
            statement = statements[index]
            if type(statement) is not Op:
                continue
            name = statement.name
            if depth == 0 and name in stops:
                return index, name
            if name in opens:
                depth += 1
            elif name in closes:
                depth -= 1
                if depth < 0:
                    return None
        return None

    def statements_between(self, start: int, end: int) -> Iterator[Statement]:
        statements = self.frame.statements
        for index in range(start, end):
            yield statements[index]


def symbol_names(expr: Expr) -> list[str]:
    return [symbol.name for symbol in symbols_in(expr)]
