"""The assembler's parser against the definition of the language (the lark grammar in
toolchain/asm/grammar.lark, parsed by toolchain/asm/reference.py): the same statements,
the same errors at the same columns; and the fast path against the full parser."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toolchain.asm.parser import (
    DOCUMENTED,
    UNDOCUMENTED,
    Dialect,
    ParseError,
    SourceLine,
    _parse_fast,
    parse_line_fully,
)
from toolchain.asm.reference import parse_line_with_grammar

names = st.sampled_from(["loop", "a", "x", "y", "pos1", "cv1", "_t", "rem", "lda", "and", "Text", "remx",
                         "lax", "dcm"])
terms = st.one_of(
    names, st.integers(0, 70000).map(str), st.integers(0, 0xFFFF).map(lambda v: f"${v:x}"),
    st.integers(0, 255).map(lambda v: f"%{v:b}"), st.sampled_from(["'a'", "'Z'", "'1'", "'é'", "027", "*",
                                                                  '"ab"', '"{clr}"', "99999999999"]),
)
values = st.one_of(terms, st.tuples(terms, st.sampled_from("+-"), terms).map("".join))


@st.composite
def expressions(draw: st.DrawFn, depth: int = 3) -> str:
    """Expressions with every operator, parentheses, prefixes and the odd mistake."""
    if depth == 0 or draw(st.booleans()):
        return draw(terms)
    kind = draw(st.integers(0, 5))
    inner = draw(expressions(depth - 1))
    if kind == 0:
        return f"({inner})"
    if kind == 1:
        return f"-{inner}"
    if kind == 2:
        return draw(st.sampled_from(["<", ">", "< "])) + inner
    if kind == 3:
        return f"{inner}{draw(st.sampled_from(['+', '-', '*', '/', ' * ', '+(', ')', ',', '']))}" \
               f"{draw(expressions(depth - 1))}"
    return inner + draw(st.sampled_from(["", " ", "(", ")", "#", "@"]))


simple_operands = st.one_of(
    st.just(""), values.map(lambda v: " " + v), values.map(lambda v: f" #{v}"),
    st.tuples(st.sampled_from("<>"), values).map(lambda t: f" #{t[0]}{t[1]}"),
    values.map(lambda v: f" {v},x"), values.map(lambda v: f" {v},Y"), values.map(lambda v: f" ({v},x)"),
    values.map(lambda v: f" ({v}),y"), values.map(lambda v: f" ({v})"), values.map(lambda v: f" {v} , x"),
)
operands = st.one_of(simple_operands, *(expressions().map(form.format) for form in
                                        (" {}", " #{}", " ({},x)", " {},y", " ({}),y", " ({},q)")))
mnemonics = st.sampled_from(["lda", "LDA", "sta", "jmp", "asl", "bne", "ldx", "stx", "inx", "foo", "rol",
                             "lax", "dcm", "isc", "nop"])
labels = st.one_of(st.just(""), names.map(lambda n: n + " "))
comments = st.sampled_from(["", " ; comment", ";x: y", "  ", " :rem z", " : nop", ":", " : lda #(1"])
instruction_lines = st.tuples(st.sampled_from(["", " ", "\t"]), labels, mnemonics, operands, comments).map(
    "".join)
equate_lines = st.tuples(names, st.sampled_from(["=", " = ", "= "]), st.one_of(values, expressions()),
                         comments).map("".join)
directive_lines = st.tuples(labels, st.sampled_from([".byt", ".wor", ".asc", ".opt", ".if", ".else", ".ei",
                                                      ".fill", ".binary", ".include", ".foo", ".by"]),
                            st.lists(expressions(2), max_size=3).map(lambda items: " " + ",".join(items)),
                            comments).map("".join)
other_lines = st.sampled_from(["*= $1000", "*=*+2", "* = 1 : nop", "lab", "lab:", "lab lda", "@", "lda #'",
                               'lda #"', ".", "x = ", "= 1", "*", "ldz #1", "lda (1,y)", "lda (1),x"])
lines = st.one_of(instruction_lines, equate_lines, directive_lines, other_lines)


def _parse(parse: object, text: str, dialect: Dialect) -> object:
    line = SourceLine("t", 1, text, None, 0)
    try:
        return parse(line, dialect)  # type: ignore[operator]
    except ParseError as exc:
        return ("error", str(exc), exc.column)


@settings(max_examples=250, deadline=None)
@given(lines, st.sampled_from([DOCUMENTED, UNDOCUMENTED]))
def test_the_parser_agrees_with_the_grammar(text: str, dialect: Dialect) -> None:
    assert _parse(parse_line_fully, text, dialect) == _parse(parse_line_with_grammar, text, dialect)


@settings(max_examples=150, deadline=None)
@given(st.one_of(instruction_lines, equate_lines), st.sampled_from([DOCUMENTED, UNDOCUMENTED]))
def test_fast_path_agrees_with_the_full_parser(text: str, dialect: Dialect) -> None:
    line = SourceLine("t", 1, text, None, 0)
    fast = _parse_fast(line, text, dialect)
    if fast is not None:
        assert fast == _parse(parse_line_fully, text, dialect)


def test_fast_path_takes_the_common_lines() -> None:
    for text in ["l0 jmp liloop", " lda #<text", " sta pos1,x", " lda (alt),y", "chrout = $ffd2 ; x",
                 " asl a", " jmp ($fffc)", "; comment", "", " lda cv1-1,y"]:
        assert _parse_fast(SourceLine("t", 1, text, None, 0), text) is not None, text
