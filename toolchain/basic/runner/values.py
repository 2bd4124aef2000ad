"""The functions and arrays that generated code calls at run time.

Numbers follow the ROM's arithmetic (:mod:`toolchain.basic.floats`); every
``FloatError`` it raises becomes the BASIC error the ROM prints.  Names start with
an underscore where generated code uses them, so they cannot clash with the
program's variables (whose names start with a capital letter).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolchain.basic import floats
from toolchain.basic.runner.contract import BasicError, Kind

_add, _sub, _mul, _div, _pow = floats.add, floats.subtract, floats.multiply, floats.divide, floats.power
_rounded = floats.rounded


def _r(value: float) -> float:
    """Rounded as a variable stores it (integers below 2**32 are already)."""
    if -4294967296.0 < value < 4294967296.0 and value == int(value):
        return value
    return _rounded(value)


def _int16(value: float) -> int:
    if -32768.0 <= value < 32768.0:
        return int(value // 1)
    return floats.to_integer(value)


def _byte(value: float) -> int:
    if 0.0 <= value < 256.0:
        return int(value)
    raise BasicError("ILLEGAL QUANTITY")


def _address(value: float) -> int:
    if 0.0 <= value < 65536.0:
        return int(value)
    raise BasicError("ILLEGAL QUANTITY")


def _cmp(left: float, right: float) -> int:
    return floats.compare(left, right)


def _scmp(left: str, right: str) -> int:
    return (left > right) - (left < right)


def _concat(left: str, right: str) -> str:
    text = left + right
    if len(text) > 255:
        raise BasicError("STRING TOO LONG")
    return text


def _val(text: str) -> float:
    """VAL: FIN on the string; a plain digit string (what STR$ makes of an integer,
    with its space cut off) needs no ROM steps to be exact."""
    if text.isascii() and text.isdigit() and len(text) < 10:
        return float(text)
    return floats.parse_number(text.encode("latin-1"))[0]


def _mid(text: str, start: float, length: float = 255.0) -> str:
    if 1.0 <= start < 256.0 and 0.0 <= length < 256.0:
        first = int(start) - 1
        return text[first : first + int(length)]
    first = _byte(start)
    if first == 0:
        raise BasicError("ILLEGAL QUANTITY")
    return text[first - 1 : first - 1 + _byte(length)]


def _left(text: str, length: float) -> str:
    return text[: _byte(length)]


def _right(text: str, length: float) -> str:
    count = _byte(length)
    return text[len(text) - count :] if count else ""


def _chr(value: float) -> str:
    return chr(_byte(value))


def _asc(text: str) -> float:
    if not text:
        raise BasicError("ILLEGAL QUANTITY")
    return float(ord(text[0]))


def _bool(value: bool) -> float:
    return -1.0 if value else 0.0


def _and(left: float, right: float) -> float:
    return float(_int16(left) & _int16(right))


def _or(left: float, right: float) -> float:
    return float(_int16(left) | _int16(right))


def _not(value: float) -> float:
    return float(~_int16(value))


def _fail(name: str) -> float:
    """An expression the ROM stops at when it evaluates it (a literal FIN cannot read)."""
    raise BasicError(name)


def _floats_call(function: Callable[..., float]) -> Callable[..., float]:
    def call(*arguments: float) -> float:
        try:
            return function(*arguments)
        except floats.FloatError as error:
            raise BasicError(error.error) from None

    return call


class Array:
    """A dimensioned array: flat storage, C64 bounds (0..n in each dimension).
    Integer arrays hold Python ints and hand out floats."""

    __slots__ = ("data", "sizes", "kind", "size0", "integer")

    def __init__(self, sizes: tuple[int, ...], kind: Kind) -> None:
        self.sizes = sizes
        # get1/set1 serve one subscript; an array of more dimensions sends them on
        self.size0 = sizes[0] if len(sizes) == 1 else -len(sizes)
        self.kind = kind
        self.integer = kind is Kind.INTEGER
        count = 1
        for size in sizes:
            count *= size
        self.data: list[Any] = [kind.initial()] * count

    def _offset(self, indexes: tuple[float, ...]) -> int:
        if len(indexes) != len(self.sizes):
            raise BasicError("BAD SUBSCRIPT")
        offset = 0
        for index, size in zip(indexes, self.sizes, strict=True):
            if not 0.0 <= index < size:
                if index < 0 or index >= 32768:
                    raise BasicError("ILLEGAL QUANTITY")
                raise BasicError("BAD SUBSCRIPT")
            offset = offset * size + int(index)
        return offset

    def get1(self, index: float) -> Any:
        if 0.0 <= index < self.size0:
            value = self.data[int(index)]
            return float(value) if self.integer else value
        return self.get(index)

    def set1(self, value: Any, index: float) -> None:
        if 0.0 <= index < self.size0 and not self.integer:
            self.data[int(index)] = value
        else:
            self.set(value, index)

    def get2(self, first: float, second: float) -> Any:
        if self.size0 == -2 and 0.0 <= first < self.sizes[0] and 0.0 <= second < self.sizes[1]:
            value = self.data[int(first) * self.sizes[1] + int(second)]
            return float(value) if self.integer else value
        return self.get(first, second)

    def set2(self, value: Any, first: float, second: float) -> None:
        if (self.size0 == -2 and not self.integer and 0.0 <= first < self.sizes[0]
                and 0.0 <= second < self.sizes[1]):
            self.data[int(first) * self.sizes[1] + int(second)] = value
        else:
            self.set(value, first, second)

    def get(self, *indexes: float) -> Any:
        if len(indexes) == 1 and len(self.sizes) == 1:
            index = indexes[0]
            if 0.0 <= index < self.sizes[0]:
                value = self.data[int(index)]
                return float(value) if self.integer else value
        value = self.data[self._offset(indexes)]
        return float(value) if self.integer else value

    def set(self, value: Any, *indexes: float) -> None:
        if self.integer:
            value = _int16(value)
        if len(indexes) == 1 and len(self.sizes) == 1 and 0.0 <= indexes[0] < self.sizes[0]:
            self.data[int(indexes[0])] = value
            return
        self.data[self._offset(indexes)] = value


class Undimensioned:
    """An array not yet DIMed: the first use dimensions it to 10 in each subscript."""

    __slots__ = ("namespace", "name", "kind")

    def __init__(self, namespace: dict[str, Any], name: str, kind: Kind) -> None:
        self.namespace, self.name, self.kind = namespace, name, kind

    def _create(self, count: int) -> Array:
        array = self.namespace["rt"].new_array((11,) * count, self.kind)
        self.namespace[self.name] = array
        return array

    def get(self, *indexes: float) -> Any:
        return self._create(len(indexes)).get(*indexes)

    def set(self, value: Any, *indexes: float) -> None:
        self._create(len(indexes)).set(value, *indexes)

    def get1(self, index: float) -> Any:
        return self.get(index)

    def get2(self, first: float, second: float) -> Any:
        return self.get(first, second)

    def set2(self, value: Any, first: float, second: float) -> None:
        self.set(value, first, second)

    def set1(self, value: Any, index: float) -> None:
        self.set(value, index)


def undefined_function(*_: float) -> float:
    raise BasicError("UNDEF'D FUNCTION")




def helpers() -> dict[str, Any]:
    """The names generated code calls, bound as it calls them."""
    return {
        "floats": floats, "BasicError": BasicError, "_r": _r, "_add": _add, "_sub": _sub, "_mul": _mul,
        "_fdiv": _floats_call(_div), "_fpow": _floats_call(_pow), "_int16": _floats_call(_int16),
        "_byte": _byte, "_address": _address, "_cmp": _cmp, "_scmp": _scmp, "_concat": _concat,
        "_str": floats.format_number, "_val": _floats_call(_val), "_mid": _mid, "_left": _left,
        "_right": _right, "_chr": _chr, "_asc": _asc, "_bool": _bool, "_and": _and, "_or": _or,
        "_not": _not, "_floor": floats.floor, "_sqr": _floats_call(floats.sqr),
        "_log": _floats_call(floats.log), "_exp": _floats_call(floats.exp), "_cos": _floats_call(floats.cos),
        "_sin": _floats_call(floats.sin), "_tan": _floats_call(floats.tan), "_atn": _floats_call(floats.atn),
        "K": Kind, "_fail": _fail,
    }  # fmt: skip
