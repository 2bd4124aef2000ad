"""The assembler on hostile input: bounded work and a message, never a traceback
(issue 12).  Each class of input that once crashed or hung has its case here, and a
hypothesis fuzz test mutates real sources."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import REPO, SHARED
from toolchain.asm import AssemblyFailed, Program, assemble
from toolchain.asm.assembler import MAX_ERRORS
from toolchain.diagnostics import UserError
from toolchain.petscii import PetsciiError, parse_units


def _messages(source: str) -> list[str]:
    with pytest.raises(AssemblyFailed) as info:
        assemble(source, "nasty.asm")
    return [d.message for d in info.value.errors]


def test_deep_parentheses_are_an_error_not_a_recursion_error() -> None:
    (message,) = _messages("*=$1000\n lda #" + "(" * 5000 + "1" + ")" * 5000 + "\n")
    assert message == "expression nested too deeply (more than 256 parentheses)"
    (message,) = _messages("*=$1000\n lda #" + "<(" * 3000 + "1" + ")" * 3000 + "\n")
    assert "nested too deeply" in message


def test_nesting_up_to_the_limit_works() -> None:
    assert assemble("*=$1000\n lda #" + "(" * 256 + "7" + ")" * 256 + "\n").image == b"\xa9\x07"
    assert assemble("*=$1000\n lda #" + "-" * 5001 + "1\n").image == b"\xa9\xff"


def test_a_chain_of_5000_equates_either_way_round() -> None:
    forward = "a0 = 1\n" + "".join(f"a{i} = a{i - 1}+1\n" for i in range(1, 5000))
    assert assemble("*=$1000\n" + forward + " .wor a4999\n").image == (5000).to_bytes(2, "little")
    backward = "".join(f"a{i} = a{i + 1}+1\n" for i in range(5000)) + "a5000 = 1\n"
    assert assemble("*=$1000\n .wor a0\n" + backward).image == (5001).to_bytes(2, "little")


def test_circular_equates_are_one_error() -> None:
    messages = _messages("*=$1000\n lda a\na = b+1\nb = c\nc = a\n")
    assert messages == ["'a' is defined in terms of itself"]


def test_a_sum_of_20000_terms() -> None:
    terms = "1" + "+1-1" * 9_999 + "+1"  # 20,000 terms: time in proportion, no recursion
    assert assemble(f"*=$1000\n .wor {terms}\n lda #{terms}\n").image == b"\x02\x00\xa9\x02"


@pytest.mark.slow
def test_a_sum_of_100000_terms() -> None:
    terms = "1" + "+1-1" * 49_999 + "+1"
    assert assemble(f"*=$1000\n .wor {terms}\n").image == b"\x02\x00"


def test_numbers_beyond_32_bits_are_an_error() -> None:
    for literal in ["9" * 5000, "$" + "f" * 9, "%1" + "0" * 32, "4294967296"]:
        (message,) = _messages(f"*=$1000\n lda #{literal}\n")
        assert message.startswith(f"number {literal[:20]}") and "is too large (at most $FFFFFFFF)" in message
    assert assemble("*=$1000\n .wor 000000000000000000065535\n").image == b"\xff\xff"


def test_growing_equates_stop_at_32_bits() -> None:
    source = "*=$1000\na = 2\n" + "".join(f"b{i} = {'a' if i == 0 else f'b{i - 1}'}*"
                                         f"{'a' if i == 0 else f'b{i - 1}'}\n" for i in range(40))
    messages = _messages(source + " lda #0\n")
    assert messages == ["value $100000000 is too large (values must stay within -$FFFFFFFF..$FFFFFFFF)"]


def test_huge_repeat_counts_are_an_error() -> None:
    (message,) = _messages('*=$1000\n .asc "{999999999999 down}"\n')
    assert message == "repeat count 999999999999 is more than a line can hold (at most 255)"
    assert len(assemble('*=$1000\n .asc "{255 down}"\n').image) == 255
    with pytest.raises(PetsciiError, match="at most 255"):
        parse_units("{down*256}")
    with pytest.raises(PetsciiError, match="larger than 255"):
        parse_units("{" + "9" * 5000 + "}")


def test_huge_line_numbers_are_not_line_numbers() -> None:
    (message,) = _messages("9" * 5000 + " nop\n")
    assert message.startswith("syntax error: unexpected '99999999999999999999...'")


def test_errors_are_capped_with_a_count() -> None:
    source = "*=$1000\n" + " lda nowhere\n" * 50
    with pytest.raises(AssemblyFailed) as info:
        assemble(source, "many.asm")
    assert len(info.value.errors) == 50
    shown = info.value.diagnostics
    assert len(shown) == MAX_ERRORS + 1
    assert shown[-1].format() == "many.asm: note: and 30 more errors (50 in all)"


# -- fuzz ------------------------------------------------------------------------------------

def _seed_sources() -> list[str]:
    paths = [REPO / "sources" / "superhirn2.asm", REPO / "sources" / "superhirn3.asm",
             *sorted((SHARED / "corpus" / "asm").glob("*"))]
    return [path.read_text(encoding="latin-1") for path in paths if path.is_file()]


_SEEDS = _seed_sources()
_NASTY = ["(", ")", "((((", "-", "<", ">", "*", "/0", "+", ":", ";", '"', "'", "{", "}", "{99 down}",
          "{999999999 down}", "9" * 60, "$ffffffffff", "%", ",x", ",y", "#", "=", "*=", ".byt", ".if 1",
          ".else", ".endif", ".fill 99999", ".include \"x\"", ".binary \"x\"", "a*a*a*a*a*a*a*a", "lda", "\t",
          "\x00", "é", "rem", "sys", "\n"]


@st.composite
def mutated_sources(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(_SEEDS))
    lines = text.splitlines()
    if len(lines) > 80:  # a window of the file keeps each example small
        start = draw(st.integers(0, len(lines) - 80))
        lines = lines[:3] + lines[start : start + 80]
    for _ in range(draw(st.integers(1, 6))):
        index = draw(st.integers(0, len(lines) - 1))
        line = lines[index]
        position = draw(st.integers(0, len(line)))
        action = draw(st.integers(0, 3))
        if action == 0:
            line = line[:position] + draw(st.sampled_from(_NASTY)) + line[position:]
        elif action == 1:
            line = line[:position] + line[position + draw(st.integers(1, 8)):]
        elif action == 2:
            line = line[:position] + draw(st.text(max_size=8)) + line[position:]
        else:
            lines.insert(index, draw(st.sampled_from(lines)))
            continue
        lines[index] = line
    return "\n".join(lines) + "\n"


def _assemble_any(source: str) -> None:
    try:
        result = assemble(source, "fuzz.asm")
    except UserError as exc:
        assert exc.diagnostics
        for diagnostic in exc.diagnostics:
            diagnostic.format()
        return
    assert isinstance(result, Program)


@pytest.mark.skipif(not _SEEDS, reason="no seed sources")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_sources())
def test_mutated_sources_give_a_program_or_messages(source: str) -> None:
    _assemble_any(source)


@pytest.mark.slow
@pytest.mark.skipif(not _SEEDS, reason="no seed sources")
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_sources())
def test_mutated_sources_long_profile(source: str) -> None:
    _assemble_any(source)


def test_the_seed_sources_are_there() -> None:
    assert len(_SEEDS) >= 2


def test_running_past_the_end_of_memory_is_one_error_not_a_cascade() -> None:
    # issue 21: "runs past $FFFF" used to be followed by a spurious "no origin" error, and the
    # labels after it by "undefined symbol" errors where they are used
    messages = _messages("*=$fffe\n lda $1234\n nop\nlater rts\n jmp later\n")
    assert messages == ["the program runs past $FFFF, the end of memory"]
    messages = _messages("*=$fffe\n .byt 1,2,3\nafter = *+1\n lda after\n")
    assert messages == ["the program runs past $FFFF, the end of memory"]
    # a new origin gives addresses again, and errors there are reported as usual
    messages = _messages("*=$fffe\n lda $1234\n*=$1000\n lda nowhere\n")
    assert messages == ["the program runs past $FFFF, the end of memory", "undefined symbol 'nowhere'"]
    # an origin outside memory is one error too
    assert _messages("*=$10000\n nop\n") == ["origin $10000 is outside the 64 KiB address space"]
