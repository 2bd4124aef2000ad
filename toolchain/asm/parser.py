"""Source text -> statements (the assembler's IR).

The dialect is Profi-Ass 64's, as printed in the 64'er magazine: every line may
start with a BASIC line number (the assembler kept its source as a BASIC
program), BASIC statements before the ``sys`` line that starts the assembler
are executed by the C64 and are not assembler source.
"""

from __future__ import annotations

import enum
import itertools
import re
from dataclasses import dataclass, field
from importlib import resources

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from toolchain.asm.expressions import (
    Binary,
    Expr,
    Number,
    Paren,
    ProgramCounter,
    Symbol,
    Text,
    Unary,
)
from toolchain.cpu.opcodes import MNEMONICS, Mode
from toolchain.petscii import PetsciiError, char_to_petscii, parse_units


class Syntax(enum.Enum):
    """How the operand was written; the addressing mode is chosen from it later."""

    IMPLIED = "implied"
    ACCUMULATOR = "accumulator"
    IMMEDIATE = "#immediate"
    DIRECT = "address"
    INDEXED_X = "address,x"
    INDEXED_Y = "address,y"
    INDIRECT = "(address)"
    INDIRECT_X = "(zp,x)"
    INDIRECT_Y = "(zp),y"


@dataclass(slots=True)
class SourceLine:
    path: str
    number: int  # 1-based line in the file
    text: str  # the whole line as in the file
    listing_number: int | None  # the line's own (BASIC) line number
    offset: int  # where the statements start in ``text`` (0-based)


@dataclass(slots=True)
class Statement:
    line: SourceLine
    column: int  # 1-based, relative to the statement text


@dataclass(slots=True)
class Label(Statement):
    name: str


@dataclass(slots=True)
class Equate(Statement):
    name: str
    expr: Expr


@dataclass(slots=True)
class Origin(Statement):
    expr: Expr


@dataclass(slots=True)
class Instruction(Statement):
    mnemonic: str
    syntax: Syntax
    expr: Expr | None
    mode: Mode | None = None  # chosen in the layout pass, then fixed
    address: int = 0


class DataKind(enum.Enum):
    BYTES = 1
    WORDS = 2


@dataclass(slots=True)
class Data(Statement):
    kind: DataKind
    items: list[Expr]
    address: int = 0
    size: int = 0


@dataclass(slots=True)
class Options(Statement):
    names: list[tuple[str, int]] = field(default_factory=list)


DATA_DIRECTIVES = {
    ".byt": DataKind.BYTES, ".byte": DataKind.BYTES, ".asc": DataKind.BYTES, ".text": DataKind.BYTES,
    ".wor": DataKind.WORDS, ".word": DataKind.WORDS,
}  # fmt: skip


class ParseError(Exception):
    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.column = column


def _text_bytes(token: Token) -> bytes:
    try:
        return bytes(unit.byte for unit in parse_units(token.value[1:-1]))
    except PetsciiError as exc:
        raise ParseError(str(exc), token.column + 1 + exc.column) from None


