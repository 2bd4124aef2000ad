"""Assembler expressions: small immutable nodes evaluated against a symbol table.

Profi-Ass values are Python integers; ranges are checked where a value is stored.
Division truncates toward zero, as on the 6502 assemblers of the time.  The 64tass and
ACME dialects add their operators, functions, strings, floats and lists as the nodes
``Operation``, ``Call``, ``Sequence``, ``Index`` and ``Constant`` (their semantics are in
``values.py``); the same walk evaluates every node of every dialect.

Bounded work on any input: evaluation walks the tree with an explicit stack (a sum of
100,000 terms is a tree 100,000 deep), and every intermediate result must stay within
+-$FFFFFFFF, so a chain of equates that squares its value each line is an error after a
few lines instead of a number with millions of digits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from toolchain.asm import values as _values

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


# A symbol lookup: returns the value or raises UnknownSymbol.  For the 64tass and ACME
# dialects it is an environment object that also has ``call(name, args, column)`` (their
# functions) and ``current_pc`` semantics of its own.
Lookup = Callable[[str, int], Any]


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


@dataclass(frozen=True, slots=True)
class Constant(Expr):
    """A value written literally in a 64tass or ACME source: a float, a character string,
    a bit string, a byte string, 64tass's gap ``?``."""

    constant: object
    column: int

    def value(self, lookup: Lookup, pc: int | None) -> Any:
        return self.constant


@dataclass(frozen=True, slots=True)
class Operation(Expr):
    """A 64tass or ACME operator: ``op`` is its canonical name (``values.UNARY``,
    ``values.BINARY``, or ``cond`` for ``c ? a : b``)."""

    op: str
    operands: tuple[Expr, ...]
    column: int


@dataclass(frozen=True, slots=True)
class Call(Expr):
    """A function call ``name(args)``, carried out by the dialect's environment."""

    function: str
    args: tuple[Expr, ...]
    column: int


@dataclass(frozen=True, slots=True)
class Sequence(Expr):
    """A list ``[a, b]`` or a tuple ``(a, b)``."""

    items: tuple[Expr, ...]
    kind: str  # "list" or "tuple"
    column: int


@dataclass(frozen=True, slots=True)
class Index(Expr):
    """``target[i]`` or ``target[start:stop:step]`` (``parts`` has one or three entries,
    None where a slice bound is left out)."""

    target: Expr
    parts: tuple[Expr | None, ...]
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


def evaluate(expr: Expr, lookup: Lookup, pc: int | None) -> Any:
    """The value of any expression, without recursion: a post-order walk with an
    explicit stack of pending nodes and a stack of computed values."""
    values: list[Any] = []
    # (node, state): 0 (False) to compute, 1 (True) when its operands are computed, 2 when
    # the operand a short-circuiting operation chose is computed
    pending: list[tuple[Expr, int]] = [(expr, False)]
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
        elif kind is Operation and node.op in _SHORT_CIRCUIT:  # type: ignore[attr-defined]
            _short_circuit(node, children_done, values, pending, lookup)  # type: ignore[arg-type]
        elif kind is Operation or kind is Call or kind is Sequence or kind is Index:
            if children_done:
                _finish(node, values, lookup)
            else:
                pending.append((node, True))
                for child in reversed(_children(node)):
                    if child is not None:
                        pending.append((child, False))
        else:
            values.append(node.value(lookup, pc))
    return values[0]


# 64tass computes only the operand it needs of '&&', '||' and '? :' ("1 || 1/0" is 1,
# "0 && nosuch" is 0, "1 ? 2 : nosuch" is 2: 64tass 1.58 observed); no ACME operator
# short-circuits
_SHORT_CIRCUIT = frozenset({"land", "lor", "cond"})


def _short_circuit(node: Operation, state: int, values: list[Any], pending: list[tuple[Expr, int]],
                   lookup: Lookup) -> None:
    if not state:
        pending.append((node, 1))
        pending.append((node.operands[0], 0))
        return
    if state == 2:
        if node.op != "cond":
            _finish(node, values, lookup)
        return
    try:
        first = values[-1]
        truth = _values.truth(first.value if isinstance(first, _values.Immediate) else first)
    except _values.ValueError_ as exc:
        raise ExpressionError(str(exc), node.column) from None
    if node.op == "cond":
        values.pop()
        pending.append((node, 2))
        pending.append((node.operands[1] if truth else node.operands[2], 0))
    elif truth == (node.op == "land"):
        pending.append((node, 2))
        pending.append((node.operands[1], 0))


