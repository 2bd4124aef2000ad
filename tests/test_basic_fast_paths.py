"""The BASIC runner's shortcuts against the ROM's own ways.

Generated code and its helpers take shortcuts where they can prove the C64 computes
the same: NEXT adds whole numbers in Python (``ForFrame``, ``values._next``), array
elements are one dictionary look-up (``values.Cells``), MID$ and LEFT$ are slices,
VAL is remembered per text (``values.Values``), and floats.py's operators, ``_r``,
VAL of digits and STR$ of integers skip the step-by-step routines.  Each shortcut
is compared here, on random operands weighted to the edges (2**31, 2**32, 10**9
where STR$ turns to E notation, -0, just below and above each), with the full
routine of floats.py, and with the real BASIC ROM run on the 6502 core when the
ROMs are there (tests/test_floats_rom.py finds them); the programs' errors with
what VICE prints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.conftest import c64_roms
from tests.test_floats_rom import BasicRom
from toolchain.basic import floats, tokenize_text
from toolchain.basic.runner import Runtime
from toolchain.basic.runner.contract import BasicError, ForFrame, Kind
from toolchain.basic.runner.expressions import ExpressionCompiler
from toolchain.basic.runner.values import Array, Undimensioned, Values, _left, _mid, _next, _r, _val, helpers
from toolchain.basic.tokens import TOKEN
from toolchain.c64.machine import C64
from toolchain.c64.outcome import Stop

TWO_32 = 2.0**32


# each property runs briefly by default, twenty times longer under -m slow
SCALES = [pytest.param(1, id="brief"), pytest.param(20, marks=pytest.mark.slow, id="long")]


def explore(examples: int, check: Callable[..., None], *strategies: st.SearchStrategy[Any]) -> None:
    """Run ``check`` on ``examples`` random examples drawn from ``strategies``."""
    checks = settings(max_examples=examples, deadline=None, database=None,
                      suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    checks(given(*strategies)(check))()


@pytest.fixture(scope="module")
def rom() -> BasicRom:
    roms = c64_roms()
    return BasicRom(roms.basic, roms.kernal)


# -- the ROM's arithmetic, step by step (no shortcut of floats.py's) ------------------------------

def full_add(left: float, right: float) -> float:
    """FADD ($B867): left from memory, right in the FAC with its rounding byte."""
    return floats.from_fac(floats._add(floats._memory(floats.to_fac(left)), floats.to_fac(right)))


def full_subtract(left: float, right: float) -> float:
    return floats.from_fac(floats._add(floats._memory(floats.to_fac(left)),
                                       floats._negate(floats.to_fac(right))))


def full_multiply(left: float, right: float) -> float:
    return floats.from_fac(floats._multiply(floats._memory(floats.to_fac(left)), floats.to_fac(right)))


def full_store(value: float) -> float:
    """The value as MOVMF ($BBD4) stores it: rounded by the rounding byte."""
    return floats.from_fac(floats.round_fac(floats.to_fac(value)))


def rom_next(value: float, step: float, limit: float) -> tuple[float, bool]:
    """NEXT ($AD1E): the step added to the variable, stored; the loop goes on while
    FCOMP of the limit with that value differs from the sign of the step."""
    stored = full_store(full_add(value, step))
    sign = (step > 0) - (step < 0)
    return stored, floats._compare(floats.to_fac(limit), floats.to_fac(stored)) != sign


# -- operands at the edges --------------------------------------------------------------------

EDGES = [0.0, 1.0, 2.0, 3.0, 255.0, 256.0, 32767.0, 32768.0, 65535.0, 16777215.0, 16777216.0,
         16777217.0, 999999998.0, 999999999.0, 1e9, 1000000001.0, 2147483646.0, 2147483647.0,
         2147483648.0, 2147483649.0, 4294967294.0, 4294967295.0, 4294967296.0, 4294967297.0,
         4294967298.0, 8589934592.0]
edge_integers = st.sampled_from(EDGES + [-edge for edge in EDGES])
near_edges = st.builds(lambda edge, offset: edge + offset, edge_integers, st.integers(-3, 3).map(float))
any_integers = st.one_of(edge_integers, near_edges, st.integers(-(2**33), 2**33).map(float),
                         st.integers(-100, 100).map(float))
# numbers as variables hold them: integers, and values a bit off an integer
stored_numbers = st.one_of(
    any_integers.map(full_store),
    st.builds(lambda whole, fraction: full_store(whole + fraction), any_integers,
              st.sampled_from([0.5, 0.25, 2.0**-20, 2.0**-31, -(2.0**-31), 0.1, 1 - 2.0**-30])),
    st.floats(-1e12, 1e12).map(full_store))
steps = st.one_of(any_integers, st.sampled_from([0.5, -0.5, 0.1, 2.0**-31]), stored_numbers).map(full_store)


# -- NEXT -------------------------------------------------------------------------------------------

RESUME = 777  # the segment a FOR frame of these tests goes back to


def compiled_next(listing: str) -> tuple[Runtime, Callable[[], int]]:
    """A runtime and the compiled segment of line 20 (a NEXT, line 10 its FOR)."""
    runtime = Runtime(tokenize_text(listing).data, C64())
    return runtime, runtime.segments[runtime.segment_lines.index(20)]


def check_generated_next(runtime: Runtime, segment: Callable[[], int], value: float, step: float,
                         limit: float, known: bool) -> None:
    """One NEXT of the generated code with the variable at ``value`` (``known``: the
    very object the frame last stored): its result is the ROM's NEXT, whichever
    way the code takes (its shortcut, or values._next)."""
    value, limit = full_store(value), full_store(limit)
    frame = ForFrame("N_I", limit, step, RESUME, 10)
    if known and value == int(value):
        frame.value = value
    runtime.stack[:] = [frame]
    runtime.stack_bytes = 18
    runtime.namespace["N_I"] = value
    try:
        expected: tuple[float, bool] | str = rom_next(value, step, limit)
    except floats.FloatError as error:
        expected = error.error
    try:
        goes_on = segment() == RESUME
    except floats.FloatError as error:
        assert expected == error.error
        return
    assert (runtime.namespace["N_I"], goes_on) == expected
    assert len(runtime.stack) == goes_on


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("listing", ["10 for i=1 to 1\n20 next\n", "20 next i\n"])
def test_generated_next_is_the_roms_next(scale: int, listing: str) -> None:
    runtime, segment = compiled_next(listing)
    explore(200 * scale, lambda value, step, limit, known: check_generated_next(
        runtime, segment, value, step, limit, known), st.one_of(any_integers, stored_numbers), steps,
        stored_numbers, st.booleans())


def check_next_helper_is_the_roms_next(value: float, step: float, limit: float) -> None:
    """values._next (NEXT where the shortcut does not apply, its own whole-number
    check included): the stored sum, whether the loop goes on, and ``value`` set only
    for a whole number below 2**32."""
    value, limit = full_store(value), full_store(limit)
    frame = ForFrame("N_I", limit, step, 1, 10)
    runtime = _FakeRuntime(frame, value)
    try:
        expected: tuple[float, bool] | str = rom_next(value, step, limit)
    except floats.FloatError as error:
        expected = error.error
    try:
        goes_on = _next(runtime, None)
    except floats.FloatError as error:
        assert expected == error.error
        return
    assert (runtime.namespace["N_I"], goes_on) == expected
    assert runtime.stack == ([frame] if goes_on else [])
    stored = runtime.namespace["N_I"]
    if frame.value is not None:
        assert frame.value is stored and stored == int(stored) and -TWO_32 < stored < TWO_32


@pytest.mark.parametrize("scale", SCALES)
def test_next_helper_is_the_roms_next(scale: int) -> None:
    explore(200 * scale, check_next_helper_is_the_roms_next, stored_numbers, steps, stored_numbers)


class _FakeRuntime:
    """What _next uses of the runtime: the stack, the namespace, for_frame, pop_for."""

    def __init__(self, frame: ForFrame, value: float) -> None:
        self.stack: list[Any] = [frame]
        self.namespace = {"N_I": value}

    def for_frame(self, variable: str | None) -> ForFrame:
        return self.stack[-1]

    def pop_for(self) -> None:
        self.stack.pop()


def check_next_shortcut_on_the_real_rom(rom: BasicRom, value: float, step: float) -> None:
    """Whenever the generated NEXT would add in Python (a whole variable, a whole step
    below 2**32, the sum in the frame's ranges: here the limit is far away or just
    passed), FADD ($B867) and the store ($BBD4) on the ROM give the same number."""
    value, step = full_store(value), full_store(step)
    assume(value == int(value) and step != 0)
    for limit in (1e30 if step > 0 else -1e30, value):
        frame = ForFrame("N_I", limit, step, 1, 10)
        total = value + step
        if frame.low <= total <= frame.high or frame.past_low < total < frame.past_high:
            rom_sum = rom.binary("+", value, step)
            assert isinstance(rom_sum, float) and rom.store(rom_sum) == floats.to_bytes(total)


@pytest.mark.parametrize("scale", SCALES)
def test_next_shortcut_on_the_real_rom(rom: BasicRom, scale: int) -> None:
    explore(40 * scale, lambda value, step: check_next_shortcut_on_the_real_rom(rom, value, step),
            st.one_of(any_integers, near_edges), st.one_of(edge_integers, st.integers(-40, 40).map(float)))


def run_loop(start: str, limit: str, step: str) -> list[float]:
    """FOR I=start TO limit STEP step, each I kept in A() (at most 61 of them), and I
    at the end: through the compiled program."""
    listing = (f"10 dim a(60):for i={start} to {limit} step {step}\n"
               "20 a(c)=i:c=c+1:if c>60 then end\n30 next\n")
    runtime = Runtime(tokenize_text(listing).data, C64())
    result = runtime.run(max_statements=10_000)
    assert result.stop is Stop.END, result.message
    cells = runtime.namespace["AN_A"].cells
    return [cells[float(index)] for index in range(int(runtime.value("C")))] + [runtime.value("I")]


def model_loop(start: str, limit: str, step: str) -> list[float]:
    """The same loop with the ROM's routines: FOR stores the numbers it reads."""
    # the program's text holds capitals where the listing has small letters (1E+09)
    first, last, increment = (full_store(floats.parse_number(text.upper().encode())[0])
                              for text in (start, limit, step))
    values = []
    value, goes_on = first, True
    while goes_on:
        values.append(value)
        if len(values) > 60:
            break
        value, goes_on = rom_next(value, increment, last)
    return values + [value]


