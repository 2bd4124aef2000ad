"""Source text -> statements (the assembler's IR).

The dialect is Profi-Ass 64's, as printed in the 64'er magazine: every line may
start with a BASIC line number (the assembler kept its source as a BASIC
program), BASIC statements before the ``sys`` line that starts the assembler
are executed by the C64 and are not assembler source.

The parser is written by hand, without recursion: a line is cut into tokens by one
regular expression, statements are split at ``:``, and expressions are read with an
operator stack (so 100,000 terms or deep parentheses cost time in proportion, never
Python's recursion limit).  The lark grammar in ``grammar.lark`` is the definition of
the language; ``reference.py`` parses with it, and the tests check that both agree.
Most lines are simple ("lda #1", "name = value"): a fast path reads those with one
regular expression and builds the same statements.
"""

from __future__ import annotations

import enum
import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from toolchain.asm.expressions import (
    VALUE_LIMIT,
    Binary,
    Expr,
    Number,
    Paren,
    ProgramCounter,
    Symbol,
    Text,
    Unary,
)
from toolchain.cpu.opcodes import ALL_MNEMONICS, MNEMONIC_ALIASES, MNEMONICS, Mode
from toolchain.petscii import PetsciiError, char_to_petscii, parse_units

#: More parentheses than this inside one another is an error, not a deep tree.
MAX_NESTING = 256


class Syntax(enum.Enum):
    """How the operand was written; the addressing mode is chosen from it later."""

    IMPLIED = "implied"
    ACCUMULATOR = "accumulator"
    IMMEDIATE = "#immediate"
    DIRECT = "address"
    INDEXED_X = "address,x"
    INDEXED_Y = "address,y"
    INDIRECT = "(address)"
    INDIRECT_X = "(zp,x)"
    INDIRECT_Y = "(zp),y"

    __hash__ = object.__hash__  # members are singletons (see Mode)


@dataclass(slots=True)
class SourceLine:
    path: str
    number: int  # 1-based line in the file
    text: str  # the whole line as in the file
    listing_number: int | None  # the line's own (BASIC) line number
    offset: int  # where the statements start in ``text`` (0-based)


@dataclass(slots=True)
class Statement:
    line: SourceLine
    column: int  # 1-based, relative to the statement text


@dataclass(slots=True)
class Label(Statement):
    name: str


@dataclass(slots=True)
class Equate(Statement):
    name: str
    expr: Expr


@dataclass(slots=True)
class Origin(Statement):
    expr: Expr


@dataclass(slots=True)
class Instruction(Statement):
    mnemonic: str
    syntax: Syntax
    expr: Expr | None
    mode: Mode | None = None  # chosen in the layout pass, then fixed
    address: int = 0
    forward: bool = False  # kept absolute because a symbol in it was not defined yet


class DataKind(enum.Enum):
    BYTES = 1
    WORDS = 2


@dataclass(slots=True)
class Data(Statement):
    kind: DataKind
    items: list[Expr]
    address: int = 0
    size: int = 0


@dataclass(slots=True)
class Options(Statement):
    names: list[tuple[str, int]] = field(default_factory=list)


@dataclass(slots=True)
class Directive(Statement):
    """A directive the assembler's first pass carries out: .include, .binary, .fill,
    .if/.else/.endif (``name`` is the canonical spelling)."""

    name: str
    args: list[Expr]
    address: int = 0
    data: bytes = b""  # .binary: the bytes read; .fill: the size is len(data) until emitted


DATA_DIRECTIVES = {
    ".byt": DataKind.BYTES, ".byte": DataKind.BYTES, ".asc": DataKind.BYTES, ".text": DataKind.BYTES,
    ".wor": DataKind.WORDS, ".word": DataKind.WORDS,
    # Hypra-Ass (64'er 7/1985) spells them .by, .wo, .tx
    ".by": DataKind.BYTES, ".tx": DataKind.BYTES, ".wo": DataKind.WORDS,
}  # fmt: skip

