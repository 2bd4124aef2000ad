"""The values of the 64tass and ACME dialects, and what their operators do to them.

Profi-Ass knows only integers (``expressions.py`` computes those directly).  64tass and
ACME also compute with floating point numbers (C doubles: Python's float is the same
IEEE double, and ``math`` calls the same C library), character strings, lists and,
in 64tass, bit strings (``$0f`` is eight bits, so ``~$0f`` is ``$f0`` in a byte).
The operators are named canonically here; each dialect's parser maps its spelling to
them (``^`` is ``xor`` in 64tass and ``pow`` in ACME, ``/`` divides with ``floor`` in
64tass and truncates in ACME), so one evaluator serves every dialect.

Bounded work: integers stay within ``INT_LIMIT`` bits, strings, bit strings and lists
within ``SEQUENCE_LIMIT`` elements (a list's nested elements counted too) and lists within
``NESTING_LIMIT`` levels; beyond that the operation is an error, not a slow number.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from toolchain.diagnostics import counted

#: The most bits an integer may have (64tass computes with arbitrary precision; ACME with
#: 64-bit integers on this machine's build).  Enough for any address arithmetic.
INT_LIMIT = 256
#: The most elements a string, bit string or list may have.
SEQUENCE_LIMIT = 1 << 20
#: The most levels lists may be nested (the evaluator, Python's repr and comparisons
#: recurse into nested lists: deeper would end in a RecursionError).
NESTING_LIMIT = 100


class ValueError_(Exception):
    """An operation that has no result (the message says why); the caller adds the place."""


@dataclass(frozen=True, slots=True)
class Bits:
    """A 64tass bit string: ``$0f`` (8 bits), ``%101`` (3 bits), the result of ``<`` (8 bits).
    ``value`` is negative when the string was inverted (the bits above ``length`` are
    ones then, as 64tass extends them)."""

    value: int
    length: int

    def __int__(self) -> int:
        return self.value


@dataclass(frozen=True, slots=True)
class Gap:
    """64tass's ``?``: memory that is reserved and not written."""


GAP = Gap()


@dataclass(frozen=True, slots=True)
class Immediate:
    """A 64tass value that carries the immediate addressing mode (``c = #1``: then
    ``lda c`` is ``lda #1``, and ``lda c+1`` is ``lda #2``)."""

    value: object


Value = int | float | str | bytes | Bits | Gap | tuple | list | bool


def is_number(value: object) -> bool:
    return isinstance(value, (int, float, Bits))


def number(value: object) -> int | float:
    """A numeric value (bits and booleans are integers)."""
    if isinstance(value, Immediate):
        return number(value.value)
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, Bits):
        return value.value
    raise ValueError_(f"{describe(value)} is not a number")


def integer(value: object, rounding: str = "floor") -> int:
    """An integer: floats are rounded down (64tass) or toward zero (ACME's C casts)."""
    n = number(value)
    if isinstance(n, float):
        if math.isnan(n) or math.isinf(n):
            raise ValueError_(f"{n} is not a finite number")
        return math.floor(n) if rounding == "floor" else int(n)
    return n


def describe(value: object) -> str:
    if isinstance(value, bool):
        return f"bool '{str(value).lower()}'"
    if isinstance(value, int):
        return f"int '{value}'"
    if isinstance(value, float):
        return f"float '{value!r}'"
    if isinstance(value, Bits):
        return "bits '" + (f"${value.value:x}" if value.value >= 0 else f"~${~value.value:x}") + "'"
    if isinstance(value, str):
        shown = value if len(value) <= 20 else value[:20] + "..."
        return f"str '{shown}'"
    if isinstance(value, bytes):
        return f"bytes of {len(value)}"
    if isinstance(value, Gap):
        return "gap '?'"
    if isinstance(value, (tuple, list)):
        return f"{'list' if isinstance(value, list) else 'tuple'} of {len(value)}"
    return type(value).__name__


