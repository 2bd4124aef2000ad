"""The functions and arrays that generated code calls at run time.

Numbers follow the ROM's arithmetic (:mod:`toolchain.basic.floats`); every
``FloatError`` it raises becomes the BASIC error the ROM prints.  Names start with
an underscore where generated code uses them, so they cannot clash with the
program's variables (whose names start with a capital letter).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, KeysView
from typing import Any

from toolchain.basic import floats
from toolchain.basic.runner.contract import BasicError, ForFrame, Kind

_add, _sub, _mul, _div, _pow = floats.add, floats.subtract, floats.multiply, floats.divide, floats.power
_rounded = floats.rounded
_add_r = floats.add_stored


class Text(str):
    """A string that lives in the program's text: a literal between quotes, a DATA
    item READ.  Its descriptor points there, so it takes no string space (LET keeps the
    pointer, $AA52); what is made of it (a slice, a concatenation: plain ``str``) is a
    new string in string space, as on the C64."""

    __slots__ = ()


class ProgramTexts(dict):
    """The program's literals as ``Text``, one object per text: generated code reads
    ``_LIT['ABC']`` where a literal goes into a variable as it is (``A$="ABC"``);
    elsewhere a literal is used up at once, and its provenance does not matter."""

    def __missing__(self, text: str) -> Text:
        literal = self[text] = Text(text)
        return literal


class _UnsetText(str):
    __slots__ = ()


class _UnsetInteger(int):
    __slots__ = ()


def unset_value(kind: Kind) -> float | int | str:
    """A variable's value after RUN or CLR, as a new object of its own: while the
    variable holds that very object, it has not been made (assigned) yet.  Equal to
    ``kind.initial()`` in every other way."""
    if kind is Kind.STRING:
        return _UnsetText()
    if kind is Kind.INTEGER:
        return _UnsetInteger()
    return float("0")  # a new float object each time (0.0 would be one shared constant)


def made_value(kind: Kind) -> float | int | str:
    """A variable's initial value once it is made: not its unset object."""
    if kind is Kind.STRING:
        return ""
    if kind is Kind.INTEGER:
        return 0
    return float("0")


def _r(value: float) -> float:
    """Rounded as a variable stores it (MOVMF, $BBD4).  The shortcut: a whole number
    inside +-2**32 has an exponent of at most $A0, so its ones digit is bit 8 or
    higher of the FAC's 40 bits and the rounding byte is 0: the store keeps it.
    (``% 1.0 == 0.0``: "whole", cheaper than ``== int(value)``, as in floats.add.)"""
    if -4294967296.0 < value < 4294967296.0 and value % 1.0 == 0.0:
        return value
    return _rounded(value)


def _int16(value: float) -> int:
    """AYINT ($B1BF): the FAC to -32768..32767 by its floor, else ?ILLEGAL QUANTITY.
    The shortcut: inside -32768 <= value < 32768 the ROM's range check passes (an
    exponent below $90, or exactly -32768) and QINT's floor is Python's floor of the
    same value (a FAC is exact in a double); the edges, where the check compares with
    the rounding byte, go to floats.to_integer."""
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
    """VAL: FIN on the string.  The shortcut: one to nine ASCII digits and nothing else
    (what STR$ makes of an integer, its space cut off).  FIN reads them all (CHRGET
    stops at the zero VAL puts after the string), and each step is times ten plus
    the digit on a whole number below 10**9 < 2**30: exact (whole numbers below 2**32,
    see floats.add), with no decimal point or exponent to scale by.  So the result is
    the number the digits spell."""
    if text.isascii() and text.isdigit() and len(text) < 10:
        return float(text)
    try:
        return floats.parse_number(text.encode("latin-1"))[0]
    except floats.FloatError as error:
        raise BasicError(error.error) from None


class Values(dict):
    """VAL of the texts met so far (generated code reads ``_VAL[text]``: FIN is a pure
    function of the text, and programs take VAL of the same few strings again and
    again); with ``rounded``, the value as a variable stores it.  Bounded: it starts
    afresh when full."""

    __slots__ = ("rounded",)
    LIMIT = 4096

    def __init__(self, rounded: bool) -> None:
        super().__init__()
        self.rounded = rounded

    def __missing__(self, text: str) -> float:
        value = _val(text)
        if self.rounded:
            value = _r(value)
        if len(self) >= self.LIMIT:
            self.clear()
        self[text] = value
        return value


# VAL of every text of at most one character (strings hold the bytes 0..255), as Values
# would work it out: generated code reads ``_VAL1[text]`` for VAL of a one-character
# slice (expressions.at_most_one_character), a plain dict that misses nothing
VAL_OF_CHARACTERS = {text: _val(text) for text in ("", *map(chr, range(256)))}
VAL_OF_CHARACTERS_ROUNDED = {text: _r(value) for text, value in VAL_OF_CHARACTERS.items()}


