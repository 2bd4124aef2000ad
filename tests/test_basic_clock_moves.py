"""The linker's moves of the generated code's additions to the C64's clock
(linker._clock_after_quiet_jumps, _clock_into_str, _clock_before_loop,
_clock_past_groups): fewer
additions where a program loops, and the clock the same wherever it is looked at or
the program stops.  Each program runs as compiled and compiled without the moves, and
everything the dispatcher and the program can see must be the same (the statement
groups, the cycles, the screen, the variables, where CONT goes on), at the end, at
statement limits, at limits of C64 time, with a program's own interrupt handler."""

from __future__ import annotations

import pytest

from tests.test_basic_in_place import LONG, PROGRAMS, run, seen
from toolchain.basic import tokenize_text
from toolchain.basic.runner import compile_program, linker

MOVES = {
    **PROGRAMS,
    # an error in the statements after a THEN whose test is quiet: the clock at the
    # error is the C64's at it, before the addition after the statement
    "error-after-then": "10 dim a(5):for i=1 to 9:if i>2 then f=1:a(i)=i\n20 next\n",
    "error-in-then": "10 dim a(5):for i=1 to 9:if i>2 then a(i+f)=i:f=1\n20 next\n",
    # literals assigned between the test and the next addition, an IF's jump to a line
    "literals-after-then": "10 for i=1 to 50:if i<>7 and i<>9 then f=1:g=-2.5:x=x+i\n"
                           "20 next:if f then 40\n30 print \"no\"\n40 print x;g\n",
    # the time looked at after a THEN, and in a loop whose head adds to the clock
    "ti-after-then": "10 for i=1 to 30:if i=5 or i=17 then t=ti:print t;\n20 next:print ti-t\n",
    "head-add": "10 for i=1 to 40\n20 x=x+i:if x>100 then x=0\n30 next:print x\n",
    # a test that is not quiet (it reads an element, which can raise): nothing moves
    "element-test": "10 dim a(3):for i=0 to 5:if a(i)=0 then a(i)=1\n20 next\n",
    # STR$ into a variable, the statements after it added with FOUT's time
    "str-then": "10 for i=1 to 40:k=i*7-100:k$=mid$(str$(k),2):f=0:for j=1 to 2:next j\n"
                "20 a$=str$(k):next i:print k$;a$;ti\n",
    "str-then-error": "10 dim a(5):for i=1 to 9:k=i:k$=str$(k):a(k)=i\n20 next\n",
}


def _unmoved(code):  # type: ignore[no-untyped-def]
    return code


def _not_before_loop(body):  # type: ignore[no-untyped-def]
    return [], body


def without_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(linker, "_clock_after_quiet_jumps", _unmoved)
    monkeypatch.setattr(linker, "_clock_into_str", _unmoved)
    monkeypatch.setattr(linker, "_clock_before_loop", _not_before_loop)
    monkeypatch.setattr(linker, "_clock_past_groups", _unmoved)


def additions(listing: str) -> int:
    return compile_program(tokenize_text(listing).data).module.source.count("_T += ")


def test_the_moves_save_additions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nikolaus's inner loop: its tests are quiet, its loops' heads add to the clock."""
    moved = additions(MOVES["nikolaus"])
    source = compile_program(tokenize_text(MOVES["nikolaus"]).data).module.source
    assert "else: _T += " in source and "): _T += " in source, source
    without_moves(monkeypatch)
    assert additions(MOVES["nikolaus"]) != moved


def test_str_adds_the_time_after_it() -> None:
    """FOUT adds the next addition with its own across literal assignments, and only
    where STR$'s text goes into the variable as it is: a call around it, or a statement
    that can raise, keeps the addition where it was."""
    code = [("    S_K = _fout_digits(N_K)", 280), ("    # line 290", 290), ("    N_F = 0.0", 290),
            ("    _T += 12480", 300)]
    assert linker._clock_into_str(code) == [("    S_K = _fout_digits(N_K, 12480)", 280), *code[1:3]]
    text = [("    S_A = _fout_text(N_I)", 10), ("    _T += 99", 10)]
    assert linker._clock_into_str(text) == [("    S_A = _fout_text(N_I, 99)", 10)]
    wrapped = [("    S_K = _copied(_fout_digits(N_K))", 280), ("    _T += 12480", 280)]
    assert linker._clock_into_str(wrapped) == wrapped
    stored = [("    S_K = _fout_digits(N_K)", 10),
              ("    if N_K in (_a := AN_A).settable: _a.cells[N_K] = 1.0", 10),
              ("    else: _a.place(N_K)(1.0)", 10), ("    _T += 5", 10)]
    assert linker._clock_into_str(stored) == stored


def test_a_test_that_may_raise_keeps_its_addition_before_it() -> None:
    source = compile_program(tokenize_text(MOVES["element-test"]).data).module.source
    assert "): _T += " not in source, source


@pytest.mark.parametrize("name", MOVES)
@pytest.mark.parametrize("max_statements", [None, 1, 2, 15, 16, 17, 33, 100, 101, 250])
def test_statement_limits_and_ends_are_as_without_the_moves(name: str, max_statements: int | None,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    ours = seen(*run(MOVES[name], max_statements))
    without_moves(monkeypatch)
    assert ours == seen(*run(MOVES[name], max_statements))


@pytest.mark.parametrize("name", LONG)
@pytest.mark.parametrize("max_cycles", [30_000, 100_000, 333_333, 1_000_001])
def test_cycle_limits_are_as_without_the_moves(name: str, max_cycles: int,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    ours = seen(*run(LONG[name], max_cycles=max_cycles))
    without_moves(monkeypatch)
    assert ours == seen(*run(LONG[name], max_cycles=max_cycles))


@pytest.mark.parametrize("name", LONG)
def test_a_program_s_interrupt_handler_runs_as_without_the_moves(name: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    ours = seen(*run(LONG[name], irq_handler=True))
    without_moves(monkeypatch)
    assert ours == seen(*run(LONG[name], irq_handler=True))
