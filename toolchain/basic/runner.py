"""Run a tokenized BASIC V2 program as the C64 would, compiled to Python.

The program's bytes (what LOAD puts at $0801) are compiled line by line into Python
functions, one per *segment*: a stretch of statements that is only ever entered at
its start (a line start, the statement after a FOR, the statement after a GOSUB).
A segment returns the number of the segment to run next; the dispatcher loop is
the whole interpreter.  Variables are globals of the generated module, numbers are
Python floats holding exactly the C64's 5-byte values (see ``floats``), strings
are ``str`` with one character per PETSCII byte.

The semantics follow the ROM where programs can see them: evaluation order and
rounding of operands (a left operand is rounded when the ROM pushes it, the right
one is used with its rounding byte), FOR/NEXT and GOSUB/RETURN on one stack,
errors raised when a statement executes (a syntax error in line 270 is only
reported when line 270 runs), printing through the same screen model as the
emulator, INPUT and GET through its keyboard.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from toolchain.basic import floats
from toolchain.basic.detokenizer import list_program, split_program
from toolchain.basic.tokenizer import TokenizedLine, link
from toolchain.basic.tokens import KEYWORDS
from toolchain.c64.machine import C64, DEFAULT_MAX_CYCLES, Keyboard
from toolchain.c64.memory import KEYBOARD_COUNT
from toolchain.c64.outcome import RunResult, Stop
from toolchain.disk.prg import Prg
from toolchain.petscii import char_to_petscii

TOKEN = {keyword.upper(): 0x80 + index for index, keyword in enumerate(KEYWORDS)}
PI_TOKEN = 0xFF
COLON, QUOTE, COMMA, SEMICOLON = 0x3A, 0x22, 0x2C, 0x3B
PLUS, MINUS, TIMES, DIVIDE, POWER = (TOKEN[k] for k in ("+", "-", "*", "/", "^"))
AND, OR, NOT = TOKEN["AND"], TOKEN["OR"], TOKEN["NOT"]
GREATER, EQUAL, LESS = TOKEN[">"], TOKEN["="], TOKEN["<"]
END_OF_PROGRAM = -1
# placeholders in generated code until the segments are numbered (never in a repr())
NEXT_MARK, LINE_MARK = "\x00next", "\x01"
# The 6502 stack holds FOR frames (18 bytes) and GOSUB frames (5 bytes, and the 2-byte
# return address of the statement dispatcher stays below them until RETURN).  The
# ROM's check ($A3FB) leaves room for 9 nested FORs and 23 nested GOSUBs; the limits
# below are calibrated on VICE: 9 FORs, 1 GOSUB + 9 FORs, and 23 GOSUBs fit, one more
# gives ?OUT OF MEMORY.
FOR_BYTES, GOSUB_BYTES = 18, 7
FOR_ROOM, GOSUB_ROOM = 156, 157  # the most bytes of frames a new FOR / GOSUB may find
BASIC_BYTES_FREE = 38911


class BasicError(Exception):
    """An error as the C64 reports it (``?SYNTAX  ERROR IN 270``)."""

    def __init__(self, name: str, line: int | None = None, note: str = "") -> None:
        super().__init__(name)
        self.name = name
        self.line = line
        self.note = note


class _Ended(Exception):
    def __init__(self, stop: Stop, message: str = "") -> None:
        super().__init__(message)
        self.stop = stop
        self.message = message


class _CompileError(Exception):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


# -- runtime helpers the generated code calls -------------------------------------------------

_add, _sub, _mul, _div, _pow = floats.add, floats.subtract, floats.multiply, floats.divide, floats.power
_rounded = floats.rounded


def _r(value: float) -> float:
    """Rounded as a variable stores it (integers below 2**32 are already)."""
    if -4294967296.0 < value < 4294967296.0 and value == int(value):
        return value
    return _rounded(value)


def _int16(value: float) -> int:
    if -32768.0 <= value < 32768.0:
        return int(value // 1)
    return floats.to_integer(value)


def _byte(value: float) -> int:
    if 0.0 <= value < 256.0:
        return int(value)
    raise BasicError("ILLEGAL QUANTITY")


def _address(value: float) -> int:
    if 0.0 <= value < 65536.0:
        return int(value)
    raise BasicError("ILLEGAL QUANTITY")


def _cmp(left: float, right: float) -> int:
    return floats.compare(left, right)


def _scmp(left: str, right: str) -> int:
    return (left > right) - (left < right)


def _concat(left: str, right: str) -> str:
    text = left + right
    if len(text) > 255:
        raise BasicError("STRING TOO LONG")
    return text


def _val(text: str) -> float:
    """VAL: FIN on the string; a plain digit string (what STR$ makes of an integer,
    with its space cut off) needs no ROM steps to be exact."""
    if text.isascii() and text.isdigit() and len(text) < 10:
        return float(text)
    return floats.parse_number(text.encode("latin-1"))[0]


def _mid(text: str, start: float, length: float = 255.0) -> str:
    if 1.0 <= start < 256.0 and 0.0 <= length < 256.0:
        first = int(start) - 1
        return text[first : first + int(length)]
    first = _byte(start)
    if first == 0:
        raise BasicError("ILLEGAL QUANTITY")
    return text[first - 1 : first - 1 + _byte(length)]


def _left(text: str, length: float) -> str:
    return text[: _byte(length)]


def _right(text: str, length: float) -> str:
    count = _byte(length)
    return text[len(text) - count :] if count else ""


def _chr(value: float) -> str:
    return chr(_byte(value))


def _asc(text: str) -> float:
    if not text:
        raise BasicError("ILLEGAL QUANTITY")
    return float(ord(text[0]))


def _bool(value: bool) -> float:
    return -1.0 if value else 0.0


def _and(left: float, right: float) -> float:
    return float(_int16(left) & _int16(right))


def _or(left: float, right: float) -> float:
    return float(_int16(left) | _int16(right))


def _not(value: float) -> float:
    return float(~_int16(value))


def _floats_call(function: Callable[..., float]) -> Callable[..., float]:
    def call(*arguments: float) -> float:
        try:
            return function(*arguments)
        except floats.FloatError as error:
            raise BasicError(error.error) from None

    return call


class _Array:
    """A dimensioned array: flat storage, C64 bounds (0..n in each dimension)."""

    __slots__ = ("data", "sizes", "kind", "size0")

    def __init__(self, sizes: tuple[int, ...], kind: str) -> None:
        self.sizes = sizes
        # get1/set1 serve one subscript; an array of more dimensions sends them on
        self.size0 = sizes[0] if len(sizes) == 1 else -len(sizes)
        self.kind = kind
        count = 1
        for size in sizes:
            count *= size
        self.data: list = ["" if kind == "S" else (0 if kind == "I" else 0.0)] * count

    def _offset(self, indexes: tuple[float, ...]) -> int:
        if len(indexes) != len(self.sizes):
            raise BasicError("BAD SUBSCRIPT")
        offset = 0
        for index, size in zip(indexes, self.sizes, strict=True):
            if not 0.0 <= index < size:
                if index < 0 or index >= 32768:
                    raise BasicError("ILLEGAL QUANTITY")
                raise BasicError("BAD SUBSCRIPT")
            offset = offset * size + int(index)
        return offset

    def get1(self, index: float):  # noqa: ANN201
        if 0.0 <= index < self.size0:
            value = self.data[int(index)]
            return float(value) if self.kind == "I" else value
        return self.get(index)

    def set1(self, value, index: float) -> None:  # noqa: ANN001
        if 0.0 <= index < self.size0 and self.kind != "I":
            self.data[int(index)] = value
        else:
            self.set(value, index)

    def get2(self, first: float, second: float):  # noqa: ANN201
        if self.size0 == -2 and 0.0 <= first < self.sizes[0] and 0.0 <= second < self.sizes[1]:
            value = self.data[int(first) * self.sizes[1] + int(second)]
            return float(value) if self.kind == "I" else value
        return self.get(first, second)

    def set2(self, value, first: float, second: float) -> None:  # noqa: ANN001
        if (self.size0 == -2 and self.kind != "I" and 0.0 <= first < self.sizes[0]
                and 0.0 <= second < self.sizes[1]):
            self.data[int(first) * self.sizes[1] + int(second)] = value
        else:
            self.set(value, first, second)

    def get(self, *indexes: float):  # noqa: ANN201
        if len(indexes) == 1 and len(self.sizes) == 1:
            index = indexes[0]
            if 0.0 <= index < self.sizes[0]:
                value = self.data[int(index)]
                return float(value) if self.kind == "I" else value
        value = self.data[self._offset(indexes)]
        return float(value) if self.kind == "I" else value

    def set(self, value, *indexes: float) -> None:  # noqa: ANN001
        if self.kind == "I":
            value = _int16(value)
        if len(indexes) == 1 and len(self.sizes) == 1 and 0.0 <= indexes[0] < self.sizes[0]:
            self.data[int(indexes[0])] = value
            return
        self.data[self._offset(indexes)] = value


class _Undimensioned:
    """An array not yet DIMed: the first use dimensions it to 10 in each subscript."""

    __slots__ = ("namespace", "name", "kind")

    def __init__(self, namespace: dict, name: str, kind: str) -> None:
        self.namespace, self.name, self.kind = namespace, name, kind

    def _create(self, count: int) -> _Array:
        array = self.namespace["rt"].new_array((11,) * count, self.kind)
        self.namespace[self.name] = array
        return array

    def get(self, *indexes: float):  # noqa: ANN201
        return self._create(len(indexes)).get(*indexes)

    def set(self, value, *indexes: float) -> None:  # noqa: ANN001
        self._create(len(indexes)).set(value, *indexes)

    def get1(self, index: float):  # noqa: ANN201
        return self.get(index)

    def get2(self, first: float, second: float):  # noqa: ANN201
        return self.get(first, second)

    def set2(self, value, first: float, second: float) -> None:  # noqa: ANN001
        self.set(value, first, second)

    def set1(self, value, index: float) -> None:  # noqa: ANN001
        self.set(value, index)


def _undefined_function(*_: float) -> float:
    raise BasicError("UNDEF'D FUNCTION")


# -- the compiler -------------------------------------------------------------------------------

@dataclass
class _Line:
    number: int
    body: bytes


@dataclass
class _Segment:
    line: int
    code: list[str] = field(default_factory=list)


class _Compiler:
    """Tokenized lines -> Python source of segment functions."""

    def __init__(self, lines: list[_Line]) -> None:
        self.lines = lines
        self.line_first_segment: dict[int, int] = {}
        self.segments: list[_Segment] = []
        self.variables: dict[str, str] = {}  # Python name -> kind (N, I, S, AN, AI, AS, FN)
        self.temporary = 0
        self.pending_jumps: list[tuple[int, int, str]] = []

    # -- bytes -------------------------------------------------------------------------------
    def peek(self) -> int:
        body, position = self.body, self.position
        while position < len(body) and body[position] == 0x20:
            position += 1
        self.position = position
        return body[position] if position < len(body) else 0

    def take(self) -> int:
        byte = self.peek()
        self.position += 1
        return byte

    def expect(self, byte: int) -> None:
        if self.take() != byte:
            raise _CompileError("SYNTAX")

    def at_statement_end(self) -> bool:
        return self.peek() in (0, COLON)

    # -- variables ---------------------------------------------------------------------------
    def variable_name(self) -> tuple[str, str]:
        """Name and kind (N, I, S) at the current position; two characters count."""
        first = self.peek()
        if not 0x41 <= first <= 0x5A:
            raise _CompileError("SYNTAX")
        self.position += 1
        name = chr(first)
        body = self.body
        while self.position < len(body) and (0x41 <= body[self.position] <= 0x5A
                                             or 0x30 <= body[self.position] <= 0x39):
            if len(name) < 2:
                name += chr(body[self.position])
            self.position += 1
        kind = "N"
        if self.position < len(body) and body[self.position] == 0x24:
            kind = "S"
            self.position += 1
        elif self.position < len(body) and body[self.position] == 0x25:
            kind = "I"
            self.position += 1
        return name, kind

    def declare(self, python_name: str, kind: str) -> str:
        self.variables[python_name] = kind
        return python_name

    def subscripts(self) -> list[str]:
        self.expect(0x28)
        indexes = [self.numeric()]
        while self.peek() == COMMA:
            self.position += 1
            indexes.append(self.numeric())
        self.expect(0x29)
        return indexes

    # -- expressions: (python code, type 'N' or 'S', exact: a value as stored) ------------------
    def numeric(self) -> str:
        code, kind, _ = self.expression()
        if kind != "N":
            raise _CompileError("TYPE MISMATCH")
        return code

    def string(self) -> str:
        code, kind, _ = self.expression()
        if kind != "S":
            raise _CompileError("TYPE MISMATCH")
        return code

    def expression(self, minimum: int = 0) -> tuple[str, str, bool]:
        left = self.unary()
        while True:
            byte = self.peek()
            if byte in (GREATER, EQUAL, LESS):
                precedence = 100
            elif byte in (PLUS, MINUS):
                precedence = 121
            elif byte in (TIMES, DIVIDE):
                precedence = 123
            elif byte == POWER:
                precedence = 127
            elif byte == AND:
                precedence = 80
            elif byte == OR:
                precedence = 70
            else:
                return left
            if precedence <= minimum:
                return left
            if precedence == 100:
                relation = 0
                while self.peek() in (GREATER, EQUAL, LESS):
                    relation |= {GREATER: 1, EQUAL: 2, LESS: 4}[self.take()]
                right = self.expression(precedence)
                left = self.relation(left, right, relation)
                continue
            self.position += 1
            right = self.expression(precedence)
            left = self.binary(byte, left, right)

    def relation(self, left: tuple[str, str, bool], right: tuple[str, str, bool],
                 relation: int) -> tuple[str, str, bool]:
        if left[1] != right[1]:
            raise _CompileError("TYPE MISMATCH")
        operator = {1: ">", 2: "==", 3: ">=", 4: "<", 5: "!=", 6: "<=", 7: None}[relation]
        if operator is None:
            return "-1.0", "N", True
        if left[1] == "S":
            test = f"(_scmp({left[0]}, {right[0]}) {operator} 0)"
        elif right[2]:
            # the right operand has no rounding byte: a plain comparison with the
            # rounded left one is the ROM's
            test = f"({self.stored(left)} {operator} {right[0]})"
        else:
            test = f"(_cmp({self.stored(left)}, {right[0]}) {operator} 0)"
        return f"_bool{test}", "N", True

    def stored(self, operand: tuple[str, str, bool]) -> str:
        """A left operand as the ROM pushes it: rounded."""
        return operand[0] if operand[2] else f"_r({operand[0]})"

    def binary(self, operator: int, left: tuple[str, str, bool],
               right: tuple[str, str, bool]) -> tuple[str, str, bool]:
        if operator == PLUS and left[1] == "S" and right[1] == "S":
            return f"_concat({left[0]}, {right[0]})", "S", True
        if left[1] != "N" or right[1] != "N":
            raise _CompileError("TYPE MISMATCH")
        if operator in (AND, OR):
            if left[0].startswith("_bool(") and right[0].startswith("_bool("):
                # both sides are -1 or 0: the bitwise result is the logical one
                symbol = "&" if operator == AND else "|"
                return f"_bool({left[0][5:]} {symbol} {right[0][5:]})", "N", True
            function = "_and" if operator == AND else "_or"
            return f"{function}({self.stored(left)}, {right[0]})", "N", True
        function = {PLUS: "_add", MINUS: "_sub", TIMES: "_mul", DIVIDE: "_fdiv", POWER: "_fpow"}[operator]
        return f"{function}({self.stored(left)}, {right[0]})", "N", False

    def unary(self) -> tuple[str, str, bool]:
        byte = self.peek()
        if byte == MINUS:
            self.position += 1
            code, kind, exact = self.expression(125)
            if kind != "N":
                raise _CompileError("TYPE MISMATCH")
            return f"(-{code} or 0.0)", "N", exact
        if byte == PLUS:
            self.position += 1
            return self.unary()
        if byte == NOT:
            self.position += 1
            code, kind, _ = self.expression(90)
            if kind != "N":
                raise _CompileError("TYPE MISMATCH")
            return f"_not({code})", "N", True
        return self.primary()

    def primary(self) -> tuple[str, str, bool]:
        byte = self.peek()
        if 0x30 <= byte <= 0x39 or byte == 0x2E:
            value, end = floats.parse_number(self.body, self.position)
            self.position = end
            return repr(value), "N", value == floats.rounded(value)
        if byte == QUOTE:
            self.position += 1
            end = self.body.find(b'"', self.position)
            if end < 0:
                end = len(self.body)
            text = self.body[self.position : end].decode("latin-1")
            self.position = min(end + 1, len(self.body))
            return repr(text), "S", True
        if byte == 0x28:
            self.position += 1
            inner = self.expression()
            self.expect(0x29)
            return inner
        if byte == PI_TOKEN:
            self.position += 1
            return repr(floats.PI), "N", True
        if 0x41 <= byte <= 0x5A:
            return self.variable_reference()
        if byte == TOKEN["FN"]:
            self.position += 1
            name, kind = self.variable_name()
            if kind != "N":
                raise _CompileError("SYNTAX")
            self.expect(0x28)
            argument = self.numeric()
            self.expect(0x29)
            return f"{self.declare('FN_' + name, 'FN')}({argument})", "N", False
        if TOKEN["SGN"] <= byte <= TOKEN["MID$"]:
            self.position += 1
            return self.function(byte)
        raise _CompileError("SYNTAX")

    def variable_reference(self) -> tuple[str, str, bool]:
        name, kind = self.variable_name()
        if self.peek() == 0x28:
            indexes = self.subscripts()
            array = self.declare(f"A{kind}_{name}", "A" + kind)
            method = {1: "get1", 2: "get2"}.get(len(indexes), "get")
            return f"{array}.{method}({', '.join(indexes)})", "S" if kind == "S" else "N", True
        if name == "TI" and kind == "N":
            return "rt.jiffies()", "N", True
        if name == "TI" and kind == "S":
            return "rt.time_string()", "S", True
        if name == "ST" and kind == "N":
            return "0.0", "N", True
        python_name = self.declare(f"{kind}_{name}", kind)
        if kind == "I":
            return f"float({python_name})", "N", True
        return python_name, "S" if kind == "S" else "N", True

    def function(self, token: int) -> tuple[str, str, bool]:
        keyword = KEYWORDS[token - 0x80].upper()
        if keyword in ("LEFT$", "RIGHT$", "MID$"):
            self.expect(0x28)
            text = self.string()
            self.expect(COMMA)
            arguments = [text, self.numeric()]
            if keyword == "MID$" and self.peek() == COMMA:
                self.position += 1
                arguments.append(self.numeric())
            self.expect(0x29)
            helper = {"LEFT$": "_left", "RIGHT$": "_right", "MID$": "_mid"}[keyword]
            return f"{helper}({', '.join(arguments)})", "S", True
        self.expect(0x28)
        argument = self.expression()
        self.expect(0x29)
        code, kind, exact = argument
        string_argument = keyword in ("LEN", "VAL", "ASC")
        if (kind == "S") != string_argument:
            raise _CompileError("TYPE MISMATCH")
        simple = {
            "SGN": ("floats.sgn({})", True), "INT": ("_floor({})", True), "ABS": ("abs({})", exact),
            "USR": ("rt.usr({})", False), "FRE": ("rt.free()", True), "POS": ("rt.position()", True),
            "SQR": ("_sqr({})", False), "RND": ("rt.rnd({})", True), "LOG": ("_log({})", False),
            "EXP": ("_exp({})", False), "COS": ("_cos({})", False), "SIN": ("_sin({})", False),
            "TAN": ("_tan({})", False), "ATN": ("_atn({})", False), "PEEK": ("rt.peek({})", True),
            "LEN": ("float(len({}))", True), "VAL": ("_val({})", False),
            "ASC": ("_asc({})", True),
        }
        if keyword in simple:
            template, result_exact = simple[keyword]
            return template.format(code), "N", result_exact
        if keyword == "STR$":
            return f"_str({code})", "S", True
        if keyword == "CHR$":
            return f"_chr({code})", "S", True
        raise _CompileError("SYNTAX")

    # -- statements --------------------------------------------------------------------------
    def compile(self) -> tuple[str, list[int]]:
        for line in self.lines:
            self.line_first_segment[line.number] = len(self.segments)
            self.segments.append(_Segment(line.number))
            self.body = line.body
            self.position = 0
            self.indent = 1
            self.compile_line(line)
        return self.source()

    def emit(self, code: str) -> None:
        self.segments[-1].code.append("    " * self.indent + code)

    def new_segment(self, line: int) -> int:
        self.emit(f"return {len(self.segments)}")
        self.segments.append(_Segment(line))
        self.indent = 1
        return len(self.segments) - 1

    def jump(self, number: int) -> str:
        """The code that goes to a line (checked when the program is linked)."""
        self.pending_jumps.append((len(self.segments) - 1, len(self.segments[-1].code), str(number)))
        return f"return {LINE_MARK}{number}{LINE_MARK}"

    def next_line_marker(self) -> str:
        return "return " + NEXT_MARK

    def compile_line(self, line: _Line) -> None:
        while True:
            start = self.position
            try:
                done = self.statement(line.number)
            except _CompileError as error:
                self.emit(f"raise BasicError({error.name!r})")
                return
            if done is None:  # THEN: a statement follows without a colon
                continue
            if done:
                return
            byte = self.peek()
            if byte == 0:
                self.emit(self.next_line_marker())
                return
            if byte != COLON:
                self.emit("raise BasicError('SYNTAX')")
                return
            self.position += 1
            if self.position == start:
                return

    def statement(self, number: int) -> bool | None:
        """Compile one statement; True if the rest of the line is not reached, None if
        another statement follows directly (after THEN)."""
        byte = self.peek()
        if byte == 0:
            self.emit(self.next_line_marker())
            return True
        if byte == COLON:
            return False
        if 0x41 <= byte <= 0x5A:
            self.assignment()
            return False
        if byte == TOKEN["LET"]:
            self.position += 1
            self.assignment()
            return False
        if byte == PI_TOKEN or byte < 0x80 or byte > TOKEN["NEW"] and byte != TOKEN["GO"]:
            raise _CompileError("SYNTAX")
        self.position += 1
        keyword = "GO" if byte == TOKEN["GO"] else KEYWORDS[byte - 0x80].upper()
        handler = getattr(self, "statement_" + keyword.replace("#", "_FILE").replace("$", "_S"), None)
        if handler is None:
            raise _CompileError("SYNTAX")
        return handler(number)

    def assignment(self) -> None:
        name, kind = self.variable_name()
        if self.peek() == 0x28:
            indexes = self.subscripts()
            self.expect(EQUAL)
            array = self.declare(f"A{kind}_{name}", "A" + kind)
            value = self.value_for(kind)
            method = {1: "set1", 2: "set2"}.get(len(indexes), "set")
            self.emit(f"{array}.{method}({value}, {', '.join(indexes)})")
            return
        self.expect(EQUAL)
        if name == "TI" and kind == "S":
            self.emit(f"rt.set_time({self.string()})")
            return
        if name in ("TI", "ST"):
            raise _CompileError("SYNTAX")
        target = self.declare(f"{kind}_{name}", kind)
        self.emit(f"{target} = {self.value_for(kind)}")

    def value_for(self, kind: str) -> str:
        code, value_kind, exact = self.expression()
        if (value_kind == "S") != (kind == "S"):
            raise _CompileError("TYPE MISMATCH")
        if kind == "I":
            # assigning to an integer rounds first, then floors ($A9C4)
            return f"_int16({code})" if exact else f"_int16(_r({code}))"
        if kind == "N" and not exact:
            return f"_r({code})"
        return code

    def statement_END(self, number: int) -> bool:
        self.emit("return -1")
        return True

    def statement_REM(self, number: int) -> bool:
        self.emit(self.next_line_marker())
        return True

    def statement_DATA(self, number: int) -> bool:
        in_quote = False
        while self.position < len(self.body):
            byte = self.body[self.position]
            if byte == QUOTE:
                in_quote = not in_quote
            elif byte == COLON and not in_quote:
                break
            self.position += 1
        return False

    def statement_GOTO(self, number: int) -> bool:
        target = self.line_number()
        self.emit(self.jump(target))
        return True

    def statement_GO(self, number: int) -> bool:
        if self.take() != TOKEN["TO"]:
            raise _CompileError("SYNTAX")
        return self.statement_GOTO(number)

    def line_number(self) -> int:
        self.peek()
        start = self.position
        while self.position < len(self.body) and 0x30 <= self.body[self.position] <= 0x39:
            self.position += 1
        digits = self.body[start : self.position]
        if not digits:
            return 0  # GOTO without a number goes to line 0, as on the C64
        value = int(digits)
        if value > 63999:
            raise _CompileError("SYNTAX")
        return value

    def statement_GOSUB(self, number: int) -> bool:
        target = self.line_number()
        self.emit(f"rt.push_gosub({len(self.segments)}, {number})")
        self.emit(self.jump(target))
        self.segments.append(_Segment(number))
        self.indent = 1
        return False

    def statement_RETURN(self, number: int) -> bool:
        self.emit("return rt.pop_gosub()")
        return True

    def statement_RUN(self, number: int) -> bool:
        self.emit("rt.clear()")
        if self.at_statement_end():
            self.emit("return 0")
        else:
            self.emit(self.jump(self.line_number()))
        return True

    def statement_IF(self, number: int) -> bool:
        code, kind, _ = self.expression()
        if kind == "S":
            code = f"len({code})"
        condition = code[5:] if code.startswith("_bool(") else f"({code})"
        byte = self.take()
        if byte == TOKEN["GOTO"]:
            self.emit(f"if {condition}: {self.jump(self.line_number())}")
            return self.skip_rest()
        if byte != TOKEN["THEN"]:
            raise _CompileError("SYNTAX")
        self.emit(f"if not {condition}: {self.next_line_marker()}")
        if 0x30 <= self.peek() <= 0x39:
            self.emit(self.jump(self.line_number()))
            return True
        return None

    def skip_rest(self) -> bool:
        self.emit(self.next_line_marker())
        return True

    def statement_FOR(self, number: int) -> bool:
        name, kind = self.variable_name()
        if kind != "N" or self.peek() == 0x28:
            raise _CompileError("SYNTAX")
        variable = self.declare(f"N_{name}", "N")
        self.expect(EQUAL)
        start = self.value_for("N")
        self.expect(TOKEN["TO"])
        limit = self.value_for("N")
        step = "1.0"
        if self.peek() == TOKEN["STEP"]:
            self.position += 1
            step = self.value_for("N")
        self.emit(f"{variable} = {start}")
        self.emit(f"rt.push_for({variable!r}, {limit}, {step}, {len(self.segments)}, {number})")
        self.new_segment(number)
        return False

    def statement_NEXT(self, number: int) -> bool:
        names = [None]
        if not self.at_statement_end():
            names = []
            while True:
                name, kind = self.variable_name()
                if kind != "N":
                    raise _CompileError("SYNTAX")
                names.append(self.declare(f"N_{name}", "N"))
                if self.peek() != COMMA:
                    break
                self.position += 1
        for variable in names:
            if variable is None:
                self.emit("frame = STACK[-1] if STACK and STACK[-1][0] else rt.for_frame(None)")
                self.emit("x = globals_[frame[0]]")
            else:
                self.emit(f"frame = STACK[-1] if STACK and STACK[-1][0] == {variable!r} "
                          f"else rt.for_frame({variable!r})")
                self.emit(f"x = {variable}")
            # integers stay exact (see floats.add); anything else goes through the ROM's add
            self.emit("v = x + frame[2]")
            self.emit("if not (-4294967296.0 < v < 4294967296.0 and v == int(v)): "
                      "v = _r(_add(x, frame[2]))")
            if variable is None:
                self.emit("globals_[frame[0]] = v")
            else:
                self.emit(f"{variable} = v")
            # the ROM compares the stored (rounded) value with the limit: exact floats
            self.emit("if (v > frame[1]) - (v < frame[1]) != frame[3]: return frame[4]")
            self.emit("rt.pop_for()")
        return False

    def statement_DIM(self, number: int) -> bool:
        while True:
            name, kind = self.variable_name()
            indexes = self.subscripts()
            array = self.declare(f"A{kind}_{name}", "A" + kind)
            self.emit(f"rt.dim({array!r}, {kind!r}, {', '.join(indexes)})")
            if self.peek() != COMMA:
                return False
            self.position += 1

    def statement_PRINT(self, number: int) -> bool:
        return self.print_items("rt.output")

    def statement_PRINT_FILE(self, number: int) -> bool:
        channel = self.numeric()
        self.emit(f"out = rt.channel_output({channel})")
        if self.peek() == COMMA:
            self.position += 1
        return self.print_items("out")

    def statement_CMD(self, number: int) -> bool:
        channel = self.numeric()
        self.emit(f"rt.cmd({channel})")
        if self.peek() == COMMA:
            self.position += 1
        return self.print_items("rt.output")

    def print_items(self, output: str) -> bool:
        newline = True
        while not self.at_statement_end():
            byte = self.peek()
            newline = False
            if byte == SEMICOLON:
                self.position += 1
                continue
            if byte == COMMA:
                self.position += 1
                self.emit(f"{output}.comma()")
                continue
            if byte in (TOKEN["TAB("], TOKEN["SPC("]):
                self.position += 1
                amount = self.numeric()
                self.expect(0x29)
                method = "tab" if byte == TOKEN["TAB("] else "spc"
                self.emit(f"{output}.{method}(_byte({amount}))")
                continue
            code, kind, _ = self.expression()
            self.emit(f"{output}.{'text' if kind == 'S' else 'number'}({code})")
            newline = self.at_statement_end()
        if newline:
            self.emit(f"{output}.newline()")
        return False

    def statement_INPUT(self, number: int) -> bool:
        prompt = "''"
        if self.peek() == QUOTE:
            prompt = self.primary()[0]
            self.expect(SEMICOLON)
        return self.input_items(f"rt.input({prompt}, {{}})")

    def statement_INPUT_FILE(self, number: int) -> bool:
        channel = self.numeric()
        self.expect(COMMA)
        return self.input_items(f"rt.input_file({channel}, {{}})")

    def targets(self) -> list[tuple[str, str, list[str] | None]]:
        targets = []
        while True:
            name, kind = self.variable_name()
            indexes = self.subscripts() if self.peek() == 0x28 else None
            if indexes is None and name in ("TI", "ST"):
                raise _CompileError("SYNTAX")
            targets.append((name, kind, indexes))
            if self.peek() != COMMA:
                return targets
            self.position += 1

    @staticmethod
    def value_kinds(targets: list[tuple[str, str, list[str] | None]]) -> str:
        """One letter per target: S for a string, N for a number (integers included)."""
        return "".join("S" if kind == "S" else "N" for _, kind, _ in targets)

    def assign_targets(self, values: str, targets: list[tuple[str, str, list[str] | None]]) -> None:
        for position, (name, kind, indexes) in enumerate(targets):
            value = f"{values}[{position}]"
            self.emit(f"if {values} is not rt.unchanged:")
            self.indent += 1
            if kind == "I":
                value = f"_int16(_r({value}))"
            if indexes is None:
                self.emit(f"{self.declare(f'{kind}_{name}', kind)} = {value}")
            else:
                array = self.declare(f"A{kind}_{name}", "A" + kind)
                self.emit(f"{array}.set({value}, {', '.join(indexes)})")
            self.indent -= 1

    def input_items(self, call: str) -> bool:
        targets = self.targets()
        kinds = self.value_kinds(targets)
        self.emit(f"values = {call.format(repr(kinds))}")
        # an empty line leaves the variables and goes on after the INPUT statement ($ABEA)
        self.emit("if values is None: values = rt.unchanged")
        self.assign_targets("values", targets)
        return False

    def statement_GET(self, number: int) -> bool:
        channel = None
        if self.peek() == ord("#"):
            self.position += 1
            channel = self.numeric()
            self.expect(COMMA)
        targets = self.targets()
        kinds = self.value_kinds(targets)
        self.emit(f"values = rt.get({kinds!r}, {channel})")
        self.assign_targets("values", targets)
        return False

    def statement_READ(self, number: int) -> bool:
        targets = self.targets()
        kinds = self.value_kinds(targets)
        self.emit(f"values = rt.read({kinds!r})")
        self.assign_targets("values", targets)
        return False

    def statement_RESTORE(self, number: int) -> bool:
        self.emit("rt.data_position = 0")
        return False

    def statement_STOP(self, number: int) -> bool:
        self.emit("rt.stop_statement()")
        return True

    def statement_ON(self, number: int) -> bool:
        selector = self.numeric()
        kind = self.take()
        if kind not in (TOKEN["GOTO"], TOKEN["GOSUB"]):
            raise _CompileError("SYNTAX")
        targets = [self.line_number()]
        while self.peek() == COMMA:
            self.position += 1
            targets.append(self.line_number())
        self.emit(f"choice = _byte({selector})")
        if kind == TOKEN["GOSUB"]:
            self.emit(f"if 1 <= choice <= {len(targets)}: rt.push_gosub({len(self.segments)}, {number})")
        for index, target in enumerate(targets, start=1):
            self.emit(f"if choice == {index}: {self.jump(target)}")
        if kind == TOKEN["GOSUB"]:
            self.new_segment(number)
        return False

    def statement_WAIT(self, number: int) -> bool:
        address = self.numeric()
        self.expect(COMMA)
        mask = self.numeric()
        invert = "0.0"
        if self.peek() == COMMA:
            self.position += 1
            invert = self.numeric()
        self.emit(f"rt.wait({address}, {mask}, {invert})")
        return False

    def statement_POKE(self, number: int) -> bool:
        address = self.numeric()
        self.expect(COMMA)
        value = self.numeric()
        self.emit(f"rt.poke(_address({address}), _byte({value}))")
        return False

    def statement_SYS(self, number: int) -> bool:
        self.emit(f"rt.sys(_address({self.numeric()}))")
        # the ROM skips whatever follows the address up to the end of the statement
        while not self.at_statement_end():
            self.take()
        return False

    def statement_DEF(self, number: int) -> bool:
        if self.take() != TOKEN["FN"]:
            raise _CompileError("SYNTAX")
        name, kind = self.variable_name()
        self.expect(0x28)
        parameter, parameter_kind = self.variable_name()
        if kind != "N" or parameter_kind != "N":
            raise _CompileError("SYNTAX")
        self.expect(0x29)
        self.expect(EQUAL)
        body = self.numeric()
        function = self.declare(f"FN_{name}", "FN")
        variable = self.declare(f"N_{parameter}", "N")
        self.emit(f"{function} = rt.define_function({variable!r}, lambda: {body})")
        return False

    def statement_CLR(self, number: int) -> bool:
        self.emit("rt.clear()")
        return False

    def statement_NEW(self, number: int) -> bool:
        self.emit("return -1")
        return True

    def statement_LIST(self, number: int) -> bool:
        self.emit("rt.list_program()")
        self.emit("return -1")
        return True

    def statement_CONT(self, number: int) -> bool:
        self.emit("raise BasicError(\"CAN'T CONTINUE\")")
        return True

    def statement_OPEN(self, number: int) -> bool:
        arguments = [self.numeric()]
        while self.peek() == COMMA and len(arguments) < 3:
            self.position += 1
            arguments.append(self.numeric())
        name = "''"
        if self.peek() == COMMA:
            self.position += 1
            name = self.string()
        while len(arguments) < 3:
            arguments.append("None")
        self.emit(f"rt.open_file({', '.join(arguments)}, {name})")
        return False

    def statement_CLOSE(self, number: int) -> bool:
        self.emit(f"rt.close_file({self.numeric()})")
        return False

    def _device_statement(self, name: str) -> bool:
        while not self.at_statement_end():
            self.take()
        self.emit(f"rt.device_statement({name!r})")
        return False

    def statement_LOAD(self, number: int) -> bool:
        return self._device_statement("LOAD")

    def statement_SAVE(self, number: int) -> bool:
        return self._device_statement("SAVE")

    def statement_VERIFY(self, number: int) -> bool:
        return self._device_statement("VERIFY")

    # -- linking -----------------------------------------------------------------------------
    def source(self) -> tuple[str, list[int]]:
        """The Python module, and for each of its lines the BASIC line it comes from."""
        next_line: dict[int, int] = {}
        numbers = [line.number for line in self.lines]
        for index, number in enumerate(numbers):
            following = numbers[index + 1] if index + 1 < len(numbers) else None
            next_line[number] = self.line_first_segment[following] if following is not None else -1
        resolved = [self._resolve(segment, next_line[segment.line]) for segment in self.segments]
        out = ["def _make():"]
        lines = [0]
        names = sorted(self.variables)
        for index in range(len(self.segments)):
            out.append(f"    def s{index}():")
            lines.append(self.segments[index].line)
            if names:
                out.append(f"        global {', '.join(names)}")
                lines.append(self.segments[index].line)
            for code, line in self._superblock(index, resolved):
                out.append("    " + code)
                lines.append(line)
        out.append(f"    return [{', '.join(f's{i}' for i in range(len(self.segments)))}]")
        lines.append(0)
        return "\n".join(out) + "\n", lines

    def _resolve(self, segment: _Segment, following: int) -> list[str]:
        resolved = []
        for code in segment.code or ["    " + self.next_line_marker()]:
            code = code.replace(NEXT_MARK, str(following))
            while LINE_MARK in code:
                start = code.index(LINE_MARK)
                end = code.index(LINE_MARK, start + 1)
                target = self.line_first_segment.get(int(code[start + 1 : end]))
                replacement = str(target) if target is not None else "rt.undefined_statement()"
                code = code[:start] + replacement + code[end + 1 :]
            resolved.append(code)
        return resolved

    MAX_SUPERBLOCK = 6

    def _superblock(self, index: int, resolved: list[list[str]]) -> list[tuple[str, int]]:
        """A segment's code followed by the segments it always goes on to (a line
        falling through to the next, a FOR into its body, a GOTO): one call less
        for the dispatcher each time.  The jumped-to segments stay where they are
        for everyone else who jumps there."""
        code: list[tuple[str, int]] = []
        seen = set()
        while True:
            seen.add(index)
            line = self.segments[index].line
            body = resolved[index]
            last = body[-1].strip()
            target = int(last[7:]) if last.startswith("return ") and last[7:].isdigit() else None
            if (target is None or target in seen or len(seen) >= self.MAX_SUPERBLOCK
                    or body[-1].startswith("        ")):
                code.extend((statement, line) for statement in body)
                return code
            code.extend((statement, line) for statement in body[:-1])
            index = target

# -- output channels ----------------------------------------------------------------------------

class _ScreenOutput:
    """PRINT to the screen: numbers end in cursor-right, commas move by cursor-right."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    def byte(self, value: int) -> None:
        self.runtime.machine.print_byte(value)

    def text(self, text: str) -> None:
        print_byte = self.runtime.machine.print_byte
        for character in text:
            print_byte(ord(character))

    def number(self, value: float) -> None:
        self.text(floats.format_number(value))
        self.byte(0x1D)

    def newline(self) -> None:
        self.byte(0x0D)

    def comma(self) -> None:
        column = self.runtime.column()
        for _ in range(10 - column % 10):
            self.byte(0x1D)

    def tab(self, column: int) -> None:
        for _ in range(column - self.runtime.column()):
            self.byte(0x1D)

    def spc(self, count: int) -> None:
        for _ in range(count):
            self.byte(0x1D)