def _mid(text: str, start: float, length: float = 255.0) -> str:
    """MID$ ($B737): GETBYT floors each number (?ILLEGAL QUANTITY outside 0..255, and
    a start of 0); the bytes from the start for the length, clipped at the string's
    end (a start beyond it gives ""), which is Python's slice.  The shortcut takes
    the slice when both numbers are in range (the compiler's slices test the same,
    expressions.slice_mid)."""
    if 1.0 <= start < 256.0 and 0.0 <= length < 256.0:
        first = int(start) - 1
        return text[first : first + int(length)]
    first = _byte(start)
    if first == 0:
        raise BasicError("ILLEGAL QUANTITY")
    return text[first - 1 : first - 1 + _byte(length)]


class MidSlices(dict):
    """MID$ of a length known when compiling (0..255), by its start: the slice of the
    string.  The whole starts 1..255 are keys, a look-up each; any other start is
    worked out as _mid does (GETBYT floors a start in 1..255) or raises its
    ?ILLEGAL QUANTITY (a start outside 0..255, or 0 after the floor), without
    becoming a key (the table stays 255 long).  The string is evaluated before the
    start, as the ROM evaluates them ($B737)."""

    __slots__ = ("length",)

    def __init__(self, length: int) -> None:
        super().__init__((float(start), slice(start - 1, start - 1 + length)) for start in range(1, 256))
        self.length = length

    def __missing__(self, start: float) -> slice:
        if 1.0 <= start < 256.0:
            first = int(start) - 1
            return slice(first, first + self.length)
        raise BasicError("ILLEGAL QUANTITY")


def _left(text: str, length: float) -> str:
    return text[: _byte(length)]


def _right(text: str, length: float) -> str:
    count = _byte(length)
    return text[max(len(text) - count, 0) :] if count else ""


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


def _fail(name: str | None, *evaluated: Any) -> Any:
    """An expression the ROM stops at when it evaluates it (a literal FIN cannot read, a
    fourth string temporary), after ``evaluated`` (what the ROM evaluates before it:
    Python evaluates the arguments first).  None: one of ``evaluated`` raises."""
    raise BasicError(name or "SYNTAX")


def _floats_call(function: Callable[..., float]) -> Callable[..., float]:
    def call(*arguments: float) -> float:
        try:
            return function(*arguments)
        except floats.FloatError as error:
            raise BasicError(error.error) from None

    return call


class Cells(dict):
    """An array's elements by their subscripts as the program computes them: a float
    for one dimension, a tuple of floats for more.  Generated code reads an element
    with one look-up (``AN_A.cells[N_I]``); a subscript that is not a whole number in
    bounds, or an array not yet dimensioned, is missing and goes to the array's own
    check (floor, bounds, errors).

    Why the look-up is the ROM's element: the keys are exactly the whole numbers in
    bounds (0.0 .. n-1 as floats; -0.0 is equal to 0.0 and hashes alike).  The ROM
    takes each subscript through INTIDX ($B1B2: ?ILLEGAL QUANTITY if negative or
    32768 and more, else QINT's floor), then checks the count and the bounds ($B2FC):
    a whole number in bounds passes all of it and is its own floor, the same element.
    A subscript with a fraction (or a rounding byte: 2.9999999999 is no key) is no
    key, and ``Array._key`` floors and checks it as the ROM does."""

    __slots__ = ("array",)

    def __init__(self, array: Array | Undimensioned) -> None:
        super().__init__()
        self.array = array

    def __missing__(self, key: float | tuple[float, ...]) -> Any:
        return self.array.get(*key) if isinstance(key, tuple) else self.array.get(key)


# the subscripts of an array that generated code stores at as they are: none (Array.settable)
NOTHING_SETTABLE: KeysView[Any] = {}.keys()


class Array:
    """A dimensioned array: C64 bounds (0..n in each dimension), the elements in
    ``cells`` keyed by whole-number subscripts.  Integer arrays hold whole floats
    (what the program reads) and convert what is stored (``_int16``).  ``settable``:
    the subscripts generated code may store a value at in ``cells`` as it is, the
    keys of ``cells`` (numbers, strings) or none (integers: it must ask :meth:`place`).
    A view of the keys, not ``cells``: ``in`` on a dict subclass calls its
    ``__contains__`` method (CPython's dict defines it as one), ``in`` on a view is
    the plain dict's look-up, about half the cost."""

    __slots__ = ("cells", "settable", "sizes", "kind", "integer")

    def __init__(self, sizes: tuple[int, ...], kind: Kind) -> None:
        self.sizes = sizes
        self.kind = kind
        self.integer = kind is Kind.INTEGER
        initial = float(kind.initial()) if self.integer else kind.initial()
        self.cells = Cells(self)
        if len(sizes) == 1:
            self.cells.update(dict.fromkeys(map(float, range(sizes[0])), initial))
        else:
            keys: list[tuple[float, ...]] = [()]
            for size in sizes:
                keys = [key + (float(index),) for key in keys for index in range(size)]
            self.cells.update(dict.fromkeys(keys, initial))
        self.settable: KeysView[Any] = NOTHING_SETTABLE if self.integer else self.cells.keys()

    def _key(self, indexes: tuple[float, ...]) -> float | tuple[float, ...]:
        """The cell of these subscripts, or the ROM's error: each subscript is checked
        as it is evaluated (?ILLEGAL QUANTITY below 0 or from 32768, $B1B2), then,
        with all of them read, their count ($B256) and the bounds ($B2FC) (?BAD
        SUBSCRIPT).  Measured on VICE: A(5,-1) of a 3x3 array is ?ILLEGAL QUANTITY."""
        for index in indexes:
            if not 0.0 <= index < 32768.0:
                raise BasicError("ILLEGAL QUANTITY")
        if len(indexes) != len(self.sizes):
            raise BasicError("BAD SUBSCRIPT")
        for index, size in zip(indexes, self.sizes, strict=True):
            if index >= size:
                raise BasicError("BAD SUBSCRIPT")
        if len(indexes) == 1:
            return float(int(indexes[0]))
        return tuple(float(int(index)) for index in indexes)

    def get(self, *indexes: float) -> Any:
        return dict.__getitem__(self.cells, self._key(indexes))

    def set(self, value: Any, *indexes: float) -> None:
        self._put(self._key(indexes), value)

    def place(self, key: float | tuple[float, ...]) -> Callable[[Any], None]:
        """The element ``key`` (as in ``cells``) checked, for an assignment generated
        code does not make itself (a subscript out of bounds, an integer array): the
        ROM finds the element before it evaluates the value (LET, $A9A5)."""
        return functools.partial(self._put, self._key(key if isinstance(key, tuple) else (key,)))

    def _put(self, key: float | tuple[float, ...], value: Any) -> None:
        if self.integer:
            value = float(_int16(value))
        dict.__setitem__(self.cells, key, value)


