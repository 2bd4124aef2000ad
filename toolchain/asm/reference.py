"""The reference parser: the lark grammar in ``grammar.lark``, the definition of the
language.  The assembler uses its own parser (parser.py: faster, and without
recursion); the tests check on generated lines that both build the same statements
and the same errors.  Only for lines of ordinary size (lark's tree transformation
recurses with the nesting)."""

from __future__ import annotations

from importlib import resources
from typing import Any

from lark import Lark, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from toolchain.asm.expressions import Binary, Expr, Number, Paren, ProgramCounter, Symbol, Text, Unary
from toolchain.asm.parser import (
    DOCUMENTED,
    Dialect,
    ParseError,
    SourceLine,
    Statement,
    Syntax,
    _unknown_mnemonic,
    make_directive,
    make_instruction,
    number_token,
    text_bytes,
    unknown_mnemonic,
)
from toolchain.petscii import char_to_petscii

Token = Any  # lark's tokens (their positions are typed as optional)


@v_args(inline=True)
class _ToStatements(Transformer):
    line: SourceLine
    dialect: Dialect

    def number(self, tok: Token) -> Expr:
        kind = {"DEC": "dec", "HEX": "hex", "BIN": "bin"}[tok.type]
        return number_token(kind, tok.value, tok.column)

    def char(self, tok: Token) -> Expr:
        try:
            return Number(char_to_petscii(tok.value[1]), tok.column)
        except ValueError as exc:
            raise ParseError(str(exc), tok.column) from None

    def string(self, tok: Token) -> Expr:
        return Text(text_bytes(tok.value, tok.column), tok.column, tok.value[1:-1])

    def symbol(self, tok: Token) -> Expr:
        return Symbol(tok.value.lower(), tok.column)

    def pc(self, tok: Token) -> Expr:
        return ProgramCounter(tok.column)

    def paren(self, open_paren: Token, inner: Expr) -> Expr:
        return Paren(inner, open_paren.column)

    def neg(self, minus: Token, operand: Expr) -> Expr:
        return Unary("-", operand, minus.column)

    def low_byte(self, op: Token, operand: Expr) -> Expr:
        return Unary("<", operand, op.column)

    def high_byte(self, op: Token, operand: Expr) -> Expr:
        return Unary(">", operand, op.column)

    def binary(self, left: Expr, op: Token, right: Expr) -> Expr:
        return Binary(op.value, left, right, left.column)

    def immediate(self, expr: Expr) -> tuple[Syntax, Expr]:
        return Syntax.IMMEDIATE, expr

    def direct(self, expr: Expr) -> tuple[Syntax, Expr]:
        return Syntax.DIRECT, expr

    def indexed(self, expr: Expr, register: Token) -> tuple[Syntax, Expr]:
        reg = register.value.lower()
        if isinstance(expr, Paren):
            if reg == "y":
                return Syntax.INDIRECT_Y, expr.inner
            raise ParseError("there is no (address),x mode: write (zp,x) or (zp),y", register.column)
        if reg == "x":
            return Syntax.INDEXED_X, expr
        if reg == "y":
            return Syntax.INDEXED_Y, expr
        raise ParseError(f"index register must be x or y, not '{register.value}'", register.column)

    def indexed_indirect(self, expr: Expr, register: Token) -> tuple[Syntax, Expr]:
        if register.value.lower() != "x":
            raise ParseError("(zp,y) does not exist: write (zp),y or (zp,x)", register.column)
        return Syntax.INDIRECT_X, expr

    def args(self, *items: Expr) -> list[Expr]:
        return list(items)

    def equate(self, name: Token, expr: Expr) -> list[Statement]:
        from toolchain.asm.parser import Equate

        return [Equate(self.line, name.column, name.value.lower(), expr)]

    def origin(self, star: Token, expr: Expr) -> list[Statement]:
        from toolchain.asm.parser import Origin

        return [Origin(self.line, star.column, expr)]

    def label_only(self, name: Token) -> list[Statement]:
        from toolchain.asm.parser import Label

        return [Label(self.line, name.column, name.value.lower())]

    def instruction(self, *children: Any) -> list[Statement]:
        items = list(children)
        label = items.pop(0) if getattr(items[0], "type", None) == "NAME" else None
        mnemonic = items[0]
        operand = items[1] if len(items) > 1 else (Syntax.IMPLIED, None)
        canonical = self.dialect.canonical(mnemonic.value)
        assert canonical is not None
        return make_instruction(self.line, label and (label.value, label.column), canonical,
                                mnemonic.column, operand, self.dialect)

    def directive(self, *children: Any) -> list[Statement]:
        items = list(children)
        label = items.pop(0) if getattr(items[0], "type", None) == "NAME" else None
        token = items[0]
        args: list[Expr] = items[1] if len(items) > 1 else []
        return make_directive(self.line, label and (label.value, label.column), token.value, token.column,
                              args)

    def start(self, *statement_lists: list[Statement]) -> list[Statement]:
        return [statement for group in statement_lists for statement in group]


_parsers: dict[Dialect, tuple[Lark, _ToStatements]] = {}


def _parser(dialect: Dialect) -> tuple[Lark, _ToStatements]:
    if dialect not in _parsers:
        text = resources.files("toolchain.asm").joinpath("grammar.lark").read_text()
        words = sorted({*dialect.mnemonics, *dialect.aliases}, key=lambda w: (-len(w), w))
        transformer = _ToStatements()
        transformer.dialect = dialect
        _parsers[dialect] = (Lark(text.replace("%MNEMONICS%", "|".join(words)), parser="lalr",
                                  lexer="contextual", transformer=transformer, maybe_placeholders=False),
                             transformer)
    return _parsers[dialect]


def _describe(token: Token) -> str:
    if token.type == "$END":
        return "end of line"
    value = token.value if len(token.value) <= 20 else token.value[:20] + "..."
    return f"'{value}'"


def parse_line_with_grammar(line: SourceLine, dialect: Dialect = DOCUMENTED) -> list[Statement]:
    """One line's statements, parsed with the lark grammar."""
    text = line.text[line.offset :]
    parser, transformer = _parser(dialect)
    transformer.line = line
    try:
        return parser.parse(text)  # type: ignore[return-value]
    except UnexpectedCharacters as exc:
        raise ParseError(f"syntax error: unexpected character '{text[exc.pos_in_stream or 0]}'",
                         exc.column or 1) from None
    except UnexpectedToken as exc:
        token = exc.token
        at_end = token.type == "$END" or not isinstance(token.column, int)
        column = len(text.rstrip()) + 1 if at_end else token.column
        unknown = _unknown_mnemonic(text, column, (token.type.lower(), token.value, column)
                                    if token.type == "NAME" else None, dialect)
        if unknown is not None:
            raise ParseError(unknown_mnemonic(unknown[0], dialect), unknown[1]) from None
        raise ParseError(f"syntax error: unexpected {_describe(token)}", column) from None
    except UnexpectedEOF:
        raise ParseError("syntax error: unexpected end of line", len(text) + 1) from None
    except UnexpectedInput as exc:  # pragma: no cover - other lark input errors
        raise ParseError(f"syntax error: {exc}", getattr(exc, "column", 1)) from None
