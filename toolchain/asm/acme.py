"""The ACME dialect: ACME 0.97's syntax over the shared core (``engine.py``).

What it reads, as ACME does: several statements on a line (``:``), ``;`` and ``//``
comments, blocks in braces (``!if c { ... } else { ... }`` on one line or many), labels
with or without a colon, global symbols, ``.local`` symbols (per ``!zone`` and per macro
call), ``@cheap`` locals (between two global labels), anonymous labels (``-``, ``--``,
``+``, ``++``: each run length its own family), ``!macro``/``+name``, ``!for`` (both
forms), ``!do``, ``!while``, ``!if``/``!ifdef``/``!ifndef`` with ``else``, ``!set``,
``!zone``, ``!pseudopc``, ``!cpu 6502``/``6510``, ``!convtab`` (``raw``, ``pet``,
``scr``), ``!text``/``!pet``/``!raw``/``!scr``/``!scrxor``, ``!byte``/``!word``/``!24``/
``!32`` (and the big-endian forms), ``!hex``, ``!fill``, ``!skip``, ``!align``,
``!binary``, ``!source``, ``!to``, ``!initmem``, ``!xor``, ``!warn``/``!error``/
``!serious``, ``!eof``, ``* = address`` with ``overlay``/``invisible``, and ACME's
expression language (``ACME_SYNTAX``).

Operand sizes follow ACME 0.97: the value decides, unless the expression was written
with leading zeros (``$00ff``), a postfix (``lda+2``), a byte operator (``<x`` is always
zero page) or uses a symbol that was undefined when it was first used (in any pass):
then ACME keeps the absolute form, and so does c64tc.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolchain.asm import values as V
from toolchain.asm.cpus import ACME_6502, ACME_6510, InstructionSet
from toolchain.asm.directives import ACME_PSEUDO_OPS, TASS_DIRECTIVES
from toolchain.asm.encodings import acme_pet, acme_scr
from toolchain.asm.engine import (
    MAX_ITERATIONS,
    Assign,
    DialectAssembly,
    DialectInstruction,
    Failed,
    Op,
    Scope,
    Unknown,
)
from toolchain.asm.expressions import (
    Call,
    Constant,
    Expr,
    ExpressionError,
    Number,
    Operation,
    Paren,
    ProgramCounter,
    Symbol,
)
from toolchain.asm.parser import (
    Instruction,
    Label,
    ParseError,
    SourceLine,
    Statement,
    Syntax,
    make_instruction,
)
from toolchain.asm.syntax import (
    BinaryOperator,
    ExpressionSyntax,
    PrefixOperator,
    parse_expression,
    skip_blanks,
)
from toolchain.cpu.opcodes import Mode
from toolchain.diagnostics import counted

# -- expressions --------------------------------------------------------------------------------
# Priorities from ACME's alu.c (higher binds tighter).
_BINARY = [
    BinaryOperator("|", "acme_or", 16), BinaryOperator("or", "acme_or", 16, word=True),
    BinaryOperator("xor", "acme_xor", 18, word=True), BinaryOperator("eor", "acme_xor", 18, word=True),
    BinaryOperator("&", "acme_and", 20), BinaryOperator("and", "acme_and", 20, word=True),
    BinaryOperator("==", "eq", 22), BinaryOperator("=", "eq", 22),
    BinaryOperator("!=", "ne", 24), BinaryOperator("<>", "ne", 24), BinaryOperator("><", "ne", 24),
    BinaryOperator("<=", "le", 26), BinaryOperator("<", "lt", 26), BinaryOperator(">=", "ge", 26),
    BinaryOperator(">", "gt", 26),
    BinaryOperator("<<", "shl64", 30), BinaryOperator("asl", "shl64", 30, word=True),
    BinaryOperator("lsl", "shl64", 30, word=True), BinaryOperator(">>>", "lsr", 30),
    BinaryOperator("lsr", "lsr", 30, word=True), BinaryOperator(">>", "acme_asr", 30),
    BinaryOperator("asr", "acme_asr", 30, word=True),
    BinaryOperator("+", "add64", 32), BinaryOperator("-", "sub64", 32),
    BinaryOperator("*", "mul64", 34), BinaryOperator("/", "div_trunc", 34),
    BinaryOperator("div", "intdiv_trunc", 34, word=True), BinaryOperator("%", "mod_trunc", 34),
    BinaryOperator("mod", "mod_trunc", 34, word=True),
    BinaryOperator("^", "pow64", 37, right=True),
]  # fmt: skip
_COMPARISONS = frozenset({"eq", "ne", "le", "lt", "ge", "gt"})
_PREFIX = [
    PrefixOperator("<", "lo", 28), PrefixOperator(">", "hi", 28), PrefixOperator("^", "bank", 28),
    PrefixOperator("-", "neg", 36), PrefixOperator("!", "acme_not", 38),
    PrefixOperator("not", "acme_not", 38, word=True),
]  # fmt: skip

_ESCAPES = {"\\": "\\", '"': '"', "'": "'", "0": "\0", "t": "\t", "n": "\n", "r": "\r"}


@dataclass(frozen=True, slots=True)
class ForcedNumber(Number):
    """A number written with leading zeros: ACME keeps that size (``$00fc`` is 16 bits)."""

    force: int = 0  # 2 or 3 bytes


def _read_string(text: str, i: int) -> tuple[str, int]:
    quote = text[i]
    j = i + 1
    n = len(text)
    out: list[str] = []
    while j < n:
        c = text[j]
        if c == "\\" and j + 1 < n:
            escaped = _ESCAPES.get(text[j + 1])
            if escaped is None:
                raise ParseError(f"unknown escape '\\{text[j + 1]}' in a string", j + 1)
            out.append(escaped)
            j += 2
            continue
        if c == quote:
            return "".join(out), j + 1
        out.append(c)
        j += 1
    raise ParseError("string without its closing quote", i + 1)


def _symbol_end(text: str, i: int) -> int:
    n = len(text)
    while i < n and (text[i].isalnum() or text[i] == "_" or ord(text[i]) > 127):
        i += 1
    return i


def _number(text: str, i: int, base: int, digits: str, column: int,
            length_per_digit: int) -> tuple[Expr, int]:
    j = i
    n = len(text)
    while j < n and text[j] in digits:
        j += 1
    body = text[i:j]
    if not body:
        raise ParseError("syntax error: digits expected", column)
    if base == 2:
        body = body.replace(".", "0").replace("#", "1")
    if len(body) > 64:
        raise ParseError(f"number {text[i:i + 20]}... is too large", column)
    value = int(body, base)
    force = 0
    bits = len(body) * length_per_digit
    if bits > 16 and value <= 0xFFFF:
        force = 3
    elif bits > 8 and value <= 0xFF:
        force = 2
    if force:
        return ForcedNumber(value, column, force), j
    return Number(value, column), j


def _read_operand(text: str, i: int) -> tuple[Expr, int] | None:
    c = text[i]
    column = i + 1
    n = len(text)
    if c == "*":
        return ProgramCounter(column), i + 1
    if c in "+-":
        j = i
        while j < n and text[j] == c:
            j += 1
        k = skip_blanks(text, j)
        if k >= n or text[k] in ",)]:;}" or (k > j and text[k] in "+-*/&|^<>=!") or \
                (text[k] in "+-" and k > j):
            return Symbol(text[i:j], column), j
        return None
    if c == "$":
        return _number(text, i + 1, 16, "0123456789abcdefABCDEF", column, 4)
    if c == "0" and i + 1 < n and text[i + 1] in "xX":
        return _number(text, i + 2, 16, "0123456789abcdefABCDEF", column, 4)
    if c == "0" and i + 1 < n and text[i + 1] in "bB" and i + 2 < n and text[i + 2] in "01.#":
        return _number(text, i + 2, 2, "01.#", column, 1)
    if c == "%":
        return _number(text, i + 1, 2, "01.#", column, 1)
    if c == "&":
        return _number(text, i + 1, 8, "01234567", column, 3)
    if c.isdigit():
        j = i
        while j < n and text[j].isdigit():
            j += 1
        if j + 1 < n and text[j] == "." and text[j + 1].isdigit():
            j += 1
            while j < n and text[j].isdigit():
                j += 1
            return Constant(float(text[i:j]), column), j
        if j - i > 30:
            raise ParseError(f"number {text[i:i + 20]}... is too large", column)
        return Number(int(text[i:j]), column), j
    if c == '"':
        value, j = _read_string(text, i)
        return Constant(value, column), j
    if c == "'":
        value, j = _read_string(text, i)
        if len(value) != 1:
            raise ParseError("a character in single quotes is one character", column)
        return Call("__char", (Constant(value, column),), column), j
    if c.isalpha() or c in "_.@" or ord(c) > 127:
        j = _symbol_end(text, i + 1 if c in ".@" else i)
        if j == i + 1 and c in ".@":
            return None
        return Symbol(text[i:j], column), j
    return None


ACME_SYNTAX = ExpressionSyntax(_BINARY, _PREFIX, _read_operand, stop=frozenset("{}:"), tuples=False)


def expression(text: str, i: int) -> tuple[Expr, int]:
    return parse_expression(text, i, ACME_SYNTAX)


# -- lines -----------------------------------------------------------------------------------------
def _segments(text: str) -> list[tuple[str, int, int]]:
    """A line cut into statements and braces: (kind, start, end) with kind "stmt", "{", "}";
    the comment (';' or '//' outside strings) is dropped."""
    parts: list[tuple[str, int, int]] = []
    start = 0
    i = 0
    n = len(text)
    depth = 0
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c == ";" or (c == "/" and i + 1 < n and text[i + 1] == "/"):
            n = i
            break
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif depth <= 0 and c in ":{}":
            if text[start:i].strip():
                parts.append(("stmt", start, i))
            if c != ":":
                parts.append((c, i, i + 1))
            start = i + 1
        i += 1
    if text[start:n].strip():
        parts.append(("stmt", start, n))
    return parts


_BLOCK_OPS = frozenset({"{", "}"})


# what 64tass and other assemblers spell, and ACME's own spelling
_OTHER_DIALECT = {
    "byte": "!byte", "text": "!text", "word": "!word", "proc": "!zone", "pend": "}", "block": "!zone",
    "macro": "!macro", "endm": "}", "include": "!source", "binary": "!binary", "fill": "!fill", "if": "!if",
    "else": "} else {", "endif": "}", "fi": "}", "enc": "!convtab", "logical": "!pseudopc", "here": "}",
    "null": "!text ..., 0", "cpu": "!cpu", "org": "* =", "rept": "!for", "for": "!for", "next": "}",
    "align": "!align", "error": "!error", "warn": "!warn", "cerror": "!if ... { !error }", "var": "!set",
    "db": "!byte", "dw": "!word", "asc": "!text", "incbin": "!binary",
}  # fmt: skip


@dataclass(slots=True)
class AcmeLabel(Label):
    pass


class AcmeParser:
    def __init__(self, instruction_set: InstructionSet) -> None:
        self.instruction_set = instruction_set

    def parse_file(self, path: str, text: str) -> list[Statement]:
        statements: list[Statement] = []
        for number, raw in enumerate(text.splitlines(), start=1):
            line = SourceLine(path, number, raw, None, 0)
            statements.extend(self.parse_line(line))
        return statements

    def parse_line(self, line: SourceLine) -> list[Statement]:
        text = line.text
        try:
            parts = _segments(text)
        except ParseError as exc:
            return [Failed(line, exc.column, str(exc))]
        statements: list[Statement] = []
        for kind, start, end in parts:
            if kind != "stmt":
                statements.append(Op(line, start + 1, kind))
                continue
            try:
                statements.extend(self.statement(line, text[:end], start))
            except ParseError as exc:
                statements.append(Failed(line, exc.column, str(exc)))
        return statements

    def mnemonic(self, word: str) -> str | None:
        return self.instruction_set.dialect.canonical(word) if word.isalpha() or word.isalnum() else None

    def statement(self, line: SourceLine, text: str, i: int) -> list[Statement]:
        i = skip_blanks(text, i)
        n = len(text)
        c = text[i]
        result: list[Statement] = []
        # -- a label ----------------------------------------------------------------------------
        if c == "*":
            j = skip_blanks(text, i + 1)
            if j < n and text[j] == "=":
                expr, k = expression(text, j + 1)
                modifiers: list[str] = []
                while True:
                    k = skip_blanks(text, k)
                    if k >= n:
                        break
                    if text[k] != ",":
                        raise ParseError(f"syntax error: unexpected '{text[k]}'", k + 1)
                    word_start = skip_blanks(text, k + 1)
                    word_end = _symbol_end(text, word_start)
                    word = text[word_start:word_end].lower()
                    if word not in ("overlay", "invisible"):
                        raise ParseError(f"unknown '* =' modifier '{text[word_start:word_end]}' (overlay, "
                                         "invisible)", word_start + 1)
                    modifiers.append(word)
                    k = word_end
                return [Op(line, i + 1, "*=", [expr], extra=modifiers)]
            raise ParseError("syntax error: '*' at the start of a statement sets the address: "
                             "'* = address'", i + 1)
        if c in "+-":
            j = i
            while j < n and text[j] == c:
                j += 1
            if j >= n or text[j] in " \t":
                k = skip_blanks(text, j)
                if c == "+" and k < n and j == i + 1 and False:
                    pass
                result.append(AcmeLabel(line, i + 1, text[i:j]))
                i = k
                if i >= n:
                    return result
                c = text[i]
            elif c == "+" and (text[j].isalpha() or text[j] in "_."):
                return self.macro_call(line, text, i)
        if c.isalpha() or c in "_.@" or ord(c) > 127:
            j = _symbol_end(text, i + 1 if c in ".@" else i)
            word = text[i:j]
            mnemonic = self.mnemonic(word) if c not in ".@" else None
            k = skip_blanks(text, j)
            if mnemonic is not None and not (k < n and text[k] == "="):
                return result + self.instruction(line, text, mnemonic, i, j)
            if word.lower() == "else" and c not in ".@":
                return result + self.else_statement(line, text, i, j)
            if word.lower() in ("while", "until") and c not in ".@" and k < n and text[k] != "=":
                # the condition after the block of '!do { ... } while c'
                expr, end = expression(text, k)
                self._end(text, end)
                return result + [Op(line, i + 1, "tail-" + word.lower(), [expr])]
            if k < n and text[k] == "=" and not text.startswith("==", k):
                expr, end = expression(text, k + 1)
                self._end(text, end)
                return result + [Assign(line, i + 1, word, expr, "const")]
            if j < n and text[j] == ":":
                j += 1
            result.append(AcmeLabel(line, i + 1, word))
            label_start = i
            i = skip_blanks(text, j)
            if i >= n:
                return result
            c = text[i]
            if word[0] == "." and c not in "!=+-" and not (c.isalpha() and self.mnemonic(
                    text[i:_symbol_end(text, i)]) is not None):
                if word[1:].lower() in TASS_DIRECTIVES:
                    raise ParseError(f"'{word}' is a 64tass directive, and this source is read as ACME "
                                     f"(--dialect 64tass reads 64tass sources; in ACME: "
                                     f"{_OTHER_DIALECT.get(word[1:].lower(), '!' + word[1:].lower())})",
                                     label_start + 1)
            if c.isalpha():
                j = _symbol_end(text, i)
                mnemonic = self.mnemonic(text[i:j])
                if mnemonic is None:
                    raise ParseError(f"unknown mnemonic '{text[i:j]}'", i + 1)
                return result + self.instruction(line, text, mnemonic, i, j)
        if c == "!":
            return result + self.pseudo_op(line, text, i)
        if c == "+" and i + 1 < n and (text[i + 1].isalpha() or text[i + 1] in "_."):
            return result + self.macro_call(line, text, i)
        if c == "." and i + 1 < n and text[i + 1].isalpha():
            j = _symbol_end(text, i + 1)
            word = text[i + 1 : j].lower()
            if word in TASS_DIRECTIVES:
                spelled = _OTHER_DIALECT.get(word, "!" + word)
                raise ParseError(f"'.{word}' is a 64tass directive, and this source is read as ACME "
                                 f"(--dialect 64tass reads 64tass sources; in ACME: {spelled})", i + 1)
        raise ParseError(f"syntax error: unexpected '{c}'", i + 1)

    @staticmethod
    def _end(text: str, i: int) -> None:
        i = skip_blanks(text, i)
        if i < len(text):
            raise ParseError(f"syntax error: unexpected '{text[i]}'", i + 1)

    def instruction(self, line: SourceLine, text: str, mnemonic: str, start: int,
                    end: int) -> list[Statement]:
        n = len(text)
        force = 0
        if end < n and text[end] == "+" and end + 1 < n and text[end + 1] in "123":
            force = int(text[end + 1])
            if force == 3:
                raise ParseError("'+3' (24-bit addressing) needs a 65816; this is a 6502", end + 1)
            end += 2
        i = skip_blanks(text, end)
        dialect = self.instruction_set.dialect
        if i >= n:
            instruction = make_instruction(line, None, mnemonic, start + 1, (Syntax.IMPLIED, None),
                                           dialect)[0]
            return [_dialect_instruction(instruction, force)]
        if text[i] == "#":
            expr, k = expression(text, i + 1)
            self._end(text, k)
            syntax = Syntax.IMMEDIATE
        else:
            syntax, expr = self.operand(text, i)
        if syntax is Syntax.DIRECT and isinstance(expr, Symbol) and expr.name in ("a", "A"):
            # ACME has no 'asl a': a is a symbol like any other
            return [DialectInstruction(line, start + 1, mnemonic, syntax, expr, force=force)]
        instruction = make_instruction(line, None, mnemonic, start + 1, (syntax, expr), dialect)[0]
        return [_dialect_instruction(instruction, force)]

    def operand(self, text: str, i: int) -> tuple[Syntax, Expr]:
        body = text.rstrip()
        if body.endswith(")") and text[i] == "(":
            inner = body[:-1].rstrip()
            if inner[-1:].lower() == "x" and inner[:-1].rstrip().endswith(","):
                comma = len(inner[:-1].rstrip()) - 1
                if not (inner[-2].isalnum() or inner[-2] in "_.@"):
                    expr, k = expression(text[:comma], i + 1)
                    self._end(text[:comma], k)
                    return Syntax.INDIRECT_X, expr
        expr, k = expression(text, i)
        k = skip_blanks(text, k)
        n = len(text)
        if k < n and text[k] == ",":
            j = skip_blanks(text, k + 1)
            register = text[j : j + 1].lower()
            self._end(text, j + 1)
            if register not in ("x", "y"):
                raise ParseError(f"index register must be x or y, not '{text[j:j + 1]}'", j + 1)
            if isinstance(expr, Paren) and register == "y":
                return Syntax.INDIRECT_Y, expr.inner
            if isinstance(expr, Paren):
                # ACME reads "(5),x" as indirect, then indexed by x: no 6502 mode (ACME 0.97
                # observed: "CPU does not support this addressing mode"); "(5)+1,x" is not
                raise ParseError("'(address),x' is no 6502 addressing mode: write '(address,x)' or "
                                 "'address,x'", i + 1)
            return (Syntax.INDEXED_X if register == "x" else Syntax.INDEXED_Y), expr
        self._end(text, k)
        if isinstance(expr, Paren):
            return Syntax.DIRECT, expr
        return Syntax.DIRECT, expr

    def else_statement(self, line: SourceLine, text: str, i: int, j: int) -> list[Statement]:
        k = skip_blanks(text, j)
        n = len(text)
        if k >= n:
            return [Op(line, i + 1, "else")]
        m = _symbol_end(text, k)
        word = text[k:m].lower()
        if word == "if":
            expr, end = expression(text, m)
            self._end(text, end)
            return [Op(line, i + 1, "elseif", [expr])]
        if word in ("ifdef", "ifndef"):
            s = skip_blanks(text, m)
            e = _symbol_end(text, s + 1 if s < n and text[s] in ".@" else s)
            self._end(text, e)
            return [Op(line, i + 1, "else" + word, [], extra=text[s:e])]
        raise ParseError(f"syntax error: unexpected '{text[k:m] or text[k]}' after 'else'", k + 1)

    def macro_call(self, line: SourceLine, text: str, i: int) -> list[Statement]:
        j = _symbol_end(text, i + 2 if text[i + 1] == "." else i + 1)
        name = text[i + 1 : j]
        args: list[Expr] = []
        refs: list[bool] = []
        k = skip_blanks(text, j)
        n = len(text)
        while k < n:
            by_reference = text[k] == "~"
            if by_reference:
                k = skip_blanks(text, k + 1)
            expr, k = expression(text, k)
            args.append(expr)
            refs.append(by_reference)
            k = skip_blanks(text, k)
            if k >= n:
                break
            if text[k] != ",":
                raise ParseError(f"syntax error: unexpected '{text[k]}'", k + 1)
            k = skip_blanks(text, k + 1)
        return [Op(line, i + 1, "macro-call", args, extra=(name, refs))]

    def pseudo_op(self, line: SourceLine, text: str, i: int) -> list[Statement]:
        j = i + 1
        n = len(text)
        while j < n and (text[j].isalnum() or text[j] == "_"):
            j += 1
        word = text[i + 1 : j].lower()
        name = ACME_PSEUDO_OPS.get(word)
        if name is None:
            raise ParseError(f"unknown pseudo opcode '!{text[i + 1:j]}'", i + 1)
        column = i + 1
        k = skip_blanks(text, j)
        rest = text[k:]
        if name in ("ifdef", "ifndef"):
            s = k
            e = _symbol_end(text, s + 1 if s < n and text[s] in ".@" else s)
            if e == s:
                raise ParseError(f"'!{word}' needs a symbol name", s + 1)
            inline: list[Statement] = []
            after = skip_blanks(text, e)
            if after < n:
                inline = self.statement(line, text, after)
            return [Op(line, column, name, [], extra=(text[s:e], inline))]
        if name == "macro":
            s = k
            e = _symbol_end(text, s + 1 if s < n and text[s] == "." else s)
            if e == s:
                raise ParseError("'!macro' needs a name", s + 1)
            params: list[tuple[str, bool]] = []
            p = skip_blanks(text, e)
            while p < n:
                reference = text[p] == "~"
                if reference:
                    p = skip_blanks(text, p + 1)
                q = _symbol_end(text, p + 1 if text[p] in ".@" else p)
                if q == p:
                    raise ParseError("a macro parameter name is expected", p + 1)
                params.append((text[p:q], reference))
                p = skip_blanks(text, q)
                if p < n:
                    if text[p] != ",":
                        raise ParseError(f"syntax error: unexpected '{text[p]}'", p + 1)
                    p = skip_blanks(text, p + 1)
            return [Op(line, column, "macro", [], extra=(text[s:e], params))]
        if name == "for":
            s = k
            e = _symbol_end(text, s + 1 if s < n and text[s] in ".@" else s)
            variable = text[s:e]
            if e == s or (e == s + 1 and text[s] in ".@"):  # ACME: "No string given."
                raise ParseError("'!for' needs its loop variable: '!for name, start, end' or "
                                 "'!for name in list'", s + 1)
            p = skip_blanks(text, e)
            if text.startswith("in", p) and (p + 2 >= n or not text[p + 2].isalnum()):
                expr, end = expression(text, p + 2)
                self._end(text, end)
                return [Op(line, column, "for", [expr], extra=(variable, "in"))]
            if p >= n or text[p] != ",":
                raise ParseError("'!for' takes 'name, start, end' or 'name in list'", p + 1)
            args = self.arguments(text, p + 1)
            return [Op(line, column, "for", args, extra=(variable, "count"))]
        if name == "set":
            s = k
            e = _symbol_end(text, s + 1 if s < n and text[s] in ".@" else s)
            if e == s or (e == s + 1 and text[s] in ".@"):
                raise ParseError("'!set' takes 'name = value'", s + 1)
            p = skip_blanks(text, e)
            if p >= n or text[p] != "=":
                raise ParseError("'!set' takes 'name = value'", p + 1)
            expr, end = expression(text, p + 1)
            self._end(text, end)
            return [Assign(line, column, text[s:e], expr, "var")]
        if name == "do":
            return [Op(line, column, "do", [], extra=self.loop_condition(text, k))]
        if name == "address" and k < n and text[k] != "{":
            return self.statement(line, text, k)  # '!addr name = value': the mark only matters for -W
        if name in ("to", "source", "binary", "convtab", "cpu", "zone", "symbollist", "hex", "address", "cbm",
                    "subzone", "realpc", "al", "as", "rl", "rs"):
            return [Op(line, column, name, self.file_args(text, k, name), rest.strip())]
        if name == "scrxor":
            return [Op(line, column, name, self.arguments(text, k))]
        return [Op(line, column, name, self.arguments(text, k) if k < n else [], rest.strip())]

    def loop_condition(self, text: str, k: int) -> tuple[str, Expr] | None:
        n = len(text)
        k = skip_blanks(text, k)
        if k >= n:
            return None
        e = _symbol_end(text, k)
        word = text[k:e].lower()
        if word not in ("while", "until"):
            raise ParseError(f"syntax error: 'while' or 'until' expected, not '{text[k:e] or text[k]}'",
                             k + 1)
        expr, end = expression(text, e)
        self._end(text, end)
        return word, expr

    def file_args(self, text: str, k: int, name: str) -> list[Expr]:
        n = len(text)
        if k < n and text[k] == "<":
            end = text.find(">", k)
            if end < 0:
                raise ParseError("'<' file name without '>'", k + 1)
            args: list[Expr] = [Call("__library", (Constant(text[k + 1 : end], k + 1),), k + 1)]
            rest = skip_blanks(text, end + 1)
            if rest < n:
                if text[rest] != ",":
                    raise ParseError(f"syntax error: unexpected '{text[rest]}'", rest + 1)
                args += self.arguments(text, rest + 1, allow_empty=True)
            return args
        if name in ("cpu", "convtab", "zone", "to", "address", "subzone") and k < n and \
                (text[k].isalpha() or text[k].isdigit()):
            e = k
            while e < n and (text[e].isalnum() or text[e] in "_"):
                e += 1
            args = [Constant(text[k:e], k + 1)]
            rest = skip_blanks(text, e)
            if rest < n:
                if text[rest] != ",":
                    raise ParseError(f"syntax error: unexpected '{text[rest]}'", rest + 1)
                args += self.arguments(text, rest + 1, allow_empty=True)
            return args
        if name == "hex":
            return [Constant(text[k:].replace(" ", "").replace("\t", ""), k + 1)]
        return self.arguments(text, k, allow_empty=True) if k < n else []

    def arguments(self, text: str, k: int, allow_empty: bool = False) -> list[Expr]:
        args: list[Expr] = []
        n = len(text)
        i = skip_blanks(text, k)
        if i >= n:
            return args
        while True:
            i = skip_blanks(text, i)
            if allow_empty and i < n and text[i] == ",":
                args.append(Constant(None, i + 1))
                i += 1
                continue
            if i >= n and allow_empty:
                return args
            expr, i = expression(text, i)
            args.append(expr)
            i = skip_blanks(text, i)
            if i >= n:
                return args
            if text[i] != ",":
                # ACME words that follow the expressions (cbm, plain, overlay) are not expressions
                raise ParseError(f"syntax error: unexpected '{text[i]}'", i + 1)
            i += 1


def _dialect_instruction(instruction: Statement, force: int) -> DialectInstruction:
    assert isinstance(instruction, Instruction)
    return DialectInstruction(instruction.line, instruction.column, instruction.mnemonic, instruction.syntax,
                              instruction.expr, force=force)


@dataclass
class _Macro:
    name: str
    params: list[tuple[str, bool]]
    statements: list[Statement]
    start: int
    end: int
    zone_key: str


class AcmeAssembly(DialectAssembly):
    """ACME over the shared core."""

    name = "acme"
    persistent_symbols = True

    def __init__(self, sources: list[tuple[str, str]], options: Any) -> None:
        super().__init__(sources, options)
        self.default_set = ACME_6510 if options.undocumented else ACME_6502
        # lines are read with every mnemonic ACME knows; whether the CPU chosen (--cpu,
        # !cpu) has it is checked where the instruction stands
        self.parser = AcmeParser(ACME_6510)
        self.handlers[AcmeLabel] = self.acme_label
        self.ever_undefined: set[str] = set()
        self.symbol_flags: dict[str, tuple[int, bool]] = {}  # (force, unsure) of a symbol's value
        self.output_format: str | None = None
        self.output_name: str | None = None
        self.fill_byte = 0
        self.set_instructions(self.default_set)

    def parse_file(self, path: str, text: str) -> list[Statement]:
        return self.parser.parse_file(path, text)

    def start_pass(self) -> None:
        self.set_instructions(self.default_set)
        self.zone_counter = 0
        self.zone = ""  # key prefix of the current zone's local symbols
        self.cheap = ""  # the global label the '@' symbols belong to
        self.anonymous: dict[tuple[str, str], int] = {}
        self.convtab = "raw"
        self.xor = 0
        self.pseudo: list[tuple[int, int]] = []
        self.segments: list[tuple[int, int]] = []

    def end_pass(self) -> None:
        pass

    def program(self) -> Any:
        program = super().program()
        program.raw_output = self.output_format == "plain"
        return program

    # -- symbols ----------------------------------------------------------------------------------
    def define_key(self, name: str) -> str:
        c = name[0]
        if c == ".":
            return f"{self.zone}{name}"
        if c == "@":
            return f"{self.cheap}{name}"
        if c in "+-":
            count = self.anonymous.get((self.zone, name), 0) + 1
            self.anonymous[(self.zone, name)] = count
            return f"{self.zone}{name}#{count}"
        return name

    def resolve(self, name: str, column: int) -> str:
        c = name[0]
        if c == ".":
            return f"{self.zone}{name}"
        if c == "@":
            return f"{self.cheap}{name}"
        if c in "+-":
            count = self.anonymous.get((self.zone, name), 0)
            return f"{self.zone}{name}#{count + 1 if c == '+' else count}"
        return name

    def display_name(self, key: str) -> str:
        return key

    def lookup(self, name: str, column: int) -> Any:
        try:
            return super().lookup(name, column)
        except Unknown:
            self.ever_undefined.add(self.resolve(name, column))
            raise

    def acme_label(self, statement: AcmeLabel) -> None:
        if self.pc is None:
            self.no_address(statement)
            return
        name = statement.name
        key = self.define_key(name)
        self.set_symbol(key, self.pc, "label", statement, name)
        if name[0] not in ".@+-":
            self.cheap = name

    def assign(self, statement: Assign) -> None:
        if statement.kind == "const" and statement.expr is not None:
            key = self.define_key(statement.name)
            self.symbol_flags[key] = self.flags_of(statement.expr)
            if key in self.values and self.kinds.get(key) != "var":
                try:
                    value = self.compute(statement.expr)
                except Unknown:
                    return
                if value == self.values[key]:
                    return  # ACME: defining a symbol again with the same value is fine
                self.error(statement, f"symbol '{statement.name}' already defined (with another value)")
                return
            if self.kinds.get(key) == "var":
                value = self.evaluate_or_report(statement, statement.expr)
                if value is not None:
                    self.values[key] = value
                return
        if statement.kind == "var":
            key = self.define_key(statement.name)
            if statement.expr is not None:
                self.symbol_flags[key] = self.flags_of(statement.expr)
            value = self.evaluate_or_report(statement, statement.expr) if statement.expr is not None else None
            if value is None:
                return
            if self.kinds.get(key) not in (None, "var"):
                self.error(statement, f"'!set' of '{statement.name}', a symbol defined with '='")
                return
            self.values[key] = value
            self.kinds[key] = "var"
            if isinstance(value, int) and not isinstance(value, bool):
                from toolchain.asm.assembler import SymbolInfo

                self.symbols[key] = SymbolInfo(key, value, False, statement)
            return
        super().assign(statement)

    # -- sizes ------------------------------------------------------------------------------------------
    def flags_of(self, expr: Expr) -> tuple[int, bool]:
        """What an expression carries besides its value, as ACME's numbers do: the size
        leading zeros asked for (2 or 3; through symbols defined so, too) and whether a
        symbol in it was ever undefined when used.  A byte operator ('<', '>', '^') drops
        both: its result surely fits a byte; a comparison drops the size (alu.c: "FORCEBITS
        are cleared"; ACME 0.97 observed: "lda $0007 = 7" is zero page)."""
        stack: list[tuple[Expr, bool]] = [(expr, True)]
        force = 0
        unsure = False
        while stack:
            node, sized = stack.pop()
            kind = type(node)
            if kind is ForcedNumber:
                if sized:
                    force = max(force, node.force)  # type: ignore[attr-defined]
            elif kind is Symbol:
                key = self.resolve(node.name, node.column)  # type: ignore[attr-defined]
                symbol_force, symbol_unsure = self.symbol_flags.get(key, (0, False))
                if sized:
                    force = max(force, symbol_force)
                unsure = unsure or symbol_unsure or key in self.ever_undefined
            elif kind is Operation:
                if node.op in ("lo", "hi", "bank"):  # type: ignore[attr-defined]
                    continue
                keeps = sized and node.op not in _COMPARISONS  # type: ignore[attr-defined]
                stack.extend((operand, keeps) for operand in node.operands)  # type: ignore[attr-defined]
            elif kind is Paren:
                stack.append((node.inner, sized))  # type: ignore[attr-defined]
            elif kind is Call:
                stack.extend((arg, sized) for arg in node.args)  # type: ignore[attr-defined]
        return force, unsure

    def size_of(self, ins: DialectInstruction, value: Any, known: bool) -> int:
        assert ins.expr is not None
        expr = ins.expr
        while type(expr) is Paren:
            expr = expr.inner
        if type(expr) is Operation and expr.op in ("lo", "hi", "bank"):
            return 1  # surely fits a byte
        force, unsure = self.flags_of(expr)
        if force >= 2 or unsure or not known or value is None:
            return 2
        try:
            number = V.integer(value, "trunc")
        except V.ValueError_:
            return 2
        return 1 if 0 <= number <= 0xFF else 2

    def text_number(self, text: str) -> Any:
        data = text.encode("utf-8")
        if len(data) != 1:
            raise V.ValueError_(f"a string of {len(text)} characters is not a number")
        return self.encode_byte(data[0])

    def text_value(self, statement: Statement, text: str) -> int | None:
        if len(text) == 1:
            return self.encode_byte(ord(text) & 0xFF)
        return super().text_value(statement, text)

    def choose(self, ins: DialectInstruction, modes: frozenset[Mode], value: Any, known: bool) -> Mode | None:
        mode = super().choose(ins, modes, value, known)
        if mode in (Mode.ZP, Mode.ZPX, Mode.ZPY, Mode.IZX, Mode.IZY) and ins.expr is not None:
            # a mode with a zero-page form only: a postfix or leading zeros asking for 16
            # bits are errors (ACME 0.97 observed: "stx+2 5,y", "lda ($0005),y")
            if ins.force >= 2:
                self.error(ins, f"'{ins.mnemonic}+{ins.force}': '{ins.mnemonic}' has only the zero-page "
                           f"form for {ins.syntax.value}")
                return None
            force, _ = self.flags_of(ins.expr)
            if force >= 2:
                self.error(ins, f"number out of range: leading zeros make this a {8 * force}-bit value, "
                           f"and '{ins.mnemonic}' has only the zero-page form for {ins.syntax.value}",
                           ins.expr.column)
                return None
        return mode

    def encode(self, ins: DialectInstruction, mode: Mode, opcode: int, value: int) -> None:
        fixed = ins.force or self.mode_rule(ins.mnemonic, ins.syntax)[0] is None
        if mode not in (Mode.REL, Mode.IMM) and value < 0 and fixed:
            # an addressing mode that is not chosen by the value takes a negative one in
            # two's complement, as ACME's output of a number does (ACME 0.97 observed:
            # "jmp (-1)" is 6c ff ff, "sta (-1),y" is 91 ff; "sta (-129),y" does not fit)
            bits = 8 * mode.operand_length
            if value >= -(1 << (bits - 1)):
                value &= (1 << bits) - 1
        super().encode(ins, mode, opcode, value)

    def operand_number(self, ins: DialectInstruction, value: Any) -> int | None:
        if ins.syntax is Syntax.IMMEDIATE and ins.expr is not None:
            # an immediate is one byte: a postfix or leading zeros asking for more are
            # errors in ACME 0.97 (observed: "lda+2 #5", "lda #$0007", "x = $0007 / lda #x")
            if ins.force >= 2:
                self.error(ins, f"'{ins.mnemonic}+{ins.force}' asks for a {8 * ins.force}-bit operand, "
                           "and an immediate is one byte")
                return None
            force, _ = self.flags_of(ins.expr)
            if force >= 2:
                self.error(ins, f"number out of range: leading zeros make this a {8 * force}-bit value, "
                           "and an immediate is one byte", ins.expr.column)
                return None
        if isinstance(value, float):
            return int(value)
        return super().operand_number(ins, value)

    # -- text -------------------------------------------------------------------------------------------
    def encode_byte(self, byte: int) -> int:
        table = self.convtab
        if table == "pet":
            return acme_pet(byte)
        if table == "scr":
            return acme_scr(byte)
        if isinstance(table, bytes):
            return table[byte]
        return byte

    def encode_string(self, text: str, table: Any = None) -> bytes:
        saved = self.convtab
        if table is not None:
            self.convtab = table
        try:
            return bytes(self.encode_byte(b) for b in text.encode("utf-8"))
        finally:
            self.convtab = saved

    def call_function(self, name: str, args: list[Any], column: int) -> Any:
        try:
            if name == "__char":
                data = args[0].encode("utf-8")
                return self.encode_byte(data[0]) if len(data) == 1 else int.from_bytes(data, "little")
            if name == "__library":
                return ("library", args[0])
            return _call(name.lower(), args)
        except V.ValueError_ as exc:
            raise ExpressionError(str(exc), column) from None

    # -- statements --------------------------------------------------------------------------------------
    def execute_op(self, op: Op) -> None:
        name = op.name
        if name == "{":
            self.error(op, "'{' without a directive that opens a block")
            return
        if name == "}":
            self.error(op, "'}' without its '{'")
            return
        handler = getattr(self, "do_" + name.replace("-", "_").replace("*=", "origin"), None)
        if handler is None:
            raise ParseError(f"'!{name}' is not supported by c64tc", op.column)
        handler(op)

    def block_after(self, op: Op, required: bool = True) -> tuple[int, int] | None:
        """The block right after a directive: (first statement inside, index of its '}')."""
        frame = self.frame
        index = frame.index
        statements = frame.statements
        if index >= frame.end or type(statements[index]) is not Op or statements[index].name != "{":  # type: ignore[attr-defined]
            if required:
                self.error(op, f"'!{op.name}' needs a block in braces: {{ ... }}")
            return None
        found = self.scan(frozenset({"{"}), frozenset({"}"}), frozenset({"}"}), start=index + 1)
        if found is None:
            self.error(op, "'{' without its '}'")
            frame.index = frame.end
            return None
        return index + 1, found[0]

    def run_block(self, op: Op, span: tuple[int, int], on_exit: Any = None) -> None:
        frame = self.frame
        frame.index = span[1] + 1
        self.push(frame.statements, "block", on_exit, start=span[0], end=span[1], statement=op)

    def set_for_block(self, op: Op, setting: str, value: Any) -> None:
        """A setting a directive changes (!convtab, !xor, !zone): for the block after
        it when it has one (ACME puts the setting back at the block's end), else from
        here on."""
        span = self.block_after(op, required=False)
        saved = getattr(self, setting)
        setattr(self, setting, value)
        if span is not None:
            self.run_block(op, span, lambda: setattr(self, setting, saved))

    def do_origin(self, op: Op) -> None:
        value = self.known_now(op, op.args[0], "the program counter")
        if value is None:
            return
        value = V.integer(value, "trunc")
        if not 0 <= value <= 0xFFFF:
            self.error(op, f"program counter {value} is outside $0000-$FFFF")
            return
        if self.pseudo:
            self.error(op, "'* =' inside '!pseudopc' (ACME does not allow it)")
            return
        self.pc = value
        self.offset = 0
        self.past_end = False

    def _values(self, op: Op) -> list[tuple[Any, Expr]]:
        items: list[tuple[Any, Expr]] = []
        for expr in op.args:
            value = self.evaluate_or_report(op, expr)
            if isinstance(value, list):
                items.extend((v, expr) for v in value)
            else:
                items.append((value, expr))
        return items

    def _numbers(self, op: Op, width: int, big_endian: bool = False, checked: bool = True) -> None:
        out = bytearray()
        low, high = -(1 << (8 * width - 1)), (1 << (8 * width)) - 1
        for value, expr in self._values(op):
            if value is None:
                out += bytes(width)
                continue
            if isinstance(value, str):
                if len(value) != 1:
                    self.error(op, f"a string of {len(value)} characters is no number", expr.column)
                    out += bytes(width)
                    continue
                value = self.encode_byte(value.encode("utf-8")[0])
            try:
                number = V.integer(value, "trunc")
            except V.ValueError_ as exc:
                self.error(op, str(exc), expr.column)
                out += bytes(width)
                continue
            if checked and not low <= number <= high:
                self.error(op, f"number out of range: {number} does not fit in {8 * width} bits", expr.column)
            data = (number & ((1 << (8 * width)) - 1)).to_bytes(width, "big" if big_endian else "little")
            out += data
        self.emit_bytes(op, out)

    def do_byte(self, op: Op) -> None:
        self._numbers(op, 1)

    def do_word(self, op: Op) -> None:
        self._numbers(op, 2)

    def do_be16(self, op: Op) -> None:
        self._numbers(op, 2, True)

    def do_24(self, op: Op) -> None:
        self._numbers(op, 3)

    def do_be24(self, op: Op) -> None:
        self._numbers(op, 3, True)

    def do_32(self, op: Op) -> None:
        self._numbers(op, 4, checked=False)  # ACME checks no range for 32 bits

    def do_be32(self, op: Op) -> None:
        self._numbers(op, 4, True, checked=False)

    def do_hex(self, op: Op) -> None:
        digits = op.args[0].constant if op.args else ""  # type: ignore[attr-defined]
        if len(digits) % 2 or any(c not in "0123456789abcdefABCDEF" for c in digits):
            self.error(op, "'!hex' takes pairs of hexadecimal digits")
            return
        self.emit_bytes(op, bytes.fromhex(digits))

    def emit_bytes(self, statement: Statement, data: bytes | bytearray) -> None:
        if self.xor:
            data = bytes(b ^ self.xor for b in data)
        super().emit_bytes(statement, data)

    def _text(self, op: Op, table: Any, xor: int = 0) -> None:
        out = bytearray()
        for value, expr in self._values(op):
            if value is None:
                continue
            if isinstance(value, str):
                out += bytes(b ^ xor for b in self.encode_string(value, table))
                continue
            try:
                number = V.integer(value, "trunc")
            except V.ValueError_ as exc:
                self.error(op, str(exc), expr.column)
                continue
            if not -128 <= number <= 255:
                self.error(op, f"number out of range: {number} does not fit in a byte", expr.column)
            out.append(number & 0xFF)
        self.emit_bytes(op, out)

    def do_text(self, op: Op) -> None:
        self._text(op, None)

    def do_pet(self, op: Op) -> None:
        self._text(op, "pet")

    def do_raw(self, op: Op) -> None:
        self._text(op, "raw")

    def do_scr(self, op: Op) -> None:
        self._text(op, "scr")

    def do_scrxor(self, op: Op) -> None:
        if not op.args:
            raise ParseError("'!scrxor' takes a value and text", op.column)
        xor = self.evaluate_or_report(op, op.args[0])
        rest = Op(op.line, op.column, op.name, op.args[1:])
        self._text(rest, "scr", V.integer(xor, "trunc") & 0xFF if xor is not None else 0)

    def do_fill(self, op: Op) -> None:
        if not 1 <= len(op.args) <= 2:
            raise ParseError("'!fill' takes an amount and maybe a value", op.column)
        count = self.known_now(op, op.args[0], "the amount")
        if count is None:
            return
        count = V.integer(count, "trunc")
        value = 0
        if len(op.args) > 1:
            given = self.evaluate_or_report(op, op.args[1])
            value = V.integer(given, "trunc") if given is not None else 0
            # as !byte, when a byte is written (ACME 0.97 observed: "!fill 1, 256" fails,
            # "!fill 0, 256" does not)
            if not -128 <= value <= 255 and count > 0:
                self.error(op, f"number out of range: {value} does not fit in 8 bits", op.args[1].column)
                return
            value &= 0xFF
        if not 0 <= count <= 0x10000:
            self.error(op, f"'!fill' amount {count} is outside 0..65536")
            return
        self.emit_bytes(op, bytes((value,)) * count)

    def do_skip(self, op: Op) -> None:
        count = self.known_now(op, op.args[0], "the amount") if op.args else None
        if count is None:
            return
        count = V.integer(count, "trunc")
        if self.pc is not None and count > 0:
            # skipped bytes are part of the output file, as they are in memory (ACME 0.97
            # observed: "nop / !skip 2" writes ea 00 00; "!skip 1 / nop" starts with 00)
            address = self.pc + self.offset
            end = min(address + count, 0x10000)
            if 0 <= address < end:
                self.written[address:end] = b"\x01" * (end - address)
                self.spans.append((address, end, op.line))
        self.reserve(op, count)

    def do_align(self, op: Op) -> None:
        if not 2 <= len(op.args) <= 3:
            raise ParseError("'!align' takes an AND value, an equal value and maybe a fill value", op.column)
        mask = self.known_now(op, op.args[0], "the AND value")
        equal = self.known_now(op, op.args[1], "the equal value")
        fill = 0xEA
        if len(op.args) > 2:
            given = self.evaluate_or_report(op, op.args[2])
            fill = V.integer(given, "trunc") & 0xFF if given is not None else 0
        if mask is None or equal is None or self.pc is None:
            if self.pc is None:
                self.no_address(op)
            return
        mask, equal = V.integer(mask, "trunc"), V.integer(equal, "trunc")
        count = 0
        while ((self.pc + count) & mask) != equal:
            count += 1
            if count > 0x10000:
                self.error(op, "'!align' never reaches its address")
                return
        self.emit_bytes(op, bytes((fill,)) * count)

    def do_convtab(self, op: Op) -> None:
        if not op.args:
            raise ParseError("'!convtab' takes pet, raw, scr or a file name", op.column)
        value = self.evaluate_or_report(op, op.args[0])
        table: Any
        if isinstance(value, tuple) and value and value[0] == "library":
            data = self.read_binary(op, value[1], op.args[0].column, library=True)
            table = data
        elif isinstance(value, str) and isinstance(op.args[0], Constant) and value in ("pet", "raw", "scr"):
            table = value
        elif isinstance(value, str):
            table = self.read_binary(op, value, op.args[0].column)
        else:
            self.error(op, "'!convtab' takes pet, raw, scr or a file name")
            return
        if isinstance(table, bytes) and len(table) != 256:
            self.error(op, f"conversion table file has {counted(len(table), 'byte')}, not 256")
            return
        if table is None:
            return
        self.set_for_block(op, "convtab", table)

    def do_xor(self, op: Op) -> None:
        value = self.evaluate_or_report(op, op.args[0]) if op.args else None
        if value is None:
            return
        self.set_for_block(op, "xor", V.integer(value, "trunc") & 0xFF)

    def do_to(self, op: Op) -> None:
        if not op.args:
            raise ParseError("'!to' takes a file name and a format", op.column)
        name = self.evaluate_or_report(op, op.args[0])
        if isinstance(name, str):
            self.output_name = name
        fmt = "cbm"
        if len(op.args) > 1:
            given = op.args[1]
            if isinstance(given, Symbol) and given.name.lower() in ("cbm", "plain", "apple"):
                fmt = given.name.lower()
            else:
                self.error(op, "'!to' format must be cbm, plain or apple", given.column)
                return
        if fmt == "apple":
            self.error(op, "the apple output format is not supported by c64tc (cbm and plain are)")
            return
        self.output_format = fmt

    def do_symbollist(self, op: Op) -> None:
        pass  # c64tc writes symbols with --symbols and --vice-labels

    def do_initmem(self, op: Op) -> None:
        value = self.known_now(op, op.args[0], "the value") if op.args else None
        if value is None:
            return
        value = V.integer(value, "trunc") & 0xFF
        if value != self.fill_byte:
            self.fill_byte = value
            self.image = bytearray([value]) * 0x10000
            for start, end, _ in self.spans:
                del start, end
            self.unknown_keys.add("!initmem")  # another pass fills the image with the new value

    def do_source(self, op: Op) -> None:
        if len(op.args) != 1:
            raise ParseError("'!source' takes a file name", op.column)
        value = self.evaluate_or_report(op, op.args[0])
        if isinstance(value, tuple) and value[0] == "library":
            self.include_file(op, value[1], op.args[0].column, library=True)
        elif isinstance(value, str):
            self.include_file(op, value, op.args[0].column)
        elif value is not None:
            self.error(op, "'!source' needs a file name in quotes")

    def relative_to(self, including_folder: Path) -> Path:
        # ACME 0.97: relative names start in the current folder, whoever includes them
        return Path(".")

    def library_paths(self) -> list[Path]:
        import os

        paths = list(self.options.include_paths)
        library = os.environ.get("ACME")
        if library:
            paths.insert(0, Path(library))
        return paths

    def do_binary(self, op: Op) -> None:
        if not op.args:
            raise ParseError("'!binary' takes a file name, maybe a size and a skip", op.column)
        value = self.evaluate_or_report(op, op.args[0])
        library = isinstance(value, tuple)
        name = value[1] if library else value
        if not isinstance(name, str):
            if value is not None:
                self.error(op, "'!binary' needs a file name in quotes")
            return
        size = None
        skip = 0
        if len(op.args) > 1 and not (isinstance(op.args[1], Constant) and op.args[1].constant is None):
            size = self.known_now(op, op.args[1], "the size")
            size = V.integer(size, "trunc") if size is not None else None
        if len(op.args) > 2 and not (isinstance(op.args[2], Constant) and op.args[2].constant is None):
            given = self.known_now(op, op.args[2], "the skip")
            skip = V.integer(given, "trunc") if given is not None else 0
        data = self.read_binary(op, name, op.args[0].column, library=library)
        if data is None:
            return
        chunk = data[skip:]
        if size is not None:
            chunk = chunk[:size] + bytes(max(0, size - len(chunk)))
        self.emit_bytes(op, chunk)

    def do_cpu(self, op: Op) -> None:
        name = op.args[0].constant if op.args and isinstance(op.args[0], Constant) else None
        sets = {"6502": ACME_6502, "6510": ACME_6510, "nmos6502": ACME_6510}
        if name not in sets:
            self.error(op, f"CPU '{name}' is not supported by c64tc (6502, 6510 and nmos6502 are)")
            return
        span = self.block_after(op, required=False)
        if span is None:
            self.set_instructions(sets[name])
            return
        saved = (self.dialect, self.encodings_table)
        self.set_instructions(sets[name])

        def restore() -> None:
            self.dialect, self.encodings_table = saved
            self.rules = {}

        self.run_block(op, span, restore)

    def do_zone(self, op: Op) -> None:
        self.zone_counter += 1
        self.set_for_block(op, "zone", f"zone{self.zone_counter}:")

    def do_subzone(self, op: Op) -> None:
        self.error(op, "'!subzone' is obsolete in ACME 0.97: use '!zone' with a block")

    def do_cbm(self, op: Op) -> None:
        self.error(op, "'!cbm' is obsolete in ACME 0.97: use '!convtab pet'")

    def do_realpc(self, op: Op) -> None:
        self.error(op, "'!realpc' is obsolete in ACME 0.97: use '!pseudopc' with a block")

    def do_pseudopc(self, op: Op) -> None:
        if len(op.args) != 1:
            raise ParseError("'!pseudopc' takes an address", op.column)
        value = self.known_now(op, op.args[0], "the address")
        span = self.block_after(op)
        if value is None or span is None:
            return
        if self.pc is None:
            self.no_address(op)
            return
        value = V.integer(value, "trunc")
        saved_offset = self.offset
        self.pseudo.append((self.pc, saved_offset))
        self.offset += self.pc - value
        self.pc = value

        def restore() -> None:
            self.pseudo.pop()
            if self.pc is not None:
                self.pc = self.pc + self.offset - saved_offset
            self.offset = saved_offset

        self.run_block(op, span, restore)

    def do_address(self, op: Op) -> None:
        span = self.block_after(op, required=False)
        if span is not None:
            self.run_block(op, span)

    def do_al(self, op: Op) -> None:
        self.error(op, f"'!{op.name}' is for the 65816; c64tc assembles for the 6502/6510")

    do_as = do_rl = do_rs = do_al

    # conditions
    def _chain(self, op: Op, first: bool) -> None:
        """Carry out an if/else chain: the first true branch runs, the others are skipped."""
        frame = self.frame
        taken = first
        span = self.block_after(op)
        if span is None:
            return
        chosen: tuple[int, int] | None = span if taken else None
        index = span[1] + 1
        statements = frame.statements
        while index < frame.end and type(statements[index]) is Op and \
                statements[index].name in ("else", "elseif", "elseifdef", "elseifndef"):  # type: ignore[attr-defined]
            branch = statements[index]
            assert isinstance(branch, Op)
            if not (index + 1 < frame.end and type(statements[index + 1]) is Op and
                    statements[index + 1].name == "{"):  # type: ignore[attr-defined]
                self.error(branch, "'else' needs a block in braces")
                frame.index = index + 1
                return
            found = self.scan(frozenset({"{"}), frozenset({"}"}), frozenset({"}"}), start=index + 2)
            if found is None:
                self.error(branch, "'{' without its '}'")
                frame.index = frame.end
                return
            body = (index + 2, found[0])
            if chosen is None:
                if branch.name == "else":
                    chosen = body
                elif branch.name == "elseif":
                    if self._truth(branch, branch.args[0]):
                        chosen = body
                elif self.is_symbol_defined(branch.extra) == (branch.name == "elseifdef"):
                    chosen = body
            index = found[0] + 1
            if branch.name == "else":
                break
        frame.index = index
        if chosen is not None:
            self.push(statements, "block", None, start=chosen[0], end=chosen[1], statement=op)

    def _truth(self, op: Op, expr: Expr) -> bool:
        try:
            return V.truth(self.compute(expr))
        except Unknown as exc:
            self.error(op, "the condition must be known in the first pass: "
                       f"{self.undefined_message(exc.name)}", exc.column)
            return False

    def is_symbol_defined(self, name: str) -> bool:
        return self.is_defined(self.resolve(name, 0))

    def do_if(self, op: Op) -> None:
        if len(op.args) != 1:
            raise ParseError("'!if' takes one condition", op.column)
        self._chain(op, self._truth(op, op.args[0]))

    def do_ifdef(self, op: Op) -> None:
        name, inline = op.extra
        defined = self.is_symbol_defined(name)
        wanted = defined if op.name == "ifdef" else not defined
        if inline:
            if wanted:
                for statement in inline:
                    self.execute(statement)
            return
        self._chain(op, wanted)

    do_ifndef = do_ifdef

    def do_else(self, op: Op) -> None:
        self.error(op, "'else' without '!if'")

    do_elseif = do_elseifdef = do_elseifndef = do_else

    # loops
    def do_for(self, op: Op) -> None:
        variable, form = op.extra
        span = self.block_after(op)
        if span is None:
            return
        self.frame.index = span[1] + 1
        if form == "in":
            values = self.evaluate_or_report(op, op.args[0])
            if values is None:
                return
            items: list[Any]
            if isinstance(values, str):
                items = [self.encode_byte(b) for b in values.encode("utf-8")]
            elif isinstance(values, list):
                items = list(values)
            else:
                self.error(op, "'!for ... in' needs a string or a list")
                return
        else:
            if len(op.args) == 1:
                end = self.known_now(op, op.args[0], "the loop's end")
                start = 1
                if end is None:
                    return
                self.warn(op, "old '!for' syntax (start 1): write '!for name, 1, end'")
                end = V.integer(end, "trunc")
                items = list(range(1, end + 1))
            elif len(op.args) == 2:
                start = self.known_now(op, op.args[0], "the loop's start")
                end = self.known_now(op, op.args[1], "the loop's end")
                if start is None or end is None:
                    return
                start, end = V.integer(start, "trunc"), V.integer(end, "trunc")
                if abs(end - start) + 1 > MAX_ITERATIONS:
                    self.error(op, f"'!for' of {abs(end - start) + 1} iterations "
                               f"(at most {MAX_ITERATIONS:,})")
                    return
                items = list(range(start, end + 1)) if start <= end else list(range(start, end - 1, -1))
                after = end + 1 if start <= end else end - 1
            else:
                raise ParseError("'!for' takes 'name, start, end' or 'name in list'", op.column)
        if len(items) > MAX_ITERATIONS:
            self.error(op, f"'!for' of {len(items)} iterations (at most {MAX_ITERATIONS:,})")
            return
        statements = self.frame.statements
        iterator = iter(items)
        key = self.define_key(variable)

        def iterate() -> None:
            item = next(iterator, _END)
            if item is _END:
                if form != "in" and len(op.args) == 2:
                    self.values[key] = after
                return
            self.values[key] = item  # type: ignore[assignment]  # dialect values are any type
            self.kinds[key] = "var"
            self.push(statements, "loop", iterate, start=span[0], end=span[1], statement=op)

        iterate()

    def do_do(self, op: Op) -> None:
        span = self.block_after(op)
        if span is None:
            return
        frame = self.frame
        statements = frame.statements
        before = op.extra
        after = None
        index = span[1] + 1
        if index < frame.end and type(statements[index]) is Op and \
                statements[index].name in ("tail-while", "tail-until"):  # type: ignore[attr-defined]
            tail = statements[index]
            assert isinstance(tail, Op)
            after = (tail.name[5:], tail.args[0])
            index += 1
        frame.index = index
        count = [0]

        def check(condition: tuple[str, Expr] | None) -> bool:
            if condition is None:
                return True
            kind, expr = condition
            value = self._truth(op, expr)
            return value if kind == "while" else not value

        def iterate(first: bool = False) -> None:
            if not first and not check(after):
                return
            if not check(before):
                return
            count[0] += 1
            if count[0] > MAX_ITERATIONS:
                self.error(op, f"'!do' loop ran {MAX_ITERATIONS:,} times: stopped")
                self.stopped_by_limit = True
                return
            self.push(statements, "loop", iterate, start=span[0], end=span[1], statement=op)

        iterate(True)

    def do_while(self, op: Op) -> None:
        span = self.block_after(op)
        if span is None:
            return
        self.frame.index = span[1] + 1
        statements = self.frame.statements
        count = [0]
        condition = op.args[0] if op.args else None

        def iterate() -> None:
            if condition is not None and not self._truth(op, condition):
                return
            count[0] += 1
            if count[0] > MAX_ITERATIONS:
                self.error(op, f"'!while' loop ran {MAX_ITERATIONS:,} times: stopped")
                self.stopped_by_limit = True
                return
            self.push(statements, "loop", iterate, start=span[0], end=span[1], statement=op)

        iterate()

    def do_tail_while(self, op: Op) -> None:
        self.error(op, f"'{op.name[5:]}' after a block that is not '!do'")

    do_tail_until = do_tail_while

    def do_eof(self, op: Op) -> None:
        for frame in reversed(self.frames):
            frame.index = frame.end
            if frame.kind == "file":
                break

    def do_warn(self, op: Op) -> None:
        message = self._message(op)
        if message is not None:
            self.warn(op, message)

    def do_error(self, op: Op) -> None:
        message = self._message(op)
        if message is not None:
            self.error(op, message)

    def do_serious(self, op: Op) -> None:
        message = self._message(op)
        if message is not None:
            self.error(op, message)
            self.stopped = True

    def _message(self, op: Op) -> str | None:
        parts = []
        for expr in op.args:
            try:
                value = self.compute(expr)
            except Unknown:
                return None
            if isinstance(value, str):
                parts.append(value)
            elif isinstance(value, int):
                parts.append(f"{value} (0x{value & 0xFFFFFFFF:x})")
            else:
                parts.append(str(value))
        return "".join(parts)

    # macros
    def do_macro(self, op: Op) -> None:
        name, params = op.extra
        span = self.block_after(op)
        if span is None:
            return
        self.frame.index = span[1] + 1
        key = (name, len(params))
        macro = _Macro(name, params, self.frame.statements, span[0], span[1], self.zone)
        existing = self.macros.get(f"{name}/{len(params)}")
        # macros last from pass to pass: the same definition again is no second one
        if existing is not None and (existing.statements is not macro.statements or
                                     existing.start != macro.start):
            self.error(op, f"macro '{name}' with {counted(len(params), 'parameter')} is already defined")
            return
        self.macros[f"{name}/{len(params)}"] = macro
        del key

    def do_macro_call(self, op: Op) -> None:
        name, refs = op.extra
        macro = self.macros.get(f"{name}/{len(op.args)}")
        if macro is None:
            known = [k for k in self.macros if k.split("/")[0] == name]
            if known:
                self.error(op, f"macro '{name}' takes {counted(int(known[0].split('/')[1]), 'parameter')}, "
                           f"not {len(op.args)}")
            else:
                self.error(op, f"macro '{name}' is not defined")
            return
        if any(refs) or any(reference for _, reference in macro.params):
            self.error(op, "macro parameters by reference ('~') are not supported by c64tc")
            return
        values = [self.evaluate_or_report(op, arg) for arg in op.args]
        flags = [self.flags_of(arg) for arg in op.args]  # ACME passes them with the values
        saved = (self.zone,)
        self.zone_counter += 1
        self.zone = f"macro{self.zone_counter}:"
        for (param, _), value, flag in zip(macro.params, values, flags, strict=True):
            key = self.define_key(param)
            self.symbol_flags[key] = flag
            if value is not None:
                self.values[key] = value
                self.kinds[key] = "var"

        def restore() -> None:
            self.zone = saved[0]

        if not self.push(macro.statements, "macro", restore, start=macro.start, end=macro.end, statement=op):
            restore()

    def instruction(self, ins: DialectInstruction) -> None:
        if ins.mnemonic not in self.dialect.mnemonics:
            self.error(ins, f"'{ins.mnemonic}' is an undocumented opcode: write '!cpu 6510' before it "
                       "(or use "
                       "--cpu 6510)")
            return
        super().instruction(ins)


_END = object()


def _call(name: str, args: list[Any]) -> Any:
    if len(args) != 1:
        raise V.ValueError_(f"{name}() takes one value")
    value = args[0]
    functions = {"sin": math.sin, "cos": math.cos, "tan": math.tan, "arcsin": math.asin, "arccos": math.acos,
                 "arctan": math.atan}  # fmt: skip
    if name in functions:
        try:
            return V.check_float(functions[name](float(V.number(value))))
        except ValueError:
            raise V.ValueError_(f"{name}() of {value} has no value") from None
    if name == "int":
        return V.integer(value, "trunc")
    if name == "float":
        return float(V.number(value))
    if name in ("address", "addr"):
        return value
    if name == "len":
        if isinstance(value, (str, list)):
            return len(value)
        raise V.ValueError_(f"len() of {V.describe(value)}")
    if name == "is_number":
        return int(V.is_number(value))
    if name == "is_list":
        return int(isinstance(value, list))
    if name == "is_string":
        return int(isinstance(value, str))
    raise V.ValueError_(f"unknown function '{name}'")


__all__ = ["AcmeAssembly", "AcmeParser"]
_unused = (Scope,)
