"""BASIC expressions to Python expressions, as the ROM's FRMEVL ($AD9E) evaluates them.

An expression compiles to an :class:`Expression`: the Python code, the kind of its
value, and whether the value is *exact* (already a 5-byte number as a variable
stores it, with no FAC rounding byte left): the ROM rounds a left operand when it
pushes it, and uses the right one with its rounding byte, so the code rounds only
where that changes anything.  Precedences are the ROM's ($A080 operator table).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from typing import NamedTuple

from toolchain.basic import floats
from toolchain.basic.runner import costs
from toolchain.basic.runner.contract import (
    Declared,
    Kind,
    Variable,
    array_name,
    function_name,
    scalar_name,
)
from toolchain.basic.tokens import PI, TOKEN, keyword_of

QUOTE, COLON, COMMA, SEMICOLON = 0x22, 0x3A, 0x2C, 0x3B
DOLLAR, PERCENT, OPEN_PARENTHESIS, CLOSE_PARENTHESIS = 0x24, 0x25, 0x28, 0x29
PLUS, MINUS, TIMES, DIVIDE, POWER = (TOKEN[k] for k in ("+", "-", "*", "/", "^"))
AND, OR, NOT = TOKEN["AND"], TOKEN["OR"], TOKEN["NOT"]
GREATER, EQUAL, LESS = TOKEN[">"], TOKEN["="], TOKEN["<"]
MAX_NESTING = 36  # FRMEVL calls deep: the statement's own and 35 parentheses
# The string temporaries pending at once: descriptors of strings an expression made and
# has not used up yet sit on a stack of three in zero page ($19-$21, TEMPPT $16).  A
# literal, TI$, and the result of STR$, CHR$, LEFT$, RIGHT$, MID$ and of + each push one
# (an operator or function first frees the temporaries it takes); a variable or array
# element pushes none.  A fourth is ?FORMULA TOO COMPLEX (PUTNEW, $B4CA), raised when the
# expression gets there.  Measured with BASIC in ROM: "A"+("B"+("C"+"D")) raises it,
# "A"+("B"+("C"+D$)) and "A"+"B"+"C"+"D"+"E" do not (tests/test_basic_strings.py).
STRING_TEMPORARIES = 3
FAILS = "_fail("  # the code of an expression that always raises (see ExpressionCompiler.failing)


# An array element with subscripts that are variables or literals, as generated code
# reads it (variable_reference)
_SUBSCRIPT = r"(?:[NS]_[A-Z][A-Z0-9]?|[0-9][0-9.e+-]*)"
_ELEMENT = re.compile(rf"\bA[NIS]_[A-Z][A-Z0-9]?\.cells\[{_SUBSCRIPT}(?:, {_SUBSCRIPT})*\]")
# Code in which an element's second read could find another value than its first (a
# call that runs code of the program's or the machine's, a string concatenation that
# may collect garbage), or could be evaluated before the first (a condition, a lambda)
_NOT_PURE = ("rt.", "io.", "FN_", "_concat(", " if ", " and ", "lambda", ":=")


def elements_read_once(code: str) -> str:
    """An expression's code with an array element it reads more than once looked up
    once: the first read keeps the value (``(_e1 := AN_K.cells[N_I])``), the later
    ones use it.  Only where nothing between them can change the element or its
    subscripts: expressions assign nothing, and code that runs more than the
    expression's own operators (``_NOT_PURE``) keeps every read.  Python evaluates
    the operands left to right, so the first read in the text is the first evaluated;
    an error it raises (a subscript out of bounds) is raised there, as before."""
    if any(mark in code for mark in _NOT_PURE):
        return code
    counts = Counter(_ELEMENT.findall(code))
    for number, element in enumerate((element for element, times in counts.items() if times > 1), start=1):
        name = f"_e{number}"
        first = code.index(element)
        rest = code[first + len(element):].replace(element, name)
        code = f"{code[:first]}({name} := {element}){rest}"
    return code


def short_circuits(condition: str) -> str:
    """An IF's test with AND and OR of comparisons as Python's ``and`` and ``or``
    wherever the right operand only compares variables, temporaries and literals:
    when the left one decides, skipping it changes nothing (it cannot raise, and
    assigns nothing), and both are True or False, which ``and`` and ``or`` give as
    ``&`` and ``|`` do (expressions.binary), without evaluating both."""
    tree = ast.parse(condition, mode="eval")
    changed = False

    def shortened(node: ast.expr) -> ast.expr:
        nonlocal changed
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitOr, ast.BitAnd))):
            return node
        left, right = shortened(node.left), shortened(node.right)
        if not (_is_test(left) and _is_test(right) and _compares_only(right)):
            return ast.BinOp(left, node.op, right)
        changed = True
        return ast.BoolOp(ast.Or() if isinstance(node.op, ast.BitOr) else ast.And(), [left, right])

    body = shortened(tree.body)
    return f"({ast.unparse(body)})" if changed else condition


def _is_test(node: ast.expr) -> bool:
    """Code whose value is True or False: a comparison, or AND and OR of them."""
    if isinstance(node, ast.Compare):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitOr, ast.BitAnd)):
        return _is_test(node.left) and _is_test(node.right)
    return isinstance(node, ast.BoolOp) and all(_is_test(value) for value in node.values)


def _compares_only(node: ast.expr) -> bool:
    """Code that only compares, reads names and negates: nothing it can raise or change."""
    if isinstance(node, ast.Compare):
        return all(_compares_only(operand) for operand in (node.left, *node.comparators))
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitOr, ast.BitAnd)):
        return _compares_only(node.left) and _compares_only(node.right)
    if isinstance(node, ast.BoolOp):
        return all(_compares_only(value) for value in node.values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _compares_only(node.operand)
    return isinstance(node, ast.Name | ast.Constant)


class CompileError(Exception):
    """A statement the ROM would stop at: compiled into a raise of this error."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class Expression(NamedTuple):
    code: str
    kind: Kind  # NUMBER or STRING (integer variables are read as numbers)
    exact: bool
    condition: str | None = None  # for a comparison: the Python test, without _bool()
    rounded: str | None = None  # code for the value as a variable stores it, if cheaper than _r(code)


