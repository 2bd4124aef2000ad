"""The monitor's command language, as VICE's monitor reads it (vice/src/monitor/mon_lex.l
and mon_parse.y, VICE 3.10).

Numbers are hex by default (``c000``, ``$c000``); ``+49152`` is decimal, ``%1010``
binary, ``&17`` octal.  ``.name`` is a label.  Conditions (``break ... if COND``)
compare registers (``A X Y PC SP FL``, ``RL`` the raster line, ``CY`` the cycle in
it), numbers and memory (``@cpu:$c6``, ``@cpu:(pc+1)``) with ``== != < > <= >=``,
combine them with ``&& ||`` and compute with ``+ - * / & |``.  One difference from
VICE: VICE evaluates a condition strictly from left to right (its manual says to
use parentheses), so there ``A == 1 && X == 2`` means ``((A == 1) && X) == 2``;
here the operators have C's precedence, which gives the same result wherever the
parentheses are written.

A line holds one command, or several separated by ``;`` (a line that starts with
``;`` is a comment).  Parsing knows nothing about the machine: labels and registers
are looked up when a command runs (:class:`Values`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

__all__ = ["COMMANDS", "BinaryOp", "Command", "Expression", "Instruction", "Label", "Memory",
           "MonitorSyntaxError", "Number", "Register", "Values", "enters_assemble_mode",
           "parse_assembly_line", "parse_instructions", "parse_line"]


class MonitorSyntaxError(Exception):
    """A command the monitor cannot read; ``column`` is 1-based in the line."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


