"""The BASIC runner's shortcuts against the ROM's own ways.

Generated code and its helpers take shortcuts where they can prove the C64 computes
the same (each proof is a comment at the shortcut): NEXT adds whole numbers in Python
(``ForFrame``, ``values._next``), array elements are one dictionary look-up
(``values.Cells``), MID$ and LEFT$ are slices, VAL is remembered per text
(``values.Values``), and floats.py's operators, ``_r``, ``_int16``, VAL of digits and
STR$ of integers skip the step-by-step routines.  Each shortcut is compared here with
the real BASIC ROM's routines run on the 6502 core (the ROMs from ../shared/roms, as CI
has them: tests/conftest.py ``c64_roms``), and with floats.py's full routines: first on
the edges of its guard (explicit examples), then on examples weighted to the edges
(2**31, 2**32, 10**9 where STR$ turns to E notation, -0, just below and above each),
derandomized.  Whole programs at the edges are compared with VICE's screens and with
BASIC in ROM in tests/test_basic_runner.py (next-edges, rounding, shortcuts); the
programs' errors here with what VICE prints.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from tests.conftest import basic_in_rom, c64_roms, printed_rows
from tests.test_basic_runner import printed
from tests.test_floats_rom import BasicRom
from toolchain.basic import floats, tokenize_text
from toolchain.basic.runner import Runtime, compile_program, costs
from toolchain.basic.runner.contract import BasicError, ForFrame, Kind
from toolchain.basic.runner.expressions import Expression, ExpressionCompiler, short_circuits
from toolchain.basic.runner.io import CLOCK, install_fout
from toolchain.basic.runner.values import (
    Array,
    Undimensioned,
    Values,
    _int16,
    _left,
    _mid,
    _next,
    _r,
    _val,
    helpers,
)
from toolchain.basic.tokens import TOKEN
from toolchain.c64.machine import C64
from toolchain.c64.outcome import Stop
from toolchain.c64.run import program_from_prg, run_program

TWO_32 = 2.0**32


# each property runs briefly by default, twenty times longer under -m slow
SCALES = [pytest.param(1, id="brief"), pytest.param(20, marks=pytest.mark.slow, id="long")]


def explore(examples: int, check: Callable[..., None], *strategies: st.SearchStrategy[Any],
            edges: Sequence[tuple[Any, ...]] = ()) -> None:
    """Run ``check`` on each of ``edges`` (explicit ``@example``s: the edges of the guard
    under test, always run first), then on ``examples`` examples drawn from
    ``strategies``, derandomized (the same examples on every run: a test that passes by
    luck is no test)."""
    checks = settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                      suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    test = given(*strategies)(check)
    for edge in reversed(edges):
        test = example(*edge)(test)
    checks(test)()


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
# The edges of NEXT's shortcut: a variable at -2**32 (one past the guard: the sum's
# unit lies in the FAC's rounding byte, issue 21's loop), at +-(2**32 - 1) (the last
# inside), sums that reach +-2**32, whole steps at the guard's ends, limits at and
# beside the sum.  (value, step, limit) triples.
NEXT_EDGES = [
    (-4294967296.0, 4294967295.0, 1e30), (-4294967296.0, 1.0, 1e30), (-4294967296.0, 4294967295.0, -1.0),
    (-4294967296.0, 4294967295.0, -2.0), (-4294967296.0, 4294967295.0, 0.0), (4294967296.0, -1.0, -1e30),
    (4294967296.0, -4294967295.0, -1e30), (4294967296.0, -4294967295.0, 1.0), (-4294967297.0, 2.0, 1e30),
    (-8589934591.0, 4294967295.0, 1e30), (-4294967295.0, 4294967295.0, 1e30),
    (4294967295.0, -4294967295.0, -1.0),
    (-4294967295.0, 1.0, 1e30), (4294967294.0, 1.0, 1e30), (4294967295.0, 1.0, 1e30),
    (4294967295.0, 1.0, 4294967295.0), (-4294967295.0, -1.0, -1e30), (0.0, 4294967295.0, 4294967295.0),
    (1.0, 4294967295.0, 1e30), (0.0, -4294967295.0, -4294967295.0), (-1.0, -4294967295.0, -1e30),
    (2147483647.0, 2147483648.0, 1e30), (5.0, 1.0, 5.0), (5.0, 1.0, 6.0), (5.0, -1.0, 4.0), (5.0, -1.0, 5.0),
    (-0.5, 1.0, 1.0), (0.0, 4294967296.0, 1e30), (0.0, -4294967296.0, -1e30), (1e30, 1.0, 2e30),
]


def rom_next(rom: BasicRom, value: float, step: float, limit: float) -> tuple[float, bool] | str:
    """NEXT ($AD1E) on the ROM's own routines: FADD ($B867) of the variable (memory)
    and the step (FAC), the sum stored by MOVMF ($BBD4, which rounds the FAC), then
    FCOMP ($BC5B) of the limit with the rounded FAC; the loop goes on while that
    differs from the sign of the step.  The stored value and whether the loop goes
    on, or the error."""
    total = rom.binary("+", value, step)
    if isinstance(total, str):
        return total
    stored = rom.store(total)
    if isinstance(stored, str):
        return stored
    result = floats.from_bytes(stored)
    sign = (step > 0) - (step < 0)
    return result, -rom.compare(limit, result) != sign


def compiled_next(listing: str) -> tuple[Runtime, Callable[[], int]]:
    """A runtime and the compiled segment of line 20 (a NEXT, line 10 its FOR)."""
    runtime = Runtime(tokenize_text(listing).data, C64())
    return runtime, runtime.segments[runtime.segment_lines.index(20)]


def check_generated_next(rom: BasicRom, runtime: Runtime, segment: Callable[[], int], value: float,
                         step: float, limit: float, known: bool) -> None:
    """One NEXT of the generated code with the variable at ``value`` (``known``: the
    very object the frame last stored): its result is the ROM's NEXT, whichever
    way the code takes (its shortcut, or values._next)."""
    value, step, limit = floats.rounded(value), floats.rounded(step), floats.rounded(limit)
    frame = ForFrame("N_I", limit, step, RESUME, 10)
    if known and value == int(value) and abs(value) < TWO_32:
        frame.value = value
    runtime.stack[:] = [frame]
    runtime.stack_bytes = 18
    runtime.namespace["N_I"] = value
    expected = rom_next(rom, value, step, limit)
    try:
        goes_on = segment() == RESUME
    except floats.FloatError as error:
        assert expected == error.error
        return
    assert (runtime.namespace["N_I"], goes_on) == expected, (value, step, limit)
    assert len(runtime.stack) == goes_on


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("listing", ["10 for i=1 to 1\n20 next\n", "20 next i\n"])
def test_generated_next_is_the_roms_next(rom: BasicRom, scale: int, listing: str) -> None:
    runtime, segment = compiled_next(listing)
    explore(80 * scale, lambda value, step, limit, known: check_generated_next(
        rom, runtime, segment, value, step, limit, known), st.one_of(any_integers, stored_numbers), steps,
        stored_numbers, st.booleans(),
        edges=[edge + (known,) for edge in NEXT_EDGES for known in (False, True)])


def check_next_helper_is_the_roms_next(rom: BasicRom, value: float, step: float, limit: float) -> None:
    """values._next (NEXT where the shortcut does not apply, its own whole-number
    check included): the stored sum, whether the loop goes on, and ``value`` set only
    for a whole number below 2**32."""
    value, step, limit = floats.rounded(value), floats.rounded(step), floats.rounded(limit)
    frame = ForFrame("N_I", limit, step, 1, 10)
    runtime = _FakeRuntime(frame, value)
    expected = rom_next(rom, value, step, limit)
    try:
        goes_on = _next(runtime, None)
    except floats.FloatError as error:
        assert expected == error.error
        return
    assert (runtime.namespace["N_I"], goes_on) == expected, (value, step, limit)
    assert runtime.stack == ([frame] if goes_on else [])
    stored = runtime.namespace["N_I"]
    if frame.value is not None:
        assert frame.value is stored and stored == int(stored) and -TWO_32 < stored < TWO_32


@pytest.mark.parametrize("scale", SCALES)
def test_next_helper_is_the_roms_next(rom: BasicRom, scale: int) -> None:
    explore(80 * scale, lambda value, step, limit: check_next_helper_is_the_roms_next(
        rom, value, step, limit), stored_numbers, steps, stored_numbers, edges=NEXT_EDGES)


class _FakeRuntime:
    """What _next uses of the runtime: the stack, the namespace, for_frame, pop_for."""

    def __init__(self, frame: ForFrame, value: float) -> None:
        self.stack: list[Any] = [frame]
        self.namespace = {"N_I": value}

    def for_frame(self, variable: str | None) -> ForFrame:
        return self.stack[-1]

    def pop_for(self) -> None:
        self.stack.pop()


def check_next_shortcut_ranges(rom: BasicRom, value: float, step: float, limit: float) -> None:
    """The guard itself (ForFrame's ranges, what the generated NEXT tests): whenever a
    whole variable plus the step lands in a range, FADD and the store on the ROM give
    that very sum, and the range is the side of the limit the ROM's FCOMP finds."""
    value, step, limit = floats.rounded(value), floats.rounded(step), floats.rounded(limit)
    assume(value == int(value))
    frame = ForFrame("N_I", limit, step, 1, 10)
    total = value + step
    goes_on = frame.low <= total <= frame.high
    if goes_on or frame.past_low < total < frame.past_high:
        assert rom_next(rom, value, step, limit) == (total, goes_on), (value, step, limit)


@pytest.mark.parametrize("scale", SCALES)
def test_next_shortcut_ranges_on_the_real_rom(rom: BasicRom, scale: int) -> None:
    explore(100 * scale, lambda value, step, limit: check_next_shortcut_ranges(rom, value, step, limit),
            st.one_of(any_integers, near_edges), st.one_of(edge_integers, st.integers(-40, 40).map(float)),
            st.one_of(any_integers, near_edges, st.sampled_from([1e30, -1e30])), edges=NEXT_EDGES)


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


def model_loop(rom: BasicRom, start: str, limit: str, step: str) -> list[float]:
    """The same loop on the ROM's routines: FIN reads the numbers, FOR stores them."""
    numbers = []
    # the program's text holds capitals where the listing has small letters (1E+09)
    for text in (start, limit, step):
        read = rom.fin(text.upper().encode())
        assert not isinstance(read, str)
        stored = rom.store(read[0])
        assert isinstance(stored, bytes)
        numbers.append(floats.from_bytes(stored))
    first, last, increment = numbers
    values = []
    value, goes_on = first, True
    while goes_on:
        values.append(value)
        if len(values) > 60:
            break
        outcome = rom_next(rom, value, increment, last)
        assert not isinstance(outcome, str)
        value, goes_on = outcome
    return values + [value]


# literals as FOUT prints numbers (FIN reads them back)
loop_numbers = st.one_of(near_edges, st.integers(-50, 50).map(float), st.floats(-100, 100)).map(
    lambda value: floats.format_number(full_store(value)).strip().lower())
loop_steps = st.one_of(st.integers(-7, 7).map(float), st.floats(-3, 3), near_edges).map(
    lambda value: floats.format_number(full_store(value)).strip().lower())


def check_compiled_for_loops_step_as_the_rom(rom: BasicRom, start: str, limit: str, step: str) -> None:
    assert run_loop(start, limit, step) == model_loop(rom, start, limit, step)


@pytest.mark.parametrize("scale", SCALES)
def test_compiled_for_loops_step_as_the_rom(rom: BasicRom, scale: int) -> None:
    explore(12 * scale, lambda start, limit, step: check_compiled_for_loops_step_as_the_rom(
        rom, start, limit, step), loop_numbers, loop_numbers, loop_steps,
        edges=[("-4294967296", "1e30", "4294967295"), ("4294967296", "-1e30", "-4294967295"),
               ("-4294967295", "1e30", "4294967295"), ("4294967294", "4294967296", "1"),
               ("-4294967297", "-4294967290", "1"), ("1", "3", ".5")])


def rom_literal(rom: BasicRom, text: str) -> float:
    """A number written in a program as FIN reads it and FOR stores it."""
    read = rom.fin(text.upper().encode())
    assert not isinstance(read, str)
    stored = rom.store(read[0])
    assert isinstance(stored, bytes)
    return floats.from_bytes(stored)


_OWN_FRAME_RUNTIMES: dict[str, tuple[Runtime, Callable[[], int], ForFrame]] = {}


def own_frame_next(limit: str, step: str) -> tuple[Runtime, Callable[[], int], ForFrame]:
    """A compiled FOR I=1 TO limit STEP step (literals) and its NEXT: the runtime, the
    NEXT's segment and the frame the FOR made for itself when the program was
    compiled (statements.own_frame), found among the FOR's closure variables."""
    listing = f"10 for i=1 to {limit} step {step}\n20 next\n"
    if listing not in _OWN_FRAME_RUNTIMES:
        runtime, segment = compiled_next(listing)
        frames = [cell.cell_contents for cell in runtime.segments[0].__closure__ or ()
                  if isinstance(cell.cell_contents, ForFrame)]
        assert len(frames) == 1, "the FOR of literals has no frame of its own"
        # a whole step below 2**32: the NEXT knows the frame's numbers (else it asks the frame)
        if frames[0].low != math.inf:
            assert f"STACK[-1] is _F{frames[0].resume}" in runtime.module.source
        _OWN_FRAME_RUNTIMES[listing] = (runtime, segment, frames[0])
    return _OWN_FRAME_RUNTIMES[listing]


def check_own_frame_next(rom: BasicRom, value: float, limit: str, step: str, known: bool) -> None:
    """NEXT of a loop whose FOR has literals, on the frame that FOR pushes: the ROM's NEXT
    for the variable at ``value``, with the limit and step as FIN reads the literals."""
    runtime, segment, frame = own_frame_next(limit, step)
    value = floats.rounded(value)
    limit_value, step_value = rom_literal(rom, limit), rom_literal(rom, step)
    assert (frame.limit, frame.step) == (limit_value, step_value)
    runtime.stack[:] = []
    runtime.stack_bytes = 0
    runtime.push_frame(frame, value if known and value == int(value) and abs(value) < TWO_32 else None)
    runtime.namespace["N_I"] = value
    expected = rom_next(rom, value, step_value, limit_value)
    try:
        goes_on = segment() == frame.resume
    except floats.FloatError as error:
        assert expected == error.error
        return
    assert (runtime.namespace["N_I"], goes_on) == expected, (value, limit, step)
    assert runtime.stack == ([frame] if goes_on else [])


# steps as a program writes them: a number, or a number negated (-1 is the minus
# operator and a number, which the compiler knows too: statements.stored_constant)
positive_loop_steps = st.one_of(st.integers(1, 7).map(float), st.floats(0.001, 3), near_edges.filter(
    lambda value: value > 0)).map(lambda value: floats.format_number(full_store(value)).strip().lower())
literal_loop_steps = st.one_of(positive_loop_steps, positive_loop_steps.map(lambda text: "-" + text))


@pytest.mark.parametrize("scale", SCALES)
def test_own_frame_next_is_the_roms_next(rom: BasicRom, scale: int) -> None:
    explore(60 * scale, lambda value, limit, step, known: check_own_frame_next(
        rom, value, limit, step, known), st.one_of(any_integers, stored_numbers), loop_numbers,
        literal_loop_steps, st.booleans(),
        edges=[(value, limit, step, known) for known in (False, True) for value, limit, step in (
            (4294967295.0, "1e+30", "1"), (4294967294.0, "4294967295", "1"), (-4294967296.0, "1e+30", "1"),
            (-4294967296.0, "-1", "4294967295"), (7.0, "7", "1"), (6.0, "7", "1"), (1.5, "7", "1"),
            (0.0, "1", ".5"), (-4294967295.0, "1e+30", "4294967295"), (-4294967295.0, "-1e+30", "-1"),
            (4294967295.0, "-1e+30", "-1"), (4294967296.0, "-1e+30", "-1"), (-7.0, "-7", "-1"),
            (-6.0, "-7", "-1"), (1.0, "-5", "-4294967295"), (-4294967294.0, "-1e+30", "-1"))])


# A FOR run again below a GOSUB its own loop made (the same frame is pushed twice: the
# second push gets a copy, Runtime.push_frame), loops ended by a FOR of the same variable
# and by NEXT without a variable, an own frame's NEXT reached with another loop on top.
OWN_FRAME_PROGRAMS = {
    "gosub": "10 n=n+1:for i=1 to 3:print i;n;:if n<3 then gosub 10\n"
             "20 next:print \"r\"i;:if n>1 then n=n-1:return\n30 print \"end\"\n",
    "again": "10 for k=1 to 2:for i=1 to 3:print i;:if i=2 then for i=5 to 6:print \"x\";\n"
             "20 next i:print k;:next k:print \"end\":next\n",
    # the FOR of line 20 pushed on the same stack again (its search skipped), then on a
    # stack as long whose loop of I it must drop
    "below": "10 for k=1 to 2\n20 for i=1 to 2:print k;i;:next i\n30 next\n40 for i=5 to 6:print \"y\";\n"
             "50 goto 20\n",
    "other-on-top": "10 for i=1 to 3:for j=1 to 2:goto 30\n20 next i:print \"end\";i;j:end\n"
                    "30 print i;j;:next j:goto 20\n",
}


@pytest.mark.parametrize("name", OWN_FRAME_PROGRAMS)
def test_own_frames_run_as_basic_in_rom(name: str, tmp_path: Path) -> None:
    """The programs print what the BASIC ROM prints (run on c64tc's 6502) and stop alike."""
    rom_result, printed = basic_in_rom(OWN_FRAME_PROGRAMS[name], tmp_path)
    ours, machine = run_program(program_from_prg(tokenize_text(OWN_FRAME_PROGRAMS[name]), name))
    assert (ours.stop, ours.message) == (rom_result.stop, rom_result.message)
    assert printed_rows(machine) == printed


# An IF right after an assignment to the element it reads uses the value just stored
# (statements.statement_IF): subscripts with a fraction (stored at the floor, read back
# through it), an array made by its first use, a subscript out of bounds, several reads.
STORED_THEN_READ = {
    "fraction": "10 dim a(5):i=2.7:a(i)=i*2:if a(i)>5 then print a(2);a(i)\n20 print \"end\"\n",
    "first-use": "10 i=3:b(i)=-0:if b(i)=0 and b(i)>=0 then print \"zero\";b(3)\n",
    "two-dims": "10 for i=0 to 3:c(i,1)=i*i:if c(i,1)>2 or c(i,1)=0 then print i;c(i,1);\n20 next\n",
    "out-of-bounds": "10 dim d(3):i=4:d(i)=1:if d(i)=1 then print \"no\"\n",
    "other-element": "10 i=1:j=2:e(j)=5:e(i)=7:if e(i)+e(j)=12 then print \"both\";e(1);e(2)\n",
}


@pytest.mark.parametrize("name", STORED_THEN_READ)
def test_an_element_stored_then_read_by_if_runs_as_basic_in_rom(name: str, tmp_path: Path) -> None:
    source = STORED_THEN_READ[name]
    assert "_stored" in compile_program(tokenize_text(source).data).module.source.split("if not", 1)[1]
    rom_result, printed = basic_in_rom(source, tmp_path)
    ours, machine = run_program(program_from_prg(tokenize_text(source), name))
    assert (ours.stop, ours.message) == (rom_result.stop, rom_result.message)
    assert printed_rows(machine) == printed


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
    if key in array.settable:
        array.cells[key] = 7.0
    else:
        array.place(key)(7.0)
    assert array.get(*indexes) == 7.0


# whole subscripts at the bounds, just below a whole number (a FAC's rounding byte),
# -0, the sign and size checks of INTIDX, the count of subscripts
ARRAY_EDGES = [((4,), (index,), kind) for index in (0.0, -0.0, 3.0, 4.0, 3.0 - 2.0**-30, 4.0 - 2.0**-30,
                                                    -(2.0**-30), 32767.0, 32767.5, 32768.0, 0.5)
               for kind in (Kind.NUMBER, Kind.INTEGER)] + [
    ((2, 3), (1.0, 2.0), Kind.NUMBER), ((2, 3), (1.0,), Kind.NUMBER), ((2, 3), (5.0, -1.0), Kind.NUMBER),
    ((2, 3), (2.0, 2.0), Kind.NUMBER), ((2, 3), (1.0, 2.0, 0.0), Kind.INTEGER), ((1,), (0.0,), Kind.INTEGER)]


@pytest.mark.parametrize("scale", SCALES)
def test_array_cells_find_the_roms_element(scale: int) -> None:
    explore(100 * scale, check_array_cells_find_the_roms_element,
            st.lists(st.integers(1, 6), min_size=1, max_size=3).map(tuple),
            st.lists(subscripts, min_size=1, max_size=3).map(tuple),
            st.sampled_from([Kind.NUMBER, Kind.INTEGER]), edges=ARRAY_EDGES)


def test_undimensioned_arrays_dimension_on_first_use() -> None:
    namespace: dict[str, Any] = {}
    runtime = Runtime(tokenize_text("10 end\n").data, C64())
    namespace["rt"] = runtime
    array = Undimensioned(namespace, "AN_A", Kind.NUMBER)
    assert array.cells[3.0, 10.0] == 0.0
    assert namespace["AN_A"].sizes == (11, 11)
    array = Undimensioned(namespace, "AN_B", Kind.NUMBER)
    assert 3.0 not in array.settable
    with pytest.raises(BasicError, match="BAD SUBSCRIPT"):
        array.place(11.0)
    assert namespace["AN_B"].sizes == (11,)


# -- MID$, LEFT$ -------------------------------------------------------------------------------------

def compiled(expression: bytes) -> tuple[str, dict[str, str]]:
    """The expression's code, and the names it shares with other code (a table)."""
    compiler = ExpressionCompiler()
    compiler.body = expression
    return compiler.expression().code, compiler.definitions


def evaluate(compiled: tuple[str, dict[str, str]], text: str, number: float) -> str:
    code, definitions = compiled
    namespace = {**helpers(), "S_A": text, "N_I": number}
    for name, made in definitions.items():
        namespace[name] = eval(made, namespace)
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
        # a computed start (a table look-up, values.MidSlices, as a variable's)
        (MID + b"(A$,I" + bytes([TOKEN["+"]]) + b".5," + constant.encode() + b")", _mid,
         (text, floats.add(number, 0.5), value)),
        (MID + b"(A$," + constant.encode() + b")", _mid, (text, value)),
        (MID + b"(A$," + constant.encode() + b",I)", _mid, (text, value, number)),
        (LEFT + b"(A$,I)", _left, (text, number)),
        (LEFT + b"(A$," + constant.encode() + b")", _left, (text, value)),
    ]
    for expression, function, arguments in cases:
        assert evaluate(compiled(expression), text, number) == helper(function, *arguments), expression