# literals as FOUT prints numbers (FIN reads them back)
loop_numbers = st.one_of(near_edges, st.integers(-50, 50).map(float), st.floats(-100, 100)).map(
    lambda value: floats.format_number(full_store(value)).strip().lower())
loop_steps = st.one_of(st.integers(-7, 7).map(float), st.floats(-3, 3), near_edges).map(
    lambda value: floats.format_number(full_store(value)).strip().lower())


def check_compiled_for_loops_step_as_the_rom(start: str, limit: str, step: str) -> None:
    assert run_loop(start, limit, step) == model_loop(start, limit, step)


@pytest.mark.parametrize("scale", SCALES)
def test_compiled_for_loops_step_as_the_rom(scale: int) -> None:
    explore(12 * scale, check_compiled_for_loops_step_as_the_rom, loop_numbers, loop_numbers, loop_steps)


# -- arrays -----------------------------------------------------------------------------------------

def model_element(sizes: tuple[int, ...], indexes: tuple[float, ...]) -> tuple[int, ...] | str:
    """The element the ROM finds (PTRGET, $B1D1), or its error: every subscript read
    and checked for sign and size first (?ILLEGAL QUANTITY), then the count of
    subscripts and each bound (?BAD SUBSCRIPT)."""
    if any(index < 0 or index >= 32768 for index in indexes):
        return "ILLEGAL QUANTITY"
    if len(indexes) != len(sizes) or any(index >= size for index, size in zip(indexes, sizes, strict=False)):
        return "BAD SUBSCRIPT"
    return tuple(int(index) for index in indexes)