class Undimensioned:
    """An array not yet DIMed: the first use dimensions it to 10 in each subscript."""

    __slots__ = ("namespace", "name", "kind", "cells")
    settable: KeysView[Any] = NOTHING_SETTABLE  # every assignment asks place()

    def __init__(self, namespace: dict[str, Any], name: str, kind: Kind) -> None:
        self.namespace, self.name, self.kind = namespace, name, kind
        self.cells = Cells(self)

    def _create(self, count: int) -> Array:
        array = self.namespace["rt"].new_array((11,) * count, self.kind)
        self.namespace[self.name] = array
        return array

    def get(self, *indexes: float) -> Any:
        return self._create(len(indexes)).get(*indexes)

    def set(self, value: Any, *indexes: float) -> None:
        self._create(len(indexes)).set(value, *indexes)

    def place(self, key: float | tuple[float, ...]) -> Callable[[Any], None]:
        return self._create(len(key) if isinstance(key, tuple) else 1).place(key)


def _next(rt: Any, variable: str | None) -> bool:
    """NEXT the ROM's way, where the generated code's shortcut does not apply: the
    loop of ``variable`` (None: the innermost), its step added to the variable by
    FADD and stored (rounded), compared with the limit ($AD1E).  True while the loop
    goes on (its frame is then the top of the stack), else the frame is gone."""
    stack = rt.stack
    frame = stack[-1] if stack else None
    if frame is None or frame.variable is None or (variable is not None and frame.variable != variable):
        frame = rt.for_frame(variable)
    namespace = rt.namespace
    name = frame.variable
    step = frame.step
    # floats.add_stored takes its own proven shortcut where it can (see floats.add)
    value = _add_r(namespace[name], step)
    frame.value = value if -4294967296.0 < value < 4294967296.0 and value == int(value) else None
    namespace[name] = value
    limit = frame.limit
    if (value > limit) - (value < limit) != (step > 0.0) - (step < 0.0):
        return True
    rt.pop_for()
    return False


def undefined_function(*_: float) -> float:
    raise BasicError("UNDEF'D FUNCTION")




def helpers() -> dict[str, Any]:
    """The names generated code calls, bound as it calls them."""
    return {
        "floats": floats, "BasicError": BasicError, "_r": _r, "_add": _add, "_sub": _sub, "_mul": _mul,
        "_add_r": floats.add_stored, "_sub_r": floats.subtract_stored, "_mul_r": floats.multiply_stored,
        "_fdiv": _floats_call(_div), "_fpow": _floats_call(_pow), "_int16": _floats_call(_int16),
        "_byte": _byte, "_address": _address, "_cmp": _cmp, "_scmp": _scmp, "_concat": _concat,
        "_val": _val, "_mid": _mid, "_left": _left,
        "_right": _right, "_chr": _chr, "_asc": _asc, "_bool": _bool, "_and": _and, "_or": _or,
        "_not": _not, "_floor": floats.floor, "_sqr": _floats_call(floats.sqr),
        "_log": _floats_call(floats.log), "_exp": _floats_call(floats.exp), "_cos": _floats_call(floats.cos),
        "_sin": _floats_call(floats.sin), "_tan": _floats_call(floats.tan), "_atn": _floats_call(floats.atn),
        "K": Kind, "_fail": _fail, "_next": _next, "_ForFrame": ForFrame,
        "_MidSlices": MidSlices,
        "_VAL": Values(rounded=False), "_VALR": Values(rounded=True), "_LIT": ProgramTexts(),
        "_VAL1": VAL_OF_CHARACTERS, "_VAL1R": VAL_OF_CHARACTERS_ROUNDED,
    }  # fmt: skip