@v_args(inline=True)
class _ToStatements(Transformer):
    """Builds statements while lark parses (no parse tree is kept)."""

    line: SourceLine

    def dec(self, tok: Token) -> Expr:
        return Number(int(tok.value), tok.column)

    def hex(self, tok: Token) -> Expr:
        return Number(int(tok.value[1:], 16), tok.column)

    def bin(self, tok: Token) -> Expr:
        return Number(int(tok.value[1:], 2), tok.column)

    def char(self, tok: Token) -> Expr:
        try:
            return Number(char_to_petscii(tok.value[1]), tok.column)
        except ValueError as exc:
            raise ParseError(str(exc), tok.column) from None

    def open_char(self, tok: Token) -> Expr:
        try:
            return Number(char_to_petscii(tok.value[1]), tok.column)
        except ValueError as exc:
            raise ParseError(str(exc), tok.column) from None

    def string(self, tok: Token) -> Expr:
        return Text(_text_bytes(tok), tok.column)

    def symbol(self, tok: Token) -> Expr:
        return Symbol(tok.value.lower(), tok.column)

    def pc(self) -> Expr:
        return ProgramCounter(0)

    def paren(self, inner: Expr) -> Expr:
        return Paren(inner, inner.column - 1)

    def neg(self, operand: Expr) -> Expr:
        return Unary("-", operand, operand.column - 1)

    def low_byte(self, operand: Expr) -> Expr:
        return Unary("<", operand, operand.column - 1)

    def high_byte(self, operand: Expr) -> Expr:
        return Unary(">", operand, operand.column - 1)

    def _binary(op: str):  # type: ignore[no-redef]  # noqa: N805
        def build(self: _ToStatements, left: Expr, right: Expr) -> Expr:
            return Binary(op, left, right, left.column)

        return build

    add, sub, mul, div = _binary("+"), _binary("-"), _binary("*"), _binary("/")

    # -- operands: (syntax, expression) ------------------------------------------
    def immediate(self, expr: Expr) -> tuple[Syntax, Expr]:
        return Syntax.IMMEDIATE, expr

    def direct(self, expr: Expr) -> tuple[Syntax, Expr]:
        return Syntax.DIRECT, expr

    def indexed(self, expr: Expr, register: Token) -> tuple[Syntax, Expr]:
        reg = register.value.lower()
        if isinstance(expr, Paren):
            if reg == "y":
                return Syntax.INDIRECT_Y, expr.inner
            raise ParseError("there is no (address),x mode: write (zp,x) or (zp),y", register.column)
        if reg == "x":
            return Syntax.INDEXED_X, expr
        if reg == "y":
            return Syntax.INDEXED_Y, expr
        raise ParseError(f"index register must be x or y, not '{register.value}'", register.column)

    def indexed_indirect(self, expr: Expr, register: Token) -> tuple[Syntax, Expr]:
        if register.value.lower() != "x":
            raise ParseError("(zp,y) does not exist: write (zp),y or (zp,x)", register.column)
        return Syntax.INDIRECT_X, expr

    def args(self, *items: Expr) -> list[Expr]:
        return list(items)

    # -- statements --------------------------------------------------------------
    def equate(self, name: Token, expr: Expr) -> list[Statement]:
        return [Equate(self.line, name.column, name.value.lower(), expr)]

    def origin(self, expr: Expr) -> list[Statement]:
        return [Origin(self.line, max(expr.column - 2, 1), expr)]

    def label_only(self, name: Token) -> list[Statement]:
        return [Label(self.line, name.column, name.value.lower())]

    def instruction(self, *children: object) -> list[Statement]:
        items = list(children)
        label = items.pop(0) if isinstance(items[0], Token) and items[0].type == "NAME" else None
        mnemonic = items[0]
        assert isinstance(mnemonic, Token)
        operand = items[1] if len(items) > 1 else (Syntax.IMPLIED, None)
        return make_instruction(self.line, label and (label.value, label.column), mnemonic.value,
                                mnemonic.column, operand)  # type: ignore[arg-type]

    def directive(self, *children: object) -> list[Statement]:
        statements: list[Statement] = []
        items = list(children)
        if isinstance(items[0], Token) and items[0].type == "NAME":
            name = items.pop(0)
            statements.append(Label(self.line, name.column, name.value.lower()))
        token = items[0]
        assert isinstance(token, Token)
        args: list[Expr] = items[1] if len(items) > 1 else []  # type: ignore[assignment]
        directive = token.value.lower()
        if directive in DATA_DIRECTIVES:
            if not args:
                raise ParseError(f"'{directive}' needs at least one value", token.column)
            statements.append(Data(self.line, token.column, DATA_DIRECTIVES[directive], args))
        elif directive == ".opt":
            names = []
            for arg in args:
                if not isinstance(arg, Symbol):
                    raise ParseError("'.opt' takes option names like p, o, oo, o8", arg.column)
                names.append((arg.name, arg.column))
            statements.append(Options(self.line, token.column, names))
        else:
            raise ParseError(f"unknown directive '{token.value}'", token.column)
        return statements

    def start(self, *statement_lists: list[Statement]) -> list[Statement]:
        return [statement for group in statement_lists for statement in group]


def make_instruction(line: SourceLine, label: tuple[str, int] | None, mnemonic: str, column: int,
                     operand: tuple[Syntax, Expr | None]) -> list[Statement]:
    """An instruction statement (after its label, if any), with the operand syntax
    settled: ``a`` is the accumulator, ``(x)`` is indirect for jmp only."""
    statements: list[Statement] = []
    if label is not None:
        statements.append(Label(line, label[1], label[0].lower()))
    mnemonic = mnemonic.lower()
    syntax, expr = operand
    modes = MNEMONICS[mnemonic]
    if syntax is Syntax.DIRECT:
        if isinstance(expr, Symbol) and expr.name == "a" and Mode.ACC in modes:
            syntax, expr = Syntax.ACCUMULATOR, None
        elif isinstance(expr, Paren):
            if mnemonic != "jmp":
                raise ParseError(f"'{mnemonic} (address)' does not exist on the 6502: only jmp has "
                                 "indirect addressing without an index", expr.column)
            syntax, expr = Syntax.INDIRECT, expr.inner
    elif syntax is Syntax.IMPLIED and Mode.ACC in modes and Mode.IMP not in modes:
        syntax = Syntax.ACCUMULATOR  # bare "asl" means "asl a"
    statements.append(Instruction(line, column, mnemonic, syntax, expr))
    return statements


