"""The 64tass dialect: 64tass 1.58's syntax over the shared core (``engine.py``).

What it reads, as 64tass does: labels in any column (``name``, ``name:``), ``=`` constants
and ``:=``/``.var`` variables with the compound forms, local ``_names`` (owned by the code
label above them), anonymous ``+``/``-`` labels (counted in skipped ``.if`` branches too),
``.proc``/``.pend`` (compiled only when the label is used), ``.block``, ``.namespace``,
macros (``.macro``/``.segment``, called ``#name`` or ``.name``, parameters substituted as
text: ``\\1``, ``\\name``, ``@1``), ``.if``/``.elsif``/``.else``/``.fi``, ``.switch``,
``.comment``, ``.for``/``.rept``/``.while`` (and their scoped ``b`` forms) with
``.next``, ``.break``/``.continue``, ``.logical``/``.here``, ``.virtual``, ``.offs``,
``.section``/``.dsection``, ``.page``, the data directives, ``.enc`` with ``.cdef``/
``.edef``, ``.include``/``.binclude``/``.binary``, ``.error``/``.cerror``/``.warn``/
``.cwarn``, ``.cpu``, ``.end``, ``@b``/``@w`` and ``#+``/``#-`` operands, long branches
(``-B``), and its expression language (see ``TASS_SYNTAX``).  64tass 1.58 itself has no
``.ifdef``, ``.screen`` or ``lda.w``; they are errors here too, saying what to write.
Anything else 64tass has and this does not (structures, ``.function``, 65816 and 65C02
directives...) is an error that says so.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolchain.asm import values as V
from toolchain.asm.cpus import TASS_6502, TASS_6502I, InstructionSet
from toolchain.asm.directives import TASS_DIRECTIVES, foreign_directive
from toolchain.asm.encodings import (
    TASS_BUILTIN_RANGES,
    TASS_ESCAPES,
    TASS_NONE,
    TASS_SCREEN,
    TASS_SCREEN_ESCAPES,
    petscii_to_screen,
)
from toolchain.asm.engine import (
    MAX_ITERATIONS,
    Assign,
    DialectAssembly,
    DialectInstruction,
    Failed,
    Frame,
    Op,
    Scope,
    Unknown,
)
from toolchain.asm.expressions import Call, Constant, Expr, ExpressionError, Number, ProgramCounter, Symbol
from toolchain.asm.parser import Label, ParseError, SourceLine, Statement, Syntax, make_instruction
from toolchain.asm.syntax import (
    BinaryOperator,
    ExpressionSyntax,
    PrefixOperator,
    anonymous_run,
    parse_expression,
    skip_blanks,
)
from toolchain.diagnostics import counted

# -- expressions --------------------------------------------------------------------------------
# Priorities from 64tass's operator table (operobj.c): higher binds tighter; the byte
# extraction prefixes ('<', '>', '`'...) hold the whole expression to their right.
_BINARY = [
    BinaryOperator("||", "lor", 5), BinaryOperator("^^", "lxor", 6), BinaryOperator("&&", "land", 7),
    BinaryOperator("===", "eq", 8), BinaryOperator("!==", "ne", 8), BinaryOperator("<=>", "cmp", 8),
    BinaryOperator("==", "eq", 8), BinaryOperator("!=", "ne", 8), BinaryOperator("<=", "le", 8),
    BinaryOperator(">=", "ge", 8), BinaryOperator("<", "lt", 8), BinaryOperator(">", "gt", 8),
    BinaryOperator("=", "eq", 8),  # the old equality (64tass warns, and computes it)
    BinaryOperator("in", "in", 8, word=True), BinaryOperator("!in", "notin", 8),
    BinaryOperator("<?", "min", 9), BinaryOperator(">?", "max", 9),
    BinaryOperator("|", "or", 10), BinaryOperator("^", "xor", 11), BinaryOperator("&", "and", 12),
    BinaryOperator("<<", "tass_shl", 13), BinaryOperator(">>", "tass_shr", 13),
    BinaryOperator("+", "add", 14), BinaryOperator("-", "sub", 14),
    BinaryOperator("*", "mul", 15), BinaryOperator("/", "div_floor", 15),
    BinaryOperator("%", "mod_floor", 15),
    BinaryOperator("//", "mod_floor", 15),  # 64tass's deprecated modulo
    BinaryOperator("**", "pow", 16, right=True, over_prefix=True),
    BinaryOperator("..", "concat", 19), BinaryOperator("x", "repeat", 20, word=True),
]  # fmt: skip
_PREFIX = [
    PrefixOperator("-", "neg", 17), PrefixOperator("+", "pos", 17), PrefixOperator("~", "inv", 17),
    PrefixOperator("!", "not", 17),
    PrefixOperator("<>", "lo_word", 4), PrefixOperator(">`", "hi_word", 4),
    PrefixOperator("><", "swap_word", 4),
    PrefixOperator("<", "lo", 4), PrefixOperator(">", "hi", 4), PrefixOperator("`", "bank", 4),
    PrefixOperator("^", "decimal_string", 4),  # deprecated: format("%d", x)
]  # fmt: skip

_STRING_PREFIXES = "blnpsxz"


def _identifier_end(text: str, i: int) -> int:
    n = len(text)
    while i < n and (text[i].isalnum() or text[i] == "_"):
        i += 1
    return i


def _read_operand(text: str, i: int) -> tuple[Expr, int] | None:
    c = text[i]
    column = i + 1
    n = len(text)
    if c == "*":
        return ProgramCounter(column), i + 1
    if c == "?":
        return Constant(V.GAP, column), i + 1
    if c in "+-":
        run = anonymous_run(text, i)
        if run is not None:
            return Symbol(run, column), i + len(run)
        return None
    if c == "$" or c == "%":
        digits = "0123456789abcdefABCDEF_" if c == "$" else "01_"
        j = i + 1
        while j < n and text[j] in digits:
            j += 1
        body = text[i + 1 : j].replace("_", "")
        if not body:
            raise ParseError(f"syntax error: digits expected after '{c}'", column + 1)
        bits = len(body) * (4 if c == "$" else 1)
        if bits > V.INT_LIMIT:
            raise ParseError(f"number of {bits} bits is too large (at most {V.INT_LIMIT})", column)
        return Constant(V.Bits(int(body, 16 if c == "$" else 2), bits), column), j
    if c.isdigit():
        j = i
        while j < n and (text[j].isdigit() or text[j] == "_"):
            j += 1
        is_float = False
        if j + 1 < n and text[j] == "." and text[j + 1].isdigit():
            is_float = True
            j += 1
            while j < n and (text[j].isdigit() or text[j] == "_"):
                j += 1
        exponent_digit = j + 1 < n and (text[j + 1].isdigit() or (text[j + 1] in "+-" and j + 2 < n and
                                                                  text[j + 2].isdigit()))
        if j < n and text[j] in "eE" and exponent_digit:
            is_float = True
            j += 2
            while j < n and text[j].isdigit():
                j += 1
        literal = text[i:j].replace("_", "")
        if is_float:
            return Constant(float(literal), column), j
        if len(literal) > 80:
            raise ParseError(f"number {literal[:20]}... is too large", column)
        return Number(int(literal), column), j
    if c in "\"'":
        value, j = _read_string(text, i)
        return Constant(value, column), j
    if c.isalpha() or c == "_":
        j = _identifier_end(text, i)
        if j < n and text[j] in "\"'" and j - i == 1 and c.lower() in _STRING_PREFIXES:
            value, k = _read_string(text, j)
            if c.lower() == "x":
                try:
                    data = bytes.fromhex(value.replace(" ", ""))
                except ValueError:
                    raise ParseError("x\"...\" needs pairs of hexadecimal digits", column) from None
                return Constant(data, column), k
            raise ParseError(f"byte string {c}\"...\" is not supported by c64tc (x\"...\" is)", column)
        # member access: name.name.name
        while j + 1 < n and text[j] == "." and (text[j + 1].isalpha() or text[j + 1] == "_"):
            j = _identifier_end(text, j + 1)
        name = text[i:j]
        if name.lower() == "size" or name.lower() == "len":
            k = skip_blanks(text, j)
            if k < n and text[k] == "(":
                # size(label) needs the label, not its value: the name is passed as text
                m = skip_blanks(text, k + 1)
                e = _identifier_end(text, m)
                while e + 1 < n and text[e] == "." and (text[e + 1].isalpha() or text[e + 1] == "_"):
                    e = _identifier_end(text, e + 1)
                close = skip_blanks(text, e)
                if e > m and close < n and text[close] == ")" and name.lower() == "size":
                    return Call("size", (Constant(text[m:e], m + 1),), column), close + 1
        return Symbol(name, column), j
    return None


def _read_string(text: str, i: int) -> tuple[str, int]:
    quote = text[i]
    j = i + 1
    n = len(text)
    parts: list[str] = []
    while True:
        k = text.find(quote, j)
        if k < 0:
            raise ParseError("string without its closing quote", i + 1)
        parts.append(text[j:k])
        if k + 1 < n and text[k + 1] == quote:
            parts.append(quote)
            j = k + 2
            continue
        return "".join(parts), k + 1


TASS_SYNTAX = ExpressionSyntax(_BINARY, _PREFIX, _read_operand, ternary_priority=3, tuples=True)


def expression(text: str, i: int) -> tuple[Expr, int]:
    return parse_expression(text, i, TASS_SYNTAX)


# -- lines ---------------------------------------------------------------------------------------
def strip_comment(text: str) -> str:
    """The line without its ';' comment (a ';' in a string is text)."""
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == ";":
            return text[:i]
        if c in "\"'":
            j = i + 1
            while True:
                k = text.find(c, j)
                if k < 0:
                    return text
                if k + 1 < n and text[k + 1] == c:
                    j = k + 2
                    continue
                i = k + 1
                break
            continue
        i += 1
    return text



#: Directives of this dialect that c64tc carries out.
SUPPORTED = frozenset("""
addr align bend bfor binary binclude block break breakif brept bwhile byte case cdef cerror char
comment continue continueif cpu cwarn default dint dsection dword edef elif else elsif enc end
endblock endc endcomment endfor endif endlogical endm endmacro endn endnamespace endp endpage
endproc endrept endsection endsegment endswitch endv endvirtual endwhile eor error fi fill for here
hidemac if ifeq ifmi ifne ifpl include lint logical long macro namespace next null offs option page
pend proc proff pron ptext rept rta section seed segment send shift shiftl showmac sint switch text
var virtual warn while word function endf endfunction
""".split())

# Data directives: (bytes per value, signed)
_NUMERIC_DATA = {"byte": (1, False), "char": (1, True), "word": (2, False), "sint": (2, True),
                 "addr": (2, False), "rta": (2, False), "long": (3, False), "lint": (3, True),
                 "dword": (4, False), "dint": (4, True)}
_TEXT_DATA = frozenset({"text", "shift", "shiftl", "null", "ptext"})

_IF_OPEN = frozenset({"if", "ifeq", "ifne", "ifpl", "ifmi"})
_IF_CLOSE = frozenset({"fi", "endif"})
_LOOP_OPEN = frozenset({"for", "bfor", "rept", "brept", "while", "bwhile"})
_LOOP_CLOSE = frozenset({"next", "endfor", "endrept", "endwhile"})
_MACRO_OPEN = frozenset({"macro", "segment", "function", "sfunction"})
_MACRO_CLOSE = frozenset({"endm", "endmacro", "endsegment", "endf", "endfunction"})
_PROC_CLOSE = frozenset({"pend", "endproc"})
_COMMENT_CLOSE = frozenset({"endc", "endcomment"})
_SWITCH_CLOSE = frozenset({"endswitch"})
# every block opener and closer, so a scan for the end of one skips the others
_OPENERS = _IF_OPEN | _LOOP_OPEN | _MACRO_OPEN | frozenset({"proc", "comment", "switch"})
_CLOSERS = _IF_CLOSE | _LOOP_CLOSE | _MACRO_CLOSE | _PROC_CLOSE | _COMMENT_CLOSE | _SWITCH_CLOSE

# the names 64tass users coming from other assemblers try, and what 64tass has instead
_NOT_IN_64TASS = {
    "ifdef": "64tass has no .ifdef (use '.if symbol' with a default set by ':?=', or .weak)",
    "ifndef": "64tass has no .ifndef (use ':?=' to give a symbol a default value)",
    "screen": "64tass has no .screen: write '.enc \"screen\"' and then .text",
    "org": "64tass has no .org: write '* = address'",
    "db": "64tass has no .db: write .byte",
    "dw": "64tass has no .dw: write .word",
    "asc": "64tass has no .asc: write .text",
    "incbin": "64tass has no .incbin: write .binary",
    "endmac": "64tass closes a macro with .endm",
    "res": "64tass has no .res: write .fill count",
    "ds": "64tass has no .ds: write .fill count",
    "dsb": "64tass has no .dsb: write .fill count[, value]",
}


@dataclass(slots=True)
class CodeLabel(Label):
    """A label in front of code or nothing: it owns the ``_local`` symbols below it
    (64tass's rule: a plain code label, not one in front of a directive)."""

    owner: bool = True


def _split_arguments(text: str) -> list[str]:
    """Macro arguments: the text between top-level commas (brackets and strings kept)."""
    parts: list[str] = []
    depth = 0
    start = 0
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while True:
                k = text.find(c, j)
                if k < 0:
                    i = n
                    break
                if k + 1 < n and text[k + 1] == c:
                    j = k + 2
                    continue
                i = k + 1
                break
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
        i += 1
    last = text[start:].strip()
    if last or parts:
        parts.append(last)
    return parts


_ASSIGN_OPS = [("::=", "reassign", ""), (":?=", "default", ""), (":=", "var", ""), ("<?=", "update", "min"),
               (">?=", "update", "max"), ("**=", "update", "pow"), ("..=", "update", "concat"),
               ("<<=", "update", "tass_shl"), (">>=", "update", "tass_shr"), ("||=", "update", "lor"),
               ("&&=", "update", "land"), ("+=", "update", "add"), ("-=", "update", "sub"),
               ("*=", "update", "mul"), ("/=", "update", "div_floor"), ("%=", "update", "mod_floor"),
               ("|=", "update", "or"), ("^=", "update", "xor"), ("&=", "update", "and"),
               ("x=", "update", "repeat"),
               ("=", "const", "")]  # fmt: skip


def _assignment_at(text: str, i: int) -> tuple[str, str, int] | None:
    """The assignment operator at text[i] (after blanks): (kind, op, position after it)."""
    j = skip_blanks(text, i)
    for spelling, kind, op in _ASSIGN_OPS:
        if text.startswith(spelling, j):
            after = j + len(spelling)
            if spelling == "=" and after < len(text) and text[after] == "=":
                return None
            return kind, op, after
    return None


class TassParser:
    """Cuts 64tass lines into statements."""

    def __init__(self, case_sensitive: bool, instruction_set: InstructionSet) -> None:
        self.case_sensitive = case_sensitive
        self.instruction_set = instruction_set

    def fold(self, word: str) -> str:
        return word if self.case_sensitive else word.lower()

    def mnemonic(self, word: str) -> str | None:
        if self.case_sensitive and word != word.lower():
            return None
        dialect = self.instruction_set.dialect
        name = word.lower()
        if name in dialect.mnemonics:
            return name
        return dialect.aliases.get(name)

    def parse_file(self, path: str, text: str) -> list[Statement]:
        statements: list[Statement] = []
        for number, raw in enumerate(text.splitlines(), start=1):
            line = SourceLine(path, number, raw, None, 0)
            statements.extend(self.parse_line(line))
        return statements

    def parse_line(self, line: SourceLine) -> list[Statement]:
        try:
            return self._parse(line)
        except ParseError as exc:
            return [Failed(line, exc.column, str(exc))]

    def _parse(self, line: SourceLine) -> list[Statement]:
        text = strip_comment(line.text)
        i = skip_blanks(text, 0)
        n = len(text)
        if i >= n or text[i:].isspace():
            return []
        c = text[i]
        # -- the label part -------------------------------------------------------------------
        if c == "*":
            found = _assignment_at(text, i + 1)
            if found is not None and found[0] == "const":
                expr, j = expression(text, found[2])
                self._end(text, j)
                return [Op(line, i + 1, "*=", [expr])]
            if found is not None and found[0] == "update":
                expr, j = expression(text, found[2])
                self._end(text, j)
                return [Op(line, i + 1, "*=", [_compound(found[1], ProgramCounter(i + 1), expr, i + 1)])]
            raise ParseError("syntax error: '*' at the start of a line sets the address: '* = address'",
                             i + 1)
        label: tuple[str, int] | None = None
        if c in "+-":
            j = i
            while j < n and text[j] == c:
                j += 1
            if j >= n or text[j] in " \t":
                if j - i > 1:
                    raise ParseError(f"an anonymous label is a single '{c}'", i + 1)
                label = (c, i + 1)
                i = skip_blanks(text, j)
        elif c.isalpha() or c == "_":
            j = _identifier_end(text, i)
            while j + 1 < n and text[j] == "." and (text[j + 1].isalpha() or text[j + 1] == "_"):
                j = _identifier_end(text, j + 1)
            word = text[i:j]
            if "." not in word and self.mnemonic(word) is not None and self._is_instruction(text, j):
                return self._instruction(line, None, text, word, i, j)
            head, dot, tail = word.partition(".")
            if dot and self.mnemonic(head) is not None and tail.lower() in ("b", "w", "l", "z", "a"):
                raise ParseError(f"'{word}' is not 64tass 1.58 syntax: force the size with "
                                 f"'{head} @w address' (or @b)", i + 1)
            if j < n and text[j] == ":" and not text.startswith(":=", j) and not text.startswith(":?=", j) \
                    and not text.startswith("::=", j):
                j += 1
            found = _assignment_at(text, j)
            if found is not None:
                kind, op, after = found
                value_start = skip_blanks(text, after)
                if value_start < n and text[value_start] == "#":
                    # 'name = #value': the value carries the immediate addressing mode
                    from toolchain.asm.expressions import Operation

                    inner, k = expression(text, value_start + 1)
                    expr = Operation("immediate", (inner,), value_start + 1)
                else:
                    expr, k = expression(text, after)
                self._end(text, k)
                if kind == "const":
                    return [Assign(line, i + 1, word, expr, "const")]
                if kind == "update" and op == "mul":
                    # 64tass: 'name *= x' is a label and an origin unless name is a variable
                    return [Op(line, i + 1, "star-assign", [expr], extra=word)]
                if kind == "update":
                    return [Assign(line, i + 1, word, expr, "update", op)]
                return [Assign(line, i + 1, word, expr, kind)]
            label = (word, i + 1)
            i = skip_blanks(text, j)
        elif c not in ".#":
            if c == "!":
                hint = foreign_directive(text[i:], "64tass")
                if hint:
                    raise ParseError(hint, i + 1)
            raise ParseError(f"syntax error: unexpected '{c}'", i + 1)
        if i >= n:
            assert label is not None
            return [CodeLabel(line, label[1], label[0], True)]
        c = text[i]
        # -- what follows the label ---------------------------------------------------------------
        if c == "." and i + 1 < n and (text[i + 1].isalpha() or text[i + 1] == "_"):
            j = _identifier_end(text, i + 1)
            name = text[i + 1 : j]
            return self._directive(line, label, name, i + 1, text, j)
        if label is not None and not c.isalpha() and c != "." and not (
                c == "#" and i + 1 < n and (text[i + 1].isalpha() or text[i + 1] == "_")):
            # "name args": a macro called by its bare name
            return [Op(line, label[1], "bare-call", [], text[i:].strip(),
                       extra=(label[0], label[1], "", i + 1, text[i:].strip()))]
        if c == "#" and i + 1 < n and (text[i + 1].isalpha() or text[i + 1] == "_"):
            j = _identifier_end(text, i + 1)
            while j + 1 < n and text[j] == "." and (text[j + 1].isalpha() or text[j + 1] == "_"):
                j = _identifier_end(text, j + 1)
            return [Op(line, i + 1, "macro-call", [], text[j:].strip(), extra=text[i + 1 : j],
                       label=label[0] if label else None, label_column=label[1] if label else 0)]
        if c.isalpha():
            j = _identifier_end(text, i)
            word = text[i:j]
            if self.mnemonic(word) is not None:
                return self._instruction(line, label, text, word, i, j)
            if label is not None:
                # 64tass calls a macro by its bare name too ("print msg"): which word is the
                # macro is known only when the line is carried out
                return [Op(line, label[1], "bare-call", [], text[i:].strip(),
                           extra=(label[0], label[1], word, i + 1, text[j:].strip()))]
            raise ParseError(f"syntax error: unexpected '{word}'", i + 1)
        raise ParseError(f"syntax error: unexpected '{c}'", i + 1)

    @staticmethod
    def _end(text: str, i: int) -> None:
        i = skip_blanks(text, i)
        if i < len(text):
            raise ParseError(f"syntax error: unexpected '{text[i]}'", i + 1)

    def _is_instruction(self, text: str, j: int) -> bool:
        """A word that is a mnemonic starts an instruction unless an assignment follows."""
        return _assignment_at(text, j) is None or text[skip_blanks(text, j):].startswith(("==", "=="))

    def _label_statement(self, line: SourceLine, label: tuple[str, int] | None,
                         owner: bool) -> list[Statement]:
        if label is None:
            return []
        return [CodeLabel(line, label[1], label[0], owner)]

    def _instruction(self, line: SourceLine, label: tuple[str, int] | None, text: str, word: str, start: int,
                     end: int) -> list[Statement]:
        n = len(text)
        if end < n and text[end] == "." and end + 1 < n and text[end + 1].isalpha():
            raise ParseError(f"'{word}{text[end:end + 2]}' is not 64tass 1.58 syntax: force the size with "
                             f"'{word} @w address' (or @b)", end + 1)
        mnemonic = self.mnemonic(word)
        assert mnemonic is not None
        statements = self._label_statement(line, label, True)
        i = skip_blanks(text, end)
        force = 0
        if text.startswith("@", i) and i + 1 < n and text[i + 1].lower() in "bwl":
            size_letter = text[i + 1].lower()
            if size_letter == "l":
                raise ParseError("'@l' (24-bit addresses) needs a 65816; this is a 6502", i + 1)
            force = 1 if size_letter == "b" else 2
            i = skip_blanks(text, i + 2)
        operand_text = text[i:].rstrip()
        if not operand_text:
            instruction = make_instruction(line, None, mnemonic, start + 1, (Syntax.IMPLIED, None),
                                           self.instruction_set.dialect)[0]
            statements.append(_dialect_instruction(instruction, force))
            return statements
        signed = False
        if operand_text[0] == "#":
            j = i + 1
            if j < n and text[j] in "+-":
                signed = True
            expr, k = expression(text, j)
            self._end(text, k)
            syntax = Syntax.IMMEDIATE
        else:
            syntax, expr = self._operand(text, i)
        instruction = make_instruction(line, None, mnemonic, start + 1, (syntax, expr),
                                       self.instruction_set.dialect)[0]
        result = _dialect_instruction(instruction, force)
        result.signed = signed
        statements.append(result)
        return statements

    def _operand(self, text: str, i: int) -> tuple[Syntax, Expr]:
        """Addressing syntax: expr, expr,x, expr,y, (expr), (expr,x), (expr),y; the
        register letter right after the comma (64tass's rule: ', x' is a list)."""
        end = len(text.rstrip())
        register = None
        body_end = end
        if end - i >= 3 and text[end - 1].lower() in "xy":
            comma = len(text[: end - 1].rstrip())
            letter_alone = not (text[end - 2].isalnum() or text[end - 2] in "_'\"")
            if comma - 1 > i and text[comma - 1] == "," and letter_alone:
                register = text[end - 1].lower()
                body_end = comma - 1
        body = text[:body_end]
        start = skip_blanks(text, i)
        if body[start:body_end].startswith("(") and _closes_at(body, start, body_end):
            inner_end = body_end - 1
            inner = body[:inner_end]
            k = len(inner.rstrip())
            if register is None and k - start >= 3 and inner[k - 2] == "," and inner[k - 1].lower() == "x":
                expr, j = expression(inner[: k - 2], start + 1)
                self._end(inner[: k - 2], j)
                return Syntax.INDIRECT_X, expr
            expr, j = expression(inner, start + 1)
            self._end(inner, j)
            if register == "y":
                return Syntax.INDIRECT_Y, expr
            if register == "x":
                raise ParseError("there is no (address),x mode: write (zp,x) or (zp),y", body_end + 2)
            from toolchain.asm.expressions import Paren

            return Syntax.DIRECT, Paren(expr, start + 1)
        expr, j = expression(body, start)
        self._end(body, j)
        if register == "x":
            return Syntax.INDEXED_X, expr
        if register == "y":
            return Syntax.INDEXED_Y, expr
        return Syntax.DIRECT, expr

    def _directive(self, line: SourceLine, label: tuple[str, int] | None, raw_name: str, column: int,
                   text: str, j: int) -> list[Statement]:
        name = raw_name.lower() if not self.case_sensitive else raw_name
        rest = text[j:]
        label_name = label[0] if label else None
        label_column = label[1] if label else 0
        if name not in TASS_DIRECTIVES:
            if name.lower() in _NOT_IN_64TASS:
                raise ParseError(_NOT_IN_64TASS[name.lower()], column)
            # a macro called as '.name'
            return [Op(line, column, "macro-call", [], rest.strip(), extra=raw_name, label=label_name,
                       label_column=label_column)]
        if name not in SUPPORTED:
            raise ParseError(f"'.{name}' is a 64tass directive c64tc does not support (docs/asm.md lists "
                             "what is)", column)
        owner = False
        if name in ("byte", "char", "word", "sint", "addr", "rta", "long", "lint", "dword", "dint", "text",
                    "shift", "shiftl", "null", "ptext", "fill", "align", "binary"):
            statements = self._label_statement(line, label, owner)
            statements.append(Op(line, column, name, self._arguments(text, j), rest))
            return statements
        if name == "function":
            if label is None:
                raise ParseError("'.function' needs a name in front: 'name .function params'", column)
            params = self._parameters(rest, j)
            if any(p.startswith("*") or ":" in p for p, _ in params):
                raise ParseError("'.function' parameters with '*' or a ':' conversion are not supported by "
                                 "c64tc", column)
            return [Op(line, column, name, [], rest.strip(), extra=params, label=label_name,
                       label_column=label_column)]
        if name in ("macro", "segment"):
            if label is None:
                raise ParseError(f"'.{name}' needs a name in front: 'name .{name} params'", column)
            return [Op(line, column, name, [], rest.strip(), extra=self._parameters(rest, j),
                       label=label_name, label_column=label_column)]
        if name in ("for", "bfor"):
            return [Op(line, column, name, [], rest.strip(), extra=self._for(text, j), label=label_name,
                       label_column=label_column)]
        if name in ("proc", "block", "namespace", "logical", "virtual", "section", "dsection", "send",
                    "var", "rept", "brept", "while", "bwhile", "binclude", "include", "option", "comment"):
            args: list[Expr] = []
            extra: Any = None
            if name in ("section", "dsection", "send"):
                word = rest.strip()
                if word and not (word.replace("_", "a").isalnum()):
                    raise ParseError(f"'.{name}' takes a section name", j + 1)
                extra = self.fold(word)
            elif name == "option":
                extra = rest.strip()
            elif rest.strip():
                args = self._arguments(text, j)
            statements = [] if name in ("proc", "block", "namespace", "var", "brept", "bfor", "binclude",
                                        "section", "dsection", "virtual") else \
                self._label_statement(line, label, owner)
            keep_label = name in ("proc", "block", "namespace", "var", "brept", "binclude", "section",
                                  "dsection", "virtual")
            statements.append(Op(line, column, name, args, rest.strip(), extra=extra,
                                 label=label_name if keep_label else None,
                                 label_column=label_column if keep_label else 0))
            return statements
        statements = self._label_statement(line, label, owner)
        args = self._arguments(text, j) if rest.strip() and name not in ("else", "default", "here",
                                                                           "endlogical", "pend", "endproc",
                                                                           "bend", "endblock", "next") else []
        statements.append(Op(line, column, name, args, rest.strip()))
        return statements

    def _arguments(self, text: str, j: int) -> list[Expr]:
        args: list[Expr] = []
        i = skip_blanks(text, j)
        if i >= len(text):
            return args
        while True:
            expr, i = expression(text, i)
            args.append(expr)
            i = skip_blanks(text, i)
            if i >= len(text):
                return args
            if text[i] != ",":
                raise ParseError(f"syntax error: unexpected '{text[i]}'", i + 1)
            i += 1

    def _parameters(self, rest: str, j: int) -> list[tuple[str, str | None]]:
        params: list[tuple[str, str | None]] = []
        for part in _split_arguments(rest):
            name, _, default = part.partition("=")
            params.append((name.strip(), default.strip() if default else None))
        return params

    def _for(self, text: str, j: int) -> tuple[str, Any]:
        rest = text[j:]
        parts = _split_arguments(rest)
        # '.for name in expr' / '.for name, name in expr'
        head = rest.strip()
        k = head.find(" in ")
        if k > 0 and all(p.replace("_", "a").isalnum() for p in head[:k].replace(",", " ").split()):
            names = [p.strip() for p in head[:k].split(",")]
            start = text.index(" in ", j) + 4
            values = self._arguments(text, start)
            if len(values) == 1:
                return "in", (names, values[0])
            from toolchain.asm.expressions import Sequence

            return "in", (names, Sequence(tuple(values), "tuple", start + 1))
        if len(parts) != 3:
            raise ParseError("'.for' takes 'init, condition, step' or 'name in values'", j + 1)
        offset = j
        pieces: list[Any] = []
        position = j
        for index, part in enumerate(parts):
            start = text.index(part, position) if part else position
            position = start + len(part)
            if not part:
                pieces.append(None)
                continue
            if index == 1:
                expr, end = expression(text, start)
                if skip_blanks(text, end) < start + len(part):
                    raise ParseError("syntax error in the loop condition", end + 1)
                pieces.append(expr)
            else:
                nowhere = SourceLine("", 0, "", None, 0)
                pieces.append(self._assignment(nowhere, text, start, start + len(part)))
        del offset
        return "c", tuple(pieces)

    def _assignment(self, line: SourceLine, text: str, start: int, end: int) -> Assign:
        j = _identifier_end(text, start)
        name = text[start:j]
        if not name:
            raise ParseError("a variable name is expected", start + 1)
        found = _assignment_at(text, j)
        if found is None:
            raise ParseError("an assignment ('name := value') is expected", j + 1)
        kind, op, after = found
        expr, k = expression(text[:end], after)
        if skip_blanks(text[:end], k) < end:
            raise ParseError("syntax error in the assignment", k + 1)
        return Assign(line, start + 1, name, expr, "var" if kind in ("const", "var") else kind, op)


def _closes_at(text: str, start: int, end: int) -> bool:
    """Whether the '(' at text[start] is closed by the ')' at text[end - 1]."""
    if end - 1 <= start or text[end - 1] != ")":
        return False
    depth = 0
    i = start
    while i < end:
        c = text[i]
        if c in "\"'":
            k = text.find(c, i + 1)
            while k >= 0 and k + 1 < end and text[k + 1] == c:
                k = text.find(c, k + 2)
            if k < 0:
                return False
            i = k + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i == end - 1
        i += 1
    return False


def _compound(op: str, left: Expr, right: Expr, column: int) -> Expr:
    from toolchain.asm.expressions import Operation

    return Operation(op, (left, right), column)


def _dialect_instruction(instruction: Statement, force: int) -> DialectInstruction:
    assert isinstance(instruction, __import__("toolchain.asm.parser", fromlist=["Instruction"]).Instruction)
    return DialectInstruction(instruction.line, instruction.column, instruction.mnemonic, instruction.syntax,
                              instruction.expr, force=force)


# -- carrying out ----------------------------------------------------------------------------------
@dataclass
class _Condition:
    done: bool  # a branch was taken


@dataclass
class _Macro:
    name: str
    params: list[tuple[str, str | None]]
    lines: list[SourceLine]
    kind: str  # "macro" (own scope) or "segment"
    defined_at: Statement


@dataclass
class _Function:
    name: str
    params: list[tuple[str, str | None]]
    statements: list[Statement]
    start: int
    end: int
    scope: Scope


@dataclass
class _Loop:
    body: list[Statement]
    start: int
    end: int  # index of the closing .next in the frame
    kind: str
    scoped: bool
    iterations: int = 0
    broken: bool = False
    frame: Frame | None = None
    state: Any = None


@dataclass
class _Section:
    start: int | None = None
    pc: int | None = None
    offset: int = 0
    size: int = 0


@dataclass
class _Encoding:
    name: str
    ranges: list[tuple[int, int, int]] = field(default_factory=list)  # (first char, last char, first byte)
    escapes: dict[str, bytes] = field(default_factory=dict)


class TassAssembly(DialectAssembly):
    """64tass over the shared core."""

    name = "64tass"

    def __init__(self, sources: list[tuple[str, str]], options: Any) -> None:
        super().__init__(sources, options)
        self.ascii = options.ascii
        self.case_sensitive = options.case_sensitive
        self.long_branches = options.long_branch
        self.default_set = TASS_6502I if options.undocumented else TASS_6502
        # lines are read with every mnemonic 64tass knows; whether the CPU chosen (-i,
        # .cpu) has it is checked where the instruction stands
        self.parser = TassParser(self.case_sensitive, TASS_6502I)
        self.macro_cache: dict[tuple[int, str], list[Statement]] = {}
        self.functions: dict[str, _Function] = {}
        self.proc_touched: set[str] = set()
        self.section_sizes: dict[str, int] = {}
        self.section_starts: dict[str, tuple[int, int]] = {}
        self.handlers[CodeLabel] = self.code_label
        self.set_instructions(self.default_set)

    # -- the front-end hooks ------------------------------------------------------------------------
    def parse_file(self, path: str, text: str) -> list[Statement]:
        return self.parser.parse_file(path, text)

    def start_pass(self) -> None:
        self.set_instructions(self.default_set)
        self.conditions: list[tuple[Frame, _Condition]] = []
        self.loops: list[_Loop] = []
        self.scope_stack: list[tuple[Scope, str, Statement, Any]] = []  # (outer scope, kind, opener, data)
        self.logicals: list[tuple[int | None, int, Statement]] = []
        self.logical_labels: dict[int, tuple[str, int]] = {}
        self.virtuals: list[tuple[int | None, int, Statement]] = []
        self.pages: list[tuple[int, Statement]] = []
        self.sections: dict[str, _Section] = {}
        self.section_stack: list[tuple[str, int | None, int]] = []
        self.encoding_name = "none"
        self.user_encodings: dict[str, _Encoding] = {}
        self.eor = 0
        self.pending_size: tuple[str, int] | None = None
        self.sizes: dict[str, int] = {}

    def end_pass(self) -> None:
        if self.stopped:
            return  # .end, or a limit: what is still open was not closed by choice
        if self.conditions:
            self.diagnostic(self.lines[-1] if self.lines else SourceLine("", 0, "", None, 0), 0,
                            "'.if' without '.fi' at the end of the source")
        for _, kind, opener, _ in self.scope_stack:
            if kind in ("macro", "loop", "function"):
                continue  # closed by the walk itself
            closing = {"proc": ".pend", "block": ".bend", "namespace": ".endn"}.get(kind, ".end")
            self.error(opener, f"'.{kind}' without '{closing}'")
        for _, _, opener in self.logicals:
            self.error(opener, "'.logical' without '.here'")

    def fold(self, name: str) -> str:
        return name if self.case_sensitive else name.lower()

    def define_key(self, name: str) -> str:
        folded = self.fold(name)
        if folded.startswith("_"):
            owner = self.scope.owner
            return f"{self.scope.key}{owner}.{folded}" if owner else f"{self.scope.key}{folded}"
        if folded in ("+", "-"):
            scope = self.scope
            if folded == "-":
                scope.minus += 1
                return f"{scope.key}-{scope.minus}"
            scope.plus += 1
            return f"{scope.key}+{scope.plus}"
        return self.scope.key + folded

    def resolve(self, name: str, column: int) -> str:
        folded = self.fold(name)
        c = folded[0]
        if c in "+-" and folded == c * len(folded):
            scope: Scope | None = self.scope
            while scope is not None:
                if c == "-":
                    index = scope.minus - len(folded) + 1
                    key = f"{scope.key}-{index}"
                else:
                    index = scope.plus + len(folded)
                    key = f"{scope.key}+{index}"
                if index >= 1 and (self.is_defined(key) or scope.parent is None or
                                   (c == "-" and scope.minus >= len(folded)) or c == "+"):
                    if self.is_defined(key) or scope.parent is None:
                        return key
                scope = scope.parent
            return key
        first, dot, rest = folded.partition(".")
        if first.startswith("_"):
            owner = self.scope.owner
            key = f"{self.scope.key}{owner}.{first}" if owner else f"{self.scope.key}{first}"
            return key + (dot + rest)
        scope = self.scope
        found = None
        while scope is not None:
            key = scope.key + first
            if self.is_defined(key) or key in self.kinds:
                found = key
                break
            scope = scope.parent
        if found is None:
            found = self.scope.key + first
        self.proc_touched.add(found)
        return found + (dot + rest)

    def display_name(self, key: str) -> str:
        return key

    def lookup(self, name: str, column: int) -> Any:
        try:
            return super().lookup(name, column)
        except Unknown:
            folded = self.fold(name)
            if folded in _BUILTIN_CONSTANTS:
                self.unknown_keys.discard(self.resolve(name, column))
                return _BUILTIN_CONSTANTS[folded]
            raise

    def undefined_message(self, name: str) -> str:
        if name and name[0] in "+-":
            return f"anonymous label '{name}' is not defined"
        return f"undefined symbol '{name}'"

    # -- labels ---------------------------------------------------------------------------------------
    def code_label(self, statement: CodeLabel) -> None:
        if statement.owner and self.fold(statement.name) in self.macros and \
                statement.line.text.strip() == statement.name:
            # a macro's bare name alone on a line calls it
            self.do_macro_call(Op(statement.line, statement.column, "macro-call", [], "",
                                  extra=statement.name))
            return
        if self.pc is None:
            self.no_address(statement)
            return
        key = self.define_key(statement.name)
        self.set_symbol(key, self.pc, "label", statement, statement.name)
        if statement.owner and statement.name not in ("+", "-") and not statement.name.startswith("_"):
            self.scope.owner = self.fold(statement.name)
        self.pending_size = (key, self.pc)

    def record_size(self) -> None:
        if self.pending_size is not None and self.pc is not None:
            key, start = self.pending_size
            self.sizes[key] = self.pc - start
            self.pending_size = None

    # -- directives ------------------------------------------------------------------------------------
    def execute_op(self, op: Op) -> None:
        handler = getattr(self, "do_" + op.name.replace("-", "_").replace("*=", "origin"), None)
        if handler is None:
            raise ParseError(f"'.{op.name}' is not supported", op.column)
        handler(op)

    def do_star_assign(self, op: Op) -> None:
        key = self.resolve(op.extra, op.column)
        if self.kinds.get(key) == "var":
            self.assign(Assign(op.line, op.column, op.extra, op.args[0], "update", "mul"))
            return
        self.code_label(CodeLabel(op.line, op.column, op.extra, False))
        self.do_origin(op)

    def do_origin(self, op: Op) -> None:
        value = self.known_now(op, op.args[0], "the address")
        if value is None:
            return
        value = V.integer(value)
        if not 0 <= value <= 0xFFFF:
            self.error(op, f"origin {value:#x} is outside the 64 KiB address space")
            return
        self.pc = value  # under .logical the compile offset stays as it is (64tass)
        self.past_end = False

    # data
    def _data_items(self, op: Op) -> list[tuple[Any, Expr]]:
        items: list[tuple[Any, Expr]] = []
        for expr in op.args:
            value = self.evaluate_or_report(op, expr)
            if value is None:
                items.append((None, expr))
                continue
            stack = [value]
            flat: list[Any] = []
            while stack:
                v = stack.pop()
                if isinstance(v, (list, tuple)):
                    stack.extend(reversed(v))
                else:
                    flat.append(v)
            items.extend((v, expr) for v in flat)
        return items

    def _numeric_data(self, op: Op) -> None:
        width, signed = _NUMERIC_DATA[op.name]
        out = bytearray()
        holes: list[tuple[int, int]] = []
        for value, expr in self._data_items(op):
            if value is None:
                out += bytes(width)
                continue
            if isinstance(value, V.Gap):
                holes.append((len(out), width))
                out += bytes(width)
                continue
            if isinstance(value, str):
                # an encoded string is bytes to 64tass: unsigned in as many bytes as it has,
                # for .char and .sint too (bytesobj.c uvalx; ".char 'A'" is $c1 with -a)
                data = self.encode_text(op, value, expr.column)
                if data is None:
                    out += bytes(width)
                    continue
                if len(data) > width:
                    kind = "signed" if signed else "unsigned"
                    self.error(op, f"too large for a {8 * width} bit {kind} integer {V.describe(value)}",
                               expr.column)
                    data = b""
                number = int.from_bytes(data, "little") - (1 if op.name == "rta" else 0)
                out += (number & ((1 << (8 * width)) - 1)).to_bytes(width, "little")
                continue
            number = self.fit(op, value, width, signed, expr, rta=op.name == "rta")
            out += (number & ((1 << (8 * width)) - 1)).to_bytes(width, "little")
        self.emit_with_holes(op, out, holes)

    do_byte = do_char = do_word = do_sint = do_addr = do_rta = do_long = do_lint = do_dword = do_dint = \
        _numeric_data

    def fit(self, op: Op, value: Any, width: int, signed: bool, expr: Expr, rta: bool = False) -> int:
        """A data value in ``width`` bytes, as 64tass's uval/ival convert it: an int in the
        directive's range; a bit string whose value fits the width unsigned, signed or not
        (an inverted one: whose length fits); ``.rta`` checks the address, then takes 1."""
        bits = 8 * width
        if isinstance(value, V.Bits):
            # bitsobj.c uvalx: "~%000000001" is too large for 8 bits, "$00ff" fits .char
            fits = value.length <= bits if value.value < 0 else value.value >> bits == 0
            if not fits:
                kind = "signed" if signed else "unsigned"
                self.error(op, f"too large for a {bits} bit {kind} integer {V.describe(value)}", expr.column)
                return 0
            return value.value - (1 if rta else 0)
        try:
            number = V.integer(value)
        except V.ValueError_ as exc:
            self.error(op, str(exc), expr.column)
            return 0
        low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        if not low <= number <= high:
            self.error(op, f"value {number} does not fit in '.{op.name}' ({low}..{high})", expr.column)
            return 0
        # 64tass 1.58 observed: ".rta 0" is $ffff, ".rta 65536" is too large
        return number - 1 if rta else number

    def text_number(self, text: str) -> Any:
        data = self.encode_text(None, text, 0)
        if data is None:
            raise V.ValueError_(f"can't encode {V.describe(text)} in encoding '{self.encoding_name}'")
        # a long string is a long number: bounded as an operator's results are
        return V.check_int(int.from_bytes(data, "little"))

    def text_value(self, statement: Statement, text: str) -> int | None:
        data = self.encode_text(statement, text, statement.column)
        if data is None:
            return None
        return int.from_bytes(data, "little")

    def _text_data(self, op: Op) -> None:
        out = bytearray()
        holes: list[tuple[int, int]] = []
        for value, expr in self._data_items(op):
            if value is None:
                continue
            if isinstance(value, str):
                data = self.encode_text(op, value, expr.column)
                if data is not None:
                    out += data
            elif isinstance(value, bytes):
                out += value
            elif isinstance(value, V.Gap):
                holes.append((len(out), 1))
                out.append(0)
            elif isinstance(value, V.Bits):
                length = max(1, (value.length + 7) // 8)
                out += (value.value & ((1 << (8 * length)) - 1)).to_bytes(length, "little")
            else:
                out.append(self.fit(op, value, 1, V.integer(value) < 0 if V.is_number(value) else False, expr)
                           & 0xFF)
        name = op.name
        if name == "shift" or name == "shiftl":
            if not out:
                self.error(op, f"'.{name}' needs at least one byte")
            elif any(b & 0x80 for b in out):
                self.error(op, f"'.{name}' needs 7-bit bytes: a byte has its top bit set already")
            elif name == "shift":
                out[-1] |= 0x80
            else:
                out = bytearray((b << 1) & 0xFF for b in out)
                out[-1] |= 1
        elif name == "null":
            if 0 in out:
                self.error(op, "'.null' text has a zero byte in it (it would end the string early)")
            out.append(0)
        elif name == "ptext":
            if len(out) > 255:
                self.error(op, f"'.ptext' text of {len(out)} bytes is too long (at most 255)")
            out.insert(0, len(out) & 0xFF)
            holes = [(at + 1, size) for at, size in holes]
        self.emit_with_holes(op, out, holes)

    do_text = do_shift = do_shiftl = do_null = do_ptext = _text_data

    def emit_with_holes(self, op: Statement, data: bytearray, holes: list[tuple[int, int]]) -> None:
        if self.eor:
            data = bytearray(b ^ self.eor for b in data)
        if not holes:
            self.emit_bytes(op, data)
        else:
            at = 0
            for start, size in holes:
                if start > at:
                    self.emit_bytes(op, data[at:start])
                self.reserve(op, size)
                at = start + size
            if at < len(data):
                self.emit_bytes(op, data[at:])
        self.record_size()

    def emit_bytes(self, statement: Statement, data: bytes | bytearray) -> None:
        if self.virtuals:
            self.reserve(statement, len(data))
            return
        super().emit_bytes(statement, data)

    def one_instruction(self, ins: DialectInstruction, value: Any, unknown: Any) -> None:
        if isinstance(value, V.Immediate) and ins.syntax is Syntax.DIRECT:
            immediate = DialectInstruction(ins.line, ins.column, ins.mnemonic, Syntax.IMMEDIATE, ins.expr,
                                           force=ins.force, signed=ins.signed)
            super().one_instruction(immediate, value.value, unknown)
            return
        if isinstance(value, V.Immediate):
            self.error(ins, "an immediate value ('#') where an address is wanted")
            return
        super().one_instruction(ins, value, unknown)

    def instruction(self, ins: DialectInstruction) -> None:
        if ins.mnemonic not in self.dialect.mnemonics:
            self.error(ins, f"'{ins.mnemonic}' is an undocumented opcode: assemble with -i (--m6502) or "
                       "write .cpu \"6502i\" before it")
            return
        super().instruction(ins)
        self.record_size()

    def do_fill(self, op: Op) -> None:
        if not 1 <= len(op.args) <= 2:
            raise ParseError("'.fill' takes a count and maybe a value", op.column)
        count = self.known_now(op, op.args[0], "the count of '.fill'")
        if count is None:
            return
        count = V.integer(count)
        if not 0 <= count <= 0x10000:
            self.error(op, f"'.fill' count {count} is outside 0..65536", op.args[0].column)
            return
        if len(op.args) == 1:
            self.reserve(op, count)
            self.record_size()
            return
        value = self.evaluate_or_report(op, op.args[1])
        if value is None:
            self.emit_with_holes(op, bytearray(count), [])
            return
        pattern = self.pattern(op, value, op.args[1])
        data = _repeated(pattern, count)
        self.emit_with_holes(op, data, [])

    def pattern(self, op: Op, value: Any, expr: Expr) -> bytes:
        if isinstance(value, (list, tuple)):
            return b"".join(self.pattern(op, v, expr) for v in value)
        if isinstance(value, bytes):
            return value
        if isinstance(value, str):
            return self.encode_text(op, value, expr.column) or b""
        return bytes((self.fit(op, value, 1, False, expr) & 0xFF,))

    def do_align(self, op: Op) -> None:
        if not 1 <= len(op.args) <= 2:
            raise ParseError("'.align' takes a size and maybe a fill value", op.column)
        size = self.known_now(op, op.args[0], "the alignment")
        if size is None or self.pc is None:
            if self.pc is None:
                self.no_address(op)
            return
        size = V.integer(size)
        if size < 1:
            self.error(op, f"'.align' needs a positive size, not {size}", op.args[0].column)
            return
        count = (-self.pc) % size
        if len(op.args) == 1:
            self.reserve(op, count)
            return
        value = self.evaluate_or_report(op, op.args[1])
        pattern = self.pattern(op, value, op.args[1]) if value is not None else b"\x00"
        data = _repeated(pattern, count)
        self.emit_with_holes(op, data, [])

    def do_binary(self, op: Op) -> None:
        if not 1 <= len(op.args) <= 3:
            raise ParseError("'.binary' takes a file name, maybe an offset and a length", op.column)
        name = self.evaluate_or_report(op, op.args[0])
        if not isinstance(name, str):
            if name is not None:
                self.error(op, "'.binary' needs a file name", op.args[0].column)
            return
        data = self.read_binary(op, name, op.args[0].column)
        offset = V.integer(self.known_now(op, op.args[1], "the offset") or 0) if len(op.args) > 1 else 0
        length = V.integer(self.known_now(op, op.args[2], "the length") or 0) if len(op.args) > 2 else None
        if data is None:
            return
        if offset < 0:
            offset = max(0, len(data) + offset)
        chunk = data[offset : None if length is None else offset + length]
        self.emit_with_holes(op, bytearray(chunk), [])

    # text encodings
    def do_enc(self, op: Op) -> None:
        if len(op.args) != 1:
            raise ParseError("'.enc' takes an encoding name", op.column)
        name = self.evaluate_or_report(op, op.args[0])
        if isinstance(name, str):
            self.encoding_name = name
            if name not in ("none", "screen") and name not in self.user_encodings:
                self.user_encodings[name] = _Encoding(name)
        elif name is not None:
            self.error(op, "'.enc' takes an encoding name in quotes", op.args[0].column)

    def current_user_encoding(self, op: Op) -> _Encoding:
        name = self.encoding_name
        if name in ("none", "screen"):
            # 64tass: the built-in encodings can be extended too
            return self.user_encodings.setdefault(name, _Encoding(name))
        return self.user_encodings.setdefault(name, _Encoding(name))

    def do_cdef(self, op: Op) -> None:
        encoding = self.current_user_encoding(op)
        values = [self.evaluate_or_report(op, a) for a in op.args]
        i = 0
        while i < len(values):
            first = values[i]
            if isinstance(first, str) and len(first) == 2 and i + 1 < len(values):
                start, end, byte = ord(first[0]), ord(first[1]), V.integer(values[i + 1])
                i += 2
            elif i + 2 < len(values):
                start = ord(values[i]) if isinstance(values[i], str) else V.integer(values[i])
                end = ord(values[i + 1]) if isinstance(values[i + 1], str) else V.integer(values[i + 1])
                byte = V.integer(values[i + 2])
                i += 3
            else:
                self.error(op, "'.cdef' takes \"first last\", byte or first, last, byte")
                return
            # 64tass (encoding.c new_trans): a range that overlaps one already defined,
            # built in or not, is an error unless it is the same range
            defined = TASS_BUILTIN_RANGES.get((encoding.name, self.ascii), []) + encoding.ranges
            if any(first <= end and start <= last and (first, last, value) != (start, end, byte)
                   for first, last, value in defined):
                self.error(op, "double defined range", op.args[0].column)
                return
            encoding.ranges.insert(0, (start, end, byte))

    def do_edef(self, op: Op) -> None:
        encoding = self.current_user_encoding(op)
        values = [self.evaluate_or_report(op, a) for a in op.args]
        if len(values) % 2:
            self.error(op, "'.edef' takes pairs of \"text\", value")
            return
        for name, value in zip(values[0::2], values[1::2], strict=True):
            if not isinstance(name, str) or not name:
                self.error(op, "'.edef' needs the text to replace in quotes")
                return
            data = self.pattern(op, value, op.args[1]) if not isinstance(value, (list, tuple)) or value \
                else b""
            # an escape defined already, built in or not, only as it is (encoding.c)
            builtin: dict[str, int] = {}
            if self.ascii and encoding.name in ("none", "screen"):
                builtin = TASS_ESCAPES if encoding.name == "none" else TASS_SCREEN_ESCAPES
            known = encoding.escapes.get(name)
            if known is None and name[:1] == "{" and name[-1:] == "}" and name[1:-1] in builtin:
                known = bytes((builtin[name[1:-1]],))
            if known is not None and known != data:
                self.error(op, "double defined escape", op.args[0].column)
                return
            encoding.escapes[name] = data

    def encode_text(self, statement: Statement | None, text: str, column: int) -> bytes | None:
        name = self.encoding_name
        user = self.user_encodings.get(name)
        out = bytearray()
        i = 0
        n = len(text)
        while i < n:
            if user is not None and user.escapes:
                best = None
                for escape, data in user.escapes.items():
                    if text.startswith(escape, i) and (best is None or len(escape) > len(best[0])):
                        best = (escape, data)
                if best is not None:
                    out += best[1]
                    i += len(best[0])
                    continue
            char = text[i]
            if user is not None:
                code = ord(char)
                mapped = next((byte + code - first for first, last, byte in user.ranges
                               if first <= code <= last), None)
                if mapped is not None:
                    out.append(mapped & 0xFF)
                    i += 1
                    continue
            if name in ("none", "screen"):
                if not self.ascii:
                    # raw 8-bit source: the characters are the file's bytes
                    for byte in char.encode("utf-8") if ord(char) > 0xFF else bytes((ord(char),)):
                        out.append(byte if name == "none" else petscii_to_screen(byte))
                    i += 1
                    continue
                if char == "{":
                    end = text.find("}", i)
                    escapes = TASS_ESCAPES if name == "none" else TASS_SCREEN_ESCAPES
                    if end > 0 and text[i + 1 : end] in escapes:
                        out.append(escapes[text[i + 1 : end]])
                        i = end + 1
                        continue
                table = TASS_NONE if name == "none" else TASS_SCREEN
                if char in table:
                    out.append(table[char])
                    i += 1
                    continue
            if statement is not None:
                self.error(statement, f"can't encode character '{char}' (U+{ord(char):04X}) in encoding "
                           f"'{name}'", column)
            return None
        return bytes(out)

    def call_function(self, name: str, args: list[Any], column: int) -> Any:
        function = self.fold(name)
        try:
            if function == "size":
                _check_arguments(function, args)
                target = args[0]
                if not isinstance(target, str) or not target:  # the parser passes a label's name as text
                    raise V.ValueError_(f"can't get size of {V.describe(target)}")  # 64tass's words
                key = self.resolve(target, column)
                if key in self.sizes:
                    return self.sizes[key]
                previous = self.sticky.get("sizes", {})
                if key in previous:
                    return previous[key]
                self.unknown_keys.add("size:" + key)
                raise Unknown(target, column)
            return _call(function, args, self, column)
        except V.ValueError_ as exc:
            raise ExpressionError(str(exc), column) from None

    def end_pass_sizes(self) -> None:
        self.sticky["sizes"] = dict(self.sizes)

    # conditions
    def _skip_to_branch(self, op: Op) -> None:
        """Skip to the next .elsif/.else/.fi of this .if (anonymous labels in between count)."""
        found = self.scan(_OPENERS, _CLOSERS, frozenset({"elsif", "elif", "else", "fi", "endif"}))
        if found is None:
            self.error(op, f"'.{op.name}' without '.fi'")
            self.frame.index = self.frame.end
            return
        index, _ = found
        self._count_anonymous(self.frame.index, index)
        self.frame.index = index

    def _skip_to_end_if(self, op: Op) -> None:
        found = self.scan(_OPENERS, _CLOSERS, frozenset({"fi", "endif"}))
        if found is None:
            self.error(op, f"'.{op.name}' without '.fi'")
            self.frame.index = self.frame.end
            return
        index, _ = found
        self._count_anonymous(self.frame.index, index)
        self.frame.index = index

    def _count_anonymous(self, start: int, end: int) -> None:
        for statement in self.statements_between(start, end):
            if type(statement) is CodeLabel and statement.name in ("+", "-"):
                if statement.name == "+":
                    self.scope.plus += 1
                else:
                    self.scope.minus += 1

    def _condition_value(self, op: Op) -> bool:
        if len(op.args) != 1:
            raise ParseError(f"'.{op.name}' takes one condition", op.column)
        try:
            value = self.compute(op.args[0])
        except Unknown as exc:
            self.error(op, self.undefined_message(exc.name), exc.column)
            return False
        name = op.name
        number_value = value
        if name == "ifeq":
            return V.number(number_value) == 0
        if name == "ifne":
            return V.number(number_value) != 0
        if name == "ifpl":
            return V.number(number_value) >= 0
        if name == "ifmi":
            return V.number(number_value) < 0
        return V.truth(value)

    def do_if(self, op: Op) -> None:
        taken = self._condition_value(op)
        self.conditions.append((self.frame, _Condition(taken)))
        if not taken:
            self._skip_to_branch(op)

    do_ifeq = do_ifne = do_ifpl = do_ifmi = do_if

    def _top_condition(self, op: Op) -> _Condition | None:
        if not self.conditions or self.conditions[-1][0] is not self.frame:
            self.error(op, f"'.{op.name}' without '.if'")
            return None
        return self.conditions[-1][1]

    def do_elsif(self, op: Op) -> None:
        condition = self._top_condition(op)
        if condition is None:
            return
        if condition.done:
            self._skip_to_end_if(op)
            return
        if self._condition_value(op):
            condition.done = True
        else:
            self._skip_to_branch(op)

    do_elif = do_elsif

    def do_else(self, op: Op) -> None:
        condition = self._top_condition(op)
        if condition is None:
            return
        if condition.done:
            self._skip_to_end_if(op)
        else:
            condition.done = True

    def do_fi(self, op: Op) -> None:
        if self._top_condition(op) is not None:
            self.conditions.pop()

    do_endif = do_fi

    def do_switch(self, op: Op) -> None:
        if len(op.args) != 1:
            raise ParseError("'.switch' takes one value", op.column)
        value = self.evaluate_or_report(op, op.args[0])
        self.conditions.append((self.frame, _Condition(False)))
        self.switch_values = getattr(self, "switch_values", [])
        self.switch_values.append(value)
        self._skip_case(op)

    def _skip_case(self, op: Op) -> None:
        found = self.scan(_OPENERS, _CLOSERS, frozenset({"case", "default", "endswitch"}))
        if found is None:
            self.error(op, "'.switch' without '.endswitch'")
            self.frame.index = self.frame.end
            return
        self._count_anonymous(self.frame.index, found[0])
        self.frame.index = found[0]

    def do_case(self, op: Op) -> None:
        condition = self._top_condition(op)
        if condition is None:
            return
        if condition.done:
            found = self.scan(_OPENERS, _CLOSERS, frozenset({"endswitch"}))
            if found is not None:
                self._count_anonymous(self.frame.index, found[0])
                self.frame.index = found[0]
            return
        value = self.switch_values[-1] if getattr(self, "switch_values", None) else None
        matched = any(self.evaluate_or_report(op, arg) == value for arg in op.args)
        if matched:
            condition.done = True
        else:
            self._skip_case(op)

    def do_default(self, op: Op) -> None:
        condition = self._top_condition(op)
        if condition is None:
            return
        if condition.done:
            found = self.scan(_OPENERS, _CLOSERS, frozenset({"endswitch"}))
            if found is not None:
                self.frame.index = found[0]
        else:
            condition.done = True

    def do_endswitch(self, op: Op) -> None:
        if self._top_condition(op) is not None:
            self.conditions.pop()
            if getattr(self, "switch_values", None):
                self.switch_values.pop()

    def do_comment(self, op: Op) -> None:
        found = self.scan(frozenset({"comment"}), _COMMENT_CLOSE, _COMMENT_CLOSE)
        if found is None:
            self.error(op, "'.comment' without '.endc'")
            self.frame.index = self.frame.end
            return
        self.frame.index = found[0] + 1

    def do_endc(self, op: Op) -> None:
        self.error(op, "'.endc' without '.comment'")

    do_endcomment = do_endc

    # loops
    def _loop_body(self, op: Op) -> tuple[int, int] | None:
        found = self.scan(_OPENERS, _CLOSERS, _LOOP_CLOSE)
        if found is None:
            self.error(op, f"'.{op.name}' without '.next'")
            self.frame.index = self.frame.end
            return None
        return self.frame.index, found[0]

    def do_rept(self, op: Op) -> None:
        span = self._loop_body(op)
        if span is None:
            return
        if len(op.args) != 1:
            raise ParseError(f"'.{op.name}' takes a count", op.column)
        count = self.known_now(op, op.args[0], "the repeat count")
        self.frame.index = span[1] + 1
        if count is None:
            return
        count = V.integer(count)
        if count > MAX_ITERATIONS:
            self.error(op, f"'.{op.name}' count {count} is more than {MAX_ITERATIONS:,}")
            return
        state = {"left": count}

        def more() -> bool:
            if state["left"] <= 0:
                return False
            state["left"] -= 1
            return True

        self._run_loop(op, span, more, lambda: None)

    do_brept = do_rept

    def do_while(self, op: Op) -> None:
        span = self._loop_body(op)
        if span is None:
            return
        self.frame.index = span[1] + 1

        def more() -> bool:
            return self._condition_value(op)

        self._run_loop(op, span, more, lambda: None)

    do_bwhile = do_while

    def do_for(self, op: Op) -> None:
        span = self._loop_body(op)
        if span is None:
            return
        self.frame.index = span[1] + 1
        form, data = op.extra
        if form == "in":
            names, expr = data
            values = self.evaluate_or_report(op, expr)
            if values is None:
                return
            if isinstance(values, str):
                items: list[Any] = list(values)
            elif isinstance(values, (list, tuple, bytes)):
                items = list(values)
            else:
                items = [values]
            iterator = iter(items)

            def more() -> bool:
                item = next(iterator, _END)
                if item is _END:
                    return False
                if len(names) == 1:
                    self.set_variable(op, names[0], item)
                else:
                    parts = list(item) if isinstance(item, (list, tuple)) else [item]
                    for name, part in zip(names, parts, strict=False):
                        self.set_variable(op, name, part)
                return True

            self._run_loop(op, span, more, lambda: None)
            return
        init, condition, step = data
        if init is not None:
            self._loop_assign(op, init)
        first = [True]

        def more_c() -> bool:
            if not first[0] and step is not None:
                self._loop_assign(op, step)
            first[0] = False
            if condition is None:
                return True
            return self._condition_value(Op(op.line, op.column, "if", [condition]))

        self._run_loop(op, span, more_c, lambda: None)

    do_bfor = do_for

    def set_variable(self, op: Statement, name: str, value: Any) -> None:
        key = self.define_key(name)
        if self.kinds.get(key) not in (None, "var"):
            self.error(op, f"'{name}' is a constant: a loop needs a variable")
            return
        self.values[key] = value
        self.kinds[key] = "var"

    def _loop_assign(self, op: Op, assign: Assign) -> None:
        statement = Assign(op.line, op.column, assign.name, assign.expr, assign.kind, assign.op)
        if statement.kind == "var":
            value = self.evaluate_or_report(op, assign.expr) if assign.expr is not None else None
            if value is not None:
                self.set_variable(op, assign.name, value)
        else:
            self.assign(statement)

    def _run_loop(self, op: Op, span: tuple[int, int], more: Any, after: Any) -> None:
        frame = self.frame
        statements = frame.statements
        scoped = op.name.startswith("b")
        loop = _Loop(statements, span[0], span[1], op.name, scoped)
        label = op.label

        def iterate() -> None:
            if loop.broken:
                self.loops.remove(loop)
                return
            if loop.iterations >= MAX_ITERATIONS:
                self.error(op, f"loop ran {MAX_ITERATIONS:,} times: stopped")
                self.stopped_by_limit = True
                self.loops.remove(loop)
                return
            if not more():
                self.loops.remove(loop)
                return
            loop.iterations += 1
            if scoped:
                name = f"{label}[{loop.iterations - 1}]" if label else None
                self.open_scope(op, name, "loop")

            def finished() -> None:
                if scoped:
                    self.close_scope_silently()
                iterate()

            if not self.push(statements, "loop", finished, start=span[0], end=span[1], statement=op):
                self.loops.remove(loop)
                return
            loop.frame = self.frames[-1]

        self.loops.append(loop)
        iterate()

    def do_next(self, op: Op) -> None:
        self.error(op, f"'.{op.name}' without a loop")

    do_endfor = do_endrept = do_endwhile = do_next

    def _unwind_loop(self, op: Op, broken: bool) -> None:
        if not self.loops:
            self.error(op, f"'.{op.name}' outside a loop")
            return
        loop = self.loops[-1]
        while self.frames and self.frames[-1] is not loop.frame:
            frame = self.frames.pop()
            if frame.kind == "macro" and frame.on_exit is not None:
                frame.on_exit()
        while self.conditions and self.conditions[-1][0] is loop.frame:
            self.conditions.pop()
        if loop.frame is not None and self.frames and self.frames[-1] is loop.frame:
            loop.broken = broken
            loop.frame.index = loop.frame.end

    def do_break(self, op: Op) -> None:
        self._unwind_loop(op, True)

    def do_continue(self, op: Op) -> None:
        self._unwind_loop(op, False)

    def do_breakif(self, op: Op) -> None:
        if self._condition_value(op):
            self._unwind_loop(op, True)

    def do_continueif(self, op: Op) -> None:
        if self._condition_value(op):
            self._unwind_loop(op, False)

    # scopes
    def open_scope(self, op: Statement, name: str | None, kind: str, data: Any = None) -> None:
        outer = self.scope
        if name is None:
            outer.children += 1
            key = f"{outer.key}#{outer.children}."
        else:
            key = f"{outer.key}{self.fold(name)}."
        self.scope_stack.append((outer, kind, op, data))
        self.scope = Scope(key, outer, kind)

    def close_scope(self, op: Op, kinds: tuple[str, ...]) -> Any:
        if not self.scope_stack or self.scope_stack[-1][1] not in kinds:
            self.error(op, f"'.{op.name}' without its '.{kinds[0]}'")
            return None
        outer, _, _, data = self.scope_stack.pop()
        self.scope = outer
        return data if data is not None else True

    def close_scope_silently(self) -> None:
        if self.scope_stack:
            outer, _, _, _ = self.scope_stack.pop()
            self.scope = outer

    def _scope_label(self, op: Op) -> str | None:
        if op.label is None:
            return None
        if self.pc is None:
            self.no_address(op)
            return op.label
        key = self.define_key(op.label)
        self.set_symbol(key, self.pc, "label", op, op.label)
        return op.label

    def do_proc(self, op: Op) -> None:
        if op.label is None:
            raise ParseError("'.proc' needs a name in front: 'name .proc'", op.column)
        key = self.scope.key + self.fold(op.label)
        seen = self.sticky.setdefault("procs", set())
        # 64tass: compiled the first time, then only while its label is used
        used = key in self.proc_touched or key not in seen
        seen.add(key)
        self.proc_touched.discard(key)
        self._scope_label(op)
        if not used:
            found = self.scan(_OPENERS, _CLOSERS, _PROC_CLOSE)
            if found is None:
                self.error(op, "'.proc' without '.pend'")
                self.frame.index = self.frame.end
                return
            self._count_anonymous(self.frame.index, found[0])
            self.frame.index = found[0] + 1
            self.sizes[key] = 0
            return
        self.open_scope(op, op.label, "proc", (key, self.pc))

    def do_pend(self, op: Op) -> None:
        data = self.close_scope(op, ("proc",))
        if isinstance(data, tuple) and self.pc is not None and data[1] is not None:
            self.sizes[data[0]] = self.pc - data[1]

    do_endproc = do_pend

    def do_block(self, op: Op) -> None:
        name = self._scope_label(op)
        key = self.scope.key + self.fold(name) if name else None
        self.open_scope(op, name, "block", (key, self.pc))

    def do_bend(self, op: Op) -> None:
        data = self.close_scope(op, ("block",))
        if isinstance(data, tuple) and data[0] is not None and self.pc is not None and data[1] is not None:
            self.sizes[data[0]] = self.pc - data[1]

    do_endblock = do_bend

    def do_namespace(self, op: Op) -> None:
        if op.args:
            raise ParseError("'.namespace' with an argument (reopening a scope) is not supported", op.column)
        if op.label is not None:
            key = self.define_key(op.label)
            if key not in self.kinds:
                self.set_symbol(key, self.pc if self.pc is not None else 0, "const", op, op.label)
        self.open_scope(op, op.label, "namespace")

    def do_endn(self, op: Op) -> None:
        self.close_scope(op, ("namespace",))

    do_endnamespace = do_endn

    def do_binclude(self, op: Op) -> None:
        name = self._file_name(op)
        if name is None:
            return
        label = self._scope_label(op)
        self.open_scope(op, label, "block")
        if not self.include_file(op, name, op.args[0].column, on_exit=self.close_scope_silently):
            self.close_scope_silently()

    def do_include(self, op: Op) -> None:
        name = self._file_name(op)
        if name is not None:
            self.include_file(op, name, op.args[0].column)

    def _file_name(self, op: Op) -> str | None:
        if len(op.args) != 1:
            raise ParseError(f"'.{op.name}' takes a file name", op.column)
        name = self.evaluate_or_report(op, op.args[0])
        if not isinstance(name, str):
            if name is not None:
                self.error(op, f"'.{op.name}' needs a file name in quotes", op.args[0].column)
            return None
        return name

    # macros
    def do_macro(self, op: Op) -> None:
        found = self.scan(_OPENERS, _CLOSERS, _MACRO_CLOSE)
        if found is None:
            self.error(op, f"'.{op.name}' without '.endm'")
            self.frame.index = self.frame.end
            return
        start, end = self.frame.index, found[0]
        lines: list[SourceLine] = []
        for statement in self.statements_between(start, end):
            if not lines or lines[-1] is not statement.line:
                lines.append(statement.line)
        # the lines with nothing on them (comments) are not statements: keep the macro's
        # text whole by taking the source lines between the two directives
        first_line = op.line
        closing = self.frame.statements[end]
        last_line = closing.line
        if first_line.path == last_line.path and last_line.number > first_line.number:
            lines = self._source_lines(first_line, last_line) or lines
        before = last_line.text[: max(closing.column - 2, 0)]
        if before.strip():  # a label in front of '.endm' belongs to the macro's text
            lines = [*lines, SourceLine(last_line.path, last_line.number, before, None, 0)]
        assert op.label is not None
        self.frame.index = end + 1
        if self.claim_name(op, op.label):
            self.macros[self.fold(op.label)] = _Macro(op.label, op.extra, lines, op.name, op)

    def claim_name(self, op: Op, name: str) -> bool:
        """A macro's or function's name is a symbol of its scope too: defined twice, or
        also as a label, it is a duplicate definition (64tass 1.58 observed)."""
        key = self.define_key(name)
        if key in self.kinds:
            first = self.definitions.get(key)
            where = f" (first defined at {self.where(first.line)})" if first is not None else ""
            self.error(op, f"duplicate definition of '{name}'{where}")
            return False
        self.kinds[key] = "macro"
        self.definitions[key] = op
        return True

    do_segment = do_macro

    def _source_lines(self, first: SourceLine, last: SourceLine) -> list[SourceLine]:
        texts = self.sticky.setdefault("texts", {})
        key = first.path
        if key not in texts:
            for (path, text), _ in self.parsed.items():
                if path == key:
                    texts[key] = text.splitlines()
                    break
        file_lines = texts.get(key)
        if file_lines is None or last.number - 1 > len(file_lines):
            return []
        return [SourceLine(first.path, number, file_lines[number - 1], None, 0)
                for number in range(first.number + 1, last.number)]

    def do_function(self, op: Op) -> None:
        found = self.scan(_OPENERS, _CLOSERS, frozenset({"endf", "endfunction"}))
        if found is None:
            self.error(op, "'.function' without '.endf'")
            self.frame.index = self.frame.end
            return
        closing = self.frame.statements[found[0]]
        if isinstance(closing, Op) and closing.args:
            self.error(closing, "'.endf' with a result (a function used in expressions) is not supported by "
                       "c64tc")
        assert op.label is not None
        if not self.claim_name(op, op.label):
            self.frame.index = found[0] + 1
            return
        self.functions[self.fold(op.label)] = _Function(op.label, op.extra, self.frame.statements,
                                                        self.frame.index, found[0], self.scope)
        self.frame.index = found[0] + 1

    def do_endf(self, op: Op) -> None:
        self.error(op, f"'.{op.name}' without '.function'")

    do_endfunction = do_endf

    def call_multiline_function(self, op: Op, function: _Function, text: str) -> None:
        """64tass's .function used as a statement: its parameters are variables of a scope
        of its own (inside the scope where it was defined), set to the arguments' values."""
        arguments = _split_arguments(text)
        if len(arguments) > len(function.params):
            self.error(op, f"function '{function.name}' takes {counted(len(function.params), 'argument')}, "
                       f"not {len(arguments)}")
            return
        values: list[Any] = []
        for index, (param, default) in enumerate(function.params):
            given = arguments[index] if index < len(arguments) and arguments[index] else default
            if given is None:
                self.error(op, f"missing argument '{param}' of function '{function.name}'")
                return
            immediate = given.lstrip().startswith("#")
            start = given.index("#") + 1 if immediate else 0
            try:
                expr, end = expression(given, start)
            except ParseError:
                end = -1
            if end < 0 or skip_blanks(given, end) < len(given):
                self.error(op, f"syntax error in the argument '{given}'")
                return
            value = self.evaluate_or_report(op, expr)
            if value is None:
                return
            values.append(V.Immediate(value) if immediate else value)
        saved = self.scope
        function.scope.children += 1
        self.scope = Scope(f"{function.scope.key}{self.fold(function.name)}#{function.scope.children}.",
                           function.scope, "function")
        for (param, _), value in zip(function.params, values, strict=True):
            key = self.define_key(param)
            self.values[key] = value
            self.kinds[key] = "var"

        def restore() -> None:
            self.scope = saved

        if not self.push(function.statements, "macro", restore, start=function.start, end=function.end,
                         statement=op):
            restore()

    def do_endm(self, op: Op) -> None:
        self.error(op, f"'.{op.name}' without '.macro'")

    do_endmacro = do_endsegment = do_endm

    def do_bare_call(self, op: Op) -> None:
        first, first_column, second, second_column, rest = op.extra
        function = self.functions.get(self.fold(first))
        if function is not None:
            self.call_multiline_function(op, function, op.text)
            return
        function = self.functions.get(self.fold(second)) if second else None
        if function is not None:
            self.code_label(CodeLabel(op.line, first_column, first, False))
            self.call_multiline_function(op, function, rest)
            return
        if self.fold(first) in self.macros:
            self.do_macro_call(Op(op.line, first_column, "macro-call", [], op.text, extra=first))
        elif not second:
            self.error(op, f"syntax error: unexpected '{op.text[:1]}'", second_column)
        elif self.fold(second) in self.macros:
            self.do_macro_call(Op(op.line, second_column, "macro-call", [], rest, extra=second, label=first,
                                  label_column=first_column))
        else:
            self.error(op, f"unknown mnemonic '{second}'", second_column)

    def do_macro_call(self, op: Op) -> None:
        name = op.extra
        function = self.functions.get(self.fold(name))
        if function is not None:
            if op.label is not None:
                self.code_label(CodeLabel(op.line, op.label_column, op.label, False))
            self.call_multiline_function(op, function, op.text)
            return
        macro = self.macros.get(self.fold(name))
        if macro is None:
            if self.fold(name) in _NOT_IN_64TASS:
                self.error(op, _NOT_IN_64TASS[self.fold(name)])
            else:
                self.error(op, f"unknown directive or macro '.{name}'" if op.text is not None else
                           f"unknown macro '{name}'")
            return
        arguments = _split_arguments(op.text)
        texts: dict[str, str | None] = {}
        positional: list[str | None] = []
        for index, (param, default) in enumerate(macro.params):
            given = arguments[index] if index < len(arguments) else None
            value = given if given else (default if default is not None else given)
            positional.append(value)
            if param:
                texts[self.fold(param)] = value
        for index in range(len(macro.params), len(arguments)):
            positional.append(arguments[index])
        statements: list[Statement] = []
        for line in macro.lines:
            text, problem = _substitute(line.text, positional, texts, op.text, self.fold)
            if problem is not None:
                self.error(op, f"{problem} (in macro '{macro.name}', {self.where(line)})")
                return
            key = (id(macro), f"{line.number}:{text}")
            cached = self.macro_cache.get(key)
            if cached is None:
                expanded = SourceLine(line.path, line.number, text, None, 0)
                cached = self.macro_cache[key] = self.parser.parse_line(expanded)
            statements.extend(cached)
        # a fresh copy of the lines, so the listing shows each expansion in turn
        if macro.kind == "segment":
            if op.label is not None:
                self._scope_label(op)
            self.push(statements, "macro", None, statement=op)
            return
        label = self._scope_label(op) if op.label is not None else None
        self.open_scope(op, label, "macro")
        if not self.push(statements, "macro", self.close_scope_silently, statement=op):
            self.close_scope_silently()

    # addresses
    def do_logical(self, op: Op) -> None:
        if len(op.args) != 1:
            raise ParseError("'.logical' takes an address", op.column)
        value = self.known_now(op, op.args[0], "the address")
        if value is None:
            return
        value = V.integer(value)
        if self.pc is None:
            self.no_address(op)
            return
        self.logicals.append((self.pc, self.offset, op))
        if self.pending_size is not None:  # 'code .logical $300': size(code) is the block's
            self.logical_labels[len(self.logicals)] = (self.pending_size[0], self.pc + self.offset)
            self.pending_size = None
        self.offset += self.pc - value
        self.pc = value

    def do_here(self, op: Op) -> None:
        if not self.logicals:
            self.error(op, f"'.{op.name}' without '.logical'")
            return
        labelled = self.logical_labels.pop(len(self.logicals), None)
        _, offset, _ = self.logicals.pop()
        if self.pc is not None:
            real = self.pc + self.offset
            self.pc = real - offset
            if labelled is not None:
                self.sizes[labelled[0]] = real - labelled[1]
        self.offset = offset

    do_endlogical = do_here

    def do_offs(self, op: Op) -> None:
        value = self.known_now(op, op.args[0], "the offset") if op.args else None
        if value is not None:
            self.offset = V.integer(value)

    def do_virtual(self, op: Op) -> None:
        self.virtuals.append((self.pc, self.offset, op))
        if op.args:
            value = self.known_now(op, op.args[0], "the address")
            if value is not None:
                self.pc = V.integer(value)
        if op.label is not None:
            self._scope_label(op)

    def do_endv(self, op: Op) -> None:
        if not self.virtuals:
            self.error(op, "'.endv' without '.virtual'")
            return
        pc, offset, _ = self.virtuals.pop()
        self.pc, self.offset = pc, offset

    do_endvirtual = do_endv

    def do_section(self, op: Op) -> None:
        name = op.extra
        section = self.sections.get(name)
        if section is None:
            start = self.section_starts.get(name)
            section = self.sections[name] = _Section(start[0] if start else 0,
                                                     start[0] if start else 0, start[1] if start else 0)
            if start is None:
                self.unknown_keys.add("section:" + name)
        self.section_stack.append((name, self.pc, self.offset))
        self.pc, self.offset = section.pc, section.offset
        if op.label is not None:
            self._scope_label(op)

    def do_send(self, op: Op) -> None:
        if not self.section_stack:
            self.error(op, "'.send' without '.section'")
            return
        name, pc, offset = self.section_stack.pop()
        section = self.sections[name]
        section.pc = self.pc
        if section.start is not None and self.pc is not None:
            section.size = max(section.size, self.pc - section.start)
            self.section_sizes[name] = section.size
        self.pc, self.offset = pc, offset

    do_endsection = do_send

    def do_dsection(self, op: Op) -> None:
        name = op.extra
        if self.pc is None:
            self.no_address(op)
            return
        if op.label is not None:
            self._scope_label(op)
        self.section_starts[name] = (self.pc, self.offset)
        section = self.sections.setdefault(name, _Section(self.pc, self.pc, self.offset))
        section.start, section.pc, section.offset = self.pc, self.pc, self.offset
        self.pc += self.section_sizes.get(name, 0)

    def do_page(self, op: Op) -> None:
        if self.pc is not None:
            self.pages.append((self.pc, op))

    def do_endp(self, op: Op) -> None:
        if not self.pages:
            self.error(op, "'.endp' without '.page'")
            return
        start, _ = self.pages.pop()
        if self.pc is not None and self.pc > start and start >> 8 != (self.pc - 1) >> 8:
            self.error(op, f"page crossed: the block from ${start:04X} ends at ${self.pc - 1:04X}")

    do_endpage = do_endp

    # checks and messages
    def _message(self, op: Op, args: list[Expr]) -> str | None:
        parts: list[str] = []
        for expr in args:
            try:
                value = self.compute(expr)
            except Unknown:
                return None
            parts.append(value if isinstance(value, str) else _repr(value))
        return "".join(parts)

    def do_error(self, op: Op) -> None:
        message = self._message(op, op.args)
        if message is not None:
            self.error(op, message)

    def do_warn(self, op: Op) -> None:
        message = self._message(op, op.args)
        if message is not None:
            self.warn(op, message)

    def do_cerror(self, op: Op) -> None:
        self._report_if(op, ".cerror", self.error)

    def do_cwarn(self, op: Op) -> None:
        self._report_if(op, ".cwarn", self.warn)

    def _report_if(self, op: Op, directive: str, report: Callable[[Op, str], None]) -> None:
        """.cerror and .cwarn: the message when the condition is true (not yet known: nothing)."""
        if not op.args:
            raise ParseError(f"'{directive}' takes a condition and a message", op.column)
        try:
            condition = V.truth(self.compute(op.args[0]))
        except Unknown:
            return
        if condition:
            message = self._message(op, op.args[1:])
            if message is not None:
                report(op, message or "condition is true")

    def do_cpu(self, op: Op) -> None:
        if len(op.args) != 1:
            raise ParseError("'.cpu' takes a processor name", op.column)
        name = self.evaluate_or_report(op, op.args[0])
        if name in ("6502", "default"):
            self.set_instructions(TASS_6502 if name == "6502" else self.default_set)
        elif name == "6502i":
            self.set_instructions(TASS_6502I)
        elif isinstance(name, str):
            self.error(op, f"CPU '{name}' is not supported by c64tc (6502 and 6502i are)", op.args[0].column)

    def do_end(self, op: Op) -> None:
        self.stopped = True

    def do_eor(self, op: Op) -> None:
        value = self.known_now(op, op.args[0], "the value") if op.args else None
        if value is not None:
            self.eor = V.integer(value) & 0xFF

    def do_seed(self, op: Op) -> None:
        pass  # random() is not supported; .seed alone changes nothing

    def do_var(self, op: Op) -> None:
        if op.label is None or len(op.args) != 1:
            raise ParseError("'.var' needs a name in front and a value: 'name .var value'", op.column)
        self.assign(Assign(op.line, op.label_column, op.label, op.args[0], "var"))

    def do_option(self, op: Op) -> None:
        pass  # allow_branch_across_page and the like only change warnings

    def do_pron(self, op: Op) -> None:
        pass  # listing control

    do_proff = do_hidemac = do_showmac = do_pron

    # instructions
    def size_of(self, ins: DialectInstruction, value: Any, known: bool) -> int:
        if not known or value is None:
            return 2
        if isinstance(value, str):
            return 1
        try:
            number = V.integer(value)
        except V.ValueError_:
            return 2
        return 1 if 0 <= number <= 0xFF else 2

    def immediate_range(self, ins: DialectInstruction) -> tuple[int, int]:
        return (-128, 127) if ins.signed else (0, 255)

    def operand_number(self, ins: DialectInstruction, value: Any) -> int | None:
        if isinstance(value, V.Bits) and ins.syntax is Syntax.IMMEDIATE:
            # a bit string fits an immediate as it fits .byte (bitsobj.c uvalx), signed or
            # not (64tass 1.58 observed: "lda #-$80", "lda #+$00ff"; "lda #~%000000001" fails)
            if (value.length > 8) if value.value < 0 else (value.value >> 8 != 0):
                assert ins.expr is not None
                self.error(ins, f"too large for a 8 bit {'signed' if ins.signed else 'unsigned'} integer "
                           f"{V.describe(value)}", ins.expr.column)
                return None
            return ((value.value & 0xFF) ^ 0x80) - 0x80 if ins.signed else value.value & 0xFF
        if isinstance(value, V.Bits) and value.value < 0 and value.length <= 16:
            return value.value & 0xFFFF
        return super().operand_number(ins, value)

    def long_branch(self, ins: DialectInstruction, opcode: int, target: int) -> bool:
        if not self.long_branches:
            return False
        # 64tass -B: the opposite branch over a jmp (bxx *+5 / jmp target)
        self.emit_bytes(ins, bytes((opcode ^ 0x20, 3, 0x4C, target & 0xFF, (target >> 8) & 0xFF)))
        return True

    def run_pass(self) -> None:
        super().run_pass()
        self.end_pass_sizes()


_END = object()


def _repeated(pattern: bytes, count: int) -> bytearray:
    """``count`` bytes of a pattern repeated (zeros for no pattern)."""
    if not pattern:
        return bytearray(count)
    return bytearray((pattern * (count // len(pattern) + 1))[:count])


_BUILTIN_CONSTANTS: dict[str, Any] = {"true": True, "false": False, "pi": math.pi}


def _repr(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, V.Bits):
        return f"${value.value:x}" if value.value >= 0 else f"~${~value.value:x}"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _substitute(text: str, positional: list[str | None], named: dict[str, str | None], whole: str,
                fold: Any) -> tuple[str, str | None]:
    """A macro line with its parameters put in, as 64tass's macro.c does: \\1-\\9, \\@,
    \\name and \\{name}, but not inside quotes or after ';'.  Returns the text and an
    error (a missing or unknown parameter) or None."""
    out: list[str] = []
    i = 0
    n = len(text)
    quote = ""
    while i < n:
        c = text[i]
        if quote:
            if c == quote:
                quote = ""
            out.append(c)
            i += 1
            continue
        if c in "\"'":
            quote = c
            out.append(c)
            i += 1
            continue
        if c == ";":
            out.append(text[i:])
            break
        if c == "\\" and i + 1 < n:
            d = text[i + 1]
            value: str | None
            if "1" <= d <= "9":
                index = int(d) - 1
                value = positional[index] if index < len(positional) else None
                if value is None:
                    return text, f"missing macro argument \\{d}"
                out.append(value)
                i += 2
                continue
            if d == "@":
                out.append(whole)
                i += 2
                continue
            braces = d == "{"
            start = i + 2 if braces else i + 1
            end = _identifier_end(text, start)
            if end > start and (not braces or (end < n and text[end] == "}")):
                name = fold(text[start:end])
                if name not in named:
                    return text, f"unknown macro parameter '\\{text[start:end]}'"
                value = named[name]
                if value is None:
                    return text, f"missing macro argument '\\{text[start:end]}'"
                out.append(value)
                i = end + 1 if braces else end
                continue
        out.append(c)
        i += 1
    return "".join(out), None


# -- functions -------------------------------------------------------------------------------------
def _float(args: list[Any]) -> float:
    return float(V.number(args[0]))


def _round_away(x: float) -> float:
    return float(math.floor(x + 0.5)) if x >= 0 else -float(math.floor(-x + 0.5))


def _format(fmt: Any, values: list[Any]) -> str:
    """64tass's format(): C printf conversions %d %x %X %b %s %c %%, flags, width."""
    if not isinstance(fmt, str):
        raise V.ValueError_("format() needs a format string")
    out: list[str] = []
    length = 0
    i = 0
    n = len(fmt)
    arguments = iter(values)
    while i < n:
        c = fmt[i]
        if c != "%":
            out.append(c)
            length += 1
            i += 1
            continue
        j = i + 1
        flags = ""
        while j < n and fmt[j] in "#0- +":
            flags += fmt[j]
            j += 1
        width = ""
        while j < n and fmt[j].isdigit():
            width += fmt[j]
            j += 1
        precision = ""
        if j < n and fmt[j] == ".":
            j += 1
            while j < n and fmt[j].isdigit():
                precision += fmt[j]
                j += 1
        # a width or precision pads the text: no longer than the longest string
        for name, digits in (("width", width), ("precision", precision)):
            digits = digits.lstrip("0")
            if len(digits) > len(str(V.SEQUENCE_LIMIT)) or int(digits or 0) > V.SEQUENCE_LIMIT:
                raise V.ValueError_(f"format() {name} of more than {V.SEQUENCE_LIMIT}")
        if j >= n:
            raise V.ValueError_("format() string ends in the middle of a conversion")
        conversion = fmt[j]
        i = j + 1
        if conversion == "%":
            out.append("%")
            continue
        value = next(arguments, None)
        if value is None:
            raise V.ValueError_("format() has more conversions than values")
        spec = "%" + flags + width + ("." + precision if precision else "")
        if conversion in "dxXi":
            number = V.integer(value)
            out.append((spec + ("d" if conversion == "i" else conversion)) % number)
        elif conversion == "b":
            number = V.integer(value)
            digits = format(abs(number), "b")
            text = ("-" if number < 0 else "") + ("%" if "#" in flags else "") + digits
            out.append(text.rjust(int(width or 0), "0" if "0" in flags else " ") if "-" not in flags else
                       text.ljust(int(width or 0)))
        elif conversion == "s":
            out.append((spec + "s") % (value if isinstance(value, str) else _repr(value)))
        elif conversion == "c":
            out.append(_character(value) if not isinstance(value, str) else value[:1])
        elif conversion in "eEfFgG":
            out.append((spec + conversion) % float(V.number(value)))
        else:
            raise V.ValueError_(f"format() conversion '%{conversion}' is not supported")
        length += len(out[-1])
        if length > V.SEQUENCE_LIMIT:
            raise V.ValueError_(f"format() of more than {V.SEQUENCE_LIMIT} characters")
    return "".join(out)


def _character(value: Any) -> str:
    """format()'s %c: the character of a code point (64tass's wording for a negative one)."""
    code = V.integer(value)
    if code < 0:
        raise V.ValueError_(f"format() '%c' value needs to be non-negative {V.describe(value)}")
    if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        # Python has no other characters (and can't write a surrogate: UTF-8 has none)
        raise V.ValueError_(f"format() '%c' of {V.describe(value)} is not a Unicode character")
    return chr(code)


def _range(args: list[Any]) -> list[int]:
    numbers = [V.integer(a) for a in args]
    if not 1 <= len(numbers) <= 3:
        raise V.ValueError_("range() takes 1 to 3 values")
    if len(numbers) == 3 and numbers[2] == 0:
        raise V.ValueError_("range() step: zero value not allowed")  # 64tass's words
    result = range(*numbers)
    # (len() of a range longer than sys.maxsize is an OverflowError; its truth is not)
    if result[V.SEQUENCE_LIMIT :]:
        raise V.ValueError_(f"range() of more than {V.SEQUENCE_LIMIT} values")
    return list(result)


#: How many values each built-in function takes, at least and at most (None: any number);
#: the count is checked before a value is looked at, as 64tass does.
_ARGUMENTS: dict[str, tuple[int, int | None]] = {
    **dict.fromkeys(("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "sqrt", "cbrt",
                     "exp", "log", "log10", "rad", "deg", "floor", "ceil", "round", "trunc", "frac",
                     "abs", "sign", "int", "float", "bool", "str", "repr", "len", "any", "all", "size",
                     "byte", "char", "word", "sint", "long", "lint", "dword", "dint", "addr", "rta"), (1, 1)),
    "pow": (2, 2), "atan2": (2, 2), "hypot": (2, 2), "range": (1, 3), "format": (1, None),
}  # fmt: skip


def _check_arguments(name: str, args: list[Any]) -> None:
    least, most = _ARGUMENTS.get(name, (0, None))
    if least <= len(args) and (most is None or len(args) <= most):
        return
    if least == most:
        raise V.ValueError_(f"{name}() takes {'one value' if least == 1 else 'two values'}")
    if most is None:
        raise V.ValueError_(f"{name}() takes at least one value")
    raise V.ValueError_(f"{name}() takes {least} to {most} values")


def _call(name: str, args: list[Any], assembly: TassAssembly, column: int) -> Any:
    _check_arguments(name, args)
    math_functions = {
        "sin": math.sin, "cos": math.cos, "tan": math.tan, "asin": math.asin, "acos": math.acos,
        "atan": math.atan, "sinh": math.sinh, "cosh": math.cosh, "tanh": math.tanh, "sqrt": math.sqrt,
        "cbrt": lambda x: math.copysign(abs(x) ** (1 / 3), x), "exp": math.exp, "log": math.log,
        "log10": math.log10, "rad": math.radians, "deg": math.degrees,
        "floor": lambda x: float(math.floor(x)), "ceil": lambda x: float(math.ceil(x)),
        "round": _round_away, "trunc": lambda x: float(math.trunc(x)), "frac": lambda x: x - math.trunc(x),
    }  # fmt: skip
    if name in math_functions:
        if isinstance(args[0], (list, tuple)):
            items = [_call(name, [a], assembly, column) for a in args[0]]
            return items if isinstance(args[0], list) else tuple(items)
        try:
            result = math_functions[name](_float(args))
        except (ValueError, OverflowError):
            raise V.ValueError_(f"{name}() of {_repr(args[0])} has no value") from None
        if name in ("floor", "ceil", "round", "trunc") and isinstance(V.number(args[0]), int):
            return V.integer(args[0])
        return V.check_float(float(result))
    if name in ("pow", "atan2", "hypot"):
        a, b = float(V.number(args[0])), float(V.number(args[1]))
        try:
            result = {"pow": math.pow, "atan2": math.atan2, "hypot": math.hypot}[name](a, b)
        except (ValueError, OverflowError):  # pow(2, 10000), pow(-8, 0.5), pow(0, -1)
            raise V.ValueError_(f"{name}() of {_repr(args[0])}, {_repr(args[1])} has no value") from None
        return V.check_float(result)
    if name == "abs":
        return abs(V.number(args[0]))
    if name == "sign":
        x = V.number(args[0])
        return (x > 0) - (x < 0)
    if name == "int":
        value = args[0]
        if isinstance(value, str):
            try:
                return V.check_int(int(value))
            except ValueError:  # also Python's limit of 4300 digits
                raise V.ValueError_(f"int() of {V.describe(value)} is not a number") from None
        return V.integer(value, "trunc")
    if name == "float":
        return float(V.number(args[0]))
    if name == "bool":
        return V.truth(args[0])
    if name in ("str", "repr"):
        text = _repr(args[0])
        if len(text) > V.SEQUENCE_LIMIT:  # a list of long numbers has more characters than elements
            raise V.ValueError_(f"{name}() of more than {V.SEQUENCE_LIMIT} characters")
        return text
    if name == "len":
        value = args[0]
        if isinstance(value, V.Bits):
            return value.length
        if isinstance(value, (str, bytes, list, tuple)):
            return len(value)
        raise V.ValueError_(f"len() of {V.describe(value)}")
    if name == "format":
        return _format(args[0], list(args[1:]))
    if name == "range":
        return _range(args)
    if name in ("any", "all"):
        sequence: list[Any] | tuple[Any, ...] = args[0] if isinstance(args[0], (list, tuple)) else [args[0]]
        truths = [V.truth(v) for v in sequence]
        return any(truths) if name == "any" else all(truths)
    if name in ("byte", "char", "word", "sint", "long", "lint", "dword", "dint", "addr", "rta"):
        width, signed = _NUMERIC_DATA[name]
        number = V.integer(args[0]) - (1 if name == "rta" else 0)
        return (number & ((1 << (8 * width)) - 1)).to_bytes(width, "little")
    if name == "binary":
        if not args or not isinstance(args[0], str):
            raise V.ValueError_("binary() needs a file name")
        raise V.ValueError_("binary() is not supported by c64tc: use .binary")
    if name == "random":
        raise V.ValueError_("random() is not supported by c64tc")
    raise V.ValueError_(f"unknown function '{name}'")


__all__ = ["TassAssembly", "TassParser", "expression"]
_unused = (Path, field)