def check_int(value: int) -> int:
    if value.bit_length() > INT_LIMIT:
        raise ValueError_(f"integer of {value.bit_length()} bits is too large (at most {INT_LIMIT})")
    return value


def check_float(value: float) -> float:
    if math.isnan(value) or math.isinf(value):
        raise ValueError_("the result is not a finite number")
    return value


def _numbers(a: object, b: object) -> tuple[int | float, int | float]:
    return number(a), number(b)


def _plain(a: object, b: object, function: Callable[[Any, Any], Any]) -> object:
    x, y = _numbers(a, b)
    result = function(x, y)
    return check_float(result) if isinstance(result, float) else result


def _arith(function: Callable[[int | float, int | float], int | float]
           ) -> Callable[[object, object], object]:
    def apply(a: object, b: object) -> object:
        x, y = _numbers(a, b)
        result = function(x, y)
        return check_float(result) if isinstance(result, float) else check_int(result)
    return apply


def _div_floor(x: int | float, y: int | float) -> int | float:
    if y == 0:
        raise ValueError_("division by zero")
    if isinstance(x, int) and isinstance(y, int):
        return x // y
    return x / y


def _div_trunc(x: int | float, y: int | float) -> int | float:
    if y == 0:
        raise ValueError_("division by zero")
    if isinstance(x, int) and isinstance(y, int):
        quotient = abs(x) // abs(y)
        return quotient if (x >= 0) == (y >= 0) else -quotient
    return x / y


def _intdiv_trunc(x: int | float, y: int | float) -> int:
    if y == 0:
        raise ValueError_("division by zero")
    if isinstance(x, int) and isinstance(y, int):
        quotient = abs(x) // abs(y)
        return quotient if (x >= 0) == (y >= 0) else -quotient
    return int(x / y)


def _mod_floor(x: int | float, y: int | float) -> int | float:
    if y == 0:
        raise ValueError_("division by zero")
    if isinstance(x, int) and isinstance(y, int):
        return x % y
    if (x < 0) == (y < 0):
        return math.fmod(x, y)
    try:
        return x - math.floor(x / y) * y
    except OverflowError:
        return x % y  # the quotient is infinite ("-5 % 1e-320"): Python's modulo floors too


def _mod_trunc(x: int | float, y: int | float) -> int:
    y_int = int(y)
    x_int = int(x)
    if y_int == 0:
        raise ValueError_("division by zero")
    return int(math.fmod(x_int, y_int))


def _pow(x: int | float, y: int | float) -> int | float:
    if isinstance(x, int) and isinstance(y, int):
        if y < 0:
            if x == 0:
                raise ValueError_("zero to a negative power")
            return float(x) ** y
        if x not in (0, 1, -1) and y * max(x.bit_length(), 1) > INT_LIMIT + 64:
            raise ValueError_(f"{x} ** {y} is too large")
        return x**y
    try:
        return math.pow(x, y)
    except (OverflowError, ValueError):
        raise ValueError_(f"{x} ** {y} has no value") from None


def _shift_left(x: int | float, y: int | float) -> int | float:
    if isinstance(y, float):
        y = math.floor(y)
    if isinstance(x, float):
        return x * 2.0**y
    if y < 0:
        return x >> -y
    if y > INT_LIMIT + 64:
        raise ValueError_(f"shift by {y} is too large")
    return x << y


def _shift_right(x: int | float, y: int | float) -> int | float:
    if isinstance(y, float):
        y = math.floor(y)
    if isinstance(x, float):
        return x / 2.0**y
    if y < 0:
        return _shift_left(x, -y)
    return x >> min(y, INT_LIMIT + 64)