subscripts = st.one_of(st.integers(0, 12).map(float), st.floats(-2, 14),
                       st.sampled_from([-0.0, 0.5, 0.999999, 32767.0, 32767.5, 32768.0, -1e-30]))


def check_array_cells_find_the_roms_element(sizes: tuple[int, ...], indexes: tuple[float, ...],
                                            kind: Kind) -> None:
    array = Array(sizes, kind)
    # every element holds its own position, so a look-up shows which one it found
    for key in list(array.cells):
        positions = key if isinstance(key, tuple) else (key,)
        dict.__setitem__(array.cells, key, float(sum(p * 10**n for n, p in enumerate(positions))))
    expected = model_element(sizes, indexes)
    key = indexes[0] if len(indexes) == 1 else indexes
    try:
        found: float | str = array.cells[key]
    except BasicError as error:
        found = error.name
    if isinstance(expected, str):
        assert found == expected
        return
    assert found == float(sum(p * 10**n for n, p in enumerate(expected)))
    # an assignment as generated code makes it: in place when the key is a cell, else checked
    if key in array.writable:
        array.writable[key] = 7.0
    else:
        array.place(key)(7.0)
    assert array.get(*indexes) == 7.0


@pytest.mark.parametrize("scale", SCALES)
def test_array_cells_find_the_roms_element(scale: int) -> None:
    explore(100 * scale, check_array_cells_find_the_roms_element,
            st.lists(st.integers(1, 6), min_size=1, max_size=3).map(tuple),
            st.lists(subscripts, min_size=1, max_size=3).map(tuple),
            st.sampled_from([Kind.NUMBER, Kind.INTEGER]))