#: Directives for the first pass, each spelling to its canonical name.  .if/.el/.ei are
#: Hypra-Ass's own; .else/.endif/.fi and .include/.binary/.incbin/.fill are 64tass's.
PASS_DIRECTIVES = {
    ".include": ".include", ".binary": ".binary", ".incbin": ".binary", ".fill": ".fill",
    ".if": ".if", ".else": ".else", ".el": ".else", ".endif": ".endif", ".ei": ".endif", ".fi": ".endif",
}  # fmt: skip
_ARGUMENT_COUNTS = {".include": (1, 1), ".binary": (1, 3), ".fill": (1, 2), ".if": (1, 1), ".else": (0, 0),
                    ".endif": (0, 0)}  # fmt: skip


class ParseError(Exception):
    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.column = column


@dataclass(frozen=True, slots=True, eq=False)
class Dialect:
    """The mnemonics a source may use: the documented ones, or with --undocumented
    also LAX, SAX, DCP... (and their alias names)."""

    mnemonics: Mapping[str, frozenset[Mode]]
    aliases: Mapping[str, str]

    def __repr__(self) -> str:
        return "UNDOCUMENTED" if self.aliases else "DOCUMENTED"

    def canonical(self, word: str) -> str | None:
        """The mnemonic a word names (lower case), or None."""
        word = word.lower()
        if word in self.mnemonics:
            return word
        return self.aliases.get(word)


DOCUMENTED = Dialect(MNEMONICS, {})
UNDOCUMENTED = Dialect(ALL_MNEMONICS, MNEMONIC_ALIASES)


def unknown_mnemonic(word: str, dialect: Dialect) -> str:
    """The message for a word that is no mnemonic of ``dialect``, with the way out
    when it is an undocumented opcode's name."""
    if dialect is DOCUMENTED and UNDOCUMENTED.canonical(word) is not None:
        return f"unknown mnemonic '{word}' (an undocumented opcode: assemble with --undocumented)"
    return f"unknown mnemonic '{word}'"


# -- tokens ----------------------------------------------------------------------------------
# One token: (kind, text, column).  Kinds: name, dir, dec, hex, bin, char, open_char,
# string, and the punctuation itself; "end" closes every line.
Token = tuple[str, str, int]

_TOKEN = re.compile(r"""
    [ \t]*(?:
      (?P<rem>rem(?![a-z0-9_])|;)
    | (?P<name>[a-z_][a-z0-9_]*)
    | (?P<dir>\.[a-z][a-z0-9]*)
    | (?P<hex>\$[0-9a-f]+)
    | (?P<bin>%[01]+)
    | (?P<dec>[0-9]+)
    | (?P<char>'[^']')
    | (?P<string>"[^"]*")
    | (?P<open_char>"[^"](?=[ \t]*(?:;|$)))
    | (?P<punct>[-+*/<>#=,():])
    | (?P<blank>$)
    )""", re.IGNORECASE | re.VERBOSE)


def tokenize(text: str) -> list[Token]:
    """The tokens of a statement text, up to a comment; the last is ("end", "", column)."""
    tokens: list[Token] = []
    position = 0
    match = _TOKEN.match
    while True:
        found = match(text, position)
        if found is None:
            # reported when the parser reaches it, as lark's lexer would (an earlier
            # unexpected token is the first error)
            start = position + len(text[position:]) - len(text[position:].lstrip(" \t"))
            tokens.append(("bad", text[start], start + 1))
            tokens.append(("end", "", len(text.rstrip()) + 1))
            return tokens
        kind = found.lastgroup or ""
        if kind == "rem" or kind == "blank":
            tokens.append(("end", "", len(text.rstrip()) + 1))
            return tokens
        start = found.start(kind)
        value = found.group(kind)
        tokens.append((value if kind == "punct" else kind, value, start + 1))
        position = found.end()


def _describe(token: Token) -> str:
    if token[0] == "end":
        return "end of line" if token[1] != ":" else "':'"
    value = token[1] if len(token[1]) <= 20 else token[1][:20] + "..."
    return f"'{value}'"


