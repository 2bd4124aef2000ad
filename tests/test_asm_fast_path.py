"""The parser's fast path must build exactly what the lark grammar builds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toolchain.asm.parser import ParseError, SourceLine, _parse_fast, parse_line_with_grammar

names = st.sampled_from(["loop", "a", "x", "y", "pos1", "cv1", "_t", "rem", "lda", "and", "Text", "remx"])
terms = st.one_of(
    names, st.integers(0, 70000).map(str), st.integers(0, 0xFFFF).map(lambda v: f"${v:x}"),
    st.integers(0, 255).map(lambda v: f"%{v:b}"), st.sampled_from(["'a'", "'Z'", "'1'", "'é'", "027"]),
)
values = st.one_of(terms, st.tuples(terms, st.sampled_from("+-"), terms).map("".join))
operands = st.one_of(
    st.just(""), values.map(lambda v: " " + v), values.map(lambda v: f" #{v}"),
    st.tuples(st.sampled_from("<>"), values).map(lambda t: f" #{t[0]}{t[1]}"),
    values.map(lambda v: f" {v},x"), values.map(lambda v: f" {v},Y"), values.map(lambda v: f" ({v},x)"),
    values.map(lambda v: f" ({v}),y"), values.map(lambda v: f" ({v})"), values.map(lambda v: f" {v} , x"),
)
mnemonics = st.sampled_from(["lda", "LDA", "sta", "jmp", "asl", "bne", "ldx", "stx", "inx", "foo", "rol"])
labels = st.one_of(st.just(""), names.map(lambda n: n + " "))
comments = st.sampled_from(["", " ; comment", ";x: y", "  ", " :rem z", " : nop"])
instruction_lines = st.tuples(st.sampled_from(["", " ", "\t"]), labels, mnemonics, operands, comments).map(
    "".join)
equate_lines = st.tuples(names, st.sampled_from(["=", " = ", "= "]), values, comments).map("".join)


def _grammar(text: str) -> object:
    line = SourceLine("t", 1, text, None, 0)
    try:
        return parse_line_with_grammar(line)
    except ParseError as exc:
        return ("error", exc.column)


@settings(max_examples=400, deadline=None)
@given(st.one_of(instruction_lines, equate_lines))
def test_fast_path_agrees_with_the_grammar(text: str) -> None:
    line = SourceLine("t", 1, text, None, 0)
    fast = _parse_fast(line, text)
    if fast is not None:
        assert fast == _grammar(text)


def test_fast_path_takes_the_common_lines() -> None:
    for text in ["l0 jmp liloop", " lda #<text", " sta pos1,x", " lda (alt),y", "chrout = $ffd2 ; x",
                 " asl a", " jmp ($fffc)", "; comment", "", " lda cv1-1,y"]:
        assert _parse_fast(SourceLine("t", 1, text, None, 0), text) is not None, text
