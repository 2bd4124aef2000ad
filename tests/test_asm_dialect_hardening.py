"""The 64tass and ACME dialects on hostile input: bounded work and messages, never a
traceback or a hang (issue 27, as issue 12 for Profi-Ass).  Loops, macros, includes and
passes have limits; a derandomized fuzz test mutates the feature probes."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.conftest import REPO
from toolchain.asm import AssemblyFailed, AssemblyOptions, Program, assemble
from toolchain.asm.engine import MAX_DEPTH, MAX_ITERATIONS, MAX_PASSES, MAX_STEPS
from toolchain.diagnostics import UserError

DATA = REPO / "tests" / "data"


def _messages(source: str, dialect: str) -> list[str]:
    with pytest.raises(AssemblyFailed) as info:
        assemble(source, "nasty.s", AssemblyOptions(dialect=dialect))
    return [d.message for d in info.value.errors]


def _quickly(source: str, dialect: str, seconds: float = 20.0) -> list[str]:
    started = time.process_time()
    messages = _messages(source, dialect)
    assert time.process_time() - started < seconds
    return messages


@pytest.mark.parametrize(("dialect", "source", "message"), [
    ("64tass", "*= $1000\n .while 1\n nop\n .next\n", f"loop ran {MAX_ITERATIONS:,} times: stopped"),
    ("64tass", "*= $1000\nm .macro\n #m\n .endm\n #m\n", f"nested more than {MAX_DEPTH} deep"),
    ("64tass", "*= $1000\n .rept 1000000000\n nop\n .next\n", "count 1000000000 is more than 65,536"),
    ("acme", "* = $1000\n!while 1 { nop }\n", f"'!while' loop ran {MAX_ITERATIONS:,} times: stopped"),
    ("acme", "* = $1000\n!do { nop } while 1\n", f"'!do' loop ran {MAX_ITERATIONS:,} times: stopped"),
    ("acme", "* = $1000\n!macro m { +m }\n+m\n", f"nested more than {MAX_DEPTH} deep"),
    ("acme", "* = $1000\n!for i, 0, 1000000000 { nop }\n", "iterations (at most 65,536)"),
])  # fmt: skip
def test_loops_and_recursion_that_do_not_end_are_one_error(dialect: str, source: str, message: str) -> None:
    messages = _quickly(source, dialect)
    assert any(message in m for m in messages), messages
    assert len(messages) <= 201


def test_a_loop_of_many_cheap_statements_stops_at_the_step_limit() -> None:
    source = "*= $1000\n .rept 60000\n .rept 60000\n .next\n .next\n"
    messages = _quickly(source, "64tass", 60.0)
    assert any(f"more than {MAX_STEPS:,} statements" in m for m in messages)


@pytest.mark.parametrize(("dialect", "source", "message"), [
    ("64tass", "*= $1000\n .byte 2 ** 100000\n", "is too large"),
    ("64tass", "*= $1000\n .byte 1 << 1000000000\n", "is too large"),
    ("64tass", '*= $1000\n .text "ab" x 1000000000\n', "more than 1048576 elements"),
    ("64tass", "*= $1000\n .byte range(1000000000)\n", "range() of more than"),
    ("64tass", "*= $1000\n .fill 1000000000\n", "outside 0..65536"),
    ("64tass", "*= $1000\n .byte 1e400\n", "not a finite number"),
    ("64tass", "*= $1000\n lda #" + "(" * 300 + "1" + ")" * 300 + "\n", "nested too deeply"),
    ("acme", "* = $1000\n !byte 2 ^ 10000000000\n", ""),  # wraps in 64 bits, as ACME's C longs
    ("acme", "* = $1000\n !fill 1000000000\n", "outside 0..65536"),
    ("acme", "* = $1000\n lda #" + "(" * 300 + "1" + ")" * 300 + "\n", "nested too deeply"),
])  # fmt: skip
def test_huge_values_are_errors_not_slow_numbers(dialect: str, source: str, message: str) -> None:
    started = time.process_time()
    try:
        assemble(source, "nasty.s", AssemblyOptions(dialect=dialect))
        messages: list[str] = []
    except AssemblyFailed as exc:
        messages = [d.message for d in exc.errors]
    assert time.process_time() - started < 10
    assert any(message in m for m in messages) if message else True


def test_include_cycles_and_missing_files_are_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.s").write_text('.include "b.s"\n')
    (tmp_path / "b.s").write_text('.include "a.s"\n')
    path = tmp_path / "main.s"
    path.write_text('*= $1000\n.include "a.s"\n nop\n')
    with pytest.raises(AssemblyFailed) as info:
        assemble(path.read_text(), str(path), AssemblyOptions(dialect="64tass"))
    assert any("include cycle" in d.message for d in info.value.errors)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.a").write_text('!source "x.a"\n')
    messages = _messages('* = $1000\n!source "x.a"\n!source "missing.a"\n nop\n', "acme")
    assert any("include cycle" in m for m in messages)
    assert any("include file 'missing.a' not found" in m for m in messages)


def test_sizes_that_never_settle_stop_after_the_pass_limit() -> None:
    # the label moves past $ff when the instruction before it is absolute, and back when it is zero page
    source = "*= $fc\n lda later\n .if later < $100\n nop\n nop\n .fi\nlater rts\n"
    messages = _quickly(source, "64tass")
    assert any(f"did not settle after {MAX_PASSES} passes" in m for m in messages), messages


def _errors_at(source: str) -> list[tuple[int, int, str]]:
    started = time.process_time()
    with pytest.raises(AssemblyFailed) as info:
        assemble(source, "nasty.s", AssemblyOptions(dialect="64tass"))
    assert time.process_time() - started < 10
    return [(d.line, d.column, d.message) for d in info.value.errors]


_TOO_MANY = "the repeated value has more than 1048576 elements"


# a user error in a built-in function or operator is a message at its place, never a
# traceback, and the work is bounded before it is done
@pytest.mark.parametrize(("expression", "column", "message"), [
    ('format("%c", 1000000000)', 14, "format() '%c' of int '1000000000' is not a Unicode character"),
    ('format("%c", $d800)', 14, "format() '%c' of bits '$d800' is not a Unicode character"),
    ('format("%c", -1)', 14, "format() '%c' value needs to be non-negative int '-1'"),
    ("range(0, 10, 0)", 13, "range() step: zero value not allowed"),
    ("range(1 << 200)", 13, "range() of more than 1048576 values"),
    ("pow(2, 10000)", 11, "pow() of 2, 10000 has no value"),
    ("pow(-8, 0.5)", 11, "pow() of -8, 0.5 has no value"),
    ("pow(0, -1)", 11, "pow() of 0, -1 has no value"),
    ("hypot(1.7e308, 1.7e308)", 13, "the result is not a finite number"),
    ("sqrt(~$0)", 12, "sqrt() of ~$0 has no value"),
    ("abs()", 11, "abs() takes one value"),
    ("sign()", 12, "sign() takes one value"),
    ("int()", 11, "int() takes one value"),
    ("float()", 13, "float() takes one value"),
    ("bool()", 12, "bool() takes one value"),
    ("str()", 11, "str() takes one value"),
    ("repr()", 12, "repr() takes one value"),
    ("len()", 11, "len() takes one value"),
    ("any()", 11, "any() takes one value"),
    ("byte()", 12, "byte() takes one value"),
    ("format()", 14, "format() takes at least one value"),
    ("size()", 12, "size() takes one value"),
    ("abs(1, 2)", 11, "abs() takes one value"),
    ("int(1, 2)", 11, "int() takes one value"),
    ('len("a", "b")', 11, "len() takes one value"),
    ("all(1, 2)", 11, "all() takes one value"),
    ("rta(1, 2)", 11, "rta() takes one value"),
    ("pow(1)", 11, "pow() takes two values"),
    ("range(1, 2, 3, 4)", 13, "range() takes 1 to 3 values"),
    ("size(1 + 2)", 12, "can't get size of int '3'"),
    ('size("")', 12, "can't get size of str ''"),
    ('format("%1000000000d", 1)', 14, "format() width of more than 1048576"),
    ('format("%.1000000000f", 1.0)', 14, "format() precision of more than 1048576"),
    ('format("%1000000000b", 1)', 14, "format() width of more than 1048576"),
    ('format("%" .. "9" x 5000 .. "d", 1)', 14, "format() width of more than 1048576"),
    ('format("%1048576d%1048576d", 1, 2)', 14, "format() of more than 1048576 characters"),
    ("str([1 << 255] x 100000)", 11, "str() of more than 1048576 characters"),
    ('int("9" x 5000)', 11, "int() of str '99999999999999999999...' is not a number"),
    ('int("9" x 100)', 11, "integer of 333 bits is too large (at most 256)"),
    ('1e308 >? "abcdefghijklmnopqrstuvwxyzabcdefghij"', 14, "integer of 287 bits is too large (at most 256)"),
    ("1e308 << 1", 14, "the result is not a finite number"),
    ("[[0] x 1000000] x 1000", 24, _TOO_MANY),
    ("[[]] x 1048577", 13, _TOO_MANY),
    ('"ab" x 500000 .. "ab" x 500000', 22, "more than 1048576 elements"),
])  # fmt: skip
def test_bad_function_calls_and_operations_are_messages(expression: str, column: int, message: str) -> None:
    assert _errors_at(f'\t.cpu "6502"\n* = $1000\n\t.byte {expression}\n') == [(3, column, message)]


@pytest.mark.parametrize(("lines", "errors"), [
    # a list of a long list repeated, or written twice, or picked many times
    (["x .var [1] x 1000000", "y .var [x] x 1000", " .byte y", ' .byte len(format("%s", y))'],
     [(4, 12, _TOO_MANY), (5, 8, "undefined symbol 'y'"), (6, 25, "undefined symbol 'y'")]),
    (["x .var [1] x 1000000", "y .var [x, x]"], [(4, 8, "more than 1048576 elements")]),
    (["x .var [[1] x 1000000]", "y .var x[[0] x 1000]"], [(4, 9, "more than 1048576 elements")]),
    (['x .var ["a" x 1000000]', "y .var x x 2"], [(4, 10, _TOO_MANY)]),
    # an element that meets a list in the other operand: the result holds both
    (["x .var [1] x 600000", "y .var [0, x] + [x, 0]"], [(4, 15, "more than 1048576 elements")]),
    # lists nested deeper than the evaluator recurses
    (["x .var 1", " .rept 200", "x .var [x]", " .next"], [(5, 8, "lists nested more than 100 deep")] * 100),
    # a bit string that doubles, or shifts, without end
    (["x .var $1", " .rept 40", "x .var x .. x", " .next"],
     [(5, 10, "bit string of more than 1048576 bits")] * 22),
    (["x .var 1", " .rept 3000", "x .var x << 320", " .next"],
     [(5, 10, "integer of 321 bits is too large (at most 256)")] * 200),
])  # fmt: skip
def test_values_stay_within_their_limits_nested_or_not(lines: list[str],
                                                        errors: list[tuple[int, int, str]]) -> None:
    assert _errors_at('\t.cpu "6502"\n* = $1000\n' + "\n".join(lines) + "\n") == errors


@pytest.mark.parametrize(("expression", "data"), [
    ("(%1 >> 1) x 1000000000, 7", [0, 7]),  # no bits repeated are no bits (a 0 byte, as 64tass)
    ('len("" x (1 << 200))', [0]),
    ("[1, 5] < [2, 3]", [1, 0]),  # element by element, as '>' and as 64tass 1.58 does
    ("[1] < [[2]]", [1]),
    ("-5 % 1e-320 < 1e-300", [1]),  # the floored quotient is infinite, the remainder not
    ("atan2(1e308, 1e-308) > 1.5", [1]),
])  # fmt: skip
def test_edge_values_of_functions_and_operations_have_results(expression: str, data: list[int]) -> None:
    source = f'\t.cpu "6502"\n* = $1000\n\t.byte {expression}\n'
    program = assemble(source, "t.s", AssemblyOptions(dialect="64tass"))
    assert list(program.image) == data


# -- fuzzing -----------------------------------------------------------------------------------------
def _probes() -> list[tuple[str, str]]:
    found = [("64tass", p.read_text(encoding="utf-8")) for p in sorted((DATA / "asm-64tass").glob("*.s"))]
    found += [("acme", p.read_text(encoding="utf-8")) for p in sorted((DATA / "asm-acme").glob("*.a"))]
    return found


_PROBES = _probes()
_NASTY = ["(", ")", "[", "]", "{", "}", ",", ":", "=", ":=", "+", "-", "*", "/", "#", "$", "%", '"', "'",
          "\\1", "@", ".if 1", ".fi", ".next", ".endm", "!if 1 {", "}", " .rept 3", "!for i,0,3 {", ".macro",
          ".proc", ".pend", "\n", "\n+", "\n-", " x ", " .. ", "<", ">", "~", "!", "?", ";", "0", "255",
          "$ffff", "1e308", "**", "<<", "!set", ".while 1", "!do {", "} while 1", "*=", " lda", ",x", "\x00",
          "é", "{clr}"]


@st.composite
def mutated_probes(draw: st.DrawFn) -> tuple[str, str]:
    dialect, text = draw(st.sampled_from(_PROBES))
    lines = text.splitlines() or [""]
    for _ in range(draw(st.integers(1, 6))):
        index = draw(st.integers(0, len(lines) - 1))
        line = lines[index]
        position = draw(st.integers(0, len(line)))
        action = draw(st.integers(0, 3))
        if action == 0:
            line = line[:position] + draw(st.sampled_from(_NASTY)) + line[position:]
        elif action == 1:
            line = line[:position] + line[position + draw(st.integers(1, 8)) :]
        elif action == 2:
            line = line[:position] + draw(st.text(max_size=8)) + line[position:]
        else:
            lines.insert(index, draw(st.sampled_from(lines)))
            continue
        lines[index] = line
    return dialect, "\n".join(lines) + "\n"


def _assemble_any(dialect: str, source: str, ascii: bool) -> None:
    try:
        options = AssemblyOptions(dialect=dialect, ascii=ascii and dialect == "64tass")
        result = assemble(source, "fuzz.s", options)
    except UserError as exc:
        assert exc.diagnostics
        for diagnostic in exc.diagnostics:
            diagnostic.format()
        return
    assert isinstance(result, Program)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_probes(), st.booleans())
@example(("acme", "* = $1000\n!set = 1\n"), False)
@example(("acme", "* = $1000\n!set a = 0\n!do while a < 3 {\n !byte a\n}\n"), False)
@example(("64tass", "*= $1000\n!for i,0,3 {w x .var 7\n"), True)
@example(("64tass", "*= $1000\nm .macro\n lda #\\9\n .endm\n #m\n"), True)
@example(("acme", "* = $1000\n !byte +\n"), False)
@example(("64tass", "*= $ffff\n .byte 1, 2, 3\n"), True)
@example(("acme", "* = $1000\n!for, 0, 2 {\n !byte 0\n}\n"), False)  # no loop variable
def test_mutated_probes_give_a_program_or_messages(case: tuple[str, str], ascii: bool) -> None:
    dialect, source = case
    _assemble_any(dialect, source, ascii)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_probes(), st.booleans())
def test_mutated_probes_long_profile(case: tuple[str, str], ascii: bool) -> None:
    dialect, source = case
    _assemble_any(dialect, source, ascii)