def _children(node: Expr) -> tuple[Expr | None, ...]:
    kind = type(node)
    if kind is Operation:
        return node.operands  # type: ignore[attr-defined]
    if kind is Call:
        return node.args  # type: ignore[attr-defined]
    if kind is Sequence:
        return node.items  # type: ignore[attr-defined]
    return (node.target, *node.parts)  # type: ignore[attr-defined]


def _finish(node: Expr, values: list[Any], lookup: Lookup) -> None:
    """Combine the computed values of a dialect node's children (on top of ``values``)."""
    kind = type(node)
    try:
        if kind is Operation:
            operands = node.operands  # type: ignore[attr-defined]
            op = node.op  # type: ignore[attr-defined]
            if op not in _TEXT_OPERATIONS and hasattr(lookup, "text_number"):
                _numbers_from_text(values, len(operands), op, lookup)
            if len(operands) == 1:
                values[-1] = _values.apply_unary_broadcast(op, values[-1])
            elif len(operands) == 2:
                b = values.pop()
                values[-1] = _values.apply_binary(op, values[-1], b)
            else:  # cond (evaluate() computes only the branch it needs)
                no = values.pop()
                yes = values.pop()
                values[-1] = yes if _values.truth(values[-1]) else no
        elif kind is Call:
            count = len(node.args)  # type: ignore[attr-defined]
            args = values[len(values) - count :] if count else []
            del values[len(values) - count :]
            values.append(lookup.call(node.function, args, node.column))  # type: ignore[attr-defined]
        elif kind is Sequence:
            count = len(node.items)  # type: ignore[attr-defined]
            items = values[len(values) - count :] if count else []
            del values[len(values) - count :]
            sequence = list(items) if node.kind == "list" else tuple(items)  # type: ignore[attr-defined]
            # its items may be long lists themselves ("[x, x]"), or nested deep ("x .var [x]")
            _values.check_length(sequence)
            values.append(sequence)
        else:
            parts = [p for p in node.parts]  # type: ignore[attr-defined]
            given = sum(1 for p in parts if p is not None)
            got = values[len(values) - given :] if given else []
            del values[len(values) - given :]
            target = values.pop()
            resolved = iter(got)
            bounds = [next(resolved) if p is not None else None for p in parts]
            values.append(_index(target, bounds))
    except _values.ValueError_ as exc:
        raise ExpressionError(str(exc), node.column) from None


# operations that take strings as they are; every other one takes a string's code in the
# current encoding (64tass: "z"-"a" is 25), as the dialect's environment computes it
_TEXT_OPERATIONS = frozenset({"concat", "repeat", "in", "notin", "land", "lor", "lxor", "not", "cond",
                              "decimal_string"})
_COMPARISONS = frozenset({"eq", "ne", "lt", "le", "gt", "ge", "cmp", "min", "max"})


def _numbers_from_text(values: list[Any], count: int, op: str, lookup: Any) -> None:
    operands = values[len(values) - count :]
    if not any(isinstance(v, str) for v in operands):
        return
    if op in _COMPARISONS and all(isinstance(v, str) for v in operands):
        return  # two strings compare as strings
    for i in range(len(values) - count, len(values)):
        if isinstance(values[i], str):
            values[i] = lookup.text_number(values[i])


def _index(target: Any, bounds: list[Any]) -> Any:
    if isinstance(target, _values.Bits):
        sequence: Any = [(target.value >> i) & 1 for i in range(target.length)]
    elif isinstance(target, (str, bytes, tuple, list)):
        sequence = target
    else:
        raise _values.ValueError_(f"{_values.describe(target)} cannot be indexed")
    if len(bounds) == 1:
        index = bounds[0]
        if isinstance(index, (tuple, list)):
            # a bit string's bits are listed once, not once for every index
            picked = [_index(sequence if isinstance(target, _values.Bits) else target, [i]) for i in index]
            result: Any = picked if isinstance(index, list) else tuple(picked)
            _values.check_length(result)  # "x[[0] x 1000]" repeats x[0] a thousand times
            return result
        i = _values.integer(index)
        if not -len(sequence) <= i < len(sequence):
            raise _values.ValueError_(f"index {i} is out of range (length {len(sequence)})")
        item = sequence[i]
        if isinstance(target, bytes):
            return bytes((item,))
        return item
    start, stop, step = (None if b is None else _values.integer(b) for b in bounds)
    if step == 0:
        raise _values.ValueError_("slice step is zero")
    result = sequence[slice(start, stop, step)]
    if isinstance(target, _values.Bits):
        value = 0
        for bit in reversed(result):
            value = (value << 1) | bit
        return _values.Bits(value, len(result))
    return result


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
        elif kind is Operation or kind is Call or kind is Sequence or kind is Index:
            pending.extend(child for child in reversed(_children(node)) if child is not None)
    return found