def _load_grammar() -> str:
    text = resources.files("toolchain.asm").joinpath("grammar.lark").read_text()
    return text.replace("%MNEMONICS%", "|".join(MNEMONICS))


_transformer = _ToStatements()
_parser = Lark(_load_grammar(), parser="lalr", lexer="contextual", transformer=_transformer,
               maybe_placeholders=False)

_LINE_NUMBER = re.compile(r"[ \t]*(\d+)[ \t]*")
_SYS_LINE = re.compile(r"sys[ \t]*[\d$%(]", re.IGNORECASE)


def split_lines(text: str, path: str) -> list[SourceLine]:
    """The lines that hold assembler source: with their listing line numbers, and
    without the BASIC statements the C64 ran before ``sys`` started the assembler."""
    lines: list[SourceLine] = []
    sys_index: int | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        match = _LINE_NUMBER.match(raw)
        listing_number = int(match.group(1)) if match else None
        offset = match.end() if match else 0
        line = SourceLine(path, number, raw, listing_number, offset)
        if sys_index is None and _SYS_LINE.match(raw, offset):
            sys_index = len(lines)
        lines.append(line)
    if sys_index is not None:
        lines = lines[sys_index + 1 :]
    return lines


def _describe(token: Token) -> str:
    if token.type == "$END":
        return "end of line"
    return f"'{token.value}'"


_WORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _unknown_mnemonic(text: str, error_column: int, failing_name: Token | None) -> tuple[str, int] | None:
    """When the parse fails right after a statement's first word (or after a label's
    next word) and that word is no mnemonic, the word is the likely culprit.  For two
    words in a row ("lab ldz" or "ldz lab") the three-letter one is taken as the
    mnemonic, the second when both are."""
    statement_start = text.rfind(":", 0, error_column - 1) + 1
    segment = text[statement_start : error_column - 1]
    if '"' in segment or ";" in segment:
        return None
    words = list(_WORDS.finditer(segment))
    if not words or segment[words[-1].end():].strip() or len(words) > 2:
        return None
    if any(segment[a.end():b.start()].strip() for a, b in itertools.pairwise(words)):
        return None
    word = words[-1]
    if failing_name is not None and len(words) == 1:
        first, second = word.group(), failing_name.value
        if len(second) == 3 or len(first) != 3:
            return second, failing_name.column
    if word.group().lower() in MNEMONICS or segment[: words[0].start()].strip():
        return None
    return word.group(), statement_start + word.start() + 1


# -- the fast path ---------------------------------------------------------------------
# Most lines are a comment, "name = value" or "[label] mnemonic operand" with a simple
# operand.  Those are recognised by one regular expression and built with the same
# constructors as above; every other line goes through the lark grammar, which stays
# the definition of the language (tests check that both paths agree).
_TERM = r"(?:\$[0-9a-fA-F]+|%[01]+|[0-9]+|[A-Za-z_][A-Za-z0-9_]*|'[^']')"
_VALUE = rf"(?:{_TERM}(?:[+-]{_TERM})?)"
_COMMENT_END = r"[ \t]*(?:;.*)?"
_FAST_INSTRUCTION = re.compile(
    rf"[ \t]*(?:(?P<label>[A-Za-z_][A-Za-z0-9_]*)[ \t]+)?(?P<mnemonic>[A-Za-z]{{3}})"
    rf"(?:[ \t]+(?:(?P<imm>#[<>]?{_VALUE})|(?P<izx>\({_VALUE},[xX]\))|(?P<izy>\({_VALUE}\),[yY])"
    rf"|(?P<ind>\({_VALUE}\))|(?P<direct>{_VALUE})(?:,(?P<index>[xXyY]))?))?{_COMMENT_END}")
_FAST_EQUATE = re.compile(
    rf"[ \t]*(?P<name>[A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*(?P<value>{_VALUE}){_COMMENT_END}")
_FAST_COMMENT = re.compile(r"[ \t]*(?:;.*)?")
_FAST_TERM = re.compile(_TERM)
_RESERVED = frozenset(MNEMONICS) | {"rem"}


def _fast_term(text: str, column: int) -> Expr:
    first = text[0]
    if first == "$":
        return Number(int(text[1:], 16), column)
    if first == "%":
        return Number(int(text[1:], 2), column)
    if first.isdigit():
        return Number(int(text), column)
    if first == "'":
        return Number(char_to_petscii(text[1]), column)  # ValueError: left to the grammar path
    return Symbol(text.lower(), column)