def test_undimensioned_arrays_dimension_on_first_use() -> None:
    namespace: dict[str, Any] = {}
    runtime = Runtime(tokenize_text("10 end\n").data, C64())
    namespace["rt"] = runtime
    array = Undimensioned(namespace, "AN_A", Kind.NUMBER)
    assert array.cells[3.0, 10.0] == 0.0
    assert namespace["AN_A"].sizes == (11, 11)
    array = Undimensioned(namespace, "AN_B", Kind.NUMBER)
    assert 3.0 not in array.writable
    with pytest.raises(BasicError, match="BAD SUBSCRIPT"):
        array.place(11.0)
    assert namespace["AN_B"].sizes == (11,)


# -- MID$, LEFT$ -------------------------------------------------------------------------------------

def compiled(expression: bytes) -> str:
    compiler = ExpressionCompiler()
    compiler.body = expression
    return compiler.expression().code


def evaluate(code: str, text: str, number: float) -> str:
    namespace = {**helpers(), "S_A": text, "N_I": number}
    try:
        return eval(code, namespace)  # the compiler's own code
    except BasicError as error:
        return "?" + error.name


def helper(function: Any, *arguments: Any) -> str:
    try:
        return function(*arguments)
    except BasicError as error:
        return "?" + error.name


MID, LEFT = bytes([TOKEN["MID$"]]), bytes([TOKEN["LEFT$"]])
texts = st.one_of(st.text(st.sampled_from("AB1 "), max_size=12),
                  st.text(st.characters(max_codepoint=255), max_size=255))
positions = st.one_of(st.integers(-2, 260).map(float), st.floats(-2, 300),
                      st.sampled_from([0.0, 0.5, 0.99999, 1.0, 1.5, 255.0, 255.5, 255.99999, 256.0, 1e10]))
constants = st.sampled_from(["0", "1", "2", "3", ".5", "1.9", "7", "254", "255", "255.9", "256", "300"])


def check_mid_and_left_slices_are_the_helpers(text: str, number: float, constant: str) -> None:
    """MID$/LEFT$ with a variable and a constant, compiled to slices, against the
    helpers (which the VICE screens pin)."""
    value = floats.parse_number(constant.encode())[0]
    cases = [
        (MID + b"(A$,I," + constant.encode() + b")", _mid, (text, number, value)),
        (MID + b"(A$,I)", _mid, (text, number)),
        (MID + b"(A$," + constant.encode() + b")", _mid, (text, value)),
        (MID + b"(A$," + constant.encode() + b",I)", _mid, (text, value, number)),
        (LEFT + b"(A$,I)", _left, (text, number)),
        (LEFT + b"(A$," + constant.encode() + b")", _left, (text, value)),
    ]
    for expression, function, arguments in cases:
        assert evaluate(compiled(expression), text, number) == helper(function, *arguments), expression


@pytest.mark.parametrize("scale", SCALES)
def test_mid_and_left_slices_are_the_helpers(scale: int) -> None:
    explore(100 * scale, check_mid_and_left_slices_are_the_helpers, texts, positions, constants)


# -- VAL ---------------------------------------------------------------------------------------------

VAL_PIECES = ["0", "1", "5", "9", "99999999", "999999999", "1000000000", "4294967296", ".", "E", "E-", "E+",
              "-", "+", " ", "A", "E39", "E-39", "1E38", "2147483648"]
val_texts = st.lists(st.one_of(st.sampled_from(VAL_PIECES), st.integers(0, 10**10).map(str)),
                     max_size=5).map("".join)


def check_val_cache_is_val(text: str) -> None:
    expected = helper(_val, text)
    for cache, rounded in ((Values(rounded=False), False), (Values(rounded=True), True)):
        for _ in range(2):  # computed, then remembered
            found = helper(cache.__getitem__, text)
            assert found == (expected if isinstance(expected, str) or not rounded else _r(expected))


