"""Assembler expressions: small immutable nodes evaluated against a symbol table.

Values are Python integers; ranges are checked where a value is stored.  Division
truncates toward zero, as on the 6502 assemblers of the time.

Bounded work on any input: evaluation walks the tree with an explicit stack (a sum of
100,000 terms is a tree 100,000 deep), and every intermediate result must stay within
+-$FFFFFFFF, so a chain of equates that squares its value each line is an error after a
few lines instead of a number with millions of digits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

#: The largest magnitude of any literal or intermediate value.
VALUE_LIMIT = 0xFFFFFFFF


class UnknownSymbol(Exception):
    """A symbol has no value (yet): undefined, or defined later in the source."""

    def __init__(self, name: str, column: int) -> None:
        super().__init__(name)
        self.name = name
        self.column = column


class ExpressionError(Exception):
    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.column = column


# A symbol lookup: returns the value or raises UnknownSymbol.
Lookup = Callable[[str, int], int]


class Expr:
    __slots__ = ("column",)
    column: int

    def value(self, lookup: Lookup, pc: int | None) -> int:
        return evaluate(self, lookup, pc)


@dataclass(frozen=True, slots=True)
class Number(Expr):
    number: int
    column: int

    def value(self, lookup: Lookup, pc: int | None) -> int:
        return self.number


@dataclass(frozen=True, slots=True)
class Text(Expr):
    """A quoted string: several bytes in .byt/.asc, one character's code elsewhere.
    ``source`` is the text as typed (a file name for .include and .binary)."""

    data: bytes
    column: int
    source: str = field(default="", compare=False)

    def value(self, lookup: Lookup, pc: int | None) -> int:
        if len(self.data) != 1:
            raise ExpressionError(f"a string of {len(self.data)} characters has no numeric value "
                                  "(only one-character strings do)", self.column)
        return self.data[0]


@dataclass(frozen=True, slots=True)
class Symbol(Expr):
    name: str
    column: int

    def value(self, lookup: Lookup, pc: int | None) -> int:
        return lookup(self.name, self.column)


@dataclass(frozen=True, slots=True)
class ProgramCounter(Expr):
    column: int

    def value(self, lookup: Lookup, pc: int | None) -> int:
        if pc is None:
            raise ExpressionError("'*' (the current address) is used before any origin '*='", self.column)
        return pc


@dataclass(frozen=True, slots=True)
class Paren(Expr):
    """Parentheses kept in the tree: '(x)' decides indirect addressing modes."""

    inner: Expr
    column: int


@dataclass(frozen=True, slots=True)
class Unary(Expr):
    op: str  # "-", "<", ">"
    operand: Expr
    column: int


@dataclass(frozen=True, slots=True)
class Binary(Expr):
    op: str  # + - * /
    left: Expr
    right: Expr
    column: int


def _too_large(value: int, column: int) -> ExpressionError:
    return ExpressionError(f"value {'-' if value < 0 else ''}${abs(value):X} is too large (values must "
                           f"stay within -${VALUE_LIMIT:X}..${VALUE_LIMIT:X})", column)


def _apply(node: Binary, a: int, b: int) -> int:
    op = node.op
    if op == "+":
        result = a + b
    elif op == "-":
        result = a - b
    elif op == "*":
        result = a * b
    else:
        if b == 0:
            raise ExpressionError("division by zero", node.column)
        quotient = abs(a) // abs(b)
        result = quotient if (a >= 0) == (b >= 0) else -quotient
    if -VALUE_LIMIT <= result <= VALUE_LIMIT:
        return result
    raise _too_large(result, node.column)


def evaluate(expr: Expr, lookup: Lookup, pc: int | None) -> int:
    """The value of any expression, without recursion: a post-order walk with an
    explicit stack of pending nodes and a stack of computed values."""
    values: list[int] = []
    pending: list[tuple[Expr, bool]] = [(expr, False)]
    while pending:
        node, children_done = pending.pop()
        kind = type(node)
        if kind is Binary:
            if children_done:
                b = values.pop()
                values[-1] = _apply(node, values[-1], b)  # type: ignore[arg-type]
            else:
                pending.append((node, True))
                pending.append((node.right, False))  # type: ignore[attr-defined]
                pending.append((node.left, False))  # type: ignore[attr-defined]
        elif kind is Unary:
            if children_done:
                v = values[-1]
                op = node.op  # type: ignore[attr-defined]
                values[-1] = -v if op == "-" else (v & 0xFF if op == "<" else (v >> 8) & 0xFF)
            else:
                pending.append((node, True))
                pending.append((node.operand, False))  # type: ignore[attr-defined]
        elif kind is Paren:
            pending.append((node.inner, False))  # type: ignore[attr-defined]
        else:
            values.append(node.value(lookup, pc))
    return values[0]


def symbols_in(expr: Expr) -> list[Symbol]:
    """Every symbol an expression uses, left to right (without recursion)."""
    found: list[Symbol] = []
    pending = [expr]
    while pending:
        node = pending.pop()
        kind = type(node)
        if kind is Symbol:
            found.append(node)  # type: ignore[arg-type]
        elif kind is Binary:
            pending.append(node.right)  # type: ignore[attr-defined]
            pending.append(node.left)  # type: ignore[attr-defined]
        elif kind is Unary:
            pending.append(node.operand)  # type: ignore[attr-defined]
        elif kind is Paren:
            pending.append(node.inner)  # type: ignore[attr-defined]
    return found
