"""Reading expressions of the 64tass and ACME dialects: one parser, each dialect's table.

The parser works on a line of text from a position and returns the expression and the
position after it (the caller reads what follows: a comma, ``,x``, ``{``...).  Operators
have the priorities of the dialect's table; an operator stack replaces recursion, so deep
parentheses and long sums cost time in proportion, never Python's recursion limit.  The
dialect supplies how an operand is read (its numbers, strings, symbol names, anonymous
labels); the operators are mapped to the canonical names of ``values.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from toolchain.asm.expressions import (
    Call,
    Expr,
    Index,
    Operation,
    Paren,
    ProgramCounter,
    Sequence,
)
from toolchain.asm.parser import ParseError

#: More parentheses and brackets than this inside one another is an error, not a deep tree.
MAX_NESTING = 256

#: A reader of one operand: (text, position) -> (expression, position after it), or None
#: when no operand starts there.
OperandReader = Callable[[str, int], "tuple[Expr, int] | None"]


@dataclass(frozen=True)
class BinaryOperator:
    spelling: str
    op: str  # canonical name (values.BINARY), or "cond" for '?'
    priority: int
    right: bool = False  # right-associative
    word: bool = False  # a word (ACME's DIV, 64tass's x and in): needs a boundary after it
    # binds tighter than the prefix operators to its left, as Python's ** (64tass's **:
    # "-2 ** 2" is -4 and "2 ** -1 ** 2" is 2 ** -1, 64tass 1.58 observed)
    over_prefix: bool = False


@dataclass(frozen=True)
class PrefixOperator:
    spelling: str
    op: str  # canonical name (values.UNARY)
    priority: int
    word: bool = False


@dataclass
class ExpressionSyntax:
    """A dialect's operators and how it reads an operand."""

    binary: list[BinaryOperator]
    prefix: list[PrefixOperator]
    operand: OperandReader
    case_insensitive_words: bool = True
    ternary_priority: int = 0  # 0: no 'c ? a : b'
    lists: bool = True  # [a, b] lists (and (a, b) tuples in 64tass)
    tuples: bool = False
    index: bool = True  # v[i]
    calls: bool = True  # name(args)
    stop: frozenset[str] = frozenset()  # characters that end an expression at depth 0
    _binary_sorted: list[BinaryOperator] = field(default_factory=list)
    _prefix_sorted: list[PrefixOperator] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._binary_sorted = sorted(self.binary, key=lambda o: -len(o.spelling))
        self._prefix_sorted = sorted(self.prefix, key=lambda o: -len(o.spelling))

    def match_binary(self, text: str, i: int) -> BinaryOperator | None:
        for operator in self._binary_sorted:
            if _matches(text, i, operator.spelling, operator.word, self.case_insensitive_words):
                return operator
        return None

    def match_prefix(self, text: str, i: int) -> PrefixOperator | None:
        for operator in self._prefix_sorted:
            if _matches(text, i, operator.spelling, operator.word, self.case_insensitive_words):
                return operator
        return None


def _matches(text: str, i: int, spelling: str, word: bool, fold: bool) -> bool:
    end = i + len(spelling)
    part = text[i:end]
    if fold and word:
        part = part.lower()
    if part != spelling:
        return False
    if word:
        if i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_"):
            return False
        if end < len(text) and (text[end].isalnum() or text[end] in "_."):
            return False
    return True


