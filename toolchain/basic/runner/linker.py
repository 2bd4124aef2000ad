"""Segments to one Python module: exits become returns of segment numbers, and a
segment whose way on is fixed runs the next segment's code in place (a superblock).

The module defines ``_make()``, which returns the list of segment functions; the
dispatcher calls ``segments[n]()`` and goes on with the number it returns.  A function
whose code jumps back to its own start (a NEXT, a GOTO), directly or through the
segment a conditional jump goes to, loops in place instead (:meth:`Linker.in_place`):
each jump takes a statement group from the dispatcher's chunk (contract.GROUPS) as the
dispatcher's call would, so the counts, the limits and the clock stay the same.  The end
of the program is the number after the last segment (the runtime puts a function
there that ends the run).  Every
function names the program's variables ``global`` (they live in the module), and
each segment's code is headed by a ``# line N`` comment.  :class:`Module` keeps, for
every line of the text, the BASIC line it comes from: an error's traceback names
the Python line, the C64 names the BASIC line.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from toolchain.basic.runner.contract import GROUPS
from toolchain.basic.runner.expressions import _is_test
from toolchain.basic.runner.statements import (
    CLOCK,
    DIRECT_LINE,
    LINE_MARK,
    LOOKS_OR_LEAVES,
    NEXT_MARK,
    Exit,
    ExitTo,
    Program,
    Segment,
)

# At most this many segments run in one function: more inlining saves dispatcher
# calls but grows the code every jumper to them duplicates.
MAX_SUPERBLOCK = 6
# Copies in place within copies (Linker.in_place): a FOR body's jump to its NEXT, and
# in it the outer loop's NEXT back to the inner FOR; at most this many lines a function
# (else one level of copies).
COPY_DEPTH = 2
MAX_IN_PLACE_LINES = 300
_BASE = "    "  # the indentation of a segment's statements
UNDEFINED = "rt.undefined_statement()"  # a GOTO to a line the program does not have


@dataclass
class Module:
    source: str
    basic_lines: list[int]  # the BASIC line of each line of ``source`` (index: line - 1)
    # the lines of code a function runs in place for another segment (Linker.in_place):
    # line of ``source`` (from 1) -> the segment whose statement group runs there
    group_starts: dict[int, int] = field(default_factory=dict)


class Linker:
    def __init__(self, program: Program) -> None:
        self.program = program
        numbers = program.line_numbers
        first = program.line_first_segment
        # the end of the program is one segment more: the runtime's, which ends the run
        self.end = len(program.segments)
        # where each line goes on when it is done: the first segment of the next line
        self.next_line: dict[int, int | str] = {
            number: first[numbers[index + 1]] if index + 1 < len(numbers) else self.end
            for index, number in enumerate(numbers)}
        if numbers and numbers[-1] == DIRECT_LINE:
            # a line typed in direct mode follows the program's, but the program's last
            # line still ends the run, and the direct line's end is READY. ($A7CB)
            if len(numbers) > 1:
                self.next_line[numbers[-2]] = self.end
            self.next_line[DIRECT_LINE] = "rt.direct_done()"
        self.blocks: dict[int, tuple[list[tuple[str, int]], list[int | None], bool]] = {}  # see block()

    def target(self, exit: Exit, segment: Segment) -> int | str | None:
        """Where an exit goes: a segment number, code computing it, or None (raises)."""
        to, value = exit
        if to is ExitTo.NEXT_LINE:
            return self.next_line[segment.line]
        if to is ExitTo.LINE:
            assert isinstance(value, int)
            found = self.program.line_first_segment.get(value)
            return UNDEFINED if found is None else found
        if to is ExitTo.SEGMENT:
            assert isinstance(value, int)
            return value
        if to is ExitTo.END:
            return self.end
        if to is ExitTo.CODE:
            return value
        return None

    def resolved_code(self, segment: Segment) -> list[str]:
        """The segment's statements with the conditional jumps' placeholders filled in."""
        resolved = []
        for code in segment.code:
            code = code.replace(NEXT_MARK, str(self.next_line[segment.line]))
            while LINE_MARK in code:
                start = code.index(LINE_MARK)
                end = code.index(LINE_MARK, start + 1)
                found = self.program.line_first_segment.get(int(code[start + 1 : end]))
                code = code[:start] + (UNDEFINED if found is None else str(found)) + code[end + 1 :]
            resolved.append(code)
        return resolved

    def superblock(self, index: int) -> list[tuple[str, int]]:
        """The code of segment ``index`` followed by the segments it always goes on to
        (a line falling through to the next, a FOR into its body, a GOTO): one call
        less for the dispatcher each time.  The segments run in place stay where they
        are for everyone else who jumps there.  Each code line with its BASIC line."""
        segments = self.program.segments
        code: list[tuple[str, int]] = []
        seen: set[int] = set()
        while True:
            seen.add(index)
            segment = segments[index]
            code.append((f"    # line {segment.line}", segment.line))
            code.extend((statement, segment.line) for statement in self.resolved_code(segment))
            target = self.target(segment.exit or Exit(ExitTo.NEXT_LINE), segment)
            if target is None:
                return _linked(code)
            fixed = isinstance(target, int) and 0 <= target < self.end
            if not fixed or target in seen or len(seen) >= MAX_SUPERBLOCK:
                code.append((f"    return {target}", segment.line))
                return _linked(code)
            assert isinstance(target, int)
            index = target

    def link(self) -> Module:
        segments = self.program.segments
        out = ["def _make():"]
        lines = [0]
        group_starts: dict[int, int] = {}
        for name, code in self.program.definitions.items():  # closure variables of the segments
            out.append(f"    {name} = {code}")
            lines.append(0)
        names = [*sorted(self.program.variables), CLOCK]
        for index, segment in enumerate(segments):
            out.append(f"    def s{index}():")
            lines.append(segment.line)
            if names:
                out.append(f"        global {', '.join(names)}")
                lines.append(segment.line)
            for code, line, group in self.in_place(index):
                out.append("    " + code)
                lines.append(line)
                if group is not None:
                    group_starts[len(out)] = group
        out.append(f"    return [{', '.join(f's{i}' for i in range(len(segments)))}]")
        lines.append(0)
        return Module("\n".join(out) + "\n", lines, group_starts)

    def in_place(self, index: int) -> list[tuple[str, int, int | None]]:
        """Segment ``index``'s code (its superblock) looping in place where it jumps back
        to its start: ``return index`` becomes a jump to the top of a ``while True``
        loop, and a ``return N`` to a segment whose code jumps back to ``index`` (a FOR
        body's conditional exit to its NEXT; that NEXT's loop ending in an outer NEXT
        back to the body's FOR) gets a copy of that code in place.  Each such jump
        first takes a statement group from the dispatcher's chunk (GROUPS), and returns
        to the dispatcher as before when the chunk has none left: the statement groups,
        the times the dispatcher looks at the clock, the limits, STOP and CONT stay as
        they were.  Each line with the segment whose group runs there if it is not
        ``index`` (a copy's: CONT after a BREAK there goes on at that segment)."""
        code, _, may_loop = self.block(index)
        plain: list[tuple[str, int, int | None]] = [(text, line, None) for text, line in code]
        if not may_loop:
            return plain
        looped = self.expanded(index, index, None, COPY_DEPTH)
        if len(looped) > MAX_IN_PLACE_LINES:
            looped = self.expanded(index, index, None, 1)
        if looped == plain:
            return plain
        body = [(_BASE + text, line, group) for text, line, group in looped]
        head, body = _clock_before_loop(body)
        return [*head, (_BASE + "while True:", code[0][1], None), *_clock_past_groups(body)]

    def expanded(self, index: int, segment: int, group: int | None, depth: int,
                 indent: str = _BASE) -> list[tuple[str, int, int | None]]:
        """``segment``'s block at ``indent`` in function ``index``: its jumps back to
        ``index`` taken in place, its jumps to a segment that leads back there within
        ``depth`` copies replaced by a copy (see in_place)."""
        code, targets, _ = self.block(segment)
        out: list[tuple[str, int, int | None]] = []
        for (text, line), target in zip(code, targets, strict=True):
            moved = indent + text[len(_BASE):]
            if target == index:
                out.extend(_jump_in_place(moved, index, line, group))
                continue
            if target is None or depth == 0 or not self.leads_back(target, index, depth):
                out.append((moved, line, group))
                continue
            # the jump to ``target``, and ``target``'s code in its place (indented as the jump)
            head = _jump_in_place(moved, target, line, group)
            out.extend(head[:-1])
            inner = head[-1][0][: -len("continue")]
            out.extend(self.expanded(index, target, target, depth - 1, inner))
            copied = self.block(target)[0]
            if not copied[-1][0].startswith(_BASE + "return "):  # as the function would end there
                out.append((inner + "return None", copied[-1][1], target))
        return out

    def leads_back(self, segment: int, index: int, depth: int) -> bool:
        """Whether a copy of ``segment``'s block, with copies in it down to ``depth``,
        jumps back to segment ``index``."""
        if segment >= self.end:
            return False
        _, targets, may_loop = self.block(segment)
        if not may_loop:
            return False
        return index in targets or depth > 1 and any(
            target is not None and target != segment and self.leads_back(target, index, depth - 1)
            for target in set(targets))

    def block(self, index: int) -> tuple[list[tuple[str, int]], list[int | None], bool]:
        """Segment ``index``'s superblock, the segment each of its lines jumps to (if it
        is a jump), and whether a loop in place may be put around it (made once)."""
        found = self.blocks.get(index)
        if found is None:
            code = self.superblock(index)
            found = self.blocks[index] = (code, [_jump_target(text) for text, _ in code], _may_loop(code))
        return found


CLOCK_ADD = f"    {CLOCK} += "
# an exit to a segment: ``return 24``, alone or as the body of an if, elif or else; an
# IF's jump to the next line may add to the clock first (_clock_after_quiet_jumps)
_JUMP = re.compile(r"^(?P<indent> *)(?:(?P<head>(?:if |elif ).*|else): )?"
                   rf"(?:(?P<clock>{CLOCK} \+= -?\d+); )?return (?P<target>\d+)$")
# an IF's jump to the next line (THEN's target), from statements.statement_IF
_IF_JUMP = re.compile(r"^    if (?P<condition>not \(.*\)): return (?P<target>\d+)$")
_ADD = re.compile(rf"^(?P<indent> *){CLOCK} \+= (?P<cycles>-?\d+)$")
_TAKE_GROUP = f"for _group in {GROUPS}: break"
# an assignment of a literal number to a variable: it can neither raise nor look
# a number literal as the generated code writes it (repr of a float)
_NUMBER = r"-?\d+\.\d*(?:e[-+]?\d+)?"
_SET = re.compile(rf"^    N_[A-Z][A-Z0-9]? = {_NUMBER}$")
# a string variable set to STR$ of a number variable (io.install_fout), as LET compiles it
# (the _kept variant: its room in string space taken after FOUT's time, before ``then``)
_SET_STR = re.compile(r"^    (?P<call>S_[A-Z][A-Z0-9]? = _fout_(?:digits|text)(?:_kept)?"
                      r"\(N_[A-Z][A-Z0-9]?)\)$")
# NEXT's test of its own frame's variable (statements.statement_NEXT): the variable is
# the frame's value, or whole and inside +-(2**32 - 1)
_NEXT_TEST = re.compile(r"^    if STACK and STACK\[-1\] is (?P<frame>_F\d+) and "
                        r"\((?P<variable>N_[A-Z][A-Z0-9]?) is (?P=frame)\.value or "
                        r"\((?P=variable) % 1\.0 == 0\.0 and (?P=variable) (?P<compare>>=|<=) "
                        r"(?P<bound>-?4294967295\.0)\)\):$")
_LITERAL = re.compile(rf"^    (?P<variable>N_[A-Z][A-Z0-9]?) = (?P<value>{_NUMBER})$")
# statements in whose body a ``continue`` would not reach the function's loop
_OWN_BODY = re.compile(r"^ *(?:for|while|def|class|async|with)\b")


def _linked(code: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """A superblock's code with the clock's additions moved (fewer of them) and the
    tests its own assignments answer dropped."""
    return _clock_into_str(_clock_after_quiet_jumps(_clock_added_once(_next_after_literal(code))))


def _jump_target(text: str) -> int | None:
    """The segment a line of code jumps to, if it is an exit to a fixed segment."""
    match = _JUMP.match(text) if "return " in text else None
    if match and match["clock"] and not (match["head"] or "").startswith("if not ("):
        return None  # an IF's GOTO, an ON's: as they were before (not taken in place)
    return int(match["target"]) if match else None


def _may_loop(code: list[tuple[str, int]]) -> bool:
    """Whether a ``continue`` anywhere in ``code`` reaches a loop around it."""
    return not any(_OWN_BODY.match(text) for text, _ in code)


def _jump_in_place(text: str, target: int, line: int, group: int | None) -> list[tuple[str, int, int | None]]:
    """The exit ``text`` (to ``target``) taken in place: a statement group from the
    dispatcher's chunk, or the exit as it was when the chunk has none left; the last
    line is ``continue`` (the caller replaces it where the code goes on in place)."""
    match = _JUMP.match(text)
    assert match is not None
    indent = match["indent"]
    code = []
    if match["head"]:
        code.append(f"{indent}{match['head']}:")
        indent += "    "
    if match["clock"]:
        code.append(f"{indent}{match['clock']}")
    code += [f"{indent}{_TAKE_GROUP}", f"{indent}else: return {target}", f"{indent}continue"]
    return [(statement, line, group) for statement in code]


def _clock_added_once(code: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """One addition to the clock for a run of code that neither looks at the time nor
    leaves: a superblock runs its segments in a row, so their times add up."""
    merged: list[tuple[str, int]] = []
    last = -1  # the index in merged of the last clock addition with nothing after it but comments
    for text, line in code:
        if text.startswith(CLOCK_ADD) and last >= 0:
            before, before_line = merged[last]
            total = int(before[len(CLOCK_ADD):]) + int(text[len(CLOCK_ADD):])
            merged[last] = (f"{CLOCK_ADD}{total}", before_line)
            continue
        if text.startswith(CLOCK_ADD):
            last = len(merged)
        elif any(mark in text for mark in LOOKS_OR_LEAVES) or text.rstrip().endswith(":"):
            last = -1  # the time is looked at or the code may leave here: added before
        merged.append((text, line))
    return merged


def _next_after_literal(code: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """A NEXT whose variable was just given a literal (``I=7:NEXT``, Nikolaus's way out
    of its loop), with nothing between but comments, additions to the clock and literals
    given to other variables: its test of the variable is known when compiling, and
    where it holds (a whole number inside the bound) the NEXT tests the frame alone.
    Where the sum with the step is then past the limit and inside the range the loop
    ends in (statements.statement_NEXT's shortcut), the NEXT ends the loop with the sum
    as a literal: the same float as the addition Python makes when it runs."""
    out: list[tuple[str, int]] = []
    known: dict[str, float] = {}  # the literals the variables hold at this point
    index = 0
    while index < len(code):
        text, line = code[index]
        index += 1
        out.append((text, line))
        literal = _LITERAL.match(text)
        if literal:
            known[literal["variable"]] = float(literal["value"])
            continue
        test = _NEXT_TEST.match(text)
        value = known.get(test["variable"]) if test else None
        if not (text.startswith(_BASE + "#") or text.startswith(CLOCK_ADD)):
            known.clear()  # anything else may change a variable or go elsewhere
        if not (test and value is not None):
            continue
        bound = float(test["bound"])
        if not (value % 1.0 == 0.0 and (value >= bound if test["compare"] == ">=" else value <= bound)):
            continue
        out[-1] = (f"    if STACK and STACK[-1] is {test['frame']}:", line)
        ended = _next_ended(code[index : index + len(_NEXT_LINES)], test["variable"], value)
        if ended is not None:
            out.append((f"        {test['variable']} = {ended!r}", line))
            out.append(("        " + code[index + len(_NEXT_LINES) - 2][0].lstrip(), line))  # the frame's pop
            index += len(_NEXT_LINES)
    return out


def _next_ended(code: list[tuple[str, int]], variable: str, value: float) -> float | None:
    """The sum of ``value`` and the step, where the NEXT's shortcut ``code`` (the lines
    after its test) ends the loop with it; None where it may go on or is not the shortcut."""
    if len(code) != len(_NEXT_LINES):
        return None
    lines = zip(_NEXT_LINES, code, strict=True)
    matches = [re.match(pattern.format(variable=variable), text) for pattern, (text, _) in lines]
    if not all(matches):
        return None
    step, goes_on, past = matches[0], matches[1], matches[4]
    assert step is not None and goes_on is not None and past is not None
    total = value + float(step["step"])
    limit = float(goes_on["limit"])
    if (total <= limit if goes_on["compare"] == "<=" else total >= limit):
        return None
    return total if float(past["low"]) < total < float(past["high"]) else None


# the lines of statements.statement_NEXT's shortcut after its test, in a superblock
_NEXT_LINES = (rf"^        v = {{variable}} \+ (?P<step>{_NUMBER})$",
               rf"^        if v (?P<compare><=|>=) (?P<limit>{_NUMBER}):$",
               r"^            _F\d+\.value = {variable} = v$",
               r"^            return \d+$",
               rf"^        if (?P<low>{_NUMBER}) < v < (?P<high>{_NUMBER}):$",
               r"^            {variable} = v$",
               r"^            STACK\.pop\(\); rt\.stack_bytes -= \d+$",
               r"^        elif _next\(rt, (?:None|'{variable}')\): return STACK\[-1\]\.resume$")


def _quiet(node: ast.expr) -> bool:
    """A test that can neither raise nor look at anything but variables: comparisons,
    AND, OR and NOT of names (variables, temporaries it assigns) and literals."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub):
        return _quiet(node.operand)
    if isinstance(node, ast.BoolOp):
        return all(_quiet(value) for value in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr | ast.BitAnd):
        # ``&`` and ``|`` of tests (expressions.binary): of True and False, which cannot raise
        return _is_test(node.left) and _is_test(node.right) and _quiet(node.left) and _quiet(node.right)
    if isinstance(node, ast.Compare):
        return all(_quiet(operand) for operand in (node.left, *node.comparators))
    if isinstance(node, ast.NamedExpr):
        return _quiet(node.value)
    return isinstance(node, ast.Name | ast.Constant)


def _clock_after_quiet_jumps(code: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """An IF's test with the clock's addition right before it (statements.statement_IF:
    the test, and the rest of the line the false path skips) and the next addition
    after it and some assignments of literals: where the test can neither raise nor
    look at the time, the jump to the next line adds the first itself, and the true
    path adds both at the second.  One addition less where the condition is true, as
    many where it is false; between the two places nothing can look at the clock or
    stop the program (an error's clock is the C64's at the error)."""
    out = list(code)
    moved: set[int] = set()  # the additions that went into a jump
    for index in range(1, len(out) - 1):
        match = _IF_JUMP.match(out[index][0])
        added = _ADD.match(out[index - 1][0])
        if not (match and added and added["indent"] == _BASE
                and _quiet(ast.parse(match["condition"], mode="eval").body)):
            continue
        after = index + 1
        while after < len(out) and (out[after][0].startswith(_BASE + "#") or _SET.match(out[after][0])):
            after += 1
        joined = _ADD.match(out[after][0]) if after < len(out) else None
        if joined is None or joined["indent"] != _BASE:
            continue
        cycles = int(added["cycles"])
        moved.add(index - 1)
        out[index] = (f"{_BASE}if {match['condition']}: {CLOCK} += {cycles}; return {match['target']}",
                      out[index][1])
        out[after] = (f"{CLOCK_ADD}{cycles + int(joined['cycles'])}", out[after][1])
    return [code_line for index, code_line in enumerate(out) if index not in moved]


def _clock_into_str(code: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """``A$=STR$(X)`` (FOUT adds its time to the clock itself, io.install_fout) and the
    next addition after it and some assignments of literals: FOUT adds that too (its
    ``then``), where nothing between can raise or look at the clock."""
    out: list[tuple[str, int]] = []
    for text, line in code:
        added = _ADD.match(text)
        if added and added["indent"] == _BASE:
            before = len(out) - 1
            while before >= 0 and (out[before][0].startswith(_BASE + "#") or _SET.match(out[before][0])):
                before -= 1
            call = _SET_STR.match(out[before][0]) if before >= 0 else None
            if call:
                out[before] = (f"{_BASE}{call['call']}, {added['cycles']})", out[before][1])
                continue
        out.append((text, line))
    return out


def _clock_before_loop(body: list[tuple[str, int, int | None]]) -> tuple[
        list[tuple[str, int, int | None]], list[tuple[str, int, int | None]]]:
    """A loop in place whose code starts with an addition to the clock: the addition
    made before the loop, on the way in, and before each ``continue`` back to its top,
    where _clock_past_groups joins it to the addition before that jump's group."""
    first = next((index for index, (text, _, _) in enumerate(body) if not text.lstrip().startswith("#")),
                 None)
    match = _ADD.match(body[first][0]) if first is not None else None
    if match is None or match["indent"] != 2 * _BASE:
        return [], body
    assert first is not None
    text, line, group = body[first]
    moved: list[tuple[str, int, int | None]] = []
    for other in body[:first] + body[first + 1 :]:
        if other[0].strip() == "continue":
            indent = other[0][: len(other[0]) - len(other[0].lstrip())]
            moved.append((f"{indent}{CLOCK} += {match['cycles']}", other[1], other[2]))
        moved.append(other)
    return [(_BASE + text.lstrip(), line, group)], moved


def _clock_past_groups(code: list[tuple[str, int, int | None]]) -> list[tuple[str, int, int | None]]:
    """An addition to the clock before a jump in place taken (a statement group from
    the chunk, linker._jump_in_place) joins the first addition of the code that goes on
    there when nothing but comments is between them; the way back to the dispatcher,
    when the chunk has no group left, adds it itself before it returns.  The clock reads
    the same wherever it is looked at: taking a group looks at nothing."""
    out = list(code)
    index = 0
    while index + 3 < len(out):
        added = _ADD.match(out[index][0])
        indent = added["indent"] if added else ""
        if not (added and out[index + 1][0] == indent + _TAKE_GROUP
                and (back := _JUMP.match(out[index + 2][0])) and back["head"] == "else"
                and not back["clock"] and back["indent"] == indent):
            index += 1
            continue
        after = index + 3
        while after < len(out) and out[after][0].startswith(indent + "#"):
            after += 1
        joined = _ADD.match(out[after][0]) if after < len(out) else None
        if joined is None or joined["indent"] != indent:
            index += 1
            continue
        cycles = int(added["cycles"])
        _, line, group = out[index + 2]
        out[index + 2] = (f"{indent}else: {CLOCK} += {cycles}; return {back['target']}", line, group)
        _, line, group = out[after]
        out[after] = (f"{indent}{CLOCK} += {cycles + int(joined['cycles'])}", line, group)
        del out[index]
    return out


def link(program: Program) -> Module:
    return Linker(program).link()
