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
"""

from __future__ import annotations

from dataclasses import dataclass, field

from toolchain.asm.expressions import Expr, ExpressionError, Text, UnknownSymbol
from toolchain.asm.parser import (
    Data,
    DataKind,
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
from toolchain.cpu.opcodes import ENCODINGS, MNEMONICS, Mode
from toolchain.diagnostics import Diagnostic, UserError

KNOWN_OPTIONS = {"p", "p1", "p2", "o", "oo", "o8", "o1", "s"}

_SHORT_FORM = {Syntax.DIRECT: (Mode.ZP, Mode.ABS), Syntax.INDEXED_X: (Mode.ZPX, Mode.ABX),
               Syntax.INDEXED_Y: (Mode.ZPY, Mode.ABY)}  # fmt: skip
_FIXED_FORM = {Syntax.IMPLIED: Mode.IMP, Syntax.ACCUMULATOR: Mode.ACC, Syntax.IMMEDIATE: Mode.IMM,
               Syntax.INDIRECT: Mode.IND, Syntax.INDIRECT_X: Mode.IZX,
               Syntax.INDIRECT_Y: Mode.IZY}  # fmt: skip


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

    @property
    def end(self) -> int:
        """One past the last address written."""
        return self.start + len(self.image)


class _Assembly:
    def __init__(self, text: str, path: str) -> None:
        self.path = path
        self.lines = split_lines(text, path)
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.statements: list[Statement] = []
        self.values: dict[str, int] = {}
        self.symbols: dict[str, SymbolInfo] = {}
        self.pending: dict[str, Equate] = {}  # equates whose value is not known yet
        self.resolving: set[str] = set()
        self.memory: dict[int, int] = {}
        self.writer: dict[int, SourceLine] = {}
        self.listing_requested = False
        self.line_index = {id(line): i for i, line in enumerate(self.lines)}
        self.line_output: dict[int, list[tuple[int, bytes]]] = {}

    # -- diagnostics ---------------------------------------------------------------
    def diagnostic(self, line: SourceLine, column: int, message: str, severity: str = "error") -> None:
        target = self.errors if severity == "error" else self.warnings
        target.append(Diagnostic(self.path, line.number, line.offset + max(column, 1), message,
                                 severity, line.text, line.listing_number))

    # -- symbols ---------------------------------------------------------------------
    def lookup_known(self, name: str, column: int) -> int:
        """Layout-pass lookup: only what is defined so far."""
        value = self.values.get(name)
        if value is None:
            raise UnknownSymbol(name, column)
        return value

    def lookup_final(self, name: str, column: int) -> int:
        """Emit-pass lookup: every symbol; equates defined by later symbols are
        resolved on demand (a circular definition is reported)."""
        value = self.values.get(name)
        if value is not None:
            return value
        equate = self.pending.get(name)
        if equate is None:
            raise UnknownSymbol(name, column)
        if name in self.resolving:
            raise ExpressionError(f"'{name}' is defined in terms of itself", column)
        self.resolving.add(name)
        try:
            value = equate.expr.value(self.lookup_final, None)
        finally:
            self.resolving.discard(name)
        self.values[name] = value
        return value

    def define(self, statement: Statement, name: str, value: int | None, is_label: bool) -> None:
        previous = self.symbols.get(name)
        if previous is not None or name in self.pending:
            first = previous.statement.line if previous else self.pending[name].line
            where = f"line {first.listing_number}" if first.listing_number is not None else \
                f"{self.path}:{first.number}"
            self.diagnostic(statement.line, statement.column,
                            f"duplicate label '{name}' (first defined at {where})")
            return
        if value is None:
            assert isinstance(statement, Equate)
            self.pending[name] = statement
            return
        self.values[name] = value
        self.symbols[name] = SymbolInfo(name, value, is_label, statement)

    # -- passes ------------------------------------------------------------------------
    def parse(self) -> None:
        for line in self.lines:
            if not line.text[line.offset :].strip():
                continue
            try:
                self.statements.extend(parse_line(line))
            except ParseError as exc:
                self.diagnostic(line, exc.column, str(exc))

    def layout(self) -> None:
        pc: int | None = None
        origin_reported = False
        for statement in self.statements:
            if isinstance(statement, Origin):
                try:
                    pc = statement.expr.value(self.lookup_known, pc)
                except UnknownSymbol as exc:
                    self.diagnostic(statement.line, exc.column,
                                    f"the origin must be known when it is set: '{exc.name}' is not "
                                    "defined before this line")
                    continue
                except ExpressionError as exc:
                    self.diagnostic(statement.line, exc.column, str(exc))
                    continue
                if not 0 <= pc <= 0xFFFF:
                    self.diagnostic(statement.line, statement.column,
                                    f"origin ${pc:X} is outside the 64 KiB address space")
                    pc = None
                continue
            if isinstance(statement, Equate):
                try:
                    value: int | None = statement.expr.value(self.lookup_known, pc)
                except UnknownSymbol:
                    value = None
                except ExpressionError as exc:
                    self.diagnostic(statement.line, exc.column, str(exc))
                    continue
                self.define(statement, statement.name, value, is_label=False)
                continue
            if isinstance(statement, Options):
                for name, column in statement.names:
                    if name.startswith("p"):
                        self.listing_requested = True
                    if name not in KNOWN_OPTIONS:
                        self.diagnostic(statement.line, column, f"unknown option '{name}' ignored",
                                        "warning")
                continue
            if pc is None:
                if not origin_reported:
                    self.diagnostic(statement.line, statement.column,
                                    "no origin: set the start address with '*= address' "
                                    "before the first label or instruction")
                    origin_reported = True
                continue
            if isinstance(statement, Label):
                self.define(statement, statement.name, pc, is_label=True)
                continue
            if isinstance(statement, Instruction):
                mode = self.choose_mode(statement, pc)
                if mode is None:
                    continue
                statement.mode = mode
                statement.address = pc
                pc += mode.length
            elif isinstance(statement, Data):
                statement.address = pc
                if statement.kind is DataKind.WORDS:
                    size = 2 * len(statement.items)
                else:
                    size = sum(len(i.data) if isinstance(i, Text) else 1 for i in statement.items)
                statement.size = size
                pc += size
            if pc > 0x10000:
                self.diagnostic(statement.line, statement.column,
                                "the program runs past $FFFF, the end of memory")
                pc = None

    def choose_mode(self, ins: Instruction, pc: int) -> Mode | None:
        modes = MNEMONICS[ins.mnemonic]
        if Mode.REL in modes:
            if ins.syntax is Syntax.DIRECT:
                return Mode.REL
            self.diagnostic(ins.line, ins.column,
                            f"'{ins.mnemonic}' is a branch: it takes a target address only")
            return None
        if ins.syntax in _SHORT_FORM:
            short, long = _SHORT_FORM[ins.syntax]
            if short in modes and long in modes:
                assert ins.expr is not None
                try:
                    value = ins.expr.value(self.lookup_known, pc)
                except (UnknownSymbol, ExpressionError):
                    return long
                return short if 0 <= value <= 0xFF else long
            if short in modes or long in modes:
                return short if short in modes else long
        elif _FIXED_FORM[ins.syntax] in modes:
            return _FIXED_FORM[ins.syntax]
        available = ", ".join(sorted(_syntax_of(m) for m in modes))
        self.diagnostic(ins.line, ins.column,
                        f"addressing mode {ins.syntax.value} is not available for '{ins.mnemonic}' "
                        f"(it has: {available})")
        return None

    def resolve_pending(self) -> None:
        for name, equate in list(self.pending.items()):
            try:
                value = self.lookup_final(name, equate.column)
            except UnknownSymbol as exc:
                self.diagnostic(equate.line, exc.column, f"undefined symbol '{exc.name}'")
                continue
            except ExpressionError as exc:
                self.diagnostic(equate.line, exc.column, str(exc))
                continue
            self.symbols[name] = SymbolInfo(name, value, False, equate)
        self.pending.clear()

    def evaluate(self, statement: Statement, expr: Expr, pc: int) -> int | None:
        try:
            return expr.value(self.lookup_final, pc)
        except UnknownSymbol as exc:
            self.diagnostic(statement.line, exc.column, f"undefined symbol '{exc.name}'")
        except ExpressionError as exc:
            self.diagnostic(statement.line, exc.column, str(exc))
        return None

    def emit(self) -> None:
        for statement in self.statements:
            if isinstance(statement, Instruction) and statement.mode is not None:
                self.emit_instruction(statement)
            elif isinstance(statement, Data) and statement.size:
                self.emit_data(statement)

    def emit_instruction(self, ins: Instruction) -> None:
        mode = ins.mode
        assert mode is not None
        opcode = ENCODINGS[(ins.mnemonic, mode)].code
        pc = ins.address
        if mode.operand_length == 0:
            self.write(ins, pc, bytes([opcode]))
            return
        assert ins.expr is not None
        value = self.evaluate(ins, ins.expr, pc)
        if value is None:
            return
        column = ins.expr.column
        if mode is Mode.REL:
            offset = value - (pc + 2)
            if not -128 <= offset <= 127:
                distance = offset - 127 if offset > 0 else -128 - offset
                self.diagnostic(ins.line, column,
                                f"branch out of range: target ${value & 0xFFFF:04X} is {distance} "
                                f"byte{'s' if distance != 1 else ''} too far "
                                f"({'forward' if offset > 0 else 'back'})")
                return
            self.write(ins, pc, bytes([opcode, offset & 0xFF]))
        elif mode.operand_length == 1:
            if mode is Mode.IMM:
                if not -128 <= value <= 255:
                    self.diagnostic(ins.line, column, f"value {value} does not fit in a byte "
                                    "(-128..255)")
                    return
            elif not 0 <= value <= 0xFF:
                self.diagnostic(ins.line, column, f"address ${value & 0xFFFFFFFF:X} is not in zero page, "
                                f"but '{ins.mnemonic}' has only the zero-page form for {ins.syntax.value}")
                return
            self.write(ins, pc, bytes([opcode, value & 0xFF]))
        else:
            if not 0 <= value <= 0xFFFF:
                self.diagnostic(ins.line, column, f"address {value} is outside $0000-$FFFF")
                return
            self.write(ins, pc, bytes([opcode, value & 0xFF, value >> 8]))

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

    def write(self, statement: Statement, address: int, data: bytes) -> None:
        line = statement.line
        for i, byte in enumerate(data):
            addr = address + i
            first = self.writer.get(addr)
            if first is not None:
                where = f"line {first.listing_number}" if first.listing_number is not None else \
                    f"{self.path}:{first.number}"
                self.diagnostic(line, statement.column,
                                f"overlapping output: ${addr:04X} was already written by {where}")
                return
            self.memory[addr] = byte
            self.writer[addr] = line
        self.line_output.setdefault(self.line_index[id(line)], []).append((address, data))

    def program(self) -> Program:
        if not self.memory:
            start, image = 0, b""
        else:
            start, end = min(self.memory), max(self.memory) + 1
            buffer = bytearray(end - start)
            for addr, byte in self.memory.items():
                buffer[addr - start] = byte
            image = bytes(buffer)
        return Program(image, start, self.symbols, self.lines, self.line_output, self.listing_requested,
                       self.warnings)


def _syntax_of(mode: Mode) -> str:
    return {Mode.IMP: "implied", Mode.ACC: "accumulator", Mode.IMM: "#immediate", Mode.ZP: "zp",
            Mode.ZPX: "zp,x", Mode.ZPY: "zp,y", Mode.ABS: "address", Mode.ABX: "address,x",
            Mode.ABY: "address,y", Mode.IND: "(address)", Mode.IZX: "(zp,x)", Mode.IZY: "(zp),y",
            Mode.REL: "branch"}[mode]  # fmt: skip


class AssemblyFailed(UserError):
    """Every error of one assembly (and the warnings given on the way)."""

    def __init__(self, errors: list[Diagnostic], warnings: list[Diagnostic]) -> None:
        self.errors = errors
        self.warnings = warnings
        super().__init__(errors)


def assemble(text: str, path: str = "<source>") -> Program:
    """Assemble a source text.  Raises AssemblyFailed with every error found."""
    assembly = _Assembly(text, path)
    assembly.parse()
    assembly.layout()
    assembly.resolve_pending()
    assembly.emit()
    if not assembly.errors and not assembly.memory:
        assembly.errors.append(Diagnostic(path, 0, 0, "the source produced no code or data"))
    if assembly.errors:
        assembly.errors.sort(key=lambda d: (d.line, d.column))
        raise AssemblyFailed(assembly.errors, assembly.warnings)
    return assembly.program()