@pytest.mark.parametrize("scale", SCALES)
def test_val_cache_is_val(scale: int) -> None:
    explore(100 * scale, check_val_cache_is_val, val_texts)


def test_val_cache_is_bounded() -> None:
    cache = Values(rounded=False)
    for number in range(Values.LIMIT + 10):
        assert cache[str(number)] == float(number)
    assert len(cache) <= Values.LIMIT


digit_texts = st.one_of(st.integers(0, 999999999).map(str), st.integers(0, 10**8).map(lambda n: f"{n:09d}"),
                        st.sampled_from(["0", "00", "000000001", "999999999"]))


def check_val_of_digits_is_fin(text: str) -> None:
    assert _val(text) == floats.parse_number(text.encode())[0]


@pytest.mark.parametrize("scale", SCALES)
def test_val_of_digits_is_fin(scale: int) -> None:
    explore(50 * scale, check_val_of_digits_is_fin, digit_texts)


def check_val_of_digits_on_the_real_rom(rom: BasicRom, text: str) -> None:
    assert rom.fin(text.encode()) == (_val(text), len(text))


@pytest.mark.parametrize("scale", SCALES)
def test_val_of_digits_on_the_real_rom(rom: BasicRom, scale: int) -> None:
    explore(30 * scale, lambda text: check_val_of_digits_on_the_real_rom(rom, text), digit_texts)


# -- STR$ of integers, rounding on store, the operators' integer shortcuts -----------------------------

printed_integers = st.one_of(edge_integers, near_edges, st.integers(-1_100_000_000, 1_100_000_000).map(float),
                             st.just(-0.0))


def check_str_of_integers_is_fout(value: float) -> None:
    value = full_store(value)
    assert floats.format_number(value) == floats._format(value)


@pytest.mark.parametrize("scale", SCALES)
def test_str_of_integers_is_fout(scale: int) -> None:
    explore(50 * scale, check_str_of_integers_is_fout, printed_integers)


def check_str_of_integers_on_the_real_rom(rom: BasicRom, value: float) -> None:
    value = full_store(value)
    assert floats.format_number(value) == rom.fout(value)


@pytest.mark.parametrize("scale", SCALES)
def test_str_of_integers_on_the_real_rom(rom: BasicRom, scale: int) -> None:
    explore(40 * scale, lambda value: check_str_of_integers_on_the_real_rom(rom, value), printed_integers)


def check_rounding_shortcut_is_the_store(value: float) -> None:
    value = floats.from_fac(floats.to_fac(value))  # a FAC: 40 bits
    assert _r(value) == full_store(value)


@pytest.mark.parametrize("scale", SCALES)
def test_rounding_shortcut_is_the_store(scale: int) -> None:
    explore(100 * scale, check_rounding_shortcut_is_the_store,
            st.one_of(any_integers, stored_numbers, st.floats(-1e12, 1e12)))


def check_rounding_shortcut_on_the_real_rom(rom: BasicRom, value: float) -> None:
    value = floats.from_fac(floats.to_fac(value))
    assert floats.to_bytes(_r(value)) == rom.store(value)


@pytest.mark.parametrize("scale", SCALES)
def test_rounding_shortcut_on_the_real_rom(rom: BasicRom, scale: int) -> None:
    explore(40 * scale, lambda value: check_rounding_shortcut_on_the_real_rom(rom, value),
            st.one_of(any_integers, near_edges))


# each operator: its shortcut, the twin that stores (rounds) the result, the full routine
OPERATORS = {"+": (floats.add, floats.add_stored, full_add),
             "-": (floats.subtract, floats.subtract_stored, full_subtract),
             "*": (floats.multiply, floats.multiply_stored, full_multiply)}


def outcome(function: Callable[..., float], *arguments: float) -> float | str:
    try:
        return function(*arguments)
    except floats.FloatError as error:
        return error.error


def check_operator_shortcuts_are_the_full_routines(operator: str, left: float, right: float) -> None:
    fast, stored, full = OPERATORS[operator]
    right = floats.from_fac(floats.to_fac(right))
    expected = outcome(full, left, right)
    assert outcome(fast, left, right) == expected
    expected_stored = outcome(full_store, expected) if isinstance(expected, float) else expected
    assert outcome(stored, left, right) == expected_stored


@pytest.mark.parametrize("scale", SCALES)
def test_operator_shortcuts_are_the_full_routines(scale: int) -> None:
    explore(200 * scale, check_operator_shortcuts_are_the_full_routines, st.sampled_from(sorted(OPERATORS)),
            stored_numbers, st.one_of(any_integers, stored_numbers))


