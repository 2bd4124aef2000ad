"""What the compiler and the runtime agree on: the kinds of values, the names that
variables get in the generated code, the frames on the FOR/GOSUB stack, the errors.

The generated code is a Python module whose globals are the program's variables:
``N_AB`` a number, ``I_AB`` an integer (``AB%``), ``S_AB`` a string (``AB$``),
``AN_AB``/``AI_AB``/``AS_AB`` arrays, ``FN_AB`` a function defined by DEF FN.  Only
the first two characters of a name count, as on the C64.
"""

from __future__ import annotations

import enum
import math
from typing import NamedTuple

from toolchain.c64.outcome import Stop

# The 6502 stack holds FOR frames (18 bytes) and GOSUB frames (5 bytes, and the 2-byte
# return address of the statement dispatcher stays below them until RETURN).  The
# ROM's check ($A3FB) leaves room for 9 nested FORs and 23 nested GOSUBs; the limits
# below are calibrated on VICE: 9 FORs, 1 GOSUB + 9 FORs, and 23 GOSUBs fit, one more
# gives ?OUT OF MEMORY.
FOR_BYTES, GOSUB_BYTES = 18, 7
FOR_ROOM, GOSUB_ROOM = 156, 157  # the most bytes of frames a new FOR / GOSUB may find
BASIC_BYTES_FREE = 38911  # what the start-up screen says
# FN calls nested in each other that fit on the 6502 stack: measured with BASIC in ROM
# (tests/test_basic_runner.py), DEF FN A(X)=1/X+FN A(X-1): PRINT FN A(5) divides by zero
# in the sixth call, FN A(6) is ?OUT OF MEMORY (each call takes 28 bytes there).  The
# ROM's count depends on what the body and the call site keep pending (a parenthesis
# around the call takes 5 bytes more a call, a pending operator 12): c64tc counts calls,
# which is exact for a body like this one and near it for others.
FN_NESTING = 6
# Compiled with line hooks (only then: a run without them pays nothing), every line's
# code starts with this call, given the line number, before its first statement: the
# monitor's line breakpoints (toolchain/monitor/basic.py).  Inside a superblock too,
# since a line's code carries its hook wherever the linker places it.
LINE_HOOK = "rt.line_reached"
# The statement groups the dispatcher's chunk has left (runtime.Runtime._execute): an
# iterator in the module's globals that the dispatcher and the generated code's loops in
# place (linker.py) take groups from, so that a group run in place counts as one the
# dispatcher called.  Outside the dispatcher it is empty: every jump goes back to it.
GROUPS = "_GROUPS"


class Kind(enum.Enum):
    """What a value or a variable holds; the value is the letter of its names."""

    NUMBER = "N"
    INTEGER = "I"
    STRING = "S"

    @property
    def is_string(self) -> bool:
        return self is Kind.STRING

    def initial(self) -> float | int | str:
        """A variable's value after RUN or CLR."""
        return "" if self is Kind.STRING else (0 if self is Kind.INTEGER else 0.0)


class Declared(enum.Enum):
    """What a name in the generated code is, so that CLR can reset it."""

    SCALAR = "scalar"
    ARRAY = "array"
    FUNCTION = "function"


class Variable(NamedTuple):
    declared: Declared
    kind: Kind


def scalar_name(name: str, kind: Kind) -> str:
    return f"{kind.value}_{name}"


def array_name(name: str, kind: Kind) -> str:
    return f"A{kind.value}_{name}"


def function_name(name: str) -> str:
    return f"FN_{name}"


