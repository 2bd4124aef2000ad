"""The two passes: layout (addresses and instruction sizes) and emit (bytes).

Sizing rule (explicit, so sizes never change between passes): an operand is
encoded in zero page when its value is already known at the point of the
statement in the layout pass (every symbol in it defined on an earlier line, or
above, and computable then) and lies in 0..255; otherwise the absolute form is
used.  A forward reference that later turns out to be below 256 therefore stays
absolute, as with the two-pass assemblers of the time (Profi-Ass, and 64tass for
forward references it cannot resolve early).  When a mnemonic has only the
zero-page form for a syntax (``stx zp,y``, ``(zp),y``), that form is used and its
value checked in the emit pass.

The layout pass reads the lines as it goes: ``.include`` inserts a file's lines where
it stands, and ``.if``/``.else``/``.endif`` decide which lines take part (their
conditions must be known where they stand, like the origin).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from toolchain.asm.directives import foreign_directive
from toolchain.asm.expressions import VALUE_LIMIT, Expr, ExpressionError, Text, UnknownSymbol
from toolchain.asm.parser import (
    DOCUMENTED,
    UNDOCUMENTED,
    Data,
    DataKind,
    Dialect,
    Directive,
    Equate,
    Instruction,
    Label,
    Options,
    Origin,
    ParseError,
    SourceLine,
    Statement,
    Syntax,
    parse_line,
    split_lines,
)
from toolchain.cpu.opcodes import ENCODINGS, UNDOCUMENTED_ENCODINGS, Mode
from toolchain.diagnostics import Diagnostic, UserError, counted

KNOWN_OPTIONS = {"p", "p1", "p2", "o", "oo", "o8", "o1", "s"}
#: The warnings -W can turn on.
WARNINGS = {
    "branch-page": "a taken branch that crosses a page (one cycle more)",
    "zp-forward": "a forward reference to a zero-page value, kept absolute (one byte and cycle more)",
}
#: Errors shown before the rest are only counted.
MAX_ERRORS = 20
MAX_INCLUDE_DEPTH = 64

_SHORT_FORM = {Syntax.DIRECT: (Mode.ZP, Mode.ABS), Syntax.INDEXED_X: (Mode.ZPX, Mode.ABX),
               Syntax.INDEXED_Y: (Mode.ZPY, Mode.ABY)}  # fmt: skip
_FIXED_FORM = {Syntax.IMPLIED: Mode.IMP, Syntax.ACCUMULATOR: Mode.ACC, Syntax.IMMEDIATE: Mode.IMM,
               Syntax.INDIRECT: Mode.IND, Syntax.INDIRECT_X: Mode.IZX,
               Syntax.INDIRECT_Y: Mode.IZY}  # fmt: skip
_ALL_ENCODINGS = {**ENCODINGS, **UNDOCUMENTED_ENCODINGS}
_COMMAND_LINE = "<command line>"


@dataclass(slots=True)
class SymbolInfo:
    name: str
    value: int
    is_label: bool
    statement: Statement


@dataclass
class Program:
    """The result of a successful assembly."""

    image: bytes  # from ``start`` to the highest address written, gaps filled with 0
    start: int
    symbols: dict[str, SymbolInfo]
    lines: list[SourceLine]
    # per source line (index into ``lines``): each statement's address and bytes
    line_output: dict[int, list[tuple[int, bytes]]]
    listing_requested: bool
    warnings: list[Diagnostic] = field(default_factory=list)
    dialect: str = "profi"  # which dialect read the source (the listing's header says so)
    dialect_reason: str = ""  # why: "--dialect", the file's extension, its first directive
    raw_output: bool = False  # the source asks for no load address (ACME's '!to name, plain')

    @property
    def end(self) -> int:
        """One past the last address written."""
        return self.start + len(self.image)


@dataclass(frozen=True)
class AssemblyOptions:
    """How to assemble (the command line's options)."""

    include_paths: tuple[Path, ...] = ()
    defines: tuple[tuple[str, int], ...] = ()
    undocumented: bool = False
    warnings: frozenset[str] = frozenset()
    read_text: Callable[[Path], str] | None = None  # how .include reads (default: fileio.read_text)
    read_bytes: Callable[[Path], bytes] | None = None  # how .binary reads
    dialect: str = "profi"  # "profi", "64tass" or "acme" (toolchain.asm.dialects)
    dialect_reason: str = ""  # why that dialect, for the listing's header
    ascii: bool = False  # 64tass -a: the source is ASCII/Unicode, not PETSCII
    case_sensitive: bool = False  # 64tass -C (ACME is always case-sensitive)
    long_branch: bool = False  # 64tass -B: a branch out of range becomes bxx *+5 / jmp


class _Poisoned(Exception):
    """A symbol whose definition failed (its error is already reported)."""


class _Needs(Exception):
    """An equate needs another equate that is not resolved yet."""

    def __init__(self, name: str, column: int) -> None:
        super().__init__(name)
        self.name = name
        self.column = column


class _Assembly:
    def __init__(self, sources: list[tuple[str, str]], options: AssemblyOptions) -> None:
        self.sources = sources
        self.options = options
        self.dialect: Dialect = UNDOCUMENTED if options.undocumented else DOCUMENTED
        self.encodings = _ALL_ENCODINGS if options.undocumented else ENCODINGS
        self.lines: list[SourceLine] = []
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.statements: list[Statement] = []
        self.values: dict[str, int] = {}
        self.symbols: dict[str, SymbolInfo] = {}
        self.pending: dict[str, tuple[Equate, int | None]] = {}  # equates not known yet, with their pc
        self.failed: set[str] = set()
        # the 64 KiB the program writes, which addresses are written, and by which
        # statements (start, end, line: looked through only to name an overlap)
        self.image = bytearray(0x10000)
        self.written = bytearray(0x10000)
        self.spans: list[tuple[int, int, SourceLine]] = []
        self.listing_requested = False
        self.line_index: dict[int, int] = {}
        self.line_output: dict[int, list[tuple[int, bytes]]] = {}
        self.wants_branch_page = "branch-page" in options.warnings
        self.wants_zp_forward = "zp-forward" in options.warnings
        self.rules: dict[tuple[str, Syntax], tuple[Mode | None, Mode | None, str | None]] = {}

    # -- diagnostics ---------------------------------------------------------------
    def diagnostic(self, line: SourceLine, column: int, message: str, severity: str = "error") -> None:
        target = self.errors if severity == "error" else self.warnings
        target.append(Diagnostic(line.path, line.number, line.offset + max(column, 1) if line.number else 0,
                                 message, severity, line.text if line.number else None,
                                 line.listing_number))

    @staticmethod
    def where(line: SourceLine) -> str:
        if line.listing_number is not None:
            return f"line {line.listing_number}"
        if not line.number:
            return line.text  # a -D definition
        return f"{line.path}:{line.number}"

    # -- symbols ---------------------------------------------------------------------
    def lookup_known(self, name: str, column: int) -> int:
        """Layout-pass lookup: only what is defined so far."""
        value = self.values.get(name)
        if value is None:
            raise UnknownSymbol(name, column)
        return value

    def lookup_final(self, name: str, column: int) -> int:
        """Emit-pass lookup: every symbol (equates are resolved by then)."""
        value = self.values.get(name)
        if value is not None:
            return value
        if name in self.failed:
            raise _Poisoned(name)
        raise UnknownSymbol(name, column)

    def lookup_resolving(self, name: str, column: int) -> int:
        value = self.values.get(name)
        if value is not None:
            return value
        if name in self.failed:
            raise _Poisoned(name)
        if name in self.pending:
            raise _Needs(name, column)
        raise UnknownSymbol(name, column)

    def define(self, statement: Statement, name: str, value: int | None, is_label: bool,
               pc: int | None = None) -> None:
        previous = self.symbols.get(name)
        if previous is not None or name in self.pending:
            first = previous.statement.line if previous else self.pending[name][0].line
            self.diagnostic(statement.line, statement.column,
                            f"duplicate label '{name}' (first defined at {self.where(first)})")
            return
        if value is None:
            assert isinstance(statement, Equate)
            self.pending[name] = (statement, pc)
            return
        self.values[name] = value
        self.symbols[name] = SymbolInfo(name, value, is_label, statement)

    # -- reading the lines ---------------------------------------------------------------
    def source_lines(self) -> Iterator[SourceLine]:
        """Every line in assembly order: the sources one after another, an included
        file's lines where its .include stands (pushed by ``include``)."""
        self.stack: list[tuple[str, Iterator[SourceLine]]] = [
            (path, iter(split_lines(text, path))) for text, path in reversed(self.sources)]
        while self.stack:
            line = next(self.stack[-1][1], None)
            if line is None:
                self.stack.pop()
                continue
            yield line

    def resolve_file(self, directive: Directive, kind: str) -> Path | None:
        name = directive.args[0]
        assert isinstance(name, Text)
        wanted = Path(name.source)
        line = directive.line
        base = Path(line.path).parent if line.path not in ("-", _COMMAND_LINE, "<source>") else Path(".")
        candidates = [wanted] if wanted.is_absolute() else [base / wanted] + [
            directory / wanted for directory in self.options.include_paths]
        from toolchain.fileio import is_file

        for candidate in candidates:
            if is_file(candidate):
                return candidate
        searched = ", ".join(str(c.parent) if str(c.parent) != "" else "." for c in candidates)
        self.diagnostic(line, name.column, f"{kind} file '{name.source}' not found (looked in {searched})")
        return None

    def include(self, directive: Directive) -> None:
        path = self.resolve_file(directive, "include")
        if path is None:
            return
        real = os.path.realpath(path)
        open_files = [os.path.realpath(p) for p, _ in self.stack if p not in ("-", _COMMAND_LINE)]
        if real in open_files:
            chain = " -> ".join([*(p for p, _ in self.stack), str(path)])
            self.diagnostic(directive.line, directive.args[0].column, f"include cycle: {chain}")
            return
        if len(self.stack) > MAX_INCLUDE_DEPTH:
            self.diagnostic(directive.line, directive.column,
                            f"includes nested more than {MAX_INCLUDE_DEPTH} deep")
            return
        from toolchain import fileio

        read = self.options.read_text or fileio.read_text
        try:
            text = read(path)
        except UserError as exc:
            self.diagnostic(directive.line, directive.args[0].column,
                            exc.diagnostics[0].message if exc.diagnostics else "cannot read")
            return
        self.stack.append((str(path), iter(split_lines(text, str(path)))))

    # -- the first pass: parse, conditions, includes, layout ------------------------------
    def layout(self) -> None:
        for given, value in self.options.defines:
            name = given.lower()  # Profi-Ass symbols are case-insensitive
            line = SourceLine(_COMMAND_LINE, 0, f"-D {name}={value}", None, 0)
            self.define(Equate(line, 1, name, _number_expr(value)), name, value, is_label=False)
        pc: int | None = None
        self.origin_reported = False
        # the program ran past $FFFF (or an origin was outside memory): what follows has no
        # address, and that one error says so
        self.past_end = False
        conditions: list[tuple[bool, bool, Directive, bool]] = []
        active = True
        dialect = self.dialect
        lines = self.lines
        line_index = self.line_index
        for line in self.source_lines():
            line_index[id(line)] = len(lines)
            lines.append(line)
            text = line.text[line.offset :] if line.offset else line.text
            if not text or text.isspace():
                continue
            try:
                statements = parse_line(line, dialect, text)
            except ParseError as exc:
                if active:
                    self.diagnostic(line, exc.column, _other_dialect(str(exc), text, exc.column))
                continue  # lines that are skipped by .if are not checked
            for statement in statements:
                if type(statement) is Directive and statement.name in (".if", ".else", ".endif"):
                    active = self.condition(statement, conditions, pc)
                    continue
                if not active:
                    continue
                pc = self.place(statement, pc)
        for _, _, opening, _ in conditions:
            self.diagnostic(opening.line, opening.column, "'.if' without '.endif'")

    def condition(self, directive: Directive, conditions: list[tuple[bool, bool, Directive, bool]],
                  pc: int | None) -> bool:
        """Update the stack of open conditions (each: lines take part, in the .else
        branch, the .if, its value); returns whether lines take part now."""
        enclosing = all(taking for taking, _, _, _ in conditions)
        if directive.name == ".if":
            value = False
            if enclosing:
                try:
                    value = directive.args[0].value(self.lookup_known, pc) != 0
                except UnknownSymbol as exc:
                    self.diagnostic(directive.line, exc.column,
                                    f"the condition must be known where it stands: '{exc.name}' is not "
                                    "defined above this line")
                except ExpressionError as exc:
                    self.diagnostic(directive.line, exc.column, str(exc))
            conditions.append((enclosing and value, False, directive, value))
        elif not conditions:
            self.diagnostic(directive.line, directive.column, f"'{directive.name}' without '.if'")
        elif directive.name == ".else":
            _, in_else, opening, value = conditions.pop()
            if in_else:
                self.diagnostic(directive.line, directive.column, "a second '.else' for one '.if'")
            enclosing = all(taking for taking, _, _, _ in conditions)
            conditions.append((enclosing and not value and not in_else, True, opening, value))
        else:
            conditions.pop()
        return all(taking for taking, _, _, _ in conditions)

    def place(self, statement: Statement, pc: int | None) -> int | None:
        """Lay out one statement at pc; returns the pc after it."""
        kind = type(statement)
        if kind is Instruction:
            if pc is None:
                self.no_origin(statement)
                return None
            assert isinstance(statement, Instruction)
            mode = self.choose_mode(statement, pc)
            if mode is None:
                return pc
            statement.mode = mode
            statement.address = pc
            self.statements.append(statement)
            return self.advance(statement, pc, mode.length)
        if kind is Label:
            if pc is None:
                self.no_origin(statement)
                return None
            assert isinstance(statement, Label)
            self.define(statement, statement.name, pc, is_label=True)
            return pc
        if kind is Equate:
            assert isinstance(statement, Equate)
            try:
                value: int | None = statement.expr.value(self.lookup_known, pc)
            except UnknownSymbol:
                value = None
            except ExpressionError as exc:
                if not (pc is None and self.past_end):  # '*' past the end: that error is reported
                    self.diagnostic(statement.line, exc.column, str(exc))
                self.failed.add(statement.name)
                return pc
            self.define(statement, statement.name, value, is_label=False, pc=pc)
            return pc
        if kind is Data:
            if pc is None:
                self.no_origin(statement)
                return None
            assert isinstance(statement, Data)
            statement.address = pc
            if statement.kind is DataKind.WORDS:
                size = 2 * len(statement.items)
            else:
                size = sum(len(i.data) if isinstance(i, Text) else 1 for i in statement.items)
            statement.size = size
            self.statements.append(statement)
            return self.advance(statement, pc, size)
        if kind is Origin:
            assert isinstance(statement, Origin)
            try:
                new_pc = statement.expr.value(self.lookup_known, pc)
            except UnknownSymbol as exc:
                self.diagnostic(statement.line, exc.column,
                                f"the origin must be known when it is set: '{exc.name}' is not "
                                "defined before this line")
                return pc
            except ExpressionError as exc:
                self.diagnostic(statement.line, exc.column, str(exc))
                return pc
            if not 0 <= new_pc <= 0xFFFF:
                self.diagnostic(statement.line, statement.column,
                                f"origin {_hex(new_pc)} is outside the 64 KiB address space")
                self.past_end = True  # its error stands for what follows, as after running past $FFFF
                return None
            self.past_end = False
            return new_pc
        if kind is Options:
            assert isinstance(statement, Options)
            for name, column in statement.names:
                if name.startswith("p"):
                    self.listing_requested = True
                if name not in KNOWN_OPTIONS:
                    self.diagnostic(statement.line, column, f"unknown option '{name}' ignored", "warning")
            return pc
        assert isinstance(statement, Directive)
        if statement.name == ".include":
            self.include(statement)
            return pc
        if pc is None:
            self.no_origin(statement)
            return None
        if statement.name == ".binary":
            data = self.binary(statement, pc)
        else:
            data = self.fill_size(statement, pc)
        if data is None:
            return pc
        statement.address = pc
        statement.data = data
        self.statements.append(statement)
        return self.advance(statement, pc, len(data))

    def no_origin(self, statement: Statement) -> None:
        if self.past_end:
            # after "runs past $FFFF" nothing has an address: a label there fails silently (as
            # an equate whose error is reported), so its uses add no errors of their own
            if type(statement) is Label:
                self.failed.add(statement.name)
            return None
        if not self.origin_reported:
            self.diagnostic(statement.line, statement.column,
                            "no origin: set the start address with '*= address' "
                            "before the first label or instruction")
            self.origin_reported = True
        return None

    def advance(self, statement: Statement, pc: int, size: int) -> int | None:
        pc += size
        if pc > 0x10000:
            self.diagnostic(statement.line, statement.column,
                            "the program runs past $FFFF, the end of memory")
            self.past_end = True
            return None
        return pc

    def known_argument(self, directive: Directive, index: int, pc: int, what: str) -> int | None:
        expr = directive.args[index]
        try:
            return expr.value(self.lookup_known, pc)
        except UnknownSymbol as exc:
            self.diagnostic(directive.line, exc.column,
                            f"the {what} must be known where it stands: '{exc.name}' is not defined above "
                            "this line")
        except ExpressionError as exc:
            self.diagnostic(directive.line, exc.column, str(exc))
        return None

    def fill_size(self, directive: Directive, pc: int) -> bytes | None:
        count = self.known_argument(directive, 0, pc, "count of '.fill'")
        if count is None:
            return None
        if not 0 <= count <= 0x10000 - pc:
            self.diagnostic(directive.line, directive.args[0].column,
                            f"'.fill' count {count} does not fit between {_hex(pc)} and $FFFF")
            return None
        return bytes(count)  # the value is filled in by the emit pass

    def binary(self, directive: Directive, pc: int) -> bytes | None:
        path = self.resolve_file(directive, "binary")
        offset = self.known_argument(directive, 1, pc, "offset") if len(directive.args) > 1 else 0
        length = self.known_argument(directive, 2, pc, "length") if len(directive.args) > 2 else None
        if path is None or offset is None or (len(directive.args) > 2 and length is None):
            return None
        from toolchain import fileio

        read = self.options.read_bytes or fileio.read_bytes
        try:
            data = read(path)
        except UserError as exc:
            self.diagnostic(directive.line, directive.args[0].column,
                            exc.diagnostics[0].message if exc.diagnostics else "cannot read")
            return None
        if not 0 <= offset <= len(data):
            self.diagnostic(directive.line, directive.args[1].column,
                            f"offset {offset} is outside the file ({counted(len(data), 'byte')})")
            return None
        if length is not None and not 0 <= length <= len(data) - offset:
            self.diagnostic(directive.line, directive.args[2].column,
                            f"length {length} runs past the end of the file ({counted(len(data), 'byte')}, "
                            f"{len(data) - offset} after offset {offset})")
            return None
        return data[offset : None if length is None else offset + length]

    def mode_rule(self, mnemonic: str, syntax: Syntax) -> tuple[Mode | None, Mode | None, str | None]:
        """How a mnemonic written with a syntax is encoded: (zero-page mode, absolute
        mode, error): both modes when the value decides, one when it is fixed."""
        modes = self.dialect.mnemonics[mnemonic]
        if Mode.REL in modes:
            if syntax is Syntax.DIRECT:
                return None, Mode.REL, None
            return None, None, f"'{mnemonic}' is a branch: it takes a target address only"
        if syntax in _SHORT_FORM:
            short, long = _SHORT_FORM[syntax]
            if short in modes and long in modes:
                return short, long, None
            if short in modes or long in modes:
                return (None, short, None) if short in modes else (None, long, None)
        elif _FIXED_FORM[syntax] in modes:
            return None, _FIXED_FORM[syntax], None
        available = ", ".join(sorted(_syntax_of(m) for m in modes))
        return None, None, (f"addressing mode {syntax.value} is not available for '{mnemonic}' "
                            f"(it has: {available})")

    def choose_mode(self, ins: Instruction, pc: int) -> Mode | None:
        key = (ins.mnemonic, ins.syntax)
        rule = self.rules.get(key)
        if rule is None:
            rule = self.rules[key] = self.mode_rule(ins.mnemonic, ins.syntax)
        short, long, error = rule
        if short is None:
            if error is not None:
                self.diagnostic(ins.line, ins.column, error)
            return long
        assert ins.expr is not None
        try:
            value = ins.expr.value(self.lookup_known, pc)
        except UnknownSymbol:
            ins.forward = True
            return long
        except ExpressionError:
            return long
        return short if 0 <= value <= 0xFF else long

    # -- between the passes ------------------------------------------------------------------
    def resolve_pending(self) -> None:
        """Give every equate that used later symbols its value: depth first, with an
        explicit stack (a chain of 5,000 equates each defined by the next is fine)."""
        pending = self.pending
        for root in list(pending):
            if root in self.values or root in self.failed:
                continue
            stack = [root]
            on_stack = {root}
            while stack:
                name = stack[-1]
                equate, pc = pending[name]
                try:
                    value = equate.expr.value(self.lookup_resolving, pc)
                except _Needs as need:
                    if need.name in on_stack:
                        self.diagnostic(equate.line, need.column,
                                        f"'{need.name}' is defined in terms of itself")
                        self.failed.update(stack)
                        break
                    stack.append(need.name)
                    on_stack.add(need.name)
                    continue
                except UnknownSymbol as exc:
                    self.diagnostic(equate.line, exc.column, f"undefined symbol '{exc.name}'")
                    self.failed.update(stack)  # the equates that need this one fail with it, silently
                    break
                except ExpressionError as exc:
                    self.diagnostic(equate.line, exc.column, str(exc))
                    self.failed.update(stack)
                    break
                except _Poisoned:
                    self.failed.update(stack)
                    break
                self.values[name] = value
                self.symbols[name] = SymbolInfo(name, value, False, equate)
                stack.pop()
                on_stack.discard(name)
        self.pending = {}

    # -- the second pass: bytes ------------------------------------------------------------
    def evaluate(self, statement: Statement, expr: Expr, pc: int) -> int | None:
        try:
            return expr.value(self.lookup_final, pc)
        except UnknownSymbol as exc:
            self.diagnostic(statement.line, exc.column, f"undefined symbol '{exc.name}'")
        except ExpressionError as exc:
            self.diagnostic(statement.line, exc.column, str(exc))
        except _Poisoned:
            pass  # its definition's error is reported
        return None

    def emit(self) -> None:
        for statement in self.statements:
            kind = type(statement)
            if kind is Instruction:
                self.emit_instruction(statement)  # type: ignore[arg-type]
            elif kind is Data:
                if statement.size:  # type: ignore[attr-defined]
                    self.emit_data(statement)  # type: ignore[arg-type]
            elif statement.data:  # type: ignore[attr-defined]
                self.emit_directive(statement)  # type: ignore[arg-type]

    def emit_instruction(self, ins: Instruction) -> None:
        mode = ins.mode
        assert mode is not None
        opcode = self.encodings[(ins.mnemonic, mode)].code
        pc = ins.address
        if mode.operand_length == 0:
            self.write(ins, pc, bytes((opcode,)))
            return
        expr = ins.expr
        assert expr is not None
        try:
            value = expr.value(self.lookup_final, pc)
        except (UnknownSymbol, ExpressionError, _Poisoned):
            checked = self.evaluate(ins, expr, pc)
            if checked is None:
                return
            value = checked
        column = expr.column
        if mode is Mode.REL:
            offset = value - (pc + 2)
            if not -128 <= offset <= 127:
                distance = offset - 127 if offset > 0 else -128 - offset
                self.diagnostic(ins.line, column,
                                f"branch out of range: target {_hex(value)} is {distance} "
                                f"byte{'s' if distance != 1 else ''} too far "
                                f"({'forward' if offset > 0 else 'back'})")
                return
            if self.wants_branch_page and (pc + 2) >> 8 != value >> 8:
                self.diagnostic(ins.line, ins.column,
                                f"branch to ${value:04X} crosses a page (from ${pc + 2:04X}): one cycle "
                                "more when taken [-Wbranch-page]", "warning")
            self.write(ins, pc, bytes((opcode, offset & 0xFF)))
        elif mode.operand_length == 1:
            if mode is Mode.IMM:
                if not -128 <= value <= 255:
                    self.diagnostic(ins.line, column, f"value {value} does not fit in a byte "
                                    "(-128..255)")
                    return
            elif not 0 <= value <= 0xFF:
                self.diagnostic(ins.line, column, f"address {_hex(value)} is not in zero page, "
                                f"but '{ins.mnemonic}' has only the zero-page form for {ins.syntax.value}")
                return
            self.write(ins, pc, bytes((opcode, value & 0xFF)))
        else:
            if not 0 <= value <= 0xFFFF:
                self.diagnostic(ins.line, column, f"address {value} is outside $0000-$FFFF")
                return
            if ins.forward and self.wants_zp_forward and value <= 0xFF:
                self.diagnostic(ins.line, column,
                                f"${value:02X} is in zero page but defined below this line, so it stays "
                                "absolute (a byte and a cycle more): define it above [-Wzp-forward]",
                                "warning")
            self.write(ins, pc, bytes((opcode, value & 0xFF, value >> 8)))

    def emit_data(self, data: Data) -> None:
        out = bytearray()
        for item in data.items:
            if data.kind is DataKind.BYTES and isinstance(item, Text):
                out += item.data
                continue
            value = self.evaluate(data, item, data.address + len(out))
            if value is None:
                out += bytes(data.kind.value)
                continue
            if data.kind is DataKind.BYTES:
                if not -128 <= value <= 255:
                    self.diagnostic(data.line, item.column, f"value {value} does not fit in a byte "
                                    "(-128..255)")
                out.append(value & 0xFF)
            else:
                if not -32768 <= value <= 0xFFFF:
                    self.diagnostic(data.line, item.column, f"value {value} does not fit in a word "
                                    "(-32768..65535)")
                out += (value & 0xFFFF).to_bytes(2, "little")
        self.write(data, data.address, bytes(out))

    def emit_directive(self, directive: Directive) -> None:
        data = directive.data
        if directive.name == ".fill" and len(directive.args) > 1:
            value = self.evaluate(directive, directive.args[1], directive.address)
            if value is None:
                return
            if not -128 <= value <= 255:
                self.diagnostic(directive.line, directive.args[1].column,
                                f"value {value} does not fit in a byte (-128..255)")
                return
            data = bytes([value & 0xFF]) * len(data)
        self.write(directive, directive.address, data)

    def write(self, statement: Statement, address: int, data: bytes) -> None:
        line = statement.line
        end = address + len(data)
        if end > 0x10000:  # past the end of memory: layout has said so
            return
        written = self.written
        if any(written[address:end]):
            addr = address + next(i for i, flag in enumerate(written[address:end]) if flag)
            first = next(owner for start, stop, owner in self.spans if start <= addr < stop)
            self.diagnostic(line, statement.column,
                            f"overlapping output: ${addr:04X} was already written by {self.where(first)}")
            return
        self.image[address:end] = data
        written[address:end] = b"\x01" * len(data)
        self.spans.append((address, end, line))
        index = self.line_index[id(line)]
        output = self.line_output.get(index)
        if output is None:
            self.line_output[index] = [(address, data)]
        else:
            output.append((address, data))

    def program(self) -> Program:
        if not self.spans:
            start, image = 0, b""
        else:
            start, end = self.written.find(1), self.written.rfind(1) + 1
            image = bytes(self.image[start:end])  # gaps between origins are 0
        return Program(image, start, self.symbols, self.lines, self.line_output, self.listing_requested,
                       self.warnings)


def _other_dialect(message: str, text: str, column: int) -> str:
    """A parse error that is a directive of the 64tass or ACME dialect says so."""
    if message.startswith(("syntax error: unexpected character '!'", "unknown directive '.")):
        hint = foreign_directive(text[column - 1 :], "profi")
        if hint:
            return hint
    return message


def _hex(value: int) -> str:
    return f"-${-value:X}" if value < 0 else f"${value:X}" if value > 0xFFFF else f"${value:04X}"


def _number_expr(value: int) -> Expr:
    from toolchain.asm.expressions import Number

    return Number(value, 1)


def _syntax_of(mode: Mode) -> str:
    return {Mode.IMP: "implied", Mode.ACC: "accumulator", Mode.IMM: "#immediate", Mode.ZP: "zp",
            Mode.ZPX: "zp,x", Mode.ZPY: "zp,y", Mode.ABS: "address", Mode.ABX: "address,x",
            Mode.ABY: "address,y", Mode.IND: "(address)", Mode.IZX: "(zp,x)", Mode.IZY: "(zp),y",
            Mode.REL: "branch"}[mode]  # fmt: skip


class AssemblyFailed(UserError):
    """Every error of one assembly (and the warnings given on the way).  ``errors`` has
    them all; the diagnostics shown stop after MAX_ERRORS with a count of the rest."""

    def __init__(self, errors: list[Diagnostic], warnings: list[Diagnostic]) -> None:
        self.errors = errors
        self.warnings = warnings
        shown = errors
        if len(errors) > MAX_ERRORS:
            rest = len(errors) - MAX_ERRORS
            shown = errors[:MAX_ERRORS] + [Diagnostic(
                errors[MAX_ERRORS].path, 0, 0, f"and {rest} more error{'s' if rest > 1 else ''} "
                f"({len(errors)} in all)", "note")]
        super().__init__(shown)


def parse_define(text: str) -> tuple[str, int]:
    """A ``-D NAME=VALUE`` definition (VALUE as in the source: 12, $0c, %1100; default 1).
    Raises ValueError with the reason."""
    from toolchain.asm.parser import parse_line_fully

    name, _, value_text = text.partition("=")
    line = SourceLine(_COMMAND_LINE, 1, f"{name.strip()} = {value_text.strip() or '1'}", None, 0)
    try:
        statements = parse_line_fully(line, DOCUMENTED)
    except ParseError as exc:
        raise ValueError(str(exc)) from None
    if len(statements) != 1 or not isinstance(statements[0], Equate):
        raise ValueError("write NAME=VALUE, NAME a label name")
    given = name.strip()  # as typed: 64tass -C and ACME tell the cases apart
    def no_symbols(name: str, column: int) -> int:
        raise UnknownSymbol(name, column)

    try:
        value = statements[0].expr.value(no_symbols, None)
    except UnknownSymbol as exc:
        raise ValueError(f"'{exc.name}' is not a number") from None
    except ExpressionError as exc:
        raise ValueError(str(exc)) from None
    return given, value


def assemble(text: str, path: str = "<source>", options: AssemblyOptions | None = None) -> Program:
    """Assemble a Profi-Ass source text.  Raises AssemblyFailed with every error found."""
    return assemble_sources([(text, path)], options)


def assemble_sources(sources: list[tuple[str, str]], options: AssemblyOptions | None = None) -> Program:
    """Assemble several Profi-Ass source texts (text, path) as one program, in order.
    (toolchain.asm's assemble and assemble_sources take every dialect.)"""
    options = options or AssemblyOptions()
    if options.dialect != "profi":
        raise ValueError(f"the {options.dialect} dialect is assembled by toolchain.asm.assemble_sources")
    assembly = _Assembly(sources, options)
    assembly.layout()
    assembly.resolve_pending()
    assembly.emit()
    if not assembly.errors and not assembly.spans:
        assembly.errors.append(Diagnostic(sources[-1][1] if sources else "<source>", 0, 0,
                                          "the source produced no code or data"))
    if assembly.errors:
        rank = {path: i for i, path in enumerate(dict.fromkeys(line.path for line in assembly.lines))}
        assembly.errors.sort(key=lambda d: (rank.get(d.path, -1), d.line, d.column))
        raise AssemblyFailed(assembly.errors, assembly.warnings)
    return assembly.program()


assert VALUE_LIMIT >= 0xFFFF