@pytest.mark.parametrize("scale", SCALES)
def test_mid_and_left_slices_are_the_helpers(scale: int) -> None:
    explore(100 * scale, check_mid_and_left_slices_are_the_helpers, texts, positions, constants,
            edges=[(text, number, constant) for text in ("", "ABC", "X" * 255)
                   for number, constant in ((0.0, "0"), (0.99999, "1"), (1.0, "255"), (255.99999, "255.9"),
                                            (256.0, "256"), (4.0, "1"), (-0.5, ".5"), (255.0, "0"),
                                            (1.5, "254"))])


# -- an array element read twice in one expression ---------------------------------------------------

# BASIC operands (K() one dimension 0..5, A() two 0..5, I and J subscripts that may be
# out of bounds or not whole) and operators (tokens): expressions in which the same
# element is read again and again
ELEMENT_OPERANDS = [b"K(I)", b"K(J)", b"A(I,J)", b"A(J,I)", b"K(3)", b"I", b"2"]
ELEMENT_OPERATORS = [bytes([TOKEN[op]]) for op in ("+", "-", "*", "=", ">", "<", "AND", "OR")]


def element_expression(parts: list[tuple[int, int]]) -> bytes:
    text = b"K(I)"
    for operator, operand in parts:
        text += ELEMENT_OPERATORS[operator] + ELEMENT_OPERANDS[operand]
    return text