def check_operator_shortcuts_on_the_real_rom(rom: BasicRom, operator: str, left: float, right: float) -> None:
    fast, stored, _ = OPERATORS[operator]
    expected = rom.binary(operator, left, right)
    assert outcome(fast, left, right) == expected
    ours = outcome(stored, left, right)
    if isinstance(expected, str):
        assert ours == expected
    else:  # what $BBD4 stores of the ROM's result
        assert (floats.to_bytes(ours) if isinstance(ours, float) else ours) == rom.store(expected)


@pytest.mark.parametrize("scale", SCALES)
def test_operator_shortcuts_on_the_real_rom(rom: BasicRom, scale: int) -> None:
    explore(40 * scale, lambda operator, left, right: check_operator_shortcuts_on_the_real_rom(
                rom, operator, left, right),
            st.sampled_from(sorted(OPERATORS)), st.one_of(any_integers, near_edges).map(full_store),
            st.one_of(any_integers, near_edges, stored_numbers))


# -- errors where the shortcuts end, as VICE prints them ---------------------------------------------

@pytest.mark.parametrize(("listing", "message"), [
    ("10 dim a(3):a(-1)=1", "?ILLEGAL QUANTITY  ERROR IN 10"),
    ("10 dim a(3):print a(4)", "?BAD SUBSCRIPT  ERROR IN 10"),
    ("10 dim a(3):print a(-0.5)", "?ILLEGAL QUANTITY  ERROR IN 10"),
    ("10 dim a(3):print a(32768)", "?ILLEGAL QUANTITY  ERROR IN 10"),
    ("10 dim a(3):print a(1,1)", "?BAD SUBSCRIPT  ERROR IN 10"),
    ("10 dim a(3,3):print a(1)", "?BAD SUBSCRIPT  ERROR IN 10"),
    # every subscript is read before the count and the bounds are checked
    ("10 dim a(3,3):print a(5,-1)", "?ILLEGAL QUANTITY  ERROR IN 10"),
    ("10 dim b(2,2):print b(1,1,1)", "?BAD SUBSCRIPT  ERROR IN 10"),
    # the element is found before the value is evaluated
    ("10 dim a(3):a(5)=1/0", "?BAD SUBSCRIPT  ERROR IN 10"),
    ("10 dim b%(3):b%(5)=1/0", "?BAD SUBSCRIPT  ERROR IN 10"),
    ("10 dim b(2,2):b(3,1)=1/0", "?BAD SUBSCRIPT  ERROR IN 10"),
    ("10 a(11)=1/0", "?BAD SUBSCRIPT  ERROR IN 10"),
    ("10 dim b%(3):b%(1)=40000", "?ILLEGAL QUANTITY  ERROR IN 10"),
    ('10 print mid$("abc",0,1)', "?ILLEGAL QUANTITY  ERROR IN 10"),
    ('10 print mid$("abc",1,256)', "?ILLEGAL QUANTITY  ERROR IN 10"),
    ('10 print left$("abc",-1)', "?ILLEGAL QUANTITY  ERROR IN 10"),
    ('10 print val("1e39")', "?OVERFLOW  ERROR IN 10"),
    ('10 a$="123":def fn a(x)=val(mid$(a$,x,1))*2:print fn a(2);fn a(3);fn a(4):print fn a(0)',
     "?ILLEGAL QUANTITY  ERROR IN 10"),
    ("10 for i=1 to 2:for j=1 to 2:next i,j", "?NEXT WITHOUT FOR  ERROR IN 10"),
])
def test_errors_measured_on_vice(listing: str, message: str) -> None:
    runtime = Runtime(tokenize_text(listing + "\n").data, C64())
    result = runtime.run(max_statements=1000)
    assert (result.stop, result.message) == (Stop.ERROR, message)


def test_a_function_of_mid_and_val_prints_what_vice_prints() -> None:
    listing = '10 a$="123":def fn a(x)=val(mid$(a$,x,1))*2:print fn a(2);fn a(3);fn a(4):print fn a(0)\n'
    runtime = Runtime(tokenize_text(listing).data, C64())
    runtime.run(max_statements=1000)
    transcript = [line for line in runtime.machine.screen.transcript().splitlines() if line]
    assert transcript[:2] == [" 4  6  0", "?ILLEGAL QUANTITY  ERROR IN 10"]