class ExpressionCompiler:
    """The bytes of one line and the position in them; expressions and variables."""

    def __init__(self) -> None:
        self.variables: dict[str, Variable] = {}  # generated name -> what it is
        self.body = b""
        self.position = 0
        self.depth = 0  # nested evaluations (FRMEVL calls) in the expression being compiled
        self.temporaries = 0  # string temporaries pending at this point (STRING_TEMPORARIES)
        self.program_text = True  # literals point into the program (False: a typed line's buffer)
        # Where BASIC's text pointers are at the points a program can observe them (PEEK,
        # SYS): per site, the line (CURLIN), TXTPTR, and OLDTXT (None in direct mode)
        self.sites: list[tuple[int, int, int | None]] = []
        self.line_number_now = 0
        self.body_address = 0  # where the body of the line being compiled is in memory
        self.statement_start: int | None = 0  # OLDTXT: where NEWSTT found this statement
        # The C64's time (costs.py): the cycles counted and not yet added to the clock by
        # generated code, the features behind them (kept per statement when ``recording``,
        # for scripts/basic-costs), the variables' and arrays' places in their tables
        self.cost = 0.0
        self.recording: list[tuple[int, int | None, Counter[str]]] | None = None
        self.features: Counter[str] = Counter()
        self.cost_at_look = 0.0
        self.scalar_order: dict[str, int] = {}
        self.array_order: dict[str, int] = {}
        self.observed_in_statement = False  # a PEEK already looked at the time in this statement
        # names the generated code shares, made once (Program.definitions): name -> code
        self.definitions: dict[str, str] = {}

    def define(self, name: str, code: str) -> str:
        """A name for what ``code`` makes, made once with the segments (a closure
        variable of each that uses it)."""
        self.definitions[name] = code
        return name

    def count(self, feature: str, times: int = 1) -> None:
        """The ROM does ``feature`` ``times`` times here (costs.py)."""
        self.cost += times * costs.weight(feature)
        if self.recording is not None:
            self.features[feature] += times

    def site(self) -> int:
        """The number of an observation point here: TXTPTR at the next non-space byte (as
        CHRGET leaves it), the current line, and where the statement began."""
        self.peek()
        self.sites.append((self.line_number_now, self.body_address + self.position, self.statement_start))
        return len(self.sites) - 1

    def time_between_looks(self) -> str:
        """For a second PEEK in one statement: the cycles since the first, which that PEEK
        adds to the clock itself (the statement's code added the cycles up to the first
        before it ran), so that two reads of a chip see it move on."""
        if not self.observed_in_statement:
            self.observed_in_statement = True
            self.cost_at_look = self.cost
            return ""
        between = round(self.cost - self.cost_at_look)
        self.cost = self.cost_at_look
        return f", {between}" if between > 0 else ""

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
            raise CompileError("SYNTAX")

    def at_statement_end(self) -> bool:
        return self.peek() in (0, COLON)

    # -- variables ---------------------------------------------------------------------------
    def variable_name(self) -> tuple[str, Kind]:
        """Name and kind at the current position; two characters count."""
        first = self.peek()
        if not 0x41 <= first <= 0x5A:
            raise CompileError("SYNTAX")
        self.position += 1
        name = chr(first)
        body = self.body
        while self.position < len(body) and (0x41 <= body[self.position] <= 0x5A
                                             or 0x30 <= body[self.position] <= 0x39):
            if len(name) < 2:
                name += chr(body[self.position])
            self.position += 1
        kind = Kind.NUMBER
        if self.position < len(body) and body[self.position] == DOLLAR:
            kind = Kind.STRING
            self.position += 1
        elif self.position < len(body) and body[self.position] == PERCENT:
            kind = Kind.INTEGER
            self.position += 1
        return name, kind

    def scalar(self, name: str, kind: Kind) -> str:
        """The generated name of a variable, declared for CLR."""
        python_name = scalar_name(name, kind)
        self.variables[python_name] = Variable(Declared.SCALAR, kind)
        self.scalar_order.setdefault(python_name, len(self.scalar_order))
        return python_name

    def found(self, python_name: str) -> None:
        """PTRGET finds a variable: past those made before it."""
        self.count("var")
        self.count("var_skip", self.scalar_order[python_name])

    def array(self, name: str, kind: Kind) -> str:
        python_name = array_name(name, kind)
        self.variables[python_name] = Variable(Declared.ARRAY, kind)
        self.array_order.setdefault(python_name, len(self.array_order))
        return python_name

    def element(self, python_name: str, subscripts: int) -> None:
        """An array element found: the array table searched, the subscripts converted."""
        self.count("array")
        self.count("subscript", subscripts - 1)
        self.count("array_skip", self.array_order[python_name])

    def function_variable(self, name: str) -> str:
        """The generated name of a function (DEF FN): an entry of the variable table, in
        the order of the variables (DEF makes it, $B3A6)."""
        python_name = function_name(name)
        self.variables[python_name] = Variable(Declared.FUNCTION, Kind.NUMBER)
        self.scalar_order.setdefault(python_name, len(self.scalar_order))
        return python_name

    def subscripts(self) -> list[str]:
        self.expect(OPEN_PARENTHESIS)
        indexes = [self.numeric()]
        while self.peek() == COMMA:
            self.position += 1
            indexes.append(self.numeric())
        self.expect(CLOSE_PARENTHESIS)
        return indexes

    # -- expressions --------------------------------------------------------------------------
    def numeric(self) -> str:
        code, kind, _, _, _ = self.expression()
        if kind is not Kind.NUMBER and not code.startswith(FAILS):
            raise CompileError("TYPE MISMATCH")
        return code

    def string(self) -> str:
        code, kind, _, _, _ = self.expression()
        if kind is not Kind.STRING and not code.startswith(FAILS):
            raise CompileError("TYPE MISMATCH")
        return code

    # -- string temporaries --------------------------------------------------------------------
    @staticmethod
    def is_temporary(value: Expression) -> bool:
        """A string value on the temporary stack: anything but a variable or an array
        element (whose descriptors are theirs)."""
        code = value.code
        return value.kind is Kind.STRING and not (code.isidentifier() or code.startswith("AS_"))

    def free(self, *operands: Expression) -> None:
        """An operator or function takes these operands: their temporaries are freed."""
        for operand in operands:
            if self.is_temporary(operand):
                self.temporaries -= 1

    def push(self, value: Expression) -> Expression:
        """``value`` (a string result) becomes a temporary: ?FORMULA TOO COMPLEX when
        the stack is full, after evaluating ``value`` (which evaluates its arguments)."""
        if self.temporaries >= STRING_TEMPORARIES and not value.code.startswith(FAILS):
            self.temporaries += 1
            return Expression(f"_fail('FORMULA TOO COMPLEX', {value.code})", Kind.STRING, True)
        self.temporaries += 1
        return value

    @staticmethod
    def failing(kind: Kind, *operands: Expression) -> Expression | None:
        """If one of ``operands`` (in the order they are evaluated) always raises, what
        is evaluated up to it: it raises there, before the operator would look at the
        kinds of its operands (the ROM checks them only then)."""
        for index, operand in enumerate(operands):
            if operand.code.startswith(FAILS):
                if index == 0:
                    return Expression(operand.code, kind, True)
                before = ", ".join(earlier.code for earlier in operands[:index])
                return Expression(f"_fail(None, {before}, {operand.code})", kind, True)
        return None

    def expression(self, minimum: int = 0) -> Expression:
        """FRMEVL: an expression whose operators bind tighter than ``minimum``.  Each
        nested evaluation takes room on the 6502 stack: the ROM stops with ?OUT OF
        MEMORY when it runs out (measured on VICE: 35 nested parentheses work at the
        top of a line, 36 do not), and so does this (one typed line cannot nest that
        deep; a crafted program can)."""
        outermost = self.depth == 0
        if outermost:  # a statement's own expression: its temporaries were used up
            self.temporaries = 0
        self.depth += 1
        try:
            if self.depth > MAX_NESTING:
                raise CompileError("OUT OF MEMORY")
            value = self._operators(minimum)
        finally:
            self.depth -= 1
        if not outermost:
            return value
        code, kind, exact, condition, rounded = value
        return Expression(elements_read_once(code), kind, exact, condition and elements_read_once(condition),
                          rounded and elements_read_once(rounded))

    def _operators(self, minimum: int) -> Expression:
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
                self.count("op:rel")
                continue
            self.position += 1
            right = self.expression(precedence)
            left = self.binary(byte, left, right)
            if left.kind is Kind.STRING:
                self.count("op:concat")
            else:
                if byte == TIMES and (factor := self.constant(right.code)) is not None:
                    # FMULT runs its bit loop for each mantissa byte of the right operand
                    # that is not 0 ($BA59): a number written with more bits takes longer
                    self.count("mul_byte", sum(1 for part in floats.to_bytes(factor)[2:] if part))
                self.count({PLUS: "op:+", MINUS: "op:-", TIMES: "op:*", DIVIDE: "op:/", POWER: "op:^",
                            AND: "op:AND", OR: "op:OR"}[byte])

    def relation(self, left: Expression, right: Expression, relation: int) -> Expression:
        failed = self.failing(Kind.NUMBER, left, right)
        if failed is not None:
            return failed
        if left.kind is not right.kind:
            raise CompileError("TYPE MISMATCH")
        self.free(left, right)
        operator = {1: ">", 2: "==", 3: ">=", 4: "<", 5: "!=", 6: "<=", 7: None}[relation]
        if operator is None:
            return Expression("-1.0", Kind.NUMBER, True)
        if left.kind is Kind.STRING:
            test = f"(_scmp({left.code}, {right.code}) {operator} 0)"
        elif right.exact:
            # the right operand has no rounding byte: FCOMP ($BC5B) of two 5-byte
            # numbers compares them exactly, as Python compares the two floats
            test = f"({self.stored(left)} {operator} {right.code})"
        else:
            test = f"(_cmp({self.stored(left)}, {right.code}) {operator} 0)"
        return Expression(f"_bool{test}", Kind.NUMBER, True, test)

    @staticmethod
    def stored(operand: Expression) -> str:
        """A left operand as the ROM pushes it (and any value as a variable stores it):
        rounded."""
        if operand.exact:
            return operand.code
        return operand.rounded or f"_r({operand.code})"

    @staticmethod
    def constant(code: str) -> float | None:
        """The number, if ``code`` is a number literal."""
        try:
            value = float(code)
        except ValueError:
            return None
        return value if repr(value) == code else None

    @staticmethod
    def is_simple(code: str) -> bool:
        """Code that reads a variable or is a literal: evaluating it twice costs little
        and does nothing else."""
        return code.isidentifier() or ExpressionCompiler.constant(code) is not None

    def temporary(self, letter: str) -> str:
        """A name for a value generated code computes once and uses twice, unique at
        this depth of the expression (inner ones finish before outer ones assign)."""
        return f"_{letter}{self.depth}"

    def binary(self, operator: int, left: Expression, right: Expression) -> Expression:
        failed = self.failing(left.kind, left, right)
        if failed is not None:
            return failed
        if operator == PLUS and left.kind is Kind.STRING and right.kind is Kind.STRING:
            self.free(left, right)
            return self.push(Expression(f"_concat({left.code}, {right.code})", Kind.STRING, True))
        if left.kind is not Kind.NUMBER or right.kind is not Kind.NUMBER:
            raise CompileError("TYPE MISMATCH")
        if operator in (AND, OR):
            if left.condition is not None and right.condition is not None:
                # both sides are -1 or 0: the bitwise result is the logical one
                symbol = "&" if operator == AND else "|"
                test = f"({left.condition} {symbol} {right.condition})"
                return Expression(f"_bool{test}", Kind.NUMBER, True, test)
            function = "_and" if operator == AND else "_or"
            return Expression(f"{function}({self.stored(left)}, {right.code})", Kind.NUMBER, True)
        function = {PLUS: "_add", MINUS: "_sub", TIMES: "_mul", DIVIDE: "_fdiv", POWER: "_fpow"}[operator]
        operands = f"({self.stored(left)}, {right.code})"
        # + - * have a twin that rounds as it stores: one call instead of two
        rounded = f"{function}_r{operands}" if operator in (PLUS, MINUS, TIMES) else None
        shortcut = self.whole_step(operator, left, right)
        if shortcut is not None:
            test, result = shortcut
            return Expression(f"({result} if {test} else {function}{operands})", Kind.NUMBER, False,
                              rounded=f"({result} if {test} else {rounded})")
        return Expression(f"{function}{operands}", Kind.NUMBER, False, rounded=rounded)

    def whole_step(self, operator: int, left: Expression, right: Expression) -> tuple[str, str] | None:
        """A variable plus or minus a whole literal (I+1, N-1), as a test and the sum:
        where the variable is whole and the sum and both operands lie strictly inside
        +-2**32, floats.add's shortcut (and subtract's) returns that very sum, and the
        store keeps it (floats.add_stored): the generated code adds in line there, without
        the call, and calls the function everywhere else."""
        if operator not in (PLUS, MINUS) or not left.exact or not left.code.isidentifier():
            return None
        step = self.constant(right.code)
        if step is None or step % 1.0 != 0.0 or not -2147483648.0 < step < 2147483648.0:
            return None
        change = step if operator == PLUS else -step
        low, high = max(-4294967296.0, -4294967296.0 - change), min(4294967296.0, 4294967296.0 - change)
        symbol = "+" if operator == PLUS else "-"
        name = left.code
        return f"{low!r} < {name} < {high!r} and {name} % 1.0 == 0.0", f"{name} {symbol} {right.code}"

    def unary(self) -> Expression:
        byte = self.peek()
        if byte == MINUS:
            self.position += 1
            code, kind, exact, _, _ = self.expression(125)
            if code.startswith(FAILS):
                return Expression(code, Kind.NUMBER, True)
            if kind is not Kind.NUMBER:
                raise CompileError("TYPE MISMATCH")
            self.count("op:neg")
            return Expression(f"(-{code} or 0.0)", Kind.NUMBER, exact)
        if byte == PLUS:
            self.position += 1
            return self.unary()
        if byte == NOT:
            self.position += 1
            code, kind, _, _, _ = self.expression(90)
            if code.startswith(FAILS):
                return Expression(code, Kind.NUMBER, True)
            if kind is not Kind.NUMBER:
                raise CompileError("TYPE MISMATCH")
            self.count("op:NOT")
            return Expression(f"_not({code})", Kind.NUMBER, True)
        return self.primary()

    def primary(self) -> Expression:
        byte = self.peek()
        if 0x30 <= byte <= 0x39 or byte == 0x2E:
            try:
                value, end = floats.parse_number(self.body, self.position)
            except floats.FloatError as error:
                # the ROM reads the number when the expression is evaluated: whatever the
                # statement did before (PRINT "A";1E39 prints A) happens, then the error
                self.position = self._number_end(self.position)
                return Expression(f"_fail({error.error!r})", Kind.NUMBER, True)
            for feature, times in costs.number_features(self.body[self.position : end]).items():
                self.count(feature, times)
            self.position = end
            return Expression(repr(value), Kind.NUMBER, value == floats.rounded(value))
        if byte == QUOTE:  # STRLIT ($B487) scans the text to its closing quote
            self.position += 1
            end = self.body.find(b'"', self.position)
            if end < 0:
                end = len(self.body)
            self.count("literal_byte", end - self.position)
            text = self.body[self.position : end].decode("latin-1")
            self.position = min(end + 1, len(self.body))
            return self.push(Expression(repr(text), Kind.STRING, True))
        if byte == OPEN_PARENTHESIS:
            self.position += 1
            self.count("paren")
            inner = self.expression()
            self.expect(CLOSE_PARENTHESIS)
            return inner
        if byte == PI:
            self.position += 1
            return Expression(repr(floats.PI), Kind.NUMBER, True)
        if 0x41 <= byte <= 0x5A:
            return self.variable_reference()
        if byte == TOKEN["FN"]:
            self.position += 1
            name, kind = self.variable_name()
            if kind is not Kind.NUMBER:
                raise CompileError("SYNTAX")
            self.expect(OPEN_PARENTHESIS)
            argument = self.numeric()
            self.expect(CLOSE_PARENTHESIS)
            function = self.function_variable(name)
            # FNDOER ($B3F4) finds the function as PTRGET finds a variable: past the
            # entries made before it
            self.count("fn:FN")
            self.count("var_skip", self.scalar_order[function])
            return Expression(f"{function}({argument})", Kind.NUMBER, False)
        if TOKEN["SGN"] <= byte <= TOKEN["MID$"]:
            self.position += 1
            self.count("fn:" + keyword_of(byte))
            return self.function(byte)
        raise CompileError("SYNTAX")

    def _number_end(self, position: int) -> int:
        """Where a number written at ``position`` ends (digits, a point, an exponent
        with its sign; CHRGET skips spaces), for a number FIN cannot read."""
        body = self.body
        exponent = sign_allowed = False
        while position < len(body):
            byte = body[position]
            if 0x30 <= byte <= 0x39 or byte == 0x20 or (byte == 0x2E and not exponent):
                sign_allowed = False
            elif byte == 0x45 and not exponent:
                exponent = sign_allowed = True
            elif sign_allowed and byte in (0x2B, 0x2D, PLUS, MINUS):
                sign_allowed = False
            else:
                break
            position += 1
        return position

    def variable_reference(self) -> Expression:
        name, kind = self.variable_name()
        value_kind = Kind.STRING if kind is Kind.STRING else Kind.NUMBER
        if self.peek() == OPEN_PARENTHESIS:
            indexes = self.subscripts()
            array = self.array(name, kind)
            self.element(array, len(indexes))
            # one look-up; a subscript that is not a whole number in bounds is missing
            # from the cells and goes the ROM's way (values.Cells)
            return Expression(f"{array}.cells[{', '.join(indexes)}]", value_kind, True)
        if name in ("TI", "ST"):
            self.count("var")
            self.count("time_read" if name == "TI" else "status_read")  # the clock to a float ($AF84)
        if name == "TI" and kind is Kind.NUMBER:
            return Expression("rt.jiffies()", Kind.NUMBER, True)
        if name == "TI" and kind is Kind.STRING:
            return self.push(Expression("rt.time_string()", Kind.STRING, True))
        if name == "ST" and kind is Kind.NUMBER:
            return Expression("io.status()", Kind.NUMBER, True)
        python_name = self.scalar(name, kind)
        self.found(python_name)
        if kind is Kind.INTEGER:
            self.count("int_read")
            return Expression(f"float({python_name})", Kind.NUMBER, True)
        return Expression(python_name, value_kind, True)

    def function(self, token: int) -> Expression:
        keyword = keyword_of(token)
        if keyword in ("LEFT$", "RIGHT$", "MID$"):
            self.expect(OPEN_PARENTHESIS)
            string = self.expression()
            if string.kind is not Kind.STRING and not string.code.startswith(FAILS):
                raise CompileError("TYPE MISMATCH")
            text = string.code
            self.expect(COMMA)
            arguments = [text, self.numeric()]
            if keyword == "MID$" and self.peek() == COMMA:
                self.position += 1
                arguments.append(self.numeric())
            elif keyword == "MID$":  # no CHKCOM and GETBYT for a length ($B742)
                self.count("mid_no_length")
            self.expect(CLOSE_PARENTHESIS)
            failed = self.failing(Kind.STRING, *(Expression(code, Kind.NUMBER, True) for code in arguments))
            if failed is not None:
                return failed
            self.free(string)
            helper = {"LEFT$": "_left", "RIGHT$": "_right", "MID$": "_mid"}[keyword]
            call = f"{helper}({', '.join(arguments)})"
            if keyword == "MID$":
                return self.push(Expression(self.slice_mid(call, *arguments), Kind.STRING, True))
            if keyword == "LEFT$":
                return self.push(Expression(self.slice_left(call, *arguments), Kind.STRING, True))
            return self.push(Expression(call, Kind.STRING, True))
        self.expect(OPEN_PARENTHESIS)
        argument = self.expression()
        code, kind, exact, _, _ = argument
        self.expect(CLOSE_PARENTHESIS)
        if code.startswith(FAILS):
            return Expression(code, Kind.STRING if keyword in ("STR$", "CHR$") else Kind.NUMBER, True)
        self.free(argument)
        if keyword == "PEEK":
            if kind is Kind.STRING:
                raise CompileError("TYPE MISMATCH")
            for feature, times in costs.qint_features(self.constant(code)).items():
                self.count(feature, times)
            return Expression(f"rt.peek({code}, {self.site()}{self.time_between_looks()})", Kind.NUMBER, True)
        string_argument = keyword in ("LEN", "VAL", "ASC")
        if (kind is Kind.STRING) != string_argument:
            raise CompileError("TYPE MISMATCH")
        if keyword == "USR":  # machine code: BASIC's pointers and CURLIN as at this site
            return Expression(f"rt.usr({code}, {self.site()})", Kind.NUMBER, False)
        simple = {
            # INT keeps a FAC of 2**31 and more as it is, rounding byte and all ($BCCC):
            # not exact, it is rounded where it is stored or pushed
            "SGN": ("floats.sgn({})", True), "INT": ("_floor({})", False), "ABS": ("abs({})", exact),
            "FRE": ("rt.free()", True), "POS": ("io.position()", True),
            "SQR": ("_sqr({})", False), "RND": ("rt.rnd({})", True), "LOG": ("_log({})", False),
            "EXP": ("_exp({})", False), "COS": ("_cos({})", False), "SIN": ("_sin({})", False),
            "TAN": ("_tan({})", False), "ATN": ("_atn({})", False),
            "LEN": ("float(len({}))", True),
            "ASC": ("_asc({})", True),
        }
        if keyword in simple:
            template, result_exact = simple[keyword]
            return Expression(template.format(code), Kind.NUMBER, result_exact)
        if keyword == "VAL":
            if self.at_most_one_character(code):
                # VAL of a character (MID$(K$,I,1), as Nikolaus takes it every pass): a
                # table of them all (values.VAL_OF_CHARACTERS), a plain dict, which Python
                # looks up faster than one that works out what it misses
                return Expression(f"_VAL1[{code}]", Kind.NUMBER, False, rounded=f"_VAL1R[{code}]")
            # VAL of a text met before is a look-up (values.Values)
            return Expression(f"_VAL[{code}]", Kind.NUMBER, False, rounded=f"_VALR[{code}]")
        if keyword == "STR$":  # FOUT's time for the number's digits, when it runs
            return self.push(Expression(f"_fout_text({code})", Kind.STRING, True))
        if keyword == "CHR$":
            return self.push(Expression(f"_chr({code})", Kind.STRING, True))
        raise CompileError("SYNTAX")


    # -- string slices without a call: MID$ and LEFT$ whose numbers are known to be in
    # range (1..255 for a start, 0..255 for a length) are Python slices; others call
    # the helper, which raises the ROM's ?ILLEGAL QUANTITY.  Why a slice is the ROM's
    # result: GETBYT floors the number (``int()`` of a non-negative float), and MID$
    # and LEFT$ take the bytes from the start for the length, clipped at the string's
    # end, as a slice does (values._mid).  A number is tested where it is known: a
    # constant when compiling, a variable (a stored number, evaluated twice at no
    # cost) when the code runs; anything else calls the helper.
    def slice_mid(self, call: str, text: str, start: str, length: str | None = None) -> str:
        first = self.constant(start)
        count = 255.0 if length is None else self.constant(length)
        if count is None or not 0.0 <= count < 256.0:
            return call
        if first == 2.0 and length is None and self.is_call(text, "_fout_text"):
            # MID$(STR$(X),2): the digits without the sign's place (io.install_fout)
            return f"_fout_digits{text[len('_fout_text'):]}"
        text = text if self.is_simple(text) else f"({text})"
        if first is not None:
            if not 1.0 <= first < 256.0:
                return call
            begin = int(first) - 1
            return f"{text}[{begin}:{begin + int(count)}]" if length is not None else f"{text}[{begin}:]"
        if length is None:
            if not self.is_simple(start):
                return call
            return f"({text}[int({start}) - 1:] if 1.0 <= {start} < 256.0 else {call})"
        # a start that is not known: the slice from a table of the whole starts in range
        # (values.MidSlices), which works out any other start or raises the error
        table = self.define(f"_MID{int(count)}", f"_MidSlices({int(count)})")
        if not self.is_simple(start):
            return f"{text}[{table}[{start}]]"
        # a start read twice at most: the table's ``get`` (a plain dict's look-up; a
        # look-up in a dict subclass goes through its __getitem__ method), and for a
        # start that is no key the look-up that works it out (slices are never false)
        get = self.define(f"{table}G", f"{table}.get")
        return f"{text}[{get}({start}) or {table}[{start}]]"

    @staticmethod
    def at_most_one_character(code: str) -> bool:
        """``code`` is a string of at most one character: a slice of one (slice_mid's
        table of length 0 or 1, or constant bounds at most one apart, slice_left's too)."""
        if not code.endswith("]"):
            return False
        tree = ast.parse(code, mode="eval").body
        if not isinstance(tree, ast.Subscript):
            return False
        index = tree.slice
        if isinstance(index, ast.BoolOp) and isinstance(get := index.values[0], ast.Call) \
                and isinstance(get.func, ast.Name) and get.func.id in ("_MID0G", "_MID1G"):
            index = index.values[-1]  # slice_mid's ``get`` of its table, or the table
        if isinstance(index, ast.Subscript):
            return isinstance(index.value, ast.Name) and index.value.id in ("_MID0", "_MID1")
        if not isinstance(index, ast.Slice) or index.step is not None or index.upper is None:
            return False
        lower = ast.Constant(0) if index.lower is None else index.lower
        upper = index.upper
        if not (isinstance(lower, ast.Constant) and isinstance(upper, ast.Constant)):
            return False
        first, end = lower.value, upper.value
        return type(first) is int and type(end) is int and end - first <= 1

    @staticmethod
    def is_call(code: str, function: str) -> bool:
        """``code`` is one call of ``function`` (and nothing after it)."""
        if not code.startswith(f"{function}("):
            return False
        tree = ast.parse(code, mode="eval").body
        return isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id == function

    def slice_left(self, call: str, text: str, length: str) -> str:
        count = self.constant(length)
        text = text if self.is_simple(text) else f"({text})"
        if count is not None:
            return f"{text}[:{int(count)}]" if 0.0 <= count < 256.0 else call
        if not self.is_simple(length):
            return call
        return f"({text}[:int({length})] if 0.0 <= {length} < 256.0 else {call})"