def _tass_shift(left: bool) -> Callable[[object, object], object]:
    """64tass's << and >>.  A bit string stays a bit string, its length growing or
    shrinking by the count (64tass 1.58 observed: ".byte ~$f << 4" is 0, ".byte ~$ff >> 1"
    is $80, ".byte $ff << 1" is too large for a byte); a float count multiplies by a
    power of two (".byte 3 << 1.5" is 8, ".byte 255 >> 1.5" is 90), where ACME floors it."""

    def apply(a: object, b: object) -> object:
        x, y = _numbers(a, b)
        if isinstance(x, float) or isinstance(y, float):
            try:
                # "1e308 << 1" is infinite: no later operation may meet an infinity
                return check_float(float(x) * 2.0 ** (y if left else -y))
            except OverflowError:
                raise ValueError_(f"shift by {y} is too large") from None
        if not isinstance(a, Bits):
            # one shift is bounded; the check bounds a chain of them ("x .var x << 300")
            shifted = _shift_left(x, y) if left else _shift_right(x, y)
            return check_int(shifted) if isinstance(shifted, int) else shifted
        count = y if left else -y
        if count > INT_LIMIT + 64:
            raise ValueError_(f"shift by {count} is too large")
        if a.length + count > SEQUENCE_LIMIT:
            raise ValueError_(f"bit string of more than {SEQUENCE_LIMIT} bits")
        value = a.value << count if count >= 0 else a.value >> -count
        return Bits(value, max(a.length + count, 0))
    return apply


def _bitwise(function: Callable[[int, int], int]) -> Callable[[object, object], object]:
    def apply(a: object, b: object) -> object:
        if isinstance(a, Bits) and isinstance(b, Bits):
            return Bits(function(a.value, b.value), max(a.length, b.length))
        return function(integer(a), integer(b))
    return apply


def _compare(function: Callable[[object, object], bool]) -> Callable[[object, object], object]:
    def apply(a: object, b: object) -> object:
        if isinstance(a, str) and isinstance(b, str):
            return function(a, b)
        if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
            return function(tuple(a), tuple(b))
        return function(number(a), number(b))
    return apply


def truth(value: object) -> bool:
    if isinstance(value, (str, bytes, tuple, list)):
        return len(value) > 0 if not isinstance(value, str) else any(value)
    if isinstance(value, Gap):
        raise ValueError_("a gap '?' has no truth value")
    return number(value) != 0


def _invert(a: object) -> object:
    if isinstance(a, Bits):
        return Bits(~a.value, a.length)
    if isinstance(a, float):
        return -a - 1.0  # 64tass: "almost -x"
    return ~integer(a)


def _byte_of(shift: int, width: int = 8) -> Callable[[object], object]:
    mask = (1 << width) - 1

    def apply(a: object) -> object:
        return Bits((integer(a) >> shift) & mask, width)
    return apply


def _swapped_word(a: object) -> object:
    v = integer(a)
    return Bits(((v & 0xFF) << 8) | ((v >> 8) & 0xFF), 16)


def _concat(a: object, b: object) -> object:
    # the size is checked before the copy is made
    if isinstance(a, Bits) and isinstance(b, Bits) and a.length + b.length > SEQUENCE_LIMIT:
        raise ValueError_(f"bit string of more than {SEQUENCE_LIMIT} bits")
    if isinstance(a, (str, bytes, tuple, list)) and isinstance(b, (str, bytes, tuple, list)):
        first = elements(a)
        if first + elements(b, SEQUENCE_LIMIT - first) > SEQUENCE_LIMIT:
            raise ValueError_(f"more than {SEQUENCE_LIMIT} elements")
    if isinstance(a, str) and isinstance(b, str):
        result: object = a + b
    elif isinstance(a, bytes) and isinstance(b, bytes):
        result = a + b
    elif isinstance(a, Bits) and isinstance(b, Bits):
        if b.value < 0 or a.value < 0:
            raise ValueError_("concatenating inverted bit strings is not supported")
        result = Bits((a.value << b.length) | b.value, a.length + b.length)
    elif isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        result = type(a)(list(a) + list(b)) if isinstance(a, list) else tuple(a) + tuple(b)
    else:
        raise ValueError_(f"concatenate '..' of {describe(a)} and {describe(b)} not possible")
    return result