def number_token(kind: str, text: str, column: int) -> Number:
    if kind == "dec" and len(text) <= 9:
        return Number(int(text), column)
    digits = text.lstrip("$%").lstrip("0")
    limit_digits = {"dec": 10, "hex": 8, "bin": 32}[kind]
    value = int(digits, {"dec": 10, "hex": 16, "bin": 2}[kind]) if digits and len(digits) <= limit_digits \
        else (0 if not digits else VALUE_LIMIT + 1)
    if value > VALUE_LIMIT:
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise ParseError(f"number {shown} is too large (at most ${VALUE_LIMIT:X})", column)
    return Number(value, column)


def text_bytes(text: str, column: int) -> bytes:
    try:
        return bytes(unit.byte for unit in parse_units(text[1:-1]))
    except PetsciiError as exc:
        raise ParseError(str(exc), column + 1 + exc.column) from None


def _atom(token: Token) -> Expr:
    kind, text, column = token
    if kind == "name":
        return Symbol(text.lower(), column)
    if kind in ("dec", "hex", "bin"):
        return number_token(kind, text, column)
    if kind == "*":
        return ProgramCounter(column)
    if kind == "string":
        return Text(text_bytes(text, column), column, text[1:-1])
    try:  # char, open_char
        return Number(char_to_petscii(text[1]), column)
    except ValueError as exc:
        raise ParseError(str(exc), column) from None


_ATOMS = frozenset({"name", "dec", "hex", "bin", "*", "string", "char", "open_char"})
_FOLLOW = frozenset({"+", "-", "*", "/", ")", ",", "end"})  # what may come after an atom
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}
# how tightly each stacked operator holds its operands; "(" holds until its ")"
_BINDING = {**_PRECEDENCE, "neg": 3, "<": 0, ">": 0, "(": -1}


class _Syntax(Exception):
    """An unexpected token (turned into the message by the statement parser)."""

    def __init__(self, token: Token) -> None:
        super().__init__(token)
        self.token = token


def parse_expression(tokens: list[Token], i: int, indirect: bool = False) -> tuple[Expr, int, bool]:
    """Read one expression from tokens[i]; returns it, the index after it, and (with
    ``indirect``, for an operand that starts with '(') whether it stopped at the ',' of
    a ``(zp,x)`` form, the '(' open.

    Grammar (as in grammar.lark): expr = ["<"|">"] sum; sum = product {("+"|"-") product};
    product = unary {("*"|"/") unary}; unary = {"-"} atom; atom = number | name | "*" |
    string | character | "(" expr ")".  An operator stack replaces recursion."""
    output: list[Expr] = []
    # operators: (symbol, column); "(" marks an open parenthesis, "neg", "<", ">" prefixes
    operators: list[tuple[str, int]] = []
    depth = 0
    at_start = True  # '<' and '>' may only open an expression (or a parenthesis)

    def reduce_one() -> None:
        op, column = operators.pop()
        if op in _PRECEDENCE:
            right = output.pop()
            left = output[-1]
            output[-1] = Binary(op, left, right, left.column)
        else:
            output[-1] = Unary("-" if op == "neg" else op, output[-1], column)

    while True:
        token = tokens[i]
        kind = token[0]
        # -- an operand is expected --------------------------------------------------------
        if kind == "(":
            depth += 1
            if depth > MAX_NESTING:
                raise ParseError(f"expression nested too deeply (more than {MAX_NESTING} parentheses)",
                                 token[2])
            operators.append(("(", token[2]))
            at_start = True
            i += 1
            continue
        if kind == "-":
            operators.append(("neg", token[2]))
            at_start = False
            i += 1
            continue
        if (kind == "<" or kind == ">") and at_start:
            operators.append((kind, token[2]))
            at_start = False
            i += 1
            continue
        if kind not in _ATOMS:
            raise _Syntax(token)
        if tokens[i + 1][0] not in _FOLLOW:  # reported before the atom's own errors, as lark does
            raise _Syntax(tokens[i + 1])
        output.append(_atom(token))
        i += 1
        # -- an operator (or the end) is expected ----------------------------------------------
        while True:
            token = tokens[i]
            kind = token[0]
            precedence = _PRECEDENCE.get(kind)
            if precedence is not None:
                # '-' (negation) binds tighter than any binary operator, '<' and '>' looser
                while operators and _BINDING[operators[-1][0]] >= precedence:
                    reduce_one()
                operators.append((kind, token[2]))
                i += 1
                at_start = False
                break
            if kind == ")" and depth:
                while operators[-1][0] != "(":
                    reduce_one()
                _, column = operators.pop()
                output[-1] = Paren(output[-1], column)
                depth -= 1
                i += 1
                continue
            if depth:
                if kind == "," and indirect and depth == 1 and operators[0][0] == "(" and \
                        tokens[0][0] == "(" and operators[0][1] == tokens[0][2]:
                    while len(operators) > 1:
                        reduce_one()
                    return output[0], i, True
                raise _Syntax(token)
            while operators:
                reduce_one()
            return output[0], i, False