class ForFrame:
    """A FOR loop on the stack: the variable's generated name, the limit and step,
    the segment that follows the FOR, its line.

    NEXT adds in Python where the ROM's FADD and store are proven to give the same:
    ``low``..``high`` (inclusive) is where a whole variable plus the step may land for
    the loop to go on without the ROM's routine, ``past_low``..``past_high``
    (exclusive) where it ends the loop; both empty for a step that is not whole or
    not below 2**32 in size.  ``value`` is the whole number below 2**32 that NEXT (or
    a FOR with such a constant start) stored last, else None: while the variable
    holds that very object, NEXT need not check that it is whole.

    Why the sum ``v = x + s`` (x the variable, whole; s the step) is the ROM's NEXT
    when ``v`` is in a range:

    * ``v`` is the exact sum, so ``x = v - s`` exactly: the ranges lie within
      +-2**32, and a whole ``x`` of 2**53 or more could only give a rounded ``v``
      beyond 2**53 - 2**32, far outside them.
    * The ranges keep ``x``, ``s`` and ``v`` strictly inside +-2**32: for a positive
      step ``v < 2**32`` gives ``x < 2**32``, and ``v >= s - (2**32 - 1)`` (the
      ranges' low ends) gives ``x >= -(2**32 - 1)``; mirrored for a negative step.
    * Then FADD ($B867) is exact: a whole number below 2**32 has an exponent of at
      most $A0, so its unit bit is bit 8 or higher of the 40-bit mantissa, and so
      is every bit of the sum after the alignment shift (no bit falls off, none
      reaches the rounding byte).  Same signs: the carry shifts out only the rounding
      byte's bit (where the ROM's equal-exponent carry went, $B8FE).  Opposite signs:
      a non-zero difference keeps a bit in the top 32, so $B8D7's "top 32 bits zero
      is zero" does not strike.  At x = -2**32 it does: the unit lies in the
      rounding byte and -2**32 + (2**32 - 1) is 0 on the C64 (issue 21), which the
      old range (it checked only the sum) let through.
    * The store ($BBD4) rounds by the rounding byte, which is 0: ``v`` unchanged.
    * FCOMP ($BC5B) of the limit (stored, 5 bytes) with ``v`` (rounded, 5 bytes) is
      the plain comparison of two exact numbers: the loop goes on while ``v <= limit``
      for a positive step (``v >= limit`` for a negative one).

    tests/test_basic_fast_paths.py checks these ranges against the ROM's routines at
    each of their edges."""

    __slots__ = ("variable", "limit", "step", "resume", "line", "value", "low", "high",
                 "past_low", "past_high", "below")

    # A FOR runs often (every pass of an outer loop): written for speed (Python 3.11
    # calls a class slowly), with 2**32 and 2**32 - 1 spelled out.
    def __init__(self, variable: str, limit: float, step: float, resume: int, line: int) -> None:
        self.variable = variable
        self.limit = limit
        self.step = step
        self.resume = resume
        self.line = line
        self.value: float | None = None
        # the stack below the frame when it was last pushed without dropping anything
        # (Runtime.push_frame)
        self.below: list[ForFrame | GosubFrame] | None = None
        if 0.0 < step < 4294967296.0 and step % 1.0 == 0.0:
            self.low = step - 4294967295.0  # x = v - s >= -(2**32 - 1)
            self.high = limit if limit < 4294967295.0 else 4294967295.0
            bottom = step - 4294967296.0  # v above it: x > -2**32
            self.past_low = limit if limit > bottom else bottom
            self.past_high = 4294967296.0
        elif -4294967296.0 < step < 0.0 and step % 1.0 == 0.0:
            self.low = limit if limit > -4294967295.0 else -4294967295.0
            self.high = step + 4294967295.0  # x = v - s <= 2**32 - 1
            self.past_low = -4294967296.0
            top = step + 4294967296.0  # v below it: x < 2**32
            self.past_high = limit if limit < top else top
        else:  # never: every NEXT takes the ROM's way
            self.low = self.past_low = math.inf
            self.high = self.past_high = -math.inf


class GosubFrame:
    """A GOSUB on the stack: the segment to return to, and the calling line."""

    __slots__ = ("resume", "line")
    variable = None  # not a loop: NEXT's search stops here

    def __init__(self, resume: int, line: int) -> None:
        self.resume = resume
        self.line = line


Frame = ForFrame | GosubFrame


class BasicError(Exception):
    """An error as the C64 reports it (``?SYNTAX  ERROR IN 270``).  ``unnumbered``: the
    ROM reports it as in direct mode, without ``IN`` (GET's bad number: $AB53 sets
    CURLIN's high byte to $FF before ?SYNTAX ERROR); ``line`` is still where it was."""

    def __init__(self, name: str, line: int | None = None, note: str = "", unnumbered: bool = False) -> None:
        super().__init__(name)
        self.name = name
        self.line = line
        self.note = note
        self.unnumbered = unnumbered


class ProgramEnded(Exception):
    """END, NEW, LIST or the last line: the dispatcher's loop is done."""


class Ended(Exception):
    """The run ends for a reason that is not a BASIC error (input used up, a limit,
    machine code that stopped, STOP)."""

    def __init__(self, stop: Stop, message: str = "") -> None:
        super().__init__(message)
        self.stop = stop
        self.message = message