def evaluate_elements(code: str, arrays: dict[str, Any], i: float, j: float) -> Any:
    namespace = {**helpers(), **arrays, "N_I": i, "N_J": j}
    try:
        return eval(code, namespace)  # the compiler's own code
    except BasicError as error:
        return "?" + error.name
    except floats.FloatError as error:
        return "?" + error.error


def check_elements_read_once(parts: list[tuple[int, int]], i: float, j: float,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The expression's code with each element looked up once gives what the code that
    reads it every time gives (the value, or the error of the first read)."""
    from toolchain.basic.runner import expressions

    text = element_expression(parts)
    arrays = {"AN_K": Array((6,), Kind.NUMBER), "AN_A": Array((6, 6), Kind.NUMBER)}
    for key in arrays["AN_K"].cells:
        arrays["AN_K"].cells[key] = float(key) * 1.5 - 2.0
    for key in arrays["AN_A"].cells:
        arrays["AN_A"].cells[key] = key[0] * 10.0 + key[1] - 7.0
    once, _ = compiled(text)
    with monkeypatch.context() as patch:
        patch.setattr(expressions, "elements_read_once", lambda code: code)
        every_time, _ = compiled(text)
    assert evaluate_elements(once, arrays, i, j) == evaluate_elements(every_time, arrays, i, j), (text, once)


def test_elements_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # the element read once where it is read again, and only there
    code, _ = compiled(element_expression([(4, 0), (6, 0)]))
    assert code.count("AN_K.cells[N_I]") == 1 and code.count("_e1") == 3, code
    explore(150, lambda parts, i, j: check_elements_read_once(parts, i, j, monkeypatch),
            st.lists(st.tuples(st.integers(0, len(ELEMENT_OPERATORS) - 1),
                               st.integers(0, len(ELEMENT_OPERANDS) - 1)), max_size=6),
            st.one_of(st.integers(-1, 7).map(float), st.sampled_from([0.5, 2.9999, -0.0])),
            st.one_of(st.integers(-1, 7).map(float), st.sampled_from([1.5, 5.0])),
            edges=[([(4, 0), (6, 0)], 2.0, 1.0), ([(0, 0)], 6.0, 1.0), ([(0, 2), (2, 2)], 1.0, 9.0),
                   ([(7, 0), (6, 2), (5, 2)], -1.0, 2.0)])


# -- STR$: FOUT's text, on FOUT's time ------------------------------------------------------------

def str_evaluated(code: str, number: float) -> tuple[str, int]:
    """The compiled STR$ expression's text for ``number``, and the cycles it added."""
    namespace = {**helpers(), "N_I": number, CLOCK: 0}
    install_fout(namespace)
    text = helper(eval, code, namespace)  # the compiler's own code
    return text, namespace[CLOCK]


def check_str_is_format_number_on_fouts_time(number: float) -> None:
    """STR$ of a variable (format_number's shortcut for whole numbers, or not): its text,
    and FOUT's time for the number's digits (costs.fout_cycles) on the C64's clock."""
    code, _ = compiled(bytes([TOKEN["STR$"]]) + b"(I)")
    assert "_fout_text(N_I)" in code, code
    text, cycles = str_evaluated(code, number)
    assert text == helper(floats.format_number, number)
    assert cycles == costs.fout_cycles(number)


def test_str_is_format_number_on_fouts_time() -> None:
    explore(150, check_str_is_format_number_on_fouts_time, st.one_of(any_integers, stored_numbers),
            edges=[(value,) for value in (0.0, -0.0, 1.0, -1.0, 0.5, 999999999.0, 1e9, 999999999.5,
                                          2.0**31, -999999999.0, 2311111.0, 1e-30)])


def check_digits_of_str_are_format_number_after_its_first(number: float) -> None:
    """MID$(STR$(I),2) (the digits without the sign's place, as Nikolaus takes them):
    format_number's text from its second character on, for any number."""
    code, _ = compiled(bytes([TOKEN["MID$"]]) + b"(" + bytes([TOKEN["STR$"]]) + b"(I),2)")
    assert code == "_fout_digits(N_I)", code
    text, cycles = str_evaluated(code, number)
    assert text == helper(floats.format_number, number)[1:]
    assert cycles == costs.fout_cycles(number)


def test_digits_of_str_are_format_number_after_its_first() -> None:
    explore(150, check_digits_of_str_are_format_number_after_its_first,
            st.one_of(any_integers, stored_numbers),
            edges=[(value,) for value in (0.0, -0.0, 1.0, -1.0, 0.5, 999999999.0, 1e9, 999999999.5,
                                          2.0**31, -999999999.0, 2311111.0, 1e-30, -2311111.0)])


# -- AND and OR of comparisons in IF ------------------------------------------------------------

def test_short_circuits_where_the_right_side_only_compares() -> None:
    assert short_circuits("(((_e1 := _stored) == 0.0) | (_e1 > 5.0))") == \
        "((_e1 := _stored) == 0.0 or _e1 > 5.0)"
    assert short_circuits("((N_A == 0.0) & ((N_B < -1.5) | (N_C != N_D)))") == \
        "(N_A == 0.0 and (N_B < -1.5 or N_C != N_D))"
    # a right side that reads an element, calls, or assigns is evaluated as before
    for kept in ("((N_A == 0.0) | (AN_K.cells[N_I] > 5.0))", "((N_A == 0.0) | (_cmp(N_B, 1.5) > 0))",
                 "((N_A == 0.0) & ((_e1 := N_B) > 1.0))", "(_bool((N_A == 0.0)) | (N_B > 1.0))"):
        assert short_circuits(kept) == kept


def check_short_circuit_is_bitwise(operators: list[str], values: list[float]) -> None:
    """The shortened test is True or False where the bitwise one is, for any values."""
    names = [f"N_{letter}" for letter in "ABCDE"]
    code = "(N_A > 0.0)"
    for position, operator in enumerate(operators):
        code = f"({code} {operator} ({names[position + 1]} <= -0.5))"
    namespace = dict(zip(names, values, strict=True))
    shortened = short_circuits(code)
    assert eval(shortened, {}, namespace) is eval(code, {}, namespace), (code, shortened)


def test_short_circuit_is_bitwise() -> None:
    explore(150, check_short_circuit_is_bitwise, st.lists(st.sampled_from("|&"), min_size=1, max_size=4),
            st.lists(st.sampled_from([-1.0, -0.5, 0.0, 1.0]), min_size=5, max_size=5))


def test_short_circuit_keeps_the_errors_of_the_right_side() -> None:
    # the element is read whatever the left side gives: its subscript is out of bounds
    assert printed("10 dim k(3):a=0:i=9:if a=0 or k(i)>5 then print 1\n")[-1] == "?BAD SUBSCRIPT  ERROR IN 10"
    assert printed("10 a=0:b=2:if a=0 or b>5 then print 1\n20 if a=1 and b>5 then print 2\n"
                   "30 if a=0 and b>1 then print 3\n")[-2:] == [" 1", " 3"]


# -- VAL ---------------------------------------------------------------------------------------------

VAL_PIECES = ["0", "1", "5", "9", "99999999", "999999999", "1000000000", "4294967296", ".", "E", "E-", "E+",
              "-", "+", " ", "A", "E39", "E-39", "1E38", "2147483648"]
val_texts = st.lists(st.one_of(st.sampled_from(VAL_PIECES), st.integers(0, 10**10).map(str)),
                     max_size=5).map("".join)


# the digit shortcut's edges (nine digits, ten, leading zeros) and its neighbours
VAL_EDGES = ["", "0", "999999999", "1000000000", "000000001", "0000000001", "4294967296", " 1", "1 ", "-1",
             "+1", "1E3", "1.", ".5", "\xb9", "12A", "1e3"]


def check_val_cache_is_val(text: str) -> None:
    expected = helper(_val, text)
    for cache, rounded in ((Values(rounded=False), False), (Values(rounded=True), True)):
        for _ in range(2):  # computed, then remembered
            found = helper(cache.__getitem__, text)
            assert found == (expected if isinstance(expected, str) or not rounded else _r(expected))


@pytest.mark.parametrize("scale", SCALES)
def test_val_cache_is_val(scale: int) -> None:
    explore(100 * scale, check_val_cache_is_val, val_texts,
            edges=[(text,) for text in VAL_EDGES])


def test_val_cache_is_bounded() -> None:
    cache = Values(rounded=False)
    for number in range(Values.LIMIT + 10):
        assert cache[str(number)] == float(number)
    assert len(cache) <= Values.LIMIT


digit_texts = st.one_of(st.integers(0, 999999999).map(str), st.integers(0, 10**8).map(lambda n: f"{n:09d}"),
                        st.sampled_from(["0", "00", "000000001", "999999999"]))


DIGIT_EDGES = ["0", "9", "000000000", "999999999", "123456789", "100000000", "099999999"]


def check_val_of_digits_is_fin(text: str) -> None:
    assert _val(text) == floats.parse_number(text.encode())[0]


@pytest.mark.parametrize("scale", SCALES)
def test_val_of_digits_is_fin(scale: int) -> None:
    explore(50 * scale, check_val_of_digits_is_fin, digit_texts, edges=[(text,) for text in DIGIT_EDGES])


def check_val_of_digits_on_the_real_rom(rom: BasicRom, text: str) -> None:
    assert rom.fin(text.encode()) == (_val(text), len(text))


@pytest.mark.parametrize("scale", SCALES)
def test_val_of_digits_on_the_real_rom(rom: BasicRom, scale: int) -> None:
    explore(30 * scale, lambda text: check_val_of_digits_on_the_real_rom(rom, text), digit_texts,
            edges=[(text,) for text in DIGIT_EDGES])


# -- STR$ of integers, rounding on store, the operators' integer shortcuts -----------------------------

printed_integers = st.one_of(edge_integers, near_edges, st.integers(-1_100_000_000, 1_100_000_000).map(float),
                             st.just(-0.0))


# the integer shortcut's edges: 10**9 (E notation) and the numbers beside it, 0 and -0
STR_EDGES = [0.0, -0.0, 1.0, -1.0, 9.0, 10.0, 99999999.0, 100000000.0, 999999999.0, -999999999.0, 1e9, -1e9,
             1000000001.0, 4294967295.0, 999999999.5]


def check_str_of_integers_is_fout(value: float) -> None:
    value = full_store(value)
    assert floats.format_number(value) == floats._format(value)


@pytest.mark.parametrize("scale", SCALES)
def test_str_of_integers_is_fout(scale: int) -> None:
    explore(50 * scale, check_str_of_integers_is_fout, printed_integers,
            edges=[(value,) for value in STR_EDGES])


def check_str_of_integers_on_the_real_rom(rom: BasicRom, value: float) -> None:
    value = full_store(value)
    assert floats.format_number(value) == rom.fout(value)


@pytest.mark.parametrize("scale", SCALES)
def test_str_of_integers_on_the_real_rom(rom: BasicRom, scale: int) -> None:
    explore(40 * scale, lambda value: check_str_of_integers_on_the_real_rom(rom, value), printed_integers,
            edges=[(value,) for value in STR_EDGES])


# whole numbers at 2**32 and beside it, and FACs whose rounding byte carries there
ROUNDING_EDGES = [4294967295.0, -4294967295.0, 4294967296.0, -4294967296.0, 4294967297.0, 4294967295.5,
                  4294967295.75, -4294967295.5, 2147483647.5, 2147483648.0, 0.0, -0.0, 0.5, 1.0 - 2.0**-40,
                  16777215.5]


def check_rounding_shortcut_is_the_store(value: float) -> None:
    value = floats.from_fac(floats.to_fac(value))  # a FAC: 40 bits
    assert _r(value) == full_store(value)


@pytest.mark.parametrize("scale", SCALES)
def test_rounding_shortcut_is_the_store(scale: int) -> None:
    explore(100 * scale, check_rounding_shortcut_is_the_store,
            st.one_of(any_integers, stored_numbers, st.floats(-1e12, 1e12)),
            edges=[(value,) for value in ROUNDING_EDGES])


def check_rounding_shortcut_on_the_real_rom(rom: BasicRom, value: float) -> None:
    value = floats.from_fac(floats.to_fac(value))
    assert floats.to_bytes(_r(value)) == rom.store(value)


@pytest.mark.parametrize("scale", SCALES)
def test_rounding_shortcut_on_the_real_rom(rom: BasicRom, scale: int) -> None:
    explore(40 * scale, lambda value: check_rounding_shortcut_on_the_real_rom(rom, value),
            st.one_of(any_integers, near_edges), edges=[(value,) for value in ROUNDING_EDGES])


# each operator: its shortcut, the twin that stores (rounds) the result, the full routine
OPERATORS = {"+": (floats.add, floats.add_stored, full_add),
             "-": (floats.subtract, floats.subtract_stored, full_subtract),
             "*": (floats.multiply, floats.multiply_stored, full_multiply)}


def outcome(function: Callable[..., float], *arguments: float) -> float | str:
    try:
        return function(*arguments)
    except floats.FloatError as error:
        return error.error


# (operator, left, right) at the guards' edges: operands and results at +-2**32, the
# inexact double sum that looks whole, 2**24 for the right factor (the zero-byte quirk),
# products at 2**32 - 1, zero and -0
OPERATOR_EDGES = [
    ("+", -4294967296.0, 4294967295.0), ("+", 4294967295.0, -4294967295.0), ("+", -4294967295.0, 1.0),
    ("+", 4294967295.0, 1.0), ("+", 2147483648.0, 2147483647.0), ("+", 1520319949.0, 2 - 2.0**-31),
    ("+", 0.5, 0.5), ("+", 0.75, 0.25), ("+", 4294967296.0, -4294967295.0), ("+", -0.0, -0.0),
    ("-", 4294967296.0, 4294967295.0), ("-", -4294967295.0, 1.0), ("-", 0.5, 0.5), ("-", 1.0, 4294967296.0),
    ("-", 4294967295.0, -1.0), ("-", -1.0, 4294967295.0), ("-", 1520319951.0, 2.0**-31),
    ("*", 3.0, 16777217.0), ("*", 3.0, 16777215.0), ("*", 16777215.0, 255.0), ("*", 65535.0, 65537.0),
    ("*", 65537.0, 65535.0), ("*", -1.0, 0.0), ("*", 0.0, -1.0), ("*", 4294967295.0, 1.0),
    ("*", 1.0, 4294967295.0), ("*", 2147483648.0, 2.0), ("*", 8589934592.0, 0.5), ("*", 257.0, 65793.0),
    ("*", 65536.0, 65535.0), ("*", 1.0, 16777216.0), ("*", 255.0, 16777215.0)]


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
            stored_numbers, st.one_of(any_integers, stored_numbers), edges=OPERATOR_EDGES)


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
            st.one_of(any_integers, near_edges, stored_numbers), edges=OPERATOR_EDGES)