def _expect_end(tokens: list[Token], i: int) -> None:
    if tokens[i][0] != "end":
        raise _Syntax(tokens[i])


def _statements(line: SourceLine, tokens: list[Token], dialect: Dialect) -> list[Statement]:
    """One statement (tokens up to its end), as a list (a label and what follows)."""
    first = tokens[0]
    kind = first[0]
    if kind == "end":
        return []
    if kind == "*":
        if tokens[1][0] != "=":
            raise _Syntax(tokens[1])
        expr, i, _ = parse_expression(tokens, 2)
        _expect_end(tokens, i)
        return [Origin(line, first[2], expr)]
    if kind == "dir":
        return _directive(line, None, tokens, 0)
    if kind != "name":
        raise _Syntax(first)
    mnemonic = dialect.canonical(first[1])
    if mnemonic is not None:
        return _instruction(line, None, mnemonic, first[2], tokens, 1, dialect)
    second = tokens[1]
    if second[0] == "=":
        expr, i, _ = parse_expression(tokens, 2)
        _expect_end(tokens, i)
        return [Equate(line, first[2], first[1].lower(), expr)]
    if second[0] == "end":
        return [Label(line, first[2], first[1].lower())]
    if second[0] == "dir":
        return _directive(line, first, tokens, 1)
    if second[0] == "name":
        mnemonic = dialect.canonical(second[1])
        if mnemonic is not None:
            return _instruction(line, (first[1], first[2]), mnemonic, second[2], tokens, 2, dialect)
    raise _Syntax(second)


def _instruction(line: SourceLine, label: tuple[str, int] | None, mnemonic: str, column: int,
                 tokens: list[Token], i: int, dialect: Dialect) -> list[Statement]:
    kind = tokens[i][0]
    operand: tuple[Syntax, Expr | None]
    if kind == "end":
        operand = (Syntax.IMPLIED, None)
    elif kind == "#":
        expr, i, _ = parse_expression(tokens, i + 1)
        _expect_end(tokens, i)
        operand = (Syntax.IMMEDIATE, expr)
    else:
        start = i
        expr, i, indirect = parse_expression(tokens[start:], 0, indirect=tokens[start][0] == "(")
        i += start
        if indirect:  # "(" expr "," NAME ")"
            register = tokens[i + 1]
            if register[0] != "name":
                raise _Syntax(register)
            if tokens[i + 2][0] != ")":
                raise _Syntax(tokens[i + 2])
            _expect_end(tokens, i + 3)
            if register[1].lower() != "x":
                raise ParseError("(zp,y) does not exist: write (zp),y or (zp,x)", register[2])
            operand = (Syntax.INDIRECT_X, expr)
        elif tokens[i][0] == ",":
            register = tokens[i + 1]
            if register[0] != "name":
                raise _Syntax(register)
            _expect_end(tokens, i + 2)
            reg = register[1].lower()
            if isinstance(expr, Paren):
                if reg != "y":
                    raise ParseError("there is no (address),x mode: write (zp,x) or (zp),y", register[2])
                operand = (Syntax.INDIRECT_Y, expr.inner)
            elif reg == "x":
                operand = (Syntax.INDEXED_X, expr)
            elif reg == "y":
                operand = (Syntax.INDEXED_Y, expr)
            else:
                raise ParseError(f"index register must be x or y, not '{register[1]}'", register[2])
        else:
            _expect_end(tokens, i)
            operand = (Syntax.DIRECT, expr)
    return make_instruction(line, label, mnemonic, column, operand, dialect)