def _repeat(a: object, b: object) -> object:
    count = integer(b)
    if count < 0:
        raise ValueError_(f"repeat count {count} is negative")
    if isinstance(a, Bits):
        if a.value < 0:
            raise ValueError_("repeating an inverted bit string is not supported")
        if a.length * count > INT_LIMIT:
            raise ValueError_("the repeated bit string is too long")
        if a.length == 0:
            return Bits(0, 0)  # any count of nothing: the loop below would run count times
        value = 0
        for _ in range(count):
            value = (value << a.length) | a.value
        return Bits(value, a.length * count)
    if isinstance(a, (str, bytes, tuple, list)):
        if not a:
            return a[:0]  # Python can't multiply by a count past sys.maxsize, even nothing
        # nested lists count whole: "[[0] x 1000000] x 1000" is a billion elements, though
        # the outer list holds only a thousand references
        if count and elements(a, SEQUENCE_LIMIT // count) * count > SEQUENCE_LIMIT:
            raise ValueError_(f"the repeated value has more than {SEQUENCE_LIMIT} elements")
        return a * count
    raise ValueError_(f"repeat 'x' of {describe(a)} not possible")


_HOLDERS = (str, bytes, tuple, list, Immediate)


def elements(value: object, budget: int = SEQUENCE_LIMIT) -> int:
    """How many elements a value holds: a string's characters, a list's items and the
    elements of the lists and strings among them, as many times as they are repeated
    (``[[0] x 1000] x 1000`` is 1001000).  Counted only until there are more than
    ``budget``: a list that holds one long list many times costs no more than that."""
    total = 0
    pending: list[tuple[object, int]] = [(value, 0)]
    while pending and total <= budget:
        item, depth = pending.pop()
        if isinstance(item, Immediate):
            pending.append((item.value, depth))
        elif isinstance(item, (str, bytes)):
            total += len(item)
        elif isinstance(item, (tuple, list)):
            if depth >= NESTING_LIMIT:
                raise ValueError_(f"lists nested more than {NESTING_LIMIT} deep")
            total += len(item)
            pending.extend((x, depth + 1) for x in item if isinstance(x, _HOLDERS))
        elif depth == 0:
            total += 1
    return total


def check_length(value: object) -> None:
    if isinstance(value, _HOLDERS) and elements(value) > SEQUENCE_LIMIT:
        raise ValueError_(f"more than {SEQUENCE_LIMIT} elements")


def _contains(a: object, b: object) -> bool:
    if isinstance(b, str) and isinstance(a, str):
        return a in b
    if isinstance(b, (tuple, list)):
        return a in b
    raise ValueError_(f"'in' needs a string or a list, not {describe(b)}")


def _negate(a: object) -> object:
    if isinstance(a, Bits):
        # 64tass negates a bit string in its own length (bitsobj.c; 64tass 1.58 observed:
        # ".word -$2" is $fffe, ".byte -$ff" is 1, ".byte -$100" is too large for a byte)
        return Bits(-a.value, a.length)
    n = number(a)
    return -n


def _positive(a: object) -> object:
    if isinstance(a, Bits):
        return a  # 64tass 1.58 observed: ".word +~$2" is $fffd, a bit string still
    return number(a)


def _logical_not(a: object) -> object:
    return not truth(a)


def _acme_not(a: object) -> object:
    return ~integer(a, "trunc")


def _lsr32(a: object, b: object) -> object:
    # ACME's >>> on its integers (64 bits on this build): shift as unsigned, the count
    # taken modulo 64 as the x86-64 shift does (alu.c: "(uintval_t) intval >> other")
    value = integer(a, "trunc") & 0xFFFFFFFFFFFFFFFF
    result = value >> (integer(b, "trunc") & 63)
    return result - (1 << 64) if result >= 1 << 63 else result


def _acme_asr(a: object, b: object) -> object:
    """ACME's >> (alu.c): an integer shifted arithmetically by the count modulo 64 (C's
    shift on x86-64: "12 >> 64" is 12); a float divided by the C int "1 << count" (so
    modulo 32: "300.0 >> 65" is 150.0)."""
    x, y = _numbers(a, b)
    count = int(y)
    if isinstance(x, float):
        divisor = 1 << (count & 31)
        return x / (divisor - (1 << 32) if divisor >= 1 << 31 else divisor)
    return x >> (count & 63)


def _acme_bitwise(function: Callable[[int, int], int]) -> Callable[[object, object], object]:
    def apply(a: object, b: object) -> object:
        return function(integer(a, "trunc"), integer(b, "trunc"))
    return apply


def _wrap64(function: Callable[[object, object], object]) -> Callable[[object, object], object]:
    """ACME computes with C longs (64 bits on this build): integer results wrap around."""
    def apply(a: object, b: object) -> object:
        result = function(a, b)
        if isinstance(result, int) and not isinstance(result, bool):
            result &= 0xFFFFFFFFFFFFFFFF
            return result - (1 << 64) if result >= 1 << 63 else result
        return result
    return apply


def _acme_pow(a: object, b: object) -> object:
    x, y = _numbers(a, b)
    if isinstance(x, int) and isinstance(y, int):
        if y < 0:
            raise ValueError_("exponent is negative")
        result = 1
        mantissa = x & 0xFFFFFFFFFFFFFFFF
        while y:  # ACME's my_pow: square and multiply in 64 bits
            if y & 1:
                result = (result * mantissa) & 0xFFFFFFFFFFFFFFFF
            mantissa = (mantissa * mantissa) & 0xFFFFFFFFFFFFFFFF
            y >>= 1
        return result
    return _pow(x, y)


def _acme_shift_left(x: int | float, y: int | float) -> int | float:
    # ACME (alu.c): an integer's C shift (the count modulo 64 on x86-64: "1 << 64" is 1,
    # "1 << -1" is 1 << 63); a float times pow(2.0, count)
    count = int(y)
    if isinstance(x, int):
        return (x << (count & 63)) & 0xFFFFFFFFFFFFFFFF
    try:
        return x * 2.0**count
    except OverflowError:
        raise ValueError_(f"{x} << {count} has no value") from None


def _cmp(a: object, b: object) -> int:
    x, y = _numbers(a, b)
    return (x > y) - (x < y)


def _min(a: object, b: object) -> object:
    return a if number(a) <= number(b) else b


def _max(a: object, b: object) -> object:
    return a if number(a) >= number(b) else b


#: Unary operations by canonical name.
UNARY: dict[str, Callable[[object], object]] = {
    "neg": _negate,
    "pos": _positive,
    "inv": _invert,
    "not": _logical_not,
    "acme_not": _acme_not,
    "lo": _byte_of(0),
    "hi": _byte_of(8),
    "bank": _byte_of(16),
    "lo_word": _byte_of(0, 16),
    "hi_word": _byte_of(8, 16),  # 64tass's >`: the higher word, bits 8-23
    "swap_word": _swapped_word,
    "decimal_string": lambda a: str(integer(a)),  # 64tass's old '^' (format("%d") now)
    "immediate": lambda a: Immediate(a),  # 64tass: '#' in a value
}

#: Binary operations by canonical name (the conditional ``?:`` is handled by the evaluator).
BINARY: dict[str, Callable[[object, object], object]] = {
    "add": _arith(lambda x, y: x + y),
    "sub": _arith(lambda x, y: x - y),
    "mul": _arith(lambda x, y: x * y),
    "div_floor": _arith(_div_floor),
    "div_trunc": _arith(_div_trunc),
    "intdiv_trunc": _arith(_intdiv_trunc),
    "mod_floor": _arith(_mod_floor),
    "mod_trunc": _arith(_mod_trunc),
    "pow": _arith(_pow),
    "shl": _arith(_shift_left),
    "shr": _arith(_shift_right),
    "acme_asr": _wrap64(_acme_asr),
    "tass_shl": _tass_shift(left=True),
    "tass_shr": _tass_shift(left=False),
    "lsr": _lsr32,
    "and": _bitwise(lambda x, y: x & y),
    "or": _bitwise(lambda x, y: x | y),
    "xor": _bitwise(lambda x, y: x ^ y),
    "add64": _wrap64(lambda a, b: _plain(a, b, lambda x, y: x + y)),
    "sub64": _wrap64(lambda a, b: _plain(a, b, lambda x, y: x - y)),
    "mul64": _wrap64(lambda a, b: _plain(a, b, lambda x, y: x * y)),
    "pow64": _wrap64(_acme_pow),
    "shl64": _wrap64(lambda a, b: _plain(a, b, _acme_shift_left)),
    "acme_and": _acme_bitwise(lambda x, y: x & y),
    "acme_or": _acme_bitwise(lambda x, y: x | y),
    "acme_xor": _acme_bitwise(lambda x, y: x ^ y),
    "eq": _compare(lambda x, y: x == y),
    "ne": _compare(lambda x, y: x != y),
    "lt": _compare(lambda x, y: x < y),  # type: ignore[operator]
    "le": _compare(lambda x, y: x <= y),  # type: ignore[operator]
    "gt": _compare(lambda x, y: x > y),  # type: ignore[operator]
    "ge": _compare(lambda x, y: x >= y),  # type: ignore[operator]
    "cmp": _cmp,
    "land": lambda a, b: b if truth(a) else a,
    "lor": lambda a, b: a if truth(a) else b,
    "lxor": lambda a, b: (a if truth(a) else b) if truth(a) != truth(b) else False,
    "min": _min,
    "max": _max,
    "concat": _concat,
    "repeat": _repeat,
    "in": _contains,
    "notin": lambda a, b: not _contains(a, b),
}


def apply_unary(op: str, a: object) -> object:
    return UNARY[op](a)


# the operations that take lists whole (ACME's ">>>" takes none); every other one applies
# to each element, the comparisons too (64tass 1.58 observed: ".byte [1, 5] < [2, 3]" is 1, 0)
_WHOLE_LISTS = frozenset({"concat", "repeat", "in", "notin", "eq", "ne", "land", "lor", "lxor", "lsr"})


def apply_binary(op: str, a: object, b: object) -> object:
    result = _apply_binary(op, a, b)
    if isinstance(result, (tuple, list, Immediate)) and op not in _WHOLE_LISTS:
        # an element of one list meets a list in the other: the result holds both, and a
        # chain of such operations could double a list's elements each time
        check_length(result)
    return result


def _apply_binary(op: str, a: object, b: object) -> object:
    if isinstance(a, Immediate) or isinstance(b, Immediate):
        inner = _apply_binary(op, a.value if isinstance(a, Immediate) else a,
                              b.value if isinstance(b, Immediate) else b)
        return Immediate(inner)
    if isinstance(a, (tuple, list)) or isinstance(b, (tuple, list)):
        if op not in _WHOLE_LISTS:
            return _broadcast(op, a, b)
    return BINARY[op](a, b)


def _broadcast(op: str, a: object, b: object) -> object:
    """64tass applies arithmetic to every element of a list (``range(8) * 2``)."""
    function = BINARY[op]
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        if len(a) != len(b):
            raise ValueError_(f"lists of {len(a)} and {counted(len(b), 'element')} do not match")
        items = [_apply_binary(op, x, y) for x, y in zip(a, b, strict=True)]
        return items if isinstance(a, list) else tuple(items)
    if isinstance(a, (tuple, list)):
        items = [_apply_binary(op, x, b) if isinstance(x, (tuple, list)) else function(x, b) for x in a]
        return items if isinstance(a, list) else tuple(items)
    assert isinstance(b, (tuple, list))
    items = [_apply_binary(op, a, y) if isinstance(y, (tuple, list)) else function(a, y) for y in b]
    return items if isinstance(b, list) else tuple(items)


def apply_unary_broadcast(op: str, a: object) -> object:
    if isinstance(a, Immediate):
        return Immediate(apply_unary_broadcast(op, a.value))
    if isinstance(a, (tuple, list)):
        items = [apply_unary_broadcast(op, x) for x in a]
        return items if isinstance(a, list) else tuple(items)
    return UNARY[op](a)