def _fast_value(text: str, column: int) -> Expr | None:
    """A term, or two terms joined by + or -; None when a name is reserved."""
    left_match = _FAST_TERM.match(text)
    assert left_match is not None
    left_text = left_match.group()
    if left_text.lower() in _RESERVED:
        return None
    left = _fast_term(left_text, column)
    if left_match.end() == len(text):
        return left
    right_text = text[left_match.end() + 1 :]
    if right_text.lower() in _RESERVED:
        return None
    return Binary(text[left_match.end()], left, _fast_term(right_text, column + left_match.end() + 1),
                  column)


def _parse_fast(line: SourceLine, text: str) -> list[Statement] | None:
    try:
        return _parse_fast_unchecked(line, text)
    except (ValueError, ParseError):
        return None  # the grammar path gives the message


def _parse_fast_unchecked(line: SourceLine, text: str) -> list[Statement] | None:
    if _FAST_COMMENT.fullmatch(text):
        return []
    match = _FAST_INSTRUCTION.fullmatch(text)
    if match is not None:
        mnemonic = match.group("mnemonic").lower()
        label = match.group("label")
        if mnemonic not in MNEMONICS or (label is not None and label.lower() in _RESERVED):
            return None
        operand: tuple[Syntax, Expr | None] = (Syntax.IMPLIED, None)
        if match.group("imm"):
            imm = match.group("imm")
            start = match.start("imm") + 1
            if imm[1] in "<>":
                inner = _fast_value(imm[2:], start + 2)
                value = None if inner is None else Unary(imm[1], inner, start + 1)
            else:
                value = _fast_value(imm[1:], start + 1)
            operand = (Syntax.IMMEDIATE, value)
        elif match.group("izx"):
            operand = (Syntax.INDIRECT_X, _fast_value(match.group("izx")[1:-3], match.start("izx") + 2))
        elif match.group("izy"):
            operand = (Syntax.INDIRECT_Y, _fast_value(match.group("izy")[1:-3], match.start("izy") + 2))
        elif match.group("ind"):
            inner = _fast_value(match.group("ind")[1:-1], match.start("ind") + 2)
            operand = (Syntax.DIRECT, None if inner is None else Paren(inner, inner.column - 1))
        elif match.group("direct"):
            value = _fast_value(match.group("direct"), match.start("direct") + 1)
            index = match.group("index")
            syntax = Syntax.DIRECT if index is None else (
                Syntax.INDEXED_X if index in "xX" else Syntax.INDEXED_Y)
            operand = (syntax, value)
        if operand[0] is not Syntax.IMPLIED and operand[1] is None:
            return None
        return make_instruction(line, label and (label, match.start("label") + 1), mnemonic,
                                match.start("mnemonic") + 1, operand)
    match = _FAST_EQUATE.fullmatch(text)
    if match is not None and match.group("name").lower() not in _RESERVED:
        value = _fast_value(match.group("value"), match.start("value") + 1)
        if value is not None:
            return [Equate(line, match.start("name") + 1, match.group("name").lower(), value)]
    return None


def parse_line(line: SourceLine) -> list[Statement]:
    """Parse one line's statements.  Raises ParseError with a column relative to the
    statement text."""
    text = line.text[line.offset :]
    fast = _parse_fast(line, text)
    if fast is not None:
        return fast
    return parse_line_with_grammar(line)


def parse_line_with_grammar(line: SourceLine) -> list[Statement]:
    """The reference path: the lark grammar."""
    text = line.text[line.offset :]
    _transformer.line = line
    try:
        return _parser.parse(text)  # type: ignore[return-value]
    except UnexpectedCharacters as exc:
        raise ParseError(f"syntax error: unexpected character '{text[exc.pos_in_stream]}'",
                         exc.column) from None
    except UnexpectedToken as exc:
        token = exc.token
        at_end = token.type == "$END" or not isinstance(token.column, int)
        column = len(text.rstrip()) + 1 if at_end else token.column
        unknown = _unknown_mnemonic(text, column, token if token.type == "NAME" else None)
        if unknown is not None:
            raise ParseError(f"unknown mnemonic '{unknown[0]}'", unknown[1]) from None
        raise ParseError(f"syntax error: unexpected {_describe(token)}", column) from None
    except UnexpectedEOF:
        raise ParseError("syntax error: unexpected end of line", len(text) + 1) from None
    except UnexpectedInput as exc:  # pragma: no cover - other lark input errors
        raise ParseError(f"syntax error: {exc}", getattr(exc, "column", 1)) from None