# -- tokens -------------------------------------------------------------------------------------

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<string>"(?:[^"\\]|\\.)*(?P<closed>")?)
  | (?P<label>\.[_@?:a-zA-Z][_@?:.a-zA-Z0-9]*)
  | (?P<hex>\$[0-9a-fA-F]+)
  | (?P<binary>%[01]+)
  | (?P<word>[A-Za-z0-9_]+)
  | (?P<op>==|!=|<=|>=|&&|\|\||[<>&|+\-*/(),=@:;~?!])
""", re.VERBOSE)


@dataclass(frozen=True)
class Token:
    kind: str  # string, label, number, word, op, end
    text: str
    column: int  # 1-based
    value: int = 0  # a number's value


def _tokens(line: str, position: int = 0) -> tuple[list[Token], int | None]:
    """The tokens of one command in ``line`` from ``position`` up to a ``;`` (which
    separates commands), and where the next command starts (None: the line ends).
    ``+`` and ``&`` right before digits are the decimal and octal prefixes (VICE:
    ``+49152``, ``&17``) unless they follow an operand without a space."""
    tokens: list[Token] = []
    while position < len(line):
        found = _TOKEN.match(line, position)
        if found is None:
            raise MonitorSyntaxError(f"unexpected character {line[position]!r}", position + 1)
        kind, text = found.lastgroup or "", found.group()
        column = position + 1
        position = found.end()
        if kind == "space":
            continue
        if kind == "string":
            if found.group("closed") is None:
                raise MonitorSyntaxError("the string has no closing quote", column)
            tokens.append(Token("string", re.sub(r"\\(.)", r"\1", text[1:-1]), column))
            continue
        # VICE reads +123 as a decimal number; here too, unless the + follows an operand
        # without a space (.start+10 adds)
        attached = bool(tokens) and (tokens[-1].kind in ("number", "label", "word", "string")
                                     or tokens[-1].text == ")") and not line[column - 2].isspace()
        if kind == "op" and text in "+&" and not attached:
            digits = re.match(r"[0-9]+" if text == "+" else r"[0-7]+", line[position:])
            if digits:
                position += digits.end()
                value = int(digits.group(), 10 if text == "+" else 8)
                tokens.append(Token("number", text + digits.group(), column, value))
                continue
        if kind == "op" and text == ";":
            tokens.append(Token("end", "", column))
            return tokens, position
        if kind == "hex":
            tokens.append(Token("number", text, column, int(text[1:], 16)))
        elif kind == "binary":
            tokens.append(Token("number", text, column, int(text[1:], 2)))
        else:
            tokens.append(Token(kind, text, column))
    tokens.append(Token("end", "", len(line) + 1))
    return tokens, None


# -- expressions --------------------------------------------------------------------------------

class Values(Protocol):
    """What an expression reads when it is evaluated: the machine and the labels."""

    def register(self, name: str) -> int: ...

    def label(self, name: str) -> int | None: ...

    def memory(self, bank: str, address: int) -> int: ...


class EvaluationError(Exception):
    """An expression that has no value now (an unknown label); ``column`` in the line."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


@dataclass(frozen=True)
class Expression:
    column: int
    parenthesized: bool = field(default=False, kw_only=True)

    def evaluate(self, values: Values) -> int:
        raise NotImplementedError

    def shown(self) -> str:
        """As VICE's monitor prints a condition (mon_print_conditional)."""
        text = self._shown()
        return f"( {text} )" if self.parenthesized else text

    def _shown(self) -> str:
        raise NotImplementedError

    def labels(self) -> list[Label]:
        return []

    def bound(self, values: Values) -> Expression:
        """The expression with its labels replaced by their values now (VICE reads a
        condition's labels when the condition is given)."""
        return self


@dataclass(frozen=True)
class Number(Expression):
    value: int

    def evaluate(self, values: Values) -> int:
        return self.value

    def _shown(self) -> str:
        return f"${self.value:02x}"


@dataclass(frozen=True)
class Label(Expression):
    name: str  # with its dot, as VICE writes it

    def evaluate(self, values: Values) -> int:
        value = values.label(self.name)
        if value is None:
            raise EvaluationError(f"unknown label {self.name} (labels come from --labels, 'al' and 'll')",
                                  self.column)
        return value

    def _shown(self) -> str:
        return self.name

    def labels(self) -> list[Label]:
        return [self]

    def bound(self, values: Values) -> Expression:
        return Number(self.column, self.evaluate(values), parenthesized=self.parenthesized)


REGISTERS = ("A", "X", "Y", "PC", "SP", "FL", "RL", "CY")


@dataclass(frozen=True)
class Register(Expression):
    name: str  # one of REGISTERS

    def evaluate(self, values: Values) -> int:
        return values.register(self.name)

    def _shown(self) -> str:
        return self.name


@dataclass(frozen=True)
class Memory(Expression):
    """``@bank:address``: the byte there, as the bank shows it."""

    bank: str
    address: Expression

    def evaluate(self, values: Values) -> int:
        return values.memory(self.bank, self.address.evaluate(values) & 0xFFFF)

    def _shown(self) -> str:
        bank = "default" if self.bank == "cpu" else self.bank  # VICE's first name for the CPU's bank
        if isinstance(self.address, Number) and not self.address.parenthesized:
            return f"@{bank}:${self.address.value:04x}"
        return f"@{bank}:({self.address._shown()})"

    def labels(self) -> list[Label]:
        return self.address.labels()

    def bound(self, values: Values) -> Expression:
        return Memory(self.column, self.bank, self.address.bound(values), parenthesized=self.parenthesized)


def _divide(left: int, right: int) -> int:
    return left // right if right else 0  # VICE: a division by zero makes the condition 0


_OPERATIONS: dict[str, Callable[[int, int], int]] = {
    "*": lambda a, b: a * b, "/": _divide, "+": lambda a, b: a + b, "-": lambda a, b: a - b,
    "<": lambda a, b: int(a < b), ">": lambda a, b: int(a > b), "<=": lambda a, b: int(a <= b),
    ">=": lambda a, b: int(a >= b), "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b),
    "&": lambda a, b: a & b, "|": lambda a, b: a | b,
    "&&": lambda a, b: int(bool(a) and bool(b)), "||": lambda a, b: int(bool(a) or bool(b)),
}
# C's precedence, loosest first
# parentheses inside parentheses: a bound, so that any typed line is parsed in bounded
# work (each level is a few Python frames; 32 is far more than a condition needs)
MAX_NESTING = 32
_LEVELS = (("||",), ("&&",), ("|",), ("&",), ("==", "!="), ("<", ">", "<=", ">="), ("+", "-"), ("*", "/"))


@dataclass(frozen=True)
class BinaryOp(Expression):
    operator: str
    left: Expression
    right: Expression

    def evaluate(self, values: Values) -> int:
        return _OPERATIONS[self.operator](self.left.evaluate(values), self.right.evaluate(values))

    def _shown(self) -> str:
        return f"{self.left.shown()} {self.operator} {self.right.shown()}"

    def labels(self) -> list[Label]:
        return self.left.labels() + self.right.labels()

    def bound(self, values: Values) -> Expression:
        return BinaryOp(self.column, self.operator, self.left.bound(values), self.right.bound(values),
                        parenthesized=self.parenthesized)


BANKS = ("cpu", "default", "ram", "rom", "io")  # default: VICE's other name for cpu


class _Parser:
    """Reads one command's arguments from its tokens."""

    def __init__(self, tokens: list[Token], line: str) -> None:
        self.tokens = tokens
        self.nesting = 0  # parentheses open around the expression being read
        self.index = 0
        self.line = line

    @property
    def token(self) -> Token:
        return self.tokens[self.index]

    def next(self) -> Token:
        token = self.tokens[self.index]
        if token.kind != "end":
            self.index += 1
        return token

    def at_end(self) -> bool:
        return self.token.kind == "end" or self.token.text == ";"

    def accept(self, text: str) -> bool:
        if self.token.kind == "op" and self.token.text == text:
            self.index += 1
            return True
        return False

    def accept_word(self, *words: str) -> str | None:
        if self.token.kind == "word" and self.token.text.lower() in words:
            return self.next().text.lower()
        return None

    def fail(self, message: str, token: Token | None = None) -> MonitorSyntaxError:
        return MonitorSyntaxError(message, (token or self.token).column)

    def expect_end(self) -> None:
        if not self.at_end():
            raise self.fail(f"unexpected {self.describe(self.token)}")

    @staticmethod
    def describe(token: Token) -> str:
        return "end of line" if token.kind == "end" else f"'{token.text}'"

    # -- expressions ------------------------------------------------------------------------
    def expression(self, registers: bool = False) -> Expression:
        """An address or a number; with ``registers`` (conditions) register names are
        registers (``A`` is the accumulator there, the hex number $0A elsewhere)."""
        return self._level(0, registers)

    def _level(self, level: int, registers: bool) -> Expression:
        if level == len(_LEVELS):
            return self._operand(registers)
        left = self._level(level + 1, registers)
        while self.token.kind == "op" and self.token.text in _LEVELS[level]:
            operator = self.next()
            if self.at_end():
                raise self.fail(f"'{operator.text}' needs a right-hand side")
            right = self._level(level + 1, registers)
            left = BinaryOp(left.column, operator.text, left, right)
        return left

    def _operand(self, registers: bool) -> Expression:
        token = self.token
        if token.kind == "number":
            self.next()
            return Number(token.column, token.value)
        if token.kind == "label":
            self.next()
            return Label(token.column, token.text)
        if token.kind == "op" and token.text == "(":
            if self.nesting == MAX_NESTING:
                raise self.fail(f"parentheses nested more than {MAX_NESTING} deep")
            self.next()
            self.nesting += 1
            inner = self.expression(registers)
            self.nesting -= 1
            if not self.accept(")"):
                raise self.fail("missing ')'")
            return _parenthesized(inner)
        if token.kind == "op" and token.text == "@":
            self.next()
            bank = self.token
            if bank.kind != "word" or bank.text.lower() not in BANKS:
                raise self.fail(f"a bank name after '@' ({', '.join(BANKS)})")
            self.next()
            if not self.accept(":"):
                raise self.fail("':' after the bank name (@cpu:$c6)")
            if self.token.kind == "op" and self.token.text == "(":
                address = self._operand(registers=True)
            else:
                address = self._operand(registers=False)
            name = bank.text.lower()
            return Memory(token.column, "cpu" if name == "default" else name, address)
        if token.kind == "word":
            name = token.text.upper()
            if registers and name in REGISTERS:
                self.next()
                return Register(token.column, name)
            if re.fullmatch(r"[0-9A-F]+", name):
                self.next()
                return Number(token.column, int(name, 16))
            raise self.fail(f"'{token.text}' is not a number (numbers are hex: c000 or $c000; +49152 is "
                            "decimal; a label starts with a dot)")
        raise self.fail(f"expected a number, found {self.describe(token)}")

    def address(self) -> Expression:
        expression = self.expression()
        if isinstance(expression, Number) and expression.value > 0xFFFF:
            raise MonitorSyntaxError(f"${expression.value:X} is not an address ($0000-$FFFF)",
                                     expression.column)
        return expression

    def optional_address(self) -> Expression | None:
        if self.at_end() or self.token.kind == "word" and self.token.text.lower() == "if":
            return None
        return self.address()

    def range(self) -> tuple[Expression | None, Expression | None]:
        """``[address [[,] address]]``"""
        first = self.optional_address()
        if first is None:
            return None, None
        if self.token.kind == "op" and self.token.text == ":":
            raise self.fail("a range is START END here, as in VICE's monitor (py65 writes START:END)")
        self.accept(",")
        return first, self.optional_address()

    def count(self) -> Expression | None:
        return None if self.at_end() else self.expression()


def _parenthesized(expression: Expression) -> Expression:
    values = {name: getattr(expression, name) for name in expression.__dataclass_fields__}
    values["parenthesized"] = True
    return type(expression)(**values)


# -- commands ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Command:
    """One command: its canonical name, its arguments, and where it was written."""

    name: str
    column: int  # where the command starts in its line
    text: str  # the command as written
    args: dict[str, object] = field(default_factory=dict)


# canonical name -> the names VICE accepts for it (mon_lex.l)
COMMANDS: dict[str, tuple[str, ...]] = {
    "registers": ("registers", "r"), "mem": ("mem", "m"), "disass": ("disass", "d"),
    "step": ("step", "z"), "next": ("next", "n"), "return": ("return", "ret"), "goto": ("goto", "g"),
    "exit": ("exit", "x"), "quit": ("quit", "q"), "break": ("break", "bk"), "watch": ("watch", "w"),
    "until": ("until", "un"), "delete": ("delete", "del"), "enable": ("enable", "en"),
    "disable": ("disable", "dis"), "condition": ("condition", "cond"), "ignore": ("ignore",),
    "screen": ("screen", "sc"), "add_label": ("add_label", "al"), "load_labels": ("load_labels", "ll"),
    "show_labels": ("show_labels", "shl"), "keybuf": ("keybuf",), "enter_data": (">",),
    "help": ("help", "?"), "stopwatch": ("stopwatch", "sw"),
    "assemble": ("a",), "fill": ("fill", "f"), "hunt": ("hunt", "h"), "compare": ("compare", "c"),
    "move": ("move", "t"), "save": ("save", "s"), "load": ("load", "l"), "bsave": ("bsave", "bs"),
    "bload": ("bload", "bl"), "io": ("io",), "bank": ("bank",), "reset": ("reset",),
}
_BY_NAME = {alias: name for name, aliases in COMMANDS.items() for alias in aliases}
# VICE's other commands (vice/src/monitor/mon_lex.l): named when typed, not "unknown"
VICE_ONLY = frozenset("""attach autostart autoload block_read br backtrace bt
    block_write bw bverify bv cartfreeze cd clear_labels cl command cpu cpuhistory chis dir ls
    delete_label dl device dev detach dump export exp i ii jpdb list loadbasic ldb
    log logname memchar mc memmapsave mmsave memmapshow mmsh memmapzap mmzap mkdir memsprite ms
    playback pb print p profile prof pwd radix rad record rec resourceget resget resourceset resset
    load_resources resload save_resources ressave rmdir save_labels sl screenshot scrsh sidefx sfx
    dummy stop tapectrl tapeoffs trace tr undump updb verify v warp maincpu_trace ~ @""".split())


# py65's monitor's command names that VICE's (and so c64tc's) monitor spells otherwise: the
# command that does their work here
PY65_NAMES = {"disassemble": "d", "assemble": "a", "add_breakpoint": "break", "delete_breakpoint": "delete",
              "show_breakpoints": "break", "cycles": "stopwatch"}


def _py65_name(name: str, column: int) -> MonitorSyntaxError:
    return MonitorSyntaxError(f"'{name}' is py65's monitor's; c64tc's monitor, as VICE's, says "
                              f"'{PY65_NAMES[name.lower()]}' (help lists the commands)", column)


def parse_line(line: str) -> list[Command]:
    """The commands of one line (none for a blank line or a comment)."""
    commands: list[Command] = []
    position: int | None = 0
    while position is not None:
        start = len(line) - len(line[position:].lstrip())
        if start >= len(line) or line[start] == ";":  # the end, or a comment to the end of the line
            break
        word = re.match(r"[A-Za-z_]+", line[start:])
        if word and word.group().lower() == "a" and (start + 1 == len(line) or line[start + 1].isspace()):
            commands.append(_assemble_command(line, start))  # the rest of the line: instructions
            break
        if word and word.group().lower() == "assemble":  # py65's: its instructions would not tokenize
            raise _py65_name(word.group(), start + 1)
        if word and word.group().lower() == "keybuf":  # the rest of the line, as typed
            commands.append(Command("keybuf", start + 1, line[start:].rstrip(),
                                    {"text": line[start + word.end() :].strip()}))
            break
        tokens, position = _tokens(line, start)
        end = tokens[-1].column - 1
        commands.append(_command(tokens, line[start:end].rstrip()))
    return commands


# -- the assembler's lines (VICE's asm mode, mon_lex.l ASM_MODE and asm_operand_mode) ---------------

@dataclass(frozen=True)
class Instruction:
    """One instruction as typed after ``a``: its mnemonic and the operand's form, ``""``
    (none), ``"A"`` (the accumulator), ``"#"``, ``"n"``, ``"n,X"``, ``"n,Y"``, ``"(n)"``,
    ``"(n,X)"`` or ``"(n),Y"``, with the operand's expression."""

    mnemonic: str  # upper case
    form: str
    operand: Expression | None
    column: int  # 1-based, where the mnemonic starts
    text: str


_OPERAND_FORMS = (
    (re.compile(r"#(?P<n>.+)"), "#"),
    (re.compile(r"\((?P<n>.+),\s*[xX]\s*\)"), "(n,X)"),
    (re.compile(r"\((?P<n>.+)\)\s*,\s*[yY]"), "(n),Y"),
    (re.compile(r"\((?P<n>.+)\)"), "(n)"),
    (re.compile(r"(?P<n>.+?),\s*[xX]"), "n,X"),
    (re.compile(r"(?P<n>.+?),\s*[yY]"), "n,Y"),
    (re.compile(r"(?P<n>.+)"), "n"),
)


def parse_instruction(text: str, column: int = 1) -> Instruction:
    """One instruction (``lda ($fb),y``); ``column`` is where ``text`` starts in its line.
    ``A`` alone is the accumulator (``lsr a``; see :mod:`toolchain.monitor.assemble`)."""
    stripped = text.strip()
    offset = column + len(text) - len(text.lstrip())
    found = re.fullmatch(r"([A-Za-z]{2,4})(?:\s+(.*))?", stripped)
    if found is None:
        raise MonitorSyntaxError("an instruction: a mnemonic and its operand (lda #$01, sta $d020,x)", offset)
    mnemonic, operand_text = found.group(1).upper(), (found.group(2) or "").strip()
    operand_column = offset + (found.start(2) if found.group(2) is not None else len(stripped))
    if not operand_text:
        return Instruction(mnemonic, "", None, offset, stripped)
    if operand_text.upper() == "A":
        return Instruction(mnemonic, "A", None, offset, stripped)
    for pattern, form in _OPERAND_FORMS:
        matched = pattern.fullmatch(operand_text)
        if matched is None:
            continue
        inner = matched.group("n")
        tokens, following = _tokens(inner)
        if following is not None:
            raise MonitorSyntaxError("unexpected ';' in an instruction", operand_column + matched.start("n"))
        tokens = [Token(token.kind, token.text, token.column + operand_column - 1 + matched.start("n"),
                        token.value) for token in tokens]
        parser = _Parser(tokens, inner)
        expression = parser.expression()
        if not parser.at_end():
            raise parser.fail(f"unexpected {parser.describe(parser.token)} in the operand")
        return Instruction(mnemonic, form, expression, offset, stripped)
    raise MonitorSyntaxError("an operand", operand_column)  # pragma: no cover - "n" matches anything


def parse_instructions(text: str, column: int = 1) -> list[Instruction]:
    """Instructions separated by ``:`` (VICE's INST_SEP); none for an empty text."""
    if not text.strip():
        return []
    instructions = []
    for part in text.split(":"):
        if not part.strip():
            raise MonitorSyntaxError("an instruction between the ':'", column)
        instructions.append(parse_instruction(part, column))
        column += len(part) + 1
    return instructions


def parse_assembly_line(line: str) -> Command:
    """A line typed in assemble mode: instructions (``assemble_line``), or the empty
    line that ends the mode (``assemble_end``)."""
    if not line.strip():
        return Command("assemble_end", 1, "")
    return Command("assemble_line", 1, line.strip(), {"instructions": parse_instructions(line)})


def enters_assemble_mode(command: Command) -> bool:
    """``a ADDRESS`` with one instruction or none opens VICE's assemble mode."""
    instructions = command.args.get("instructions")
    return command.name == "assemble" and isinstance(instructions, list) and len(instructions) <= 1


def _assemble_command(line: str, start: int) -> Command:
    """``a ADDRESS [INSTRUCTION [: INSTRUCTION]...]``: the address, then instructions."""
    found = re.match(r"\s*(\S+)", line[start + 1 :])
    if found is None:
        raise MonitorSyntaxError("an address after 'a' (a c000 lda #$01)", len(line) + 1)
    address_start = start + 1 + found.start(1)
    tokens, _ = _tokens(line[: start + 1 + found.end(1)], address_start)
    parser = _Parser(tokens, line)
    address = parser.address()
    parser.expect_end()
    rest = start + 1 + found.end(1)
    return Command("assemble", start + 1, line[start:].rstrip(),
                   {"address": address, "instructions": parse_instructions(line[rest:], rest + 1)})


def _data_list(parser: _Parser, masks: bool = False) -> list[tuple[int, int]]:
    """VICE's data_list: numbers (one byte, two for a value above $FF, low first),
    strings (their characters' codes) and, for hunt, ``xx`` (any byte); as (value, mask)."""
    data: list[tuple[int, int]] = []
    while not parser.at_end():
        parser.accept(",")
        token = parser.token
        if token.kind == "string":
            parser.next()
            data += [(ord(character) & 0xFF, 0xFF) for character in token.text]
        elif masks and token.kind == "word" and token.text.lower() == "xx":
            parser.next()
            data.append((0, 0))
        else:
            expression = parser.expression()
            if not isinstance(expression, Number):
                raise parser.fail("a number or a \"string\" (labels and registers are not data)")
            value = expression.value
            if value > 0xFFFF:
                raise MonitorSyntaxError(f"${value:X} is more than two bytes", expression.column)
            data.append((value & 0xFF, 0xFF))
            if value > 0xFF:
                data.append((value >> 8, 0xFF))
    return data


def _device(parser: _Parser, wanted: str = "a device number after the file name: 0 (a file here) or 8 "
            "(the disk in drive 8)") -> int:
    """A device number, decimal as VICE reads it (d_number): 0 the file system, 8 the drive."""
    token = parser.token
    if token.kind == "number" and token.text.startswith("+"):
        parser.next()
        return token.value
    if token.kind == "word" and token.text.isdigit():
        parser.next()
        return int(token.text)
    raise parser.fail(wanted)


def _command(tokens: list[Token], text: str) -> Command:
    first = tokens[0]
    word = first.text.lower()
    name = _BY_NAME.get(word)
    parser = _Parser(tokens, text)
    parser.index = 1
    if name is None:
        if word in PY65_NAMES:
            raise _py65_name(first.text, first.column)
        if word in VICE_ONLY:
            raise MonitorSyntaxError(f"'{first.text}' is a command of VICE's monitor that c64tc's monitor "
                                     "does not have (help lists the commands)", first.column)
        raise MonitorSyntaxError(f"unknown command '{first.text}' (help lists the commands)", first.column)
    args: dict[str, object] = {}
    if name == "registers":
        assignments: list[tuple[str, Expression, int]] = []
        while not parser.at_end():
            register = parser.next()
            if register.kind != "word" or register.text.upper() not in ("A", "X", "Y", "PC", "SP", "FL"):
                raise parser.fail("a register to set: A, X, Y, PC, SP or FL (r A = $41)", register)
            if not parser.accept("="):
                raise parser.fail(f"'=' after {register.text.upper()}")
            assignments.append((register.text.upper(), parser.expression(), register.column))
            if not parser.accept(","):
                break
        args["assignments"] = assignments
    elif name in ("mem", "disass"):
        args["start"], args["end"] = parser.range()
    elif name in ("step", "next"):
        args["count"] = parser.count()
    elif name in ("goto", "until"):
        args["address"] = parser.optional_address()
    elif name in ("break", "watch"):
        operations: list[str] = []
        while (operation := parser.accept_word("load", "store", "exec")) is not None:
            operations.append(operation)
        if name == "watch" and "exec" in operations:
            raise parser.fail("watch is for load and store (break ADDRESS stops at code)")
        args["operations"] = operations
        args["start"], args["end"] = parser.range()
        condition = None
        if parser.accept_word("if") is not None:
            if args["start"] is None:
                raise parser.fail("a condition needs an address before 'if'")
            condition = parser.expression(registers=True)
        elif operations and args["start"] is None:
            raise parser.fail(f"an address after '{operations[-1]}'")
        args["condition"] = condition
    elif name in ("delete", "enable", "disable"):
        args["number"] = parser.count()
    elif name == "ignore":
        if parser.at_end():
            raise parser.fail("the checkpoint's number (ignore 1 5)")
        args["number"] = parser.expression()
        parser.accept(",")
        args["count"] = parser.count()
    elif name == "condition":
        if parser.at_end():
            raise parser.fail("the checkpoint's number (cond 1 if A == $41)")
        args["number"] = parser.expression()
        if parser.accept_word("if") is None:
            raise parser.fail("'if' and a condition (cond 1 if A == $41)")
        args["condition"] = parser.expression(registers=True)
    elif name == "add_label":
        args["address"] = parser.address()
        label = parser.next()
        if label.kind != "label":
            raise parser.fail("a label after the address, starting with a dot (al c000 .start)", label)
        args["label"] = label.text
    elif name == "load_labels":
        parser.accept_word("c")
        parser.accept(":")
        file = parser.next()
        if file.kind != "string":
            raise parser.fail('the file name in quotes (ll "build/superhirn2.labels")', file)
        args["file"] = file.text
    elif name == "enter_data":
        args["address"] = parser.address()
        data: list[Expression] = []
        while not parser.at_end():
            parser.accept(",")
            data.append(parser.expression())
        if not data:
            raise parser.fail("the bytes to write (> c000 a9 00)")
        args["data"] = data
    elif name == "help":
        args["topic"] = parser.next().text.lower() if not parser.at_end() else None
    elif name == "stopwatch":
        args["reset"] = parser.accept_word("reset") is not None
    elif name in ("fill", "hunt", "compare", "move"):
        args["start"] = parser.address()
        parser.accept(",")
        if parser.at_end():
            raise parser.fail(f"the end of the range ({first.text} 1000 10ff ...)")
        args["end"] = parser.address()
        parser.accept(",")
        if name in ("compare", "move"):
            if parser.at_end():
                raise parser.fail(f"the destination address ({first.text} 1000 10ff 2000)")
            args["destination"] = parser.address()
        else:
            bytes_given = _data_list(parser, masks=name == "hunt")
            if not bytes_given:
                raise parser.fail(f"the bytes to {'look for' if name == 'hunt' else 'fill with'} "
                                  f"({first.text} 1000 10ff 00 \"text\")")
            args["data"] = bytes_given
    elif name in ("save", "bsave", "load", "bload"):
        file = parser.next()
        if file.kind != "string":
            raise parser.fail(f'the file name in quotes ({first.text} "name.prg" 0 ...)', file)
        args["file"] = file.text
        args["device"] = _device(parser)
        parser.accept(",")
        if name in ("save", "bsave"):
            if parser.at_end():
                raise parser.fail(f"the range to save ({first.text} \"{file.text}\" {args['device']} "
                                  "1000 10ff)")
            args["start"] = parser.address()
            parser.accept(",")
            if parser.at_end():
                raise parser.fail("the end of the range to save")
            args["end"] = parser.address()
        else:
            args["address"] = None if parser.at_end() else parser.address()
            if name == "bload" and args["address"] is None:
                raise parser.fail(f"the address to load to (bload \"{file.text}\" {args['device']} 1000)")
    elif name == "io":
        args["address"] = parser.optional_address()
    elif name == "bank":
        bank = parser.token
        if parser.at_end():
            args["bank"] = None
        elif bank.kind == "word" and bank.text.lower() in BANKS:
            args["bank"] = parser.next().text.lower()
        else:
            raise parser.fail(f"a bank: {', '.join(BANKS)} (c64tc has no cartridge port)")
    elif name == "reset":
        args["kind"] = None if parser.at_end() else _device(parser, "the kind of reset: 0 (reset) or 1 "
                                                            "(power cycle)")
    parser.expect_end()
    return Command(name, first.column, text, args)