def _directive(line: SourceLine, label: Token | None, tokens: list[Token], i: int) -> list[Statement]:
    _, text, column = tokens[i]
    i += 1
    args: list[Expr] = []
    if tokens[i][0] != "end":
        while True:
            expr, i, _ = parse_expression(tokens, i)
            args.append(expr)
            if tokens[i][0] != ",":
                break
            i += 1
        _expect_end(tokens, i)
    return make_directive(line, label and (label[1], label[2]), text, column, args)


def make_directive(line: SourceLine, label: tuple[str, int] | None, text: str, column: int,
                   args: list[Expr]) -> list[Statement]:
    """A directive statement (after its label, if any), its arguments checked."""
    statements: list[Statement] = []
    if label is not None:
        statements.append(Label(line, label[1], label[0].lower()))
    directive = text.lower()
    if directive in DATA_DIRECTIVES:
        if not args:
            raise ParseError(f"'{directive}' needs at least one value", column)
        statements.append(Data(line, column, DATA_DIRECTIVES[directive], args))
    elif directive == ".opt":
        names = []
        for arg in args:
            if not isinstance(arg, Symbol):
                raise ParseError("'.opt' takes option names like p, o, oo, o8", arg.column)
            names.append((arg.name, arg.column))
        statements.append(Options(line, column, names))
    elif directive in PASS_DIRECTIVES:
        name = PASS_DIRECTIVES[directive]
        low, high = _ARGUMENT_COUNTS[name]
        if not low <= len(args) <= high:
            wanted = "no arguments" if high == 0 else (
                f"{low} argument{'s' if low > 1 else ''}" if low == high else f"{low} to {high} arguments")
            raise ParseError(f"'{directive}' takes {wanted}", column)
        if name in (".include", ".binary") and not isinstance(args[0], Text):
            raise ParseError(f"'{directive}' needs a file name in quotes", args[0].column)
        statements.append(Directive(line, column, name, args))
    else:
        raise ParseError(f"unknown directive '{text}'", column)
    return statements


def make_instruction(line: SourceLine, label: tuple[str, int] | None, mnemonic: str, column: int,
                     operand: tuple[Syntax, Expr | None], dialect: Dialect = DOCUMENTED) -> list[Statement]:
    """An instruction statement (after its label, if any), with the operand syntax
    settled: ``a`` is the accumulator, ``(x)`` is indirect for jmp only."""
    statements: list[Statement] = []
    if label is not None:
        statements.append(Label(line, label[1], label[0].lower()))
    mnemonic = mnemonic.lower()
    syntax, expr = operand
    modes = dialect.mnemonics[mnemonic]
    if syntax is Syntax.DIRECT:
        if isinstance(expr, Symbol) and expr.name in ("a", "A") and Mode.ACC in modes:
            syntax, expr = Syntax.ACCUMULATOR, None
        elif isinstance(expr, Paren):
            if mnemonic != "jmp":
                raise ParseError(f"'{mnemonic} (address)' does not exist on the 6502: only jmp has "
                                 "indirect addressing without an index", expr.column)
            syntax, expr = Syntax.INDIRECT, expr.inner
    elif syntax is Syntax.IMPLIED and Mode.ACC in modes and Mode.IMP not in modes:
        syntax = Syntax.ACCUMULATOR  # bare "asl" means "asl a"
    statements.append(Instruction(line, column, mnemonic, syntax, expr))
    return statements


_LINE_NUMBER = re.compile(r"[ \t]*(\d{1,9})(?!\d)[ \t]*")
_SYS_LINE = re.compile(r"sys[ \t]*[\d$%(]", re.IGNORECASE)


def split_lines(text: str, path: str) -> list[SourceLine]:
    """The lines that hold assembler source: with their listing line numbers, and
    without the BASIC statements the C64 ran before ``sys`` started the assembler."""
    lines: list[SourceLine] = []
    sys_index: int | None = None
    line_number = _LINE_NUMBER.match
    sys_line = _SYS_LINE.match
    for number, raw in enumerate(text.splitlines(), start=1):
        match = line_number(raw)
        if match:
            line = SourceLine(path, number, raw, int(match.group(1)), match.end())
        else:
            line = SourceLine(path, number, raw, None, 0)
        if sys_index is None and sys_line(raw, line.offset):
            sys_index = len(lines)
        lines.append(line)
    if sys_index is not None:
        lines = lines[sys_index + 1 :]
    return lines


_WORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _unknown_mnemonic(text: str, error_column: int, failing_name: Token | None,
                      dialect: Dialect) -> tuple[str, int] | None:
    """When the parse fails right after a statement's first word (or after a label's
    next word) and that word is no mnemonic, the word is the likely culprit.  For two
    words in a row ("lab ldz" or "ldz lab") the three-letter one is taken as the
    mnemonic, the second when both are."""
    statement_start = text.rfind(":", 0, error_column - 1) + 1
    segment = text[statement_start : error_column - 1]
    if '"' in segment or ";" in segment:
        return None
    words = list(_WORDS.finditer(segment))
    if not words or segment[words[-1].end():].strip() or len(words) > 2:
        return None
    if any(segment[a.end():b.start()].strip() for a, b in itertools.pairwise(words)):
        return None
    word = words[-1]
    if failing_name is not None and len(words) == 1:
        first, second = word.group(), failing_name[1]
        if len(second) == 3 or len(first) != 3:
            return second, failing_name[2]
    if dialect.canonical(word.group()) is not None or segment[: words[0].start()].strip():
        return None
    return word.group(), statement_start + word.start() + 1


# -- the fast path ---------------------------------------------------------------------
# Most lines are a comment, "name = value" or "[label] mnemonic operand" with a simple
# operand.  Those are recognised by one regular expression and built with the same
# constructors as above; every other line goes through the full parser (tests check
# that both agree).
_TERM = r"(?:\$[0-9a-fA-F]{1,8}|%[01]{1,16}|[0-9]{1,9}|[A-Za-z_][A-Za-z0-9_]*|'[^']')"
_VALUE = rf"(?:{_TERM}(?:[+-]{_TERM})?)"
_COMMENT_END = r"[ \t]*(?:;.*)?"
_FAST_INSTRUCTION = re.compile(
    rf"[ \t]*(?:(?P<label>[A-Za-z_][A-Za-z0-9_]*)[ \t]+)?(?P<mnemonic>[A-Za-z]{{3}})"
    rf"(?:[ \t]+(?:(?P<imm>#[<>]?{_VALUE})|(?P<izx>\({_VALUE},[xX]\))|(?P<izy>\({_VALUE}\),[yY])"
    rf"|(?P<ind>\({_VALUE}\))|(?P<direct>{_VALUE})(?:,(?P<index>[xXyY]))?))?{_COMMENT_END}")
_FAST_EQUATE = re.compile(
    rf"[ \t]*(?P<name>[A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*(?P<value>{_VALUE}){_COMMENT_END}")
_FAST_COMMENT = re.compile(r"[ \t]*(?:;.*)?")
_FAST_TERM = re.compile(_TERM)


def _reserved(dialect: Dialect) -> frozenset[str]:
    return frozenset(dialect.mnemonics) | frozenset(dialect.aliases) | {"rem"}


_RESERVED = {DOCUMENTED: _reserved(DOCUMENTED), UNDOCUMENTED: _reserved(UNDOCUMENTED)}


def _fast_term(text: str, column: int) -> Expr:
    first = text[0]
    if first == "$":
        return Number(int(text[1:], 16), column)
    if first == "%":
        return Number(int(text[1:], 2), column)
    if first.isdigit():
        return Number(int(text), column)
    if first == "'":
        return Number(char_to_petscii(text[1]), column)  # ValueError: left to the full parser
    return Symbol(text.lower(), column)


def _fast_value(text: str, column: int, reserved: frozenset[str]) -> Expr | None:
    """A term, or two terms joined by + or -; None when a name is reserved."""
    left_match = _FAST_TERM.match(text)
    assert left_match is not None
    left_text = left_match.group()
    if left_text.lower() in reserved:
        return None
    left = _fast_term(left_text, column)
    if left_match.end() == len(text):
        return left
    right_text = text[left_match.end() + 1 :]
    if right_text.lower() in reserved:
        return None
    return Binary(text[left_match.end()], left, _fast_term(right_text, column + left_match.end() + 1),
                  column)