# a variable plus or minus a whole literal, added in line (ExpressionCompiler.whole_step)
WHOLE_STEP_EDGES = [(operator, left, step) for operator in "+-" for step in (0.0, 1.0, 7.0, 2147483647.0)
                    for left in (0.0, -0.0, 1.0, -1.0, 0.5, -(2.0**-30), 4294967295.0, -4294967295.0,
                                 4294967296.0, -4294967296.0, 4294967296.0 - step, -4294967296.0 + step,
                                 4294967295.0 - step, -4294967295.0 + step, 1e10, -1e10, 2147483648.5)]


def evaluated(code: str, value: float) -> float:
    """Generated code of a number, run with N_A holding ``value``."""
    result: float = eval(code, {**helpers(), "N_A": value})
    return result


def check_whole_step_is_the_operator(operator: str, left: float, step: float) -> None:
    token = TOKEN["+"] if operator == "+" else TOKEN["-"]
    code = ExpressionCompiler().binary(token, Expression("N_A", Kind.NUMBER, True),
                                       Expression(repr(step), Kind.NUMBER, True))
    assert code.rounded is not None and " if " in code.code, code
    fast, stored, _ = OPERATORS[operator]
    for generated, function in ((code.code, fast), (code.rounded, stored)):
        ours = outcome(evaluated, generated, left)
        expected = outcome(function, left, step)
        assert ours == expected, (left, step)
        if isinstance(ours, float) and isinstance(expected, float):  # -0.0 as the function gives it
            assert math.copysign(1.0, ours) == math.copysign(1.0, expected), (left, step)