class _FileOutput(_ScreenOutput):
    """PRINT# to a printer (device 4): bytes collected; spaces instead of cursor-right."""

    def __init__(self, runtime: Runtime, sink: bytearray) -> None:
        super().__init__(runtime)
        self.sink = sink

    def byte(self, value: int) -> None:
        self.sink.append(0x20 if value == 0x1D else value)

    def text(self, text: str) -> None:
        self.sink.extend(text.encode("latin-1"))

    def number(self, value: float) -> None:
        self.text(floats.format_number(value))
        self.byte(0x20)

    def comma(self) -> None:
        line_start = self.sink.rfind(b"\r") + 1
        for _ in range(10 - (len(self.sink) - line_start) % 10):
            self.byte(0x20)

    def tab(self, column: int) -> None:
        self.spc(column - (len(self.sink) - self.sink.rfind(b"\r") - 1))


# -- the runtime --------------------------------------------------------------------------------

class Runtime:
    """The state a running program shares with its compiled code."""

    IDLE_GET_LIMIT = 10_000
    unchanged: list = []  # INPUT's answer to an empty line: keep the variables

    def __init__(self, program: bytes, machine: C64) -> None:
        self.program = program
        self.machine = machine
        self.lines = [_Line(line.number, line.body) for line in split_program(program, 0x0801)]
        compiler = _Compiler(self.lines)
        self.source, self.source_lines = compiler.compile()
        self.compiler = compiler
        self.segment_lines = [segment.line for segment in compiler.segments]
        self.namespace: dict = {
            "rt": self, "floats": floats, "BasicError": BasicError, "_r": _r, "_add": _add,
            "_sub": _sub, "_mul": _mul, "_fdiv": _floats_call(_div), "_fpow": _floats_call(_pow),
            "_int16": _floats_call(_int16), "_byte": _byte, "_address": _address, "_cmp": _cmp,
            "_scmp": _scmp, "_concat": _concat, "_str": floats.format_number, "_val": _floats_call(_val),
            "_mid": _mid, "_left": _left, "_right": _right, "_chr": _chr, "_asc": _asc,
            "_bool": _bool, "_and": _and, "_or": _or, "_not": _not,
            "_floor": floats.floor, "_sqr": _floats_call(floats.sqr),
            "_log": _floats_call(floats.log), "_exp": _floats_call(floats.exp),
            "_cos": _floats_call(floats.cos), "_sin": _floats_call(floats.sin),
            "_tan": _floats_call(floats.tan), "_atn": _floats_call(floats.atn),
        }
        self.namespace["globals_"] = self.namespace
        self.stack: list[list] = []
        self.namespace["STACK"] = self.stack
        exec(compile(self.source, "<basic>", "exec"), self.namespace)  # noqa: S102 - our own code
        self.segments = self.namespace["_make"]()
        self.data = self._collect_data()
        self.max_cycles = DEFAULT_MAX_CYCLES  # for each SYS or USR call
        self.restart()

    def restart(self) -> None:
        """The state of a new RUN on a freshly loaded machine (the compiled program is
        kept)."""
        self.random = floats.Random()
        self.output = _ScreenOutput(self)
        self.printer = bytearray()
        self.files: dict[int, tuple[int, int | None]] = {}
        self.statements = 0
        self.jiffy_base = 0
        self.clear()

    # -- variables and stack -------------------------------------------------------------------
    def clear(self) -> None:
        namespace = self.namespace
        for name, kind in self.compiler.variables.items():
            if kind == "N":
                namespace[name] = 0.0
            elif kind == "I":
                namespace[name] = 0
            elif kind == "S":
                namespace[name] = ""
            elif kind == "FN":
                namespace[name] = _undefined_function
            else:
                namespace[name] = _Undimensioned(namespace, name, kind[1])
        self.array_bytes = 0
        self.stack.clear()  # the generated code holds this list as STACK
        self.stack_bytes = 0
        self.data_position = 0

    def push_for(self, variable: str, limit: float, step: float, resume: int, line: int) -> None:
        for index in range(len(self.stack) - 1, -1, -1):
            frame = self.stack[index]
            if frame[0] is None:
                break
            if frame[0] == variable:
                del self.stack[index:]
                self.stack_bytes = sum(FOR_BYTES if f[0] else GOSUB_BYTES for f in self.stack)
                break
        if self.stack_bytes > FOR_ROOM:
            raise BasicError("OUT OF MEMORY")
        self.stack_bytes += FOR_BYTES
        sign = (step > 0) - (step < 0)
        # a FOR frame: [variable, limit, step, sign of step, segment after FOR, line]
        self.stack.append([variable, limit, step, sign, resume, line])

    def for_frame(self, variable: str | None) -> list:
        stack = self.stack
        for index in range(len(stack) - 1, -1, -1):
            frame = stack[index]
            if frame[0] is None:
                break
            if variable is None or frame[0] == variable:
                if index != len(stack) - 1:
                    del stack[index + 1 :]
                    self.stack_bytes = sum(FOR_BYTES if f[0] else GOSUB_BYTES for f in stack)
                return frame
        raise BasicError("NEXT WITHOUT FOR")

    def pop_for(self) -> None:
        self.stack.pop()
        self.stack_bytes -= FOR_BYTES

    def push_gosub(self, resume: int, line: int) -> None:
        if self.stack_bytes > GOSUB_ROOM:
            raise BasicError("OUT OF MEMORY")
        self.stack_bytes += GOSUB_BYTES
        self.stack.append([None, resume, line])

    def pop_gosub(self) -> int:
        stack = self.stack
        while stack:
            frame = stack.pop()
            if frame[0] is None:
                self.stack_bytes = sum(FOR_BYTES if f[0] else GOSUB_BYTES for f in stack)
                return frame[1]
        self.stack_bytes = 0
        raise BasicError("RETURN WITHOUT GOSUB")

    def undefined_statement(self) -> int:
        raise BasicError("UNDEF'D STATEMENT")

    def dim(self, name: str, kind: str, *sizes: float) -> None:
        if not isinstance(self.namespace[name], _Undimensioned):
            raise BasicError("REDIM'D ARRAY")
        dimensions = []
        for size in sizes:
            value = _int16(size)
            if value < 0:
                raise BasicError("ILLEGAL QUANTITY")
            dimensions.append(value + 1)
        self.namespace[name] = self.new_array(tuple(dimensions), kind)

    def new_array(self, sizes: tuple[int, ...], kind: str) -> _Array:
        """An array, if it fits in the C64's memory (5 bytes a number, 2 an integer, 3
        a string descriptor, and a header) beside the program and its variables."""
        count = 1
        for size in sizes:
            count *= size
        size_in_bytes = 5 + 2 * len(sizes) + count * {"N": 5, "I": 2, "S": 3}[kind]
        if self.array_bytes + size_in_bytes > self._free_for_arrays():
            raise BasicError("OUT OF MEMORY")
        self.array_bytes += size_in_bytes
        return _Array(sizes, kind)

    def _free_for_arrays(self) -> int:
        return BASIC_BYTES_FREE - len(self.program) - 7 * len(self.compiler.variables)

    def define_function(self, parameter: str, body: Callable[[], float]) -> Callable[[float], float]:
        namespace = self.namespace

        def function(argument: float) -> float:
            saved = namespace[parameter]
            namespace[parameter] = _r(argument)
            try:
                return body()
            finally:
                namespace[parameter] = saved

        return function

    # -- DATA ------------------------------------------------------------------------------------
    def _collect_data(self) -> list[tuple[bytes, bool, int]]:
        items: list[tuple[bytes, bool, int]] = []
        for line in self.lines:
            body = line.body
            position = 0
            in_quote = False
            while position < len(body):
                byte = body[position]
                if byte == QUOTE:
                    in_quote = not in_quote
                elif not in_quote and byte == TOKEN["REM"]:
                    break
                elif not in_quote and byte == TOKEN["DATA"]:
                    position += 1
                    while True:
                        while position < len(body) and body[position] == 0x20:
                            position += 1
                        if position < len(body) and body[position] == QUOTE:
                            end = body.find(b'"', position + 1)
                            end = len(body) if end < 0 else end
                            item, quoted = body[position + 1 : end], True
                            position = end + 1
                            while position < len(body) and body[position] not in (COMMA, COLON):
                                position += 1
                        else:
                            end = position
                            while end < len(body) and body[end] not in (COMMA, COLON):
                                end += 1
                            item, quoted = body[position:end], False
                            position = end
                        items.append((item, quoted, line.number))
                        if position < len(body) and body[position] == COMMA:
                            position += 1
                            continue
                        break
                    continue
                position += 1
        return items

    def read(self, kinds: str) -> list:
        values: list = []
        for kind in kinds:
            if self.data_position >= len(self.data):
                raise BasicError("OUT OF DATA")
            item, quoted, line = self.data[self.data_position]
            self.data_position += 1
            if kind == "S":
                values.append(item.decode("latin-1"))
                continue
            if quoted:
                raise BasicError("SYNTAX", line)
            value, end = floats.parse_number(item)
            if item[end:].strip(b" "):
                raise BasicError("SYNTAX", line)
            values.append(value)
        return values

    # -- screen and keyboard ---------------------------------------------------------------------
    def column(self) -> int:
        screen = self.machine.screen
        return screen.column + (40 if screen.continued[screen.row] else 0)

    def position(self) -> float:
        return float(self.column())

    def _read_line(self) -> bytes:
        machine = self.machine
        line = machine.keyboard.next_line()
        if line is None:
            raise _Ended(Stop.INPUT_EXHAUSTED, "the program waits for a typed line, but the input "
                         "is used up")
        for key in line:
            machine.screen.output(key)
        # the input routine prints RETURN after the line ($AACA), so the cursor moves on
        machine.print_byte(0x0D)
        return bytes(line)

    def input(self, prompt: str, kinds: str) -> list | None:
        """INPUT: '? ' prompt, items split at commas, '??' for more, ?REDO FROM START."""
        while True:
            self.output.text(prompt)
            self.output.text("?")
            self.output.byte(0x1D)
            line = self._read_line()
            if not line:
                return None
            values = self._parse_input(line, kinds)
            if values is not None:
                return values

    def _parse_input(self, line: bytes, kinds: str) -> list | None:
        values: list = []
        position = 0
        for index, kind in enumerate(kinds):
            if index and position >= len(line):
                self.output.text("??")
                self.output.byte(0x1D)
                line = self._read_line()
                position = 0
                if not line:
                    return None
            while position < len(line) and line[position] == 0x20:
                position += 1
            if kind == "S":
                if position < len(line) and line[position] == QUOTE:
                    end = line.find(b'"', position + 1)
                    end = len(line) if end < 0 else end
                    values.append(line[position + 1 : end].decode("latin-1"))
                    position = end + 1
                else:
                    end = position
                    while end < len(line) and line[end] not in (COMMA, COLON):
                        end += 1
                    values.append(line[position:end].decode("latin-1"))
                    position = end
            else:
                end = position
                while end < len(line) and line[end] != COMMA:
                    end += 1
                item = line[position:end]
                try:
                    value, stop = floats.parse_number(item)
                except floats.FloatError as error:
                    raise BasicError(error.error) from None
                if item[stop:].strip(b" "):
                    self.output.text("?REDO FROM START\r")
                    return None
                values.append(value)
                position = end
            while position < len(line) and line[position] == 0x20:
                position += 1
            if position < len(line):
                if line[position] != COMMA:
                    if kind == "S":
                        self.output.text("?REDO FROM START\r")
                        return None
                position += 1
                if index == len(kinds) - 1:
                    self.output.text("?EXTRA IGNORED\r")
        return values

    def get(self, kinds: str, channel: float | None) -> list:
        if channel is not None:
            self._input_device(channel)
        values: list = []
        for kind in kinds:
            key = self.machine.keyboard.next_key()
            if key is None:
                self.idle_gets += 1
                if self.idle_gets > self.IDLE_GET_LIMIT:
                    raise _Ended(Stop.INPUT_EXHAUSTED, "the program waits for a key, but the "
                                 "input is used up")
                text = ""
            else:
                self.idle_gets = 0
                text = chr(key)
            if kind == "S":
                values.append(text)
            elif not text:
                values.append(0.0)
            elif 0x30 <= ord(text) <= 0x39:
                values.append(float(ord(text) - 0x30))
            else:
                raise BasicError("SYNTAX")
        return values

    def input_file(self, channel: float, kinds: str) -> list | None:
        self._input_device(channel)
        line = self._read_line()
        values = self._parse_input(line, kinds)
        if values is None:
            raise BasicError("FILE DATA")
        return values

    # -- devices -------------------------------------------------------------------------------
    def open_file(self, number: float, device: float | None, secondary: float | None,
                  name: str) -> None:
        logical = _byte(number)
        if logical == 0:
            raise BasicError("SYNTAX")
        if logical in self.files:
            raise BasicError("FILE OPEN")
        unit = 1 if device is None else _byte(device)
        if unit not in (0, 3, 4):
            raise BasicError("DEVICE NOT PRESENT", note=f"device {unit}: c64tc's BASIC runner has "
                             "the keyboard (0), the screen (3) and a printer (4, kept as text)")
        self.files[logical] = (unit, None if secondary is None else _byte(secondary))

    def close_file(self, number: float) -> None:
        if self.files.pop(_byte(number), None) is not None and self.output.__class__ is _FileOutput:
            self.output = _ScreenOutput(self)  # a CMD channel ends with its file

    def _file(self, number: float) -> int:
        logical = _byte(number)
        if logical not in self.files:
            raise BasicError("FILE NOT OPEN")
        return self.files[logical][0]

    def channel_output(self, number: float) -> _ScreenOutput:
        device = self._file(number)
        if device == 0:
            raise BasicError("NOT OUTPUT FILE")
        return self.output if device == 3 else _FileOutput(self, self.printer)

    def cmd(self, number: float) -> None:
        self.output = self.channel_output(number)

    def _input_device(self, number: float) -> None:
        device = self._file(number)
        if device == 4:
            raise BasicError("NOT INPUT FILE")

    def device_statement(self, name: str) -> None:
        raise BasicError("DEVICE NOT PRESENT", note=f"{name}: c64tc's BASIC runner has no tape or "
                         "disk drive")

    # -- memory and machine code ---------------------------------------------------------------
    def _byte_at(self, where: int) -> int:
        """Memory as a program sees it: the keyboard buffer's count ($C6 = 198) says
        whether a key is waiting (typed input arrives when the program waits for it,
        so at most the next key is 'typed')."""
        if where == KEYBOARD_COUNT:
            return 1 if self.machine.keyboard.key_waiting() else 0
        return self.machine.memory[where]

    def peek(self, address: float) -> float:
        return float(self._byte_at(_address(address)))

    def poke(self, address: int, value: int) -> None:
        self.machine.memory[address] = value

    def wait(self, address: float, mask: float, invert: float) -> None:
        where, bits, flip = _address(address), _byte(mask), _byte(invert)
        if not (self._byte_at(where) ^ flip) & bits:
            if where == KEYBOARD_COUNT:
                raise _Ended(Stop.INPUT_EXHAUSTED, f"WAIT {where},{bits} waits for a key, but "
                             "the input is used up")
            raise _Ended(Stop.INPUT_EXHAUSTED, f"WAIT {where},{bits},{flip} would wait forever: "
                         "nothing changes that memory in a headless run")

    def sys(self, address: int) -> None:
        machine = self.machine
        cpu = machine.cpu
        memory = machine.memory
        cpu.a, cpu.x, cpu.y = memory[0x030C], memory[0x030D], memory[0x030E]
        result = machine.sys(address, self.max_cycles)
        memory[0x030C], memory[0x030D], memory[0x030E] = cpu.a, cpu.x, cpu.y
        if result.stop is Stop.INPUT_EXHAUSTED:
            raise _Ended(Stop.INPUT_EXHAUSTED, result.message)
        if result.stop is not Stop.RETURNED:
            raise _Ended(result.stop, f"SYS {address}: {result.message}")

    def usr(self, value: float) -> float:
        memory = self.machine.memory
        data = floats.to_bytes(value)
        memory[0x61] = data[0]
        memory[0x62:0x66] = bytes([data[1] | 0x80]) + data[2:]
        memory[0x66] = 0xFF if value < 0 else 0
        self.sys(memory[0x0311] | memory[0x0312] << 8)
        mantissa = bytes([memory[0x62] & 0x7F | (memory[0x66] & 0x80)]) + bytes(memory[0x63:0x66])
        return floats.from_bytes(bytes([memory[0x61]]) + mantissa)

    def free(self) -> float:
        free = self._free_for_arrays() - self.array_bytes
        return float(free - 65536 if free > 32767 else free)

    def rnd(self, argument: float) -> float:
        return self.random.next(argument, self.statements)

    # -- the clock: the jiffy clock advances with the work done (about 1000 statements a second)
    def jiffies(self) -> float:
        return float((self.jiffy_base + self.statements * 60 // 1000) % 5184000)

    def time_string(self) -> str:
        seconds = int(self.jiffies()) // 60
        return f"{seconds // 3600:02d}{seconds // 60 % 60:02d}{seconds % 60:02d}"

    def set_time(self, text: str) -> None:
        if len(text) != 6 or not text.isdigit():
            raise BasicError("ILLEGAL QUANTITY")
        hours, minutes, seconds = int(text[:2]), int(text[2:4]), int(text[4:])
        if hours > 23 or minutes > 59 or seconds > 59:
            raise BasicError("ILLEGAL QUANTITY")
        self.jiffy_base = (hours * 3600 + minutes * 60 + seconds) * 60 - self.statements * 60 // 1000

    def stop_statement(self) -> None:
        raise _Ended(Stop.BREAK, "BREAK")

    def list_program(self) -> None:
        text = list_program(self.program, 0x0801)
        for line in text.splitlines():
            self.output.text("".join(chr(char_to_petscii(c)) for c in line.lower()))
            self.output.byte(0x0D)

    # -- running ---------------------------------------------------------------------------------
    def run(self, max_statements: int | None = None,
            progress: Callable[[int, int], None] | None = None) -> RunResult:
        """RUN: from the first line, until END, an error or a limit."""
        self.idle_gets = 0
        segments = self.segments
        index = 0 if segments else END_OF_PROGRAM
        limit = max_statements if max_statements is not None else 1 << 62
        started = time.perf_counter()
        executed = 0
        check_every = 1 << 16
        try:
            try:
                while index >= 0:
                    next_check = min(executed + check_every, limit)
                    while index >= 0 and executed < next_check:
                        executed += 1
                        index = segments[index]()
                    self.statements = executed
                    if index >= 0 and executed >= limit:
                        return self._finish(Stop.STATEMENT_LIMIT,
                                            f"stopped after {executed} statement groups in line "
                                            f"{self.segment_lines[index]}", started)
                    if progress is not None and index >= 0:
                        progress(executed, self.segment_lines[index])
            except BasicError as error:
                self.statements = executed
                line = error.line if error.line is not None else self._line_of(error, index)
                self._print_error(error.name, line)
                message = f"?{error.name}  ERROR IN {line}"
                if error.note:
                    message += f" ({error.note})"
                return self._finish(Stop.ERROR, message, started, line)
            except floats.FloatError as error:
                self.statements = executed
                line = self._line_of(error, index)
                self._print_error(error.error, line)
                return self._finish(Stop.ERROR, f"?{error.error}  ERROR IN {line}", started, line)
            except RecursionError as error:
                # a function defined through itself: the C64's stack overflows
                self.statements = executed
                line = self._line_of(error, index)
                self._print_error("OUT OF MEMORY", line)
                return self._finish(Stop.ERROR, f"?OUT OF MEMORY  ERROR IN {line}", started, line)
        except _Ended as ended:
            self.statements = executed
            if ended.stop is Stop.BREAK:
                line = self._line_of(ended, index)
                self.output = _ScreenOutput(self)
                self.output.text(f"\rBREAK IN {line}\rREADY.\r")
                return self._finish(Stop.BREAK, f"BREAK IN {line}", started, line)
            return self._finish(ended.stop, ended.message, started)
        self.statements = executed
        self.output = _ScreenOutput(self)
        self.output.text("\rREADY.\r")
        return self._finish(Stop.END, "program ended", started)

    def _line_of(self, error: BaseException, index: int) -> int:
        """The BASIC line being run when ``error`` was raised: from the generated
        code's line in the traceback (a segment may run several BASIC lines)."""
        traceback = error.__traceback__
        while traceback is not None:
            # the outermost frame of generated code is the segment; deeper ones are
            # DEF FN bodies, and the C64 reports the line that called the function
            if traceback.tb_frame.f_code.co_filename == "<basic>":
                return self.source_lines[traceback.tb_lineno - 1]
            traceback = traceback.tb_next
        return self.segment_lines[index]

    def _print_error(self, name: str, line: int) -> None:
        self.output = _ScreenOutput(self)
        self.output.text(f"\r?{name}  ERROR IN {line}\rREADY.\r")

    def _finish(self, stop: Stop, message: str, started: float, line: int | None = None) -> RunResult:
        cpu = self.machine.cpu
        return RunResult(stop, message, cycles=cpu.cycles, instructions=cpu.instructions,
                         statements=self.statements, wall_seconds=time.perf_counter() - started,
                         line=line, printer=bytes(self.printer))


def as_loaded(prg: Prg) -> Prg | None:
    """The program as ``LOAD"NAME",8`` puts it into memory, if its bytes are a BASIC
    program: at $0801, the line links made anew for that address (as the ROM's
    LINKPRG does after loading), so a program saved from elsewhere runs too.  None for
    anything else (machine code: its bytes do not chain into ascending lines)."""
    try:
        lines = split_program(prg.data, prg.load_address)
    except Exception:  # noqa: BLE001 - any broken structure means "not BASIC"
        return None
    numbers = [line.number for line in lines]
    if not lines or numbers != sorted(set(numbers)) or numbers[-1] > 63999:
        return None
    if prg.load_address == 0x0801:
        return prg
    end = lines[-1].offset - 2 + 4 + len(lines[-1].body) + 1
    relinked = link([TokenizedLine(line.number, line.body, "<prg>", 0) for line in lines])
    return Prg(0x0801, relinked + bytes(prg.data[end + 2 :]))


def is_basic_program(prg: Prg) -> bool:
    """Whether a PRG holds a BASIC program (at $0801 or saved from elsewhere)."""
    return as_loaded(prg) is not None


def run_basic(prg: Prg, keyboard: Keyboard | None = None, machine: C64 | None = None,
              max_statements: int | None = None,
              progress: Callable[[int, int], None] | None = None) -> tuple[RunResult, C64]:
    """Load a BASIC program into a C64 (the emulator's machine) and RUN it."""
    machine = machine or C64(keyboard)
    if keyboard is not None:
        machine.keyboard = keyboard
    prg = as_loaded(prg) or prg
    machine.load(prg)
    runtime = Runtime(prg.data, machine)
    return runtime.run(max_statements, progress), machine