def _parse_fast(line: SourceLine, text: str, dialect: Dialect = DOCUMENTED) -> list[Statement] | None:
    try:
        return _parse_fast_unchecked(line, text, dialect)
    except (ValueError, ParseError):
        return None  # the full parser gives the message


def _parse_fast_unchecked(line: SourceLine, text: str, dialect: Dialect) -> list[Statement] | None:
    if _FAST_COMMENT.fullmatch(text):
        return []
    reserved = _RESERVED[dialect]
    match = _FAST_INSTRUCTION.fullmatch(text)
    if match is not None:
        label, mnemonic, imm, izx, izy, ind, direct, index = match.group(
            "label", "mnemonic", "imm", "izx", "izy", "ind", "direct", "index")
        mnemonic = mnemonic.lower()
        if mnemonic not in dialect.mnemonics or (label is not None and label.lower() in reserved):
            return None
        operand: tuple[Syntax, Expr | None] = (Syntax.IMPLIED, None)
        if imm:
            start = match.start("imm") + 1
            value: Expr | None
            if imm[1] in "<>":
                inner = _fast_value(imm[2:], start + 2, reserved)
                value = None if inner is None else Unary(imm[1], inner, start + 1)
            else:
                value = _fast_value(imm[1:], start + 1, reserved)
            operand = (Syntax.IMMEDIATE, value)
        elif direct:
            value = _fast_value(direct, match.start("direct") + 1, reserved)
            syntax = Syntax.DIRECT if index is None else (
                Syntax.INDEXED_X if index in "xX" else Syntax.INDEXED_Y)
            operand = (syntax, value)
        elif izx:
            operand = (Syntax.INDIRECT_X, _fast_value(izx[1:-3], match.start("izx") + 2, reserved))
        elif izy:
            operand = (Syntax.INDIRECT_Y, _fast_value(izy[1:-3], match.start("izy") + 2, reserved))
        elif ind:
            inner = _fast_value(ind[1:-1], match.start("ind") + 2, reserved)
            operand = (Syntax.DIRECT, None if inner is None else Paren(inner, match.start("ind") + 1))
        if operand[0] is not Syntax.IMPLIED and operand[1] is None:
            return None
        return make_instruction(line, (label, match.start("label") + 1) if label else None, mnemonic,
                                match.start("mnemonic") + 1, operand, dialect)
    match = _FAST_EQUATE.fullmatch(text)
    if match is not None and match.group("name").lower() not in reserved:
        value = _fast_value(match.group("value"), match.start("value") + 1, reserved)
        if value is not None:
            return [Equate(line, match.start("name") + 1, match.group("name").lower(), value)]
    return None


def parse_line(line: SourceLine, dialect: Dialect = DOCUMENTED, text: str | None = None) -> list[Statement]:
    """Parse one line's statements (``text``: the statement part, when already cut).
    Raises ParseError with a column relative to the statement text."""
    if text is None:
        text = line.text[line.offset :]
    fast = _parse_fast(line, text, dialect)
    if fast is not None:
        return fast
    return parse_line_fully(line, dialect)


def parse_line_fully(line: SourceLine, dialect: Dialect = DOCUMENTED) -> list[Statement]:
    """Any line, without the fast path."""
    text = line.text[line.offset :]
    tokens = tokenize(text)
    statements: list[Statement] = []
    start = 0
    for index, token in enumerate(tokens):
        if token[0] != ":" and token[0] != "end":
            continue
        # each statement's tokens end in an "end" token; at a ':' it keeps ':' as its text
        part = tokens[start:index] + [("end", token[1], token[2])]
        try:
            statements.extend(_statements(line, part, dialect))
        except _Syntax as exc:
            found = exc.token
            column = found[2]
            if found[0] == "bad":
                raise ParseError(f"syntax error: unexpected character '{found[1]}'", column) from None
            unknown = _unknown_mnemonic(text, column, found if found[0] == "name" else None, dialect)
            if unknown is not None:
                raise ParseError(unknown_mnemonic(unknown[0], dialect), unknown[1]) from None
            raise ParseError(f"syntax error: unexpected {_describe(found)}", column) from None
        start = index + 1
    return statements