@pytest.mark.parametrize("scale", SCALES)
def test_whole_step_is_the_operator(scale: int) -> None:
    explore(100 * scale, check_whole_step_is_the_operator, st.sampled_from("+-"),
            st.one_of(any_integers, near_edges, stored_numbers),
            st.integers(0, 2**31 - 1).map(float), edges=WHOLE_STEP_EDGES)


# -- AYINT (A%=, AND, OR, NOT, DIM) ---------------------------------------------------------------------

INT16_EDGES = [-32768.0, -32768.0 - 2.0**-24, -32768.0 - 2.0**-17, -32768.5, -32769.0, -32767.5, 32767.0,
               32767.99999, 32768.0 - 2.0**-24, 32768.0, 0.0, -0.0, 0.5, -0.5, -(2.0**-30), 1e10, -1e10]


def check_int16_on_the_real_rom(rom: BasicRom, value: float) -> None:
    """values._int16 (its shortcut inside -32768..32767.x, else floats.to_integer) is
    AYINT ($B1BF) on the FAC, rounding byte and all."""
    value = floats.from_fac(floats.to_fac(value))
    assert outcome(_int16, value) == rom.to_integer(value), value


@pytest.mark.parametrize("scale", SCALES)
def test_int16_on_the_real_rom(rom: BasicRom, scale: int) -> None:
    explore(40 * scale, lambda value: check_int16_on_the_real_rom(rom, value),
            st.one_of(st.floats(-40000, 40000), st.integers(-32770, 32770).map(float), stored_numbers),
            edges=[(value,) for value in INT16_EDGES])


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