def skip_blanks(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in " \t":
        i += 1
    return i


class _Group:
    """An open parenthesis, bracket, call or index: its items so far."""

    __slots__ = ("kind", "column", "items", "operators_base", "name", "slice_parts", "commas", "target")

    def __init__(self, kind: str, column: int, operators_base: int, name: str = "",
                 target: Expr | None = None) -> None:
        self.kind = kind  # "paren", "list", "call", "index"
        self.column = column
        self.items: list[Expr] = []
        self.operators_base = operators_base
        self.name = name
        self.slice_parts: list[Expr | None] | None = None
        self.commas = 0
        self.target = target


def parse_expression(text: str, start: int, syntax: ExpressionSyntax) -> tuple[Expr, int]:
    """The expression at ``text[start:]`` and the position after it.  Raises ParseError."""
    output: list[Expr] = []
    # operators: (kind, op, priority, column, right) with kind "prefix", "binary", "?", ":"
    operators: list[tuple[str, str, int, int, bool]] = []
    groups: list[_Group] = []
    i = start
    n = len(text)

    def reduce_one() -> None:
        kind, op, _, column, _ = operators.pop()
        if kind == "prefix":
            operand = output.pop()
            output.append(Operation(op, (operand,), column))
        elif kind == ":":
            no = output.pop()
            yes = output.pop()
            condition = output.pop()
            output.append(Operation("cond", (condition, yes, no), column))
        elif kind == "?":
            raise ParseError("'?' without ':' in a conditional expression", column)
        else:
            right = output.pop()
            left = output.pop()
            output.append(Operation(op, (left, right), column))

    def base() -> int:
        return groups[-1].operators_base if groups else 0

    def reduce_to(priority: int, right_assoc: bool, over_prefix: bool = False) -> None:
        while len(operators) > base():
            top = operators[-1]
            if top[0] == "?" or (over_prefix and top[0] == "prefix"):
                break
            if top[2] > priority or (top[2] == priority and not right_assoc):
                reduce_one()
            else:
                break

    def reduce_group() -> None:
        while len(operators) > base():
            if operators[-1][0] == "?":
                raise ParseError("'?' without ':' in a conditional expression", operators[-1][3])
            reduce_one()

    while True:
        # -- an operand is expected -----------------------------------------------------------
        i = skip_blanks(text, i)
        if i >= n:
            raise ParseError("syntax error: an expression ends too early", i + 1)
        c = text[i]
        if c == "(" or (c == "[" and syntax.lists):
            if len(groups) >= MAX_NESTING:
                raise ParseError(f"expression nested too deeply (more than {MAX_NESTING} parentheses)", i + 1)
            groups.append(_Group("paren" if c == "(" else "list", i + 1, len(operators)))
            i = skip_blanks(text, i + 1)
            closing = ")" if c == "(" else "]"
            if i < n and text[i] == closing and (c == "[" or syntax.tuples):
                group = groups.pop()
                output.append(Sequence((), "tuple" if c == "(" else "list", group.column))
                i += 1
            else:
                continue
        else:
            prefix = syntax.match_prefix(text, i)
            found = None if prefix is not None and not _prefix_is_operand(text, i, prefix) else \
                syntax.operand(text, i)
            if found is None and prefix is not None:
                operators.append(("prefix", prefix.op, prefix.priority, i + 1, True))
                i += len(prefix.spelling)
                continue
            if found is None:
                raise ParseError(_unexpected(text, i), i + 1)
            expr, i = found
            output.append(expr)
        # -- postfix: calls and indexing, then an operator or the end ----------------------------
        while True:
            if i < n and text[i] == "(" and syntax.calls and _is_name(output[-1]):
                if len(groups) >= MAX_NESTING:
                    raise ParseError(f"expression nested too deeply (more than {MAX_NESTING} parentheses)",
                                     i + 1)
                name = output.pop().name  # type: ignore[attr-defined]
                groups.append(_Group("call", i + 1, len(operators), name))
                j = skip_blanks(text, i + 1)
                if j < n and text[j] == ")":
                    group = groups.pop()
                    output.append(Call(group.name, (), group.column))
                    i = j + 1
                    continue
                i = j
                break
            if i < n and text[i] == "[" and syntax.index:
                if len(groups) >= MAX_NESTING:
                    raise ParseError(f"expression nested too deeply (more than {MAX_NESTING} parentheses)",
                                     i + 1)
                target = output.pop()
                groups.append(_Group("index", i + 1, len(operators), target=target))
                group = groups[-1]
                group.slice_parts = []
                j = skip_blanks(text, i + 1)
                if j < n and text[j] == ":":
                    group.slice_parts.append(None)
                    i = j + 1
                    j = skip_blanks(text, i)
                    if j < n and text[j] in ":]":
                        i = j
                        _close_empty_slice(text, groups, output)
                        i = _after_slice_close(text, i, groups, output)
                        if i < 0:
                            i = -i
                            continue
                        break
                i = j
                break
            j = skip_blanks(text, i)
            if j >= n:
                i = j
                return _finish(output, operators, groups, text, i)
            c = text[j]
            if groups:
                group = groups[-1]
                closing = ")" if group.kind in ("paren", "call") else "]"
                if c == closing:
                    reduce_group()
                    operators_base = group.operators_base
                    del operators[operators_base:]
                    groups.pop()
                    item = output.pop()
                    if group.kind == "paren":
                        if group.commas:
                            output.append(Sequence((*group.items, item), "tuple", group.column))
                        else:
                            output.append(Paren(item, group.column))
                    elif group.kind == "list":
                        output.append(Sequence((*group.items, item), "list", group.column))
                    elif group.kind == "call":
                        output.append(Call(group.name, (*group.items, item), group.column))
                    else:
                        assert group.slice_parts is not None and group.target is not None
                        parts = [*group.slice_parts, item]
                        if len(parts) == 1:
                            output.append(Index(group.target, (item,), group.column))
                        else:
                            while len(parts) < 3:
                                parts.append(None)
                            output.append(Index(group.target, tuple(parts), group.column))
                    i = j + 1
                    continue
                if c == ",":
                    if group.kind == "index":
                        raise ParseError("multi-dimensional indexing is not supported", j + 1)
                    if group.kind == "paren" and not syntax.tuples:
                        raise ParseError(_unexpected(text, j), j + 1)
                    reduce_group()
                    group.items.append(output.pop())
                    group.commas += 1
                    i = j + 1
                    k = skip_blanks(text, i)
                    if k < n and text[k] == closing and group.kind != "call":
                        # a trailing comma: (4,) is a tuple of one
                        groups.pop()
                        kind = "tuple" if group.kind == "paren" else "list"
                        output.append(Sequence(tuple(group.items), kind, group.column))
                        i = k + 1
                        continue
                    break
                if c == ":" and group.kind == "index" and not _pending_question(operators, group):
                    reduce_group()
                    assert group.slice_parts is not None
                    group.slice_parts.append(output.pop())
                    if len(group.slice_parts) > 2:
                        raise ParseError("a slice has at most three parts", j + 1)
                    i = j + 1
                    k = skip_blanks(text, i)
                    if k < n and text[k] in ":]":
                        i = k
                        _close_empty_slice(text, groups, output)
                        i = _after_slice_close(text, i, groups, output)
                        if i < 0:
                            i = -i
                            continue
                    break
            elif c in syntax.stop or c == ",":
                return _finish(output, operators, groups, text, j)
            if c == "?" and syntax.ternary_priority and not text.startswith("??", j):
                reduce_to(syntax.ternary_priority, True)
                operators.append(("?", "cond", syntax.ternary_priority, j + 1, True))
                i = j + 1
                break
            innermost = groups[-1] if groups else None
            if c == ":" and syntax.ternary_priority and _pending_question(operators, innermost):
                while operators[-1][0] != "?":
                    reduce_one()
                _, _, priority, column, _ = operators.pop()
                operators.append((":", "cond", priority, column, True))
                i = j + 1
                break
            operator = syntax.match_binary(text, j)
            if operator is None:
                return _finish(output, operators, groups, text, j)
            reduce_to(operator.priority, operator.right, operator.over_prefix)
            operators.append(("binary", operator.op, operator.priority, j + 1, operator.right))
            i = j + len(operator.spelling)
            break


def _close_empty_slice(text: str, groups: list[_Group], output: list[Expr]) -> None:
    """At ':' or ']' right after a slice separator: that slice part is left out."""
    group = groups[-1]
    assert group.slice_parts is not None
    group.slice_parts.append(None)


def _after_slice_close(text: str, i: int, groups: list[_Group], output: list[Expr]) -> int:
    """After a left-out slice part at text[i] (':' or ']'): at ']' the index is complete
    (returns -(position after it)); at ':' the next part follows (returns its position)."""
    group = groups[-1]
    assert group.slice_parts is not None and group.target is not None
    if text[i] == "]":
        groups.pop()
        parts = list(group.slice_parts)
        while len(parts) < 3:
            parts.append(None)
        output.append(Index(group.target, tuple(parts[:3]), group.column))
        return -(i + 1)
    if len(group.slice_parts) >= 3:
        raise ParseError("a slice has at most three parts", i + 1)
    j = skip_blanks(text, i + 1)
    if j < len(text) and text[j] == "]":
        group.slice_parts.append(None)
        return _after_slice_close(text, j, groups, output)
    return j


def _pending_question(operators: list[tuple[str, str, int, int, bool]], group: _Group | None) -> bool:
    start = group.operators_base if group is not None else 0
    return any(kind == "?" for kind, *_ in operators[start:])


def _finish(output: list[Expr], operators: list[tuple[str, str, int, int, bool]], groups: list[_Group],
            text: str, i: int) -> tuple[Expr, int]:
    if groups:
        group = groups[-1]
        closing = ")" if group.kind in ("paren", "call") else "]"
        raise ParseError(f"'{closing}' expected", i + 1)
    while operators:
        kind, op, _, column, _ = operators[-1]
        if kind == "?":
            raise ParseError("'?' without ':' in a conditional expression", column)
        operators.pop()
        if kind == "prefix":
            output[-1] = Operation(op, (output[-1],), column)
        elif kind == ":":
            no = output.pop()
            yes = output.pop()
            output[-1] = Operation("cond", (output[-1], yes, no), column)
        else:
            right = output.pop()
            output[-1] = Operation(op, (output[-1], right), column)
    return output[0], i


def _is_name(expr: Expr) -> bool:
    from toolchain.asm.expressions import Symbol

    return type(expr) is Symbol


def _prefix_is_operand(text: str, i: int, prefix: PrefixOperator) -> bool:
    """A '-' or '+' run that stands alone is an anonymous label, not an operator."""
    return prefix.spelling in "+-" and anonymous_run(text, i) is not None


def anonymous_run(text: str, i: int) -> str | None:
    """'-', '--', '+', '++'... at text[i] when it stands alone (followed by the end of the
    expression, a comma, a closing bracket or blanks and then such a character)."""
    c = text[i]
    if c not in "+-":
        return None
    j = i
    n = len(text)
    while j < n and text[j] == c:
        j += 1
    k = skip_blanks(text, j)
    if k >= n or text[k] in ",)];:}":
        return text[i:j]
    sign_of_a_number = text[k] in "+-" and k + 1 < n and text[k + 1] not in " \t"
    if k > j and text[k] in "+-*/&|^<>=!" and not sign_of_a_number:
        return text[i:j]
    return None


def _unexpected(text: str, i: int) -> str:
    if i >= len(text):
        return "syntax error: unexpected end of line"
    c = text[i]
    return f"syntax error: unexpected '{c}'"


__all__ = ["BinaryOperator", "ExpressionSyntax", "PrefixOperator", "ProgramCounter", "anonymous_run",
           "parse_expression", "skip_blanks"]
