"""A NEXT right after its variable was given a literal (linker._next_after_literal):
where the literal is whole and inside NEXT's bound, the test of the variable is known
when compiling and dropped, and where the sum with the step ends the loop, the NEXT
ends it with the sum as a literal.  Each program runs as compiled and compiled without the
pass; everything the dispatcher and the program can see must be the same (statement
groups, cycles, screen, variables, where CONT goes on), at the end and at statement
limits."""

from __future__ import annotations

import pytest

from tests.test_basic_in_place import run, seen
from toolchain.basic import tokenize_text
from toolchain.basic.runner import compile_program, linker

PROGRAMS = {
    # Nikolaus's way out of its loop: I=7 and NEXT on the next line
    "leave-loop": "10 for k=1 to 30:for i=1 to 7:if i*k>20 then f=1:i=7\n20 next:if f then f=0:c=c+1\n"
                  "30 next:print c;i;k\n",
    "same-line": "10 for i=1 to 9:print i;:i=9:next:print i\n",
    "step-down": "10 for i=9 to 1 step -1:print i;:i=1:next:print i\n",
    "other-literals-between": "10 for i=1 to 9:i=9:g=2.5:h=0:next:print i;g;h\n",
    "step-two": "10 for i=1 to 6 step 2:print i;:i=6:next:print i\n",
    # a whole literal inside the limit: the test is dropped, the loop goes on
    "goes-on": "10 for i=1 to 9:c=c+1:print i;:if c<3 then i=3:next\n20 print i;c\n",
    # literals the test does not hold for: not whole, beyond the bound, and a literal
    # given to the loop's variable with another statement between (the loops go on:
    # C counts the passes, and a third leaves them by the IF)
    "not-whole": "10 for i=1 to 9:c=c+1:if c<3 then i=2.5:next\n20 print i;c\n",
    "beyond-bound": "10 for i=1 to 9:c=c+1:if c<3 then i=-4294967296:next\n20 print i;c\n",
    "beyond-bound-down": "10 for i=9 to 1 step -1:c=c+1:if c<3 then i=4294967296:next\n20 print i;c\n",
    "changed-between": "10 for i=1 to 9:c=c+1:if c<3 then i=3:i=i+.5:next\n20 print i;c\n",
    "inner-loop-between": "10 for i=1 to 3:i=3:for j=1 to 2:next j:next i:print i;j\n",
    "next-without-for": "10 i=7:next\n",
    "wrong-variable": "10 for i=1 to 3:j=3:next j\n",
}


def _kept(code):  # type: ignore[no-untyped-def]
    return code


@pytest.mark.parametrize("name", PROGRAMS)
@pytest.mark.parametrize("max_statements", [None, 1, 2, 5, 16, 17, 40])
def test_runs_are_as_without_the_pass(name: str, max_statements: int | None,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    ours = seen(*run(PROGRAMS[name], max_statements))
    monkeypatch.setattr(linker, "_next_after_literal", _kept)
    assert ours == seen(*run(PROGRAMS[name], max_statements))


def next_tests(listing: str) -> list[str]:
    source = compile_program(tokenize_text(listing).data).module.source
    lines = (line.strip() for line in source.splitlines())
    return [line for line in lines if line.startswith("if STACK and STACK[-1] is _F")]


@pytest.mark.parametrize("name", ["leave-loop", "same-line", "step-down", "other-literals-between",
                                  "step-two", "goes-on"])
def test_the_test_is_dropped_after_a_whole_literal(name: str) -> None:
    assert any(test.endswith(":") and " and (" not in test for test in next_tests(PROGRAMS[name]))


@pytest.mark.parametrize("name", ["not-whole", "beyond-bound", "beyond-bound-down", "changed-between",
                                  "inner-loop-between"])
def test_the_test_is_kept_where_the_literal_does_not_answer_it(name: str) -> None:
    # the inner loop's own NEXT J has no literal before it either
    assert all(" and (" in test for test in next_tests(PROGRAMS[name]))


def test_the_pass_reads_only_straight_code() -> None:
    test = ("    if STACK and STACK[-1] is _F3 and (N_I is _F3.value or "
            "(N_I % 1.0 == 0.0 and N_I >= -4294967295.0)):")
    dropped = "    if STACK and STACK[-1] is _F3:"
    code = [("    N_I = 7.0", 10), ("    N_F = 1.0", 10), ("    _T += 5", 10), ("    # line 20", 20),
            (test, 20)]
    assert linker._next_after_literal(code)[-1] == (dropped, 20)
    for between in ("    N_I = N_I + 1.0", "    if N_F: return 3", "        _T += 5",
                    "    rt.dim('AN_A', K.NUMBER, 5.0)"):
        kept = [*code[:3], (between, 10), *code[3:]]
        assert linker._next_after_literal(kept) == kept, between
    for literal in ("7.5", "-4294967296.0", "1e+20"):
        other = [(f"    N_I = {literal}", 10), (test, 10)]
        assert linker._next_after_literal(other) == other, literal


def test_a_loop_the_literal_ends_ends_with_the_sum() -> None:
    source = compile_program(tokenize_text(PROGRAMS["step-two"]).data).module.source
    assert "N_I = 8.0\n" in source and "v = N_I + 2.0" not in source, source
    source = compile_program(tokenize_text(PROGRAMS["goes-on"]).data).module.source
    assert "N_I = 4.0" not in source, source


def test_the_sum_is_taken_only_where_the_shortcut_ends_the_loop() -> None:
    """linker._next_ended on NEXT's shortcut for a loop to 9 step 1: the sum where the
    loop ends inside the range the shortcut ends it in, else None (the code runs)."""
    shortcut = [(text, 20) for text in (
        "        v = N_I + 1.0", "        if v <= 9.0:", "            _F3.value = N_I = v",
        "            return 4", "        if 9.0 < v < 4294967296.0:", "            N_I = v",
        "            STACK.pop(); rt.stack_bytes -= 18",
        "        elif _next(rt, None): return STACK[-1].resume")]
    assert linker._next_ended(shortcut, "N_I", 9.0) == 10.0
    assert linker._next_ended(shortcut, "N_I", 3.0) is None  # the loop goes on
    assert linker._next_ended(shortcut, "N_I", 4294967295.0) is None  # past the range: the ROM's way
    assert linker._next_ended(shortcut, "N_J", 9.0) is None  # another variable's code
    assert linker._next_ended(shortcut[:-1], "N_I", 9.0) is None
