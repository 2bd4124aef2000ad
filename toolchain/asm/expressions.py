"""Assembler expressions: small immutable nodes evaluated against a symbol table.

Values are Python integers (no wrap-around while computing); ranges are checked
where a value is stored.  Division truncates toward zero, as on the 6502
assemblers of the time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


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
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Number(Expr):
    number: int
    column: int

    def value(self, lookup: Lookup, pc: int | None) -> int:
        return self.number


@dataclass(frozen=True, slots=True)
class Text(Expr):
    """A quoted string: several bytes in .byt/.asc, one character's code elsewhere."""

    data: bytes
    column: int

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

    def value(self, lookup: Lookup, pc: int | None) -> int:
        return self.inner.value(lookup, pc)


@dataclass(frozen=True, slots=True)
class Unary(Expr):
    op: str  # "-", "<", ">"
    operand: Expr
    column: int

    def value(self, lookup: Lookup, pc: int | None) -> int:
        v = self.operand.value(lookup, pc)
        if self.op == "-":
            return -v
        if self.op == "<":
            return v & 0xFF
        return (v >> 8) & 0xFF


@dataclass(frozen=True, slots=True)
class Binary(Expr):
    op: str  # + - * /
    left: Expr
    right: Expr
    column: int

    def value(self, lookup: Lookup, pc: int | None) -> int:
        a = self.left.value(lookup, pc)
        b = self.right.value(lookup, pc)
        op = self.op
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if b == 0:
            raise ExpressionError("division by zero", self.column)
        quotient = abs(a) // abs(b)
        return quotient if (a >= 0) == (b >= 0) else -quotient
