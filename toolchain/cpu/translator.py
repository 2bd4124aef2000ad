"""The translating 6502 core: hot machine code compiled to Python functions.

Code first runs on the reference interpreter, a block at a time (up to a jump, a
taken branch or a return), with a count per block start.  A start that runs ``HOT``
times (within ``HEAT_WINDOW`` cycles) is translated: compiling a region costs as much
as interpreting its code a hundred times or so, so code that runs once (a program's
start, the linear checks of a test suite) is never compiled.

A *block* is the code from an address along one path: straight on through the
instructions, past conditional branches (a taken branch leaves the block, except a
short forward branch, which becomes an ``if`` around the code it skips), up to the
next jump, return or interrupt (at most ``MAX_BLOCK`` instructions).  A *region* is
the set of blocks found from a hot start by following the code's static successors
(branch and jump targets, subroutines and the addresses their calls return to) as
far as code that has run, compiled into one Python function: the registers stay in
local variables, every operand the code holds (addresses, immediates, branch
targets) is a constant, and the blocks dispatch among themselves in a ``while``
loop (a binary search on the PC); a block that branches back to its own start is a
loop of its own.  Some changes of block skip the dispatch: the next block's code is
written in place, after the same look at the horizon (the copies at most twice the
region's own source, see _RegionWriter._written_in).  So it is for a JSR to a block of
the region (the subroutine), for an RTS where the region's calls show where it
returns (one call site; a test of the PC first, :class:`_Return`), and for a jump or
branch to a block that is a loop of its own (written inside a loop in place: its way
back to the block it is written into turns that one's loop).  Every start of a
block in the region is an entry: the region runs from ``cpu.pc``.  The region returns
to its caller when the code goes somewhere outside it (a stop address, a BRK, code of
another region), when a write changes translated code or an address the owner
watches, or when the cycle count reaches the
caller's ``horizon``: checked each time control passes from one block to another, so
a region overruns its horizon by less than one block (``MAX_BLOCK_CYCLES``).  (A region
that needs neither the chips nor the interpreter counts its cycles and instructions in
one local and returns within ``CLOCK_REACH`` cycles: see ``CLOCK_SHIFT``.)  A region
that leads to code which becomes hot later is compiled again to hold it (a few
times); a new region takes over the blocks of small regions it reaches.

A write to a byte of translated code drops the units holding that byte, and if the
running region is one of them, it ends right after the writing instruction:
self-modifying code stays correct.  The byte is remembered as *volatile*: regions
stop before an instruction that has changed; that instruction's code runs on the
interpreter until it is hot again since its last change, then as a block of its own
(with earlier variants kept, for code that patches its operands in a cycle).  (Code
is tracked per byte, not per page: programs keep their variables right beside their
code.)  A store to RAM below $A000 that nothing watches when its region is translated
has no watch check at all (:class:`_Checked`); the region is dropped when a byte it may
store to becomes translated code.

Reads and writes of the I/O area ($D000-$DFFF) go to the owner (``io_read``, and
``on_write`` through the write watch), except where the owner gives the access as
source (``io_access``, :class:`CompiledIO`: the chips' registers that need no method,
see :mod:`toolchain.c64.io`): an absolute load or store there becomes that source,
guarded by whether the I/O area is shown (looked up once as a region starts: a bank
switch ends the region), and a store the owner says may change the chips' timing
ends the block after it (the owner's write watch ends the region there: the same
place for the run loop to take an interrupt); the next block's code is then written
right after that look at the horizon where the chain of blocks comes back to where it
started (:class:`_Splice`), so that a
loop storing to a CIA port or the border each turn does not go through the region's
dispatch at every store.  Consecutive absolute stores to one
chip that the owner gives as a run (``write_run_source``) become one piece, and a store
indexed into the area calls the owner's compiled write for the address it reaches
(``indexed_write_source``) where there is one.  A block that polls a register until it
changes (``LDA $D012 / CMP #n / BNE`` back to itself) first leaves out, at once, the
turns the owner says change nothing but the time (``poll_source``).  After a read the owner may find moves
the chips' next event, the region looks at ``cpu.horizon`` again.  Code in the I/O
area is not translated while the area is shown.

Frequent instructions have inline templates; all others run through the reference
interpreter's handler (:data:`toolchain.cpu.core.HANDLERS`) for that one
instruction, so every behaviour has one definition.  The interpreter stays the
reference: the conformance suites run on both cores.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from toolchain.cpu.core import (
    CPU,
    HANDLERS,
    MODIFY_LATER,
    READ_LATER,
    WRITE_LATER,
    decimal_adc,
    decimal_sbc_result,
)
from toolchain.cpu.disassembler import disassemble
from toolchain.cpu.opcodes import JAM_OPCODES, OPCODES, UNSTABLE_OPCODES, Mode

MAX_BLOCK = 32  # instructions in one block (the code its skips jump over counted too)
MAX_BLOCK_CYCLES = MAX_BLOCK * 8 + 16  # an upper bound of the cycles one block can take
MAX_REGION_BLOCKS = 64
MAX_REGION_INSTRUCTIONS = 1000  # bounds the time one region takes to compile
TAKE_OVER = 400  # a new region takes blocks from regions of up to this many instructions (at 100,
# Superhirn's scoring loop stayed two regions of 170 and 346 instructions calling each other:
# some 480 region exits and entries a game)
MAX_SPLICED = 2 * MAX_BLOCK  # instructions of other blocks written for one block's _Splice (nested too)
# lines of blocks written in place of changes of block in one region (_written_in): each
# thousand costs some 4 ms to compile, and a region is compiled up to MAX_GROWTH times
MAX_COPIED_LINES = 3000
# ... and of one block: a longer one holds blocks written into it after stores to the chips
# (_Splice), whose own work outweighs a trip through the dispatch
MAX_COPIED_BLOCK = 200
MAX_SPLICE_DEPTH = 4  # blocks written one into another (each a _Splice of the one before)
MAX_GROWTH = 3  # times a region is translated again to hold hot code it leads to
MAX_SKIP = 0x40  # the farthest forward branch that becomes an ``if`` in its block (bytes)
INLINE_BUDGET = 8  # instructions a block must have left to copy code from elsewhere into it
HOT = 32  # interpreted runs of a block (within HEAT_WINDOW cycles) before it is translated
HEAT_WINDOW = 1_000_000  # cycles
MAX_VARIANTS = 16  # earlier translations kept per start address
MAX_RECOMPILES = 2 * MAX_VARIANTS  # code at a start that has changed more often is interpreted
NO_HORIZON = 1 << 62  # a horizon no run reaches
# A region without I/O accesses and without instructions on the interpreter keeps its
# cycles and instructions since it started in one local: cycles << CLOCK_SHIFT plus
# instructions (at most one per two cycles, so they never reach the cycles' bits).
# Each path then adds one constant where it added two; the region returns within
# CLOCK_REACH cycles, so that the local stays below 2**30, an int CPython 3.11 adds
# and compares on its fast path (one digit).
CLOCK_SHIFT = 16
CLOCK_REACH = 16_000
WATCH_CODE, WATCH_MACHINE = 1, 2  # the flags of the write watch (see TranslatingCPU)
_WITHOUT_CODE = bytes(flags & ~WATCH_CODE for flags in range(256))
_CODE_ONLY = bytes(flags & WATCH_CODE for flags in range(256))
IO_PAGE_HIGH = 0xD  # $D000-$DFFF, by the address's top four bits

_NAME = re.compile(r"[A-Za-z_]\w*")  # the names in generated code
_REGISTERS = ("a", "x", "y", "sp", "c", "v", "d", "i")
# nr and zr hold N and Z lazily: the last result (N is bit 7 of nr; Z is set when zr is 0)
_LOCALS = (*_REGISTERS, "nr", "zr")


class CompiledSource(Protocol):
    """An access as source (the owner's): a read's expression or a write's statements
    (``code``), statements a read runs first (``before``), an expression under which the
    source holds (``guard``; else the access goes through the owner)."""

    @property
    def code(self) -> str: ...

    @property
    def before(self) -> str: ...

    @property
    def guard(self) -> str: ...


class CompiledIO(Protocol):
    """What an owner with chips in the I/O area gives the translator (see the module's
    description); ``namespace_name`` is the name its object has in translated code, and
    ``guard`` the expression (with that name) true while the compiled accesses hold."""

    namespace_name: str
    guard: str
    entry_names: dict[str, str]  # names the source uses, and what they are set to as a region starts
    visible: bool  # whether the I/O area is shown now
    hooked: frozenset[int]  # addresses whose stores the owner must see through ``on_write``

    def read_source(self, address: int) -> CompiledSource | None: ...  # None: through ``io_read``

    def write_source(self, address: int) -> tuple[CompiledSource, bool] | None: ...


@dataclass(frozen=True)
class Code:
    """A piece of generated code and the registers it reads and writes: what the
    region loads from the CPU object on entry and stores back on exit comes from
    these records, never from reading the generated text."""

    text: str
    reads: frozenset[str] = frozenset()
    writes: frozenset[str] = frozenset()


def _code(text: str, reads: str = "", writes: str = "") -> Code:
    return Code(text, frozenset(reads.split()), frozenset(writes.split()))


_NZ = "nr zr"  # a result that sets N and Z
_NZ_BRANCHES = frozenset({"bpl", "bmi", "bne", "beq"})
_CARRY_BRANCHES = frozenset({"bcc", "bcs"})
_ASSIGNS_T = re.compile(r"^\s*t = ", re.M)  # code that replaces the old value t (see _BlockWriter.carry)
_WRITING = -1  # (no address) _BlockWriter._sets_nz_next: the skip of the instruction being written
# each branch's condition: (taken, not taken)
_BRANCHES = {"bpl": ("nr < 0x80", "nr >= 0x80", "nr"), "bmi": ("nr >= 0x80", "nr < 0x80", "nr"),
             "bvc": ("not v", "v", "v"), "bvs": ("v", "not v", "v"), "bcc": ("not c", "c", "c"),
             "bcs": ("c", "not c", "c"), "bne": ("zr", "not zr", "zr"),
             "beq": ("not zr", "zr", "zr")}  # fmt: skip
# Byte arithmetic through tables (tuples of small ints, locals of every region): CPython
# 3.11 specializes a tuple's index and + and - of small ints, but not &, >> or <<, which
# go through the generic number protocol at three times the cost; and an address such as
# $0100 + SP is a new int object each time, a table's entry is not.
_TABLES: dict[str, tuple[int, ...]] = {
    "INC": tuple((value + 1) & 0xFF for value in range(256)),
    "DEC": tuple((value - 1) & 0xFF for value in range(256)),
    "LOW": tuple(value & 0xFF for value in range(512)),  # of a sum or difference (0-511)
    "CARRY": tuple(value >> 8 for value in range(512)),  # ... its carry
    "HALF": tuple(value >> 1 for value in range(256)),
    "DOUBLE": tuple((value << 1) & 0xFF for value in range(256)),
    "BIT0": tuple(value & 1 for value in range(256)),
    "BIT6": tuple(value >> 6 & 1 for value in range(256)),
    "BIT7": tuple(value >> 7 for value in range(256)),
    "STACK": tuple(range(0x100, 0x200)),  # the stack page's address of each SP
    # a JSR's two pushes and an RTS's two pulls at once: the addresses one below and one
    # and two above SP, and SP moved by two (a statement or two less for each)
    "BELOW": tuple(0x100 + ((sp - 1) & 0xFF) for sp in range(256)),
    "ABOVE": tuple(0x100 + ((sp + 1) & 0xFF) for sp in range(256)),
    "ABOVE2": tuple(0x100 + ((sp + 2) & 0xFF) for sp in range(256)),
    "INC2": tuple((sp + 2) & 0xFF for sp in range(256)),
    "DEC2": tuple((sp - 2) & 0xFF for sp in range(256)),
    "RETURN": tuple(high * 256 + 1 for high in range(256)),  # an RTS's high byte pulled, and the + 1
}
# operations on a value {v} read from memory or an immediate.  Carries come from a
# result in 0-511: t is past $FF after an ADC's carry, a - v + 256 past $FF when a >= v
_READS = {
    "lda": _code("a = nr = zr = {v}", "", "a " + _NZ),
    "ldx": _code("x = nr = zr = {v}", "", "x " + _NZ),
    "ldy": _code("y = nr = zr = {v}", "", "y " + _NZ),
    "lax": _code("a = x = nr = zr = {v}", "", "a x " + _NZ),
    "and": _code("a = nr = zr = a & {v}", "a", "a " + _NZ),
    "ora": _code("a = nr = zr = a | {v}", "a", "a " + _NZ),
    "eor": _code("a = nr = zr = a ^ {v}", "a", "a " + _NZ),
    "cmp": _code("t = a - {v} + 256\nc = CARRY[t]\nnr = zr = LOW[t]", "a", "c " + _NZ),
    "cpx": _code("t = x - {v} + 256\nc = CARRY[t]\nnr = zr = LOW[t]", "x", "c " + _NZ),
    "cpy": _code("t = y - {v} + 256\nc = CARRY[t]\nnr = zr = LOW[t]", "y", "c " + _NZ),
    "bit": _code("nr = t = {v}\nzr = a & t\nv = BIT6[t]", "a", "v " + _NZ),
    "adc": _code("m = {v}\nif d:\n    a, n_, v, z_, c = decimal_adc(a, m, c)\n    nr = n_ << 7\n"
                 "    zr = 1 - z_\nelse:\n    t = a + m + c\n"
                 "    if a < 128:\n        v = 1 if m < 128 and t > 127 else 0\n"
                 "    else:\n        v = 1 if m > 127 and t < 384 else 0\n"
                 "    c = CARRY[t]\n    a = nr = zr = LOW[t]", "a c d", "a c v " + _NZ),
    # t is the difference + 256 (0-511: its low byte is the difference's).  Overflow (V),
    # by comparisons: two numbers of the same sign whose sum has the other (ADC), or a
    # positive minus a negative that is negative, or the other way round (SBC)
    "sbc": _code("m = {v}\nt = a - m + 255 + c\nif a < 128:\n    v = 1 if m > 127 and t > 127 else 0\nelse:\n"
                 "    v = 1 if m < 128 and t < 384 else 0\nif d:\n"
                 "    nr = zr = LOW[t]\n    a = decimal_sbc_result(a, m, c)\n"
                 "else:\n    a = nr = zr = LOW[t]\nc = CARRY[t]", "a c d", "a c v " + _NZ),
    "nop": _code(""),
}  # fmt: skip
_OLD = re.compile(r"\bt\b")  # the old value in a read-modify-write template
_COMPARES = {"cmp": "a", "cpx": "x", "cpy": "y"}
# stores: the value written
_WRITES = {"sta": _code("a", "a"), "stx": _code("x", "x"), "sty": _code("y", "y"),
           "sax": _code("a & x", "a x")}
_POLL_LOADS = {"lda": "a", "ldx": "x", "ldy": "y"}  # a polling loop's load (poll_skip)
_POLL_COMPARES = {"a": "cmp", "x": "cpx", "y": "cpy"}  # ... and its comparison
_PLAIN_STORES = ("sta", "stx", "sty")  # the stores that join a run of stores to a chip (store_run)
_MODIFIES_VIA_FALLBACK = frozenset({"slo", "rla", "sre", "rra", "dcp", "isc"})
# read-modify-write: statements on the old value t, then the new value's expression
_MODIFIES = {
    "asl": (_code("c = BIT7[t]", "", "c"), "DOUBLE[t]"),
    "lsr": (_code("c = BIT0[t]", "", "c"), "HALF[t]"),
    "rol": (_code("r = DOUBLE[t] + c\nc = BIT7[t]", "c", "c"), "r"),
    "ror": (_code("r = HALF[t] + 128 if c else HALF[t]\nc = BIT0[t]", "c", "c"), "r"),
    "inc": (_code(""), "INC[t]"), "dec": (_code(""), "DEC[t]"),
}  # fmt: skip
_IMPLIED = {
    "tax": _code("x = nr = zr = a", "a", "x " + _NZ), "tay": _code("y = nr = zr = a", "a", "y " + _NZ),
    "txa": _code("a = nr = zr = x", "x", "a " + _NZ), "tya": _code("a = nr = zr = y", "y", "a " + _NZ),
    "tsx": _code("x = nr = zr = sp", "sp", "x " + _NZ), "txs": _code("sp = x", "x", "sp"),
    "inx": _code("x = nr = zr = INC[x]", "x", "x " + _NZ),
    "iny": _code("y = nr = zr = INC[y]", "y", "y " + _NZ),
    "dex": _code("x = nr = zr = DEC[x]", "x", "x " + _NZ),
    "dey": _code("y = nr = zr = DEC[y]", "y", "y " + _NZ),
    "clc": _code("c = 0", "", "c"), "sec": _code("c = 1", "", "c"), "cli": _code("i = 0", "", "i"),
    "sei": _code("i = 1", "", "i"), "cld": _code("d = 0", "", "d"), "sed": _code("d = 1", "", "d"),
    "clv": _code("v = 0", "", "v"), "nop": _code(""),
    "pla": _code("sp = INC[sp]\na = nr = zr = mem[STACK[sp]]", "sp", "sp a " + _NZ),
    "plp": _code("sp = INC[sp]\nt = mem[STACK[sp]]\nnr = t & 0x80\nv = BIT6[t]\nd = t >> 3 & 1\n"
                 "i = t >> 2 & 1\nzr = ~t & 2\nc = BIT0[t]", "sp", "sp v d i c " + _NZ),
}  # fmt: skip
# implied instructions that neither read nor set N and Z and cannot end a block (PHA too)
# (CLI is not one: clearing the I flag ends the region, see _BlockWriter.instruction)
_NEUTRAL = frozenset({"clc", "sec", "sei", "cld", "sed", "clv", "nop", "txs"})
_STATUS = _code("((nr & 0x80) | v << 6 | 0x30 | d << 3 | i << 2 | (0 if zr else 2) | c)", "nr v d i zr c")
_LOAD_CODE = {**{r: f"{r} = cpu.{r}" for r in _REGISTERS}, "nr": "nr = 0x80 if cpu.n else 0",
              "zr": "zr = 0 if cpu.z else 1"}
_STORE_CODE = {**{r: f"cpu.{r} = {r}" for r in _REGISTERS}, "nr": "cpu.n = nr >> 7",
               "zr": "cpu.z = 0 if zr else 1"}
_INDENT = "    "
# the horizon as the packed clock counts it (see CLOCK_SHIFT): from the region's start, at
# most CLOCK_REACH cycles on (a horizon already passed stays below the clock)
_PACKED_HORIZON = (f"horizon = cpu.horizon - base\nif horizon > {CLOCK_REACH}:\n"
                   f"{_INDENT}horizon = {CLOCK_REACH}\nhorizon <<= {CLOCK_SHIFT}")
# instruction lengths by opcode: the interpreter's blocks end where the PC does not go on
_LENGTHS = bytes(OPCODES[code].length if code in OPCODES else 1 for code in range(256))


@dataclass(frozen=True)
class _Goto:
    """A transfer to a known address, written once the region's blocks are known: to a
    block of the region it stays inside, anywhere else it returns to the caller."""

    indent: int
    target: int
    # N and Z handed over from a fused branch (see _BlockWriter.branch): the statement that
    # sets them, written where the path leaves the block; where the code at ``dead_at`` (this
    # block's start) sets them before it reads them, the loop's turn back there goes without it
    restore: str = ""
    dead_at: int | None = None
    call: bool = False  # a JSR's: the subroutine's code is written in its place where it may (_written_in)


@dataclass(frozen=True)
class _Return:
    """An RTS's way out, its address pulled into ``pc``, written once the region's blocks
    are known: where the region's calls say where the subroutine that ``block`` belongs
    to goes back (:meth:`_RegionWriter._returns`), the code there follows a test of the
    PC and the look at the horizon, without the trip through the region's dispatch."""

    indent: int
    block: int  # the start of the block whose code holds the RTS


@dataclass(frozen=True)
class _Checked:
    """The watch check after a store (``lines``), written once the region's bytes are
    known: left out where the store reaches only RAM below the ROMs ($0002-$9FFF) that
    is neither watched nor the region's own code.  The CPU remembers such a region's
    ``reach`` and drops it when a byte there becomes watched (translated code, see
    :meth:`TranslatingCPU._install`); an owner that starts watching RAM below $A000 flushes
    the translations.  (A store to such a byte is the most frequent statement of
    translated code; the check doubled its cost.)"""

    reach: tuple[int, int]  # the addresses the store can write (end exclusive)
    lines: tuple[str, ...]


UNCHECKED_LOW, UNCHECKED_HIGH = 0x0002, 0xA000  # RAM whose watch only translations change


@dataclass(frozen=True)
class _Lean:
    """A read-modify-write's statements whose N and Z results the code after it sets
    again before anything looks at them (:meth:`_BlockWriter._sets_nz_next`), written
    once the region's bytes are known, as its store's :class:`_Checked`: without those
    results (``lean``) where the store has no watch check (nothing can end the block
    between), else with them (``full``: the check may end the region there)."""

    reach: tuple[int, int]
    full: tuple[str, ...]
    lean: tuple[str, ...]


@dataclass(frozen=True)
class _Splice:
    """A change of block after a store that ends its block (a write the owner says may
    change the chips' timing), written once the region's blocks are known.  Where the
    next block (``target``) is one of the region's, the look at the horizon that the
    change of block makes, then that block's own code (``lines``, written as if it
    started there): the same work, the same places to stop, without the trip through the
    region's dispatch; elsewhere an ordinary change of block (:class:`_Goto`).  A loop
    that stores to a CIA port or the border colour each turn then stays one block."""

    indent: int
    target: int
    lines: tuple[str | _Goto | _Return | _Checked | _Lean | _Splice, ...]


_Line = str | _Goto | _Return | _Checked | _Lean | _Splice


def _most_cycles(op: Any) -> int:
    """The longest an instruction takes: a page crossed, a branch taken to another page
    (8 for an opcode that halts the CPU or that the table does not have)."""
    if op is None:
        return 8
    return op.cycles + (1 if op.page_penalty else 0) + (2 if op.mode is Mode.REL else 0)


def _size(lines: Iterable[_Line]) -> int:
    """How many lines of code these give, about (those of blocks written into them too)."""
    return sum(_size(line.lines) if isinstance(line, _Splice) else 1 for line in lines)


def _comes_back(lines: Iterable[_Line], start: int) -> bool:
    """Whether these lines (those of blocks written into them too) go to ``start``."""
    return any((isinstance(line, _Goto) and line.target == start)
               or (isinstance(line, _Splice) and _comes_back(line.lines, start)) for line in lines)


@dataclass
class _Unit:
    """One compiled region (or a block translated alone): its entries, the bytes it
    was made from, its function."""

    key: int  # tells the running region whether a write dropped it (``written``)
    entry: int
    starts: tuple[int, ...]  # the blocks' starts: every one is an entry
    covered: tuple[tuple[int, int], ...]  # the code's bytes as ranges (end exclusive)
    original: bytes  # those bytes when it was translated
    function: Callable[[CPU], int]
    source: str
    region: bool  # False: a block alone, at an instruction that has changed
    instructions: int  # translated (a measure of what it costs to compile again)
    exits: frozenset[int]  # known addresses outside it where its code goes
    unchecked: tuple[tuple[int, int], ...] = ()  # where it stores without looking at the watch
    grown: int = 0  # times it was translated again to hold code it leads to
    bounds: dict[int, int] = field(default_factory=dict)  # per start: see block_cycles
    longest: int = MAX_BLOCK_CYCLES  # the largest of them (region_cycles), set with them

    def __post_init__(self) -> None:
        if self.bounds:
            self.longest = max(self.bounds.values())


class TranslatingCPU(CPU):
    """Same registers and API as :class:`CPU`; ``run`` and ``run_block`` execute
    translated code, ``step`` still runs one instruction on the interpreter.

    ``stops`` are addresses where regions end (for example where a machine model
    handles ROM entry points); ``break_on_brk`` ends them before a BRK so that the
    caller sees it.  A caller that runs the translated functions itself (from
    ``blocks``, or ``_translate`` for an address not there yet) sets ``horizon``
    first: a region returns at the first change from one block to another at or
    past that cycle count (it always runs at least one block).  ``hot`` is how many
    times a block runs on the interpreter before it is translated (0: at once; at
    most 255)."""

    def __init__(self, memory: Any, stops: Iterable[int] = (), break_on_brk: bool = False,
                 watch: bytearray | None = None, on_write: Callable[[int], bool] | None = None,
                 io_read: Callable[[int], int] | None = None, hot: int = HOT,
                 io_access: CompiledIO | None = None,
                 io_write: Callable[[int, int], bool] | None = None) -> None:
        super().__init__(memory)
        # the write watch: WATCH_CODE where a byte belongs to translated code (this core
        # keeps it), WATCH_MACHINE where the owner wants to see writes (``on_write``, which
        # returns True when the running region must end, e.g. after a bank switch)
        self.watch = watch if watch is not None else bytearray(0x10000)
        self.on_write = on_write
        # reads of the I/O area ($D000-$DFFF) go to ``io_read`` (chips whose registers
        # change by themselves); without it memory is plain.  The chips see ``cycles`` as
        # of the start of the instruction that reads or writes, plus the cycles its access
        # comes after LDA abs's (READ_LATER in toolchain.cpu.core).
        self.io_read = io_read
        if io_read is not None:
            self.read = io_read
        self.io_access = io_access if io_read is not None else None
        # a store into the shown I/O area that has no source: the owner's ``io_write``
        # (address, byte stored) takes it instead of the write watch; True: the region ends
        self.io_write = io_write if self.io_access is not None else None
        self.write = self._write
        self.leave_block = False
        self.horizon = 0
        # an owner that takes interrupts (the machine) sets this: an instruction that
        # clears the I flag then ends its block (see _BlockWriter.instruction)
        self.cli_ends_block = False
        self.stops = bytearray(0x10000)
        for address in stops:
            self.stops[address] = 1
        self.break_on_brk = break_on_brk
        # for a block starting at a stop address: a function the owner provides, or None
        self.stop_block: Callable[[int], Callable[[CPU], int] | None] | None = None
        self.blocks: dict[int, Callable[[CPU], int]] = {}  # every block start -> its region's function
        self.sources: dict[int, str] = {}  # the Python of each region by entry, for --dump-python
        self._units: dict[int, _Unit] = {}  # by key
        self._byte_units: dict[int, set[int]] = {}  # code byte -> keys of the units holding it
        self._volatile = bytearray(0x10000)  # 1 where a CPU write changed translated code
        self._seen = bytearray(0x10000)  # 1 where a block has started (code that has run)
        if not 0 <= hot <= 255:
            raise ValueError(f"hot must be 0 to 255, not {hot}")
        self.hot = hot
        self._heat = bytearray(0x10000)  # interpreted runs of the block starting there (up to hot)
        self._heat_until = 0  # when the counts start again, on the clock of the next two
        self._clock_base = self._clock_last = 0
        self._compiles: dict[int, int] = {}  # translations made at a start
        self._owner: dict[int, _Unit] = {}  # block start -> the unit that runs it
        self._exits_to: dict[int, set[int]] = {}  # address -> keys of the regions whose code goes there
        # page -> keys of the units with stores there written without a watch check (_Checked)
        self._unchecked_pages: dict[int, set[int]] = {}
        self._next_key = 1
        # compiled code by source: code that patches itself (operands set before a
        # call) cycles through a few variants, each compiled only once
        self._compiled: dict[str, Any] = {}
        # earlier translations by entry (by the bytes they cover, then by those bytes'
        # values): code that patches its own operands cycles through a few variants, and
        # gets each back without translating again; the oldest are dropped first
        self._variants: dict[int, dict[tuple[tuple[int, int], ...], dict[bytes, _Unit]]] = {}
        self._variant_order: dict[int, deque[tuple[tuple[tuple[int, int], ...], bytes]]] = {}

    # -- running --------------------------------------------------------------------------
    def run_block(self) -> None:
        """Run the block at the PC (translating its region first if needed)."""
        self.horizon = self.cycles  # the region returns after its first block
        block = self.blocks.get(self.pc)
        if block is None:
            block = self._translate(self.pc)
        block(self)

    def run(self, until: int | Callable[[CPU], bool] | None = None, max_cycles: int | None = None) -> int:
        """As :meth:`CPU.run`: ``max_cycles`` is exact (the last few hundred cycles run on
        the interpreter); a predicate ``until`` is looked at after every block."""
        start = self.cycles
        limit = None if max_cycles is None else start + max_cycles
        each_block = False
        if isinstance(until, int):
            self.add_stop(until)
            target = until
            stop: Callable[[CPU], bool] = lambda cpu: cpu.pc == target  # noqa: E731
        elif until is not None:
            stop = until
            each_block = True
        else:
            stop = lambda cpu: False  # noqa: E731
        horizon = NO_HORIZON if limit is None else limit - MAX_BLOCK_CYCLES
        blocks = self.blocks
        while not stop(self):
            if self.cycles >= horizon:  # near the limit: one instruction at a time, so it is exact
                if limit is not None and self.cycles >= limit:
                    break
                self.step()
                continue
            self.horizon = self.cycles if each_block else horizon
            block = blocks.get(self.pc)
            if block is None:
                block = self._translate(self.pc)
            block(self)
        return self.cycles - start

    def block_cycles(self, pc: int) -> int:
        """At most the cycles the block at ``pc`` takes when it runs alone (``horizon`` at
        the cycle count: its loop turns once, a poll skips nothing): from the instructions
        its translation holds; MAX_BLOCK_CYCLES where it has none (cold code, a stop)."""
        unit = self._owner.get(pc)
        if unit is None or self.blocks.get(pc) is not unit.function:
            return MAX_BLOCK_CYCLES
        return unit.bounds.get(pc, MAX_BLOCK_CYCLES)

    def region_cycles(self, pc: int) -> int:
        """At most the cycles any one block of the region at ``pc`` takes: a run of it
        returns less than this after its ``horizon`` (MAX_BLOCK_CYCLES, as for any code,
        where there is no translation)."""
        unit = self._owner.get(pc)
        if unit is None or self.blocks.get(pc) is not unit.function:
            return MAX_BLOCK_CYCLES
        return unit.longest

    def add_stop(self, address: int) -> None:
        if not self.stops[address]:
            self.stops[address] = 1
            self.flush()

    def restore_memory(self, image: bytes | bytearray) -> None:
        """Replace memory with ``image``, keeping the translations whose bytes did not
        change (a machine reset between runs of the same program keeps its regions)."""
        memory = self.memory
        watch = self.watch
        for chunk in range(0, 0x10000, 0x1000):
            if memory[chunk : chunk + 0x1000] == image[chunk : chunk + 0x1000]:
                continue
            for page in range(chunk, chunk + 0x1000, 0x100):
                if memory[page : page + 0x100] == image[page : page + 0x100]:
                    continue
                if watch[page : page + 0x100].translate(_CODE_ONLY).strip(b"\0"):  # code on this page
                    for address in range(page, page + 0x100):
                        if watch[address] & WATCH_CODE and memory[address] != image[address]:
                            self._invalidate(address)
                memory[page : page + 0x100] = image[page : page + 0x100]

    def flush(self) -> None:
        self._variants.clear()
        self._variant_order.clear()
        self._owner.clear()
        self._exits_to.clear()
        self._unchecked_pages.clear()
        self._units.clear()
        self.blocks.clear()
        self.sources.clear()
        if self._byte_units:  # WATCH_CODE is set only on bytes of units (a monitor's step flushes often)
            self.watch[:] = self.watch.translate(_WITHOUT_CODE)
        self._byte_units.clear()

    def translated_source(self) -> str:
        """The Python of every region translated so far, and of the regions the code that
        ran on the interpreter (too few times to be translated) would make, in address
        order."""
        regions = {self._units[key].entry: (self._units[key].source, "")
                   for key in sorted(self._units) if self.sources.get(self._units[key].entry)}
        covered = set(self.blocks)
        for start in range(0x10000):
            if self._seen[start] and start not in covered and not (self.stop_block and self.stops[start]):
                _, source, starts, _ = _RegionWriter.written(self, start, not self._changed(start))
                regions[start] = (source, " (interpreted: it ran too few times to be translated)")
                covered.update(starts)
        text = [f"# region ${start:04X}{note}\n{source}" for start, (source, note) in sorted(regions.items())]
        return "\n\n".join(text) + "\n"

    # -- self-modifying code --------------------------------------------------------------------
    def _write(self, address: int, value: int) -> None:
        """A data write of the interpreter (and of the instructions translated code
        leaves to it): the store, then whatever the watch asks for.  ``leave_block`` tells
        translated code that handed an instruction to the interpreter that it must end
        (translated code was changed, or the owner asked)."""
        self.memory[address] = value
        flags = self.watch[address]
        if flags and (self._written(address, 0) or flags & WATCH_CODE):
            self.leave_block = True

    def _written(self, address: int, key: int) -> bool:
        """After a store to a watched byte: translated code there is dropped (and the
        byte remembered as volatile), the owner told.  True when the running region
        (``key``) must end."""
        flags = self.watch[address]
        leave = False
        if flags & WATCH_CODE:
            self._volatile[address] = 1
            dropped = self._invalidate(address)
            for unit in dropped:
                self._heat[unit.entry] = 0  # changed code is interpreted until it is hot again
            leave = any(unit.key == key for unit in dropped)
        if flags & WATCH_MACHINE and self.on_write is not None:
            leave = self.on_write(address) or leave
        return leave

    def invalidate_range(self, addresses: range) -> None:
        """Drop the translations of code in ``addresses`` (their bytes were replaced
        behind the CPU's back: a bank switch)."""
        watch = self.watch
        for address in addresses:
            if watch[address] & WATCH_CODE:
                self._invalidate(address)

    def _invalidate(self, address: int) -> list[_Unit]:
        """Drop the units holding the byte at ``address``; those units."""
        dropped = [self._units[key] for key in self._byte_units.pop(address, ())]
        for unit in dropped:
            self._drop(unit)
        self.watch[address] &= ~WATCH_CODE
        return dropped

    def _in_io(self, address: int) -> bool:
        """Whether ``address`` is in the I/O area while it is shown: no code is translated
        there, so the compiled stores into it need not look for translated code."""
        io = self.io_access
        return io is not None and address >> 12 == IO_PAGE_HIGH and io.visible

    def _changed(self, address: int) -> bool:
        """True when a byte of the instruction at ``address`` has been changed by a write
        since it was translated."""
        volatile = self._volatile
        length = _LENGTHS[self.memory[address]]
        return bool(volatile[address] or (length > 1 and volatile[(address + 1) & 0xFFFF])
                    or (length > 2 and volatile[(address + 2) & 0xFFFF]))

    # -- translation ------------------------------------------------------------------------------
    def _translate(self, start: int) -> Callable[[CPU], int]:
        """The function that runs the code at ``start`` (where ``blocks`` has none): the
        owner's for a stop or a BRK, a region translated before from the same bytes, the
        interpreter while the code is cold, else a new translation."""
        if self.stop_block is not None:
            if self.stops[start]:
                block = self.stop_block(start)  # the owner handles this address (e.g. a ROM routine)
                if block is not None:
                    self.blocks[start] = block
                    return block
            elif self.break_on_brk and self.memory[start] == 0:
                brk = self.stop_block(start)  # not cached: the byte may change
                if brk is not None:
                    return brk
        if self._in_io(start):
            return self._interpret  # the chips' registers are no code to translate
        self._seen[start] = 1
        changed = self._changed(start)
        if not changed:
            found = self._variant(start)
            if found is not None:
                self._install(found)
                return found.function
        # cold code runs on the interpreter: compiling costs as much as interpreting a
        # block some hundred times.  The counts start again every HEAT_WINDOW cycles, so
        # code that runs once in a while (a program's start, once per game, say) is not
        # translated.  (An owner may set the cycle count back: the clock goes on.)  Code
        # that has changed counts from 0 after each change: code patched before every
        # run (an operand, say) is interpreted.
        now = self.cycles
        if now < self._clock_last:
            self._clock_base += self._clock_last
        self._clock_last = now
        clock = self._clock_base + now
        if clock >= self._heat_until:
            self._heat = bytearray(0x10000)
            self._heat_until = clock + HEAT_WINDOW
        heat = self._heat[start]
        if heat < self.hot:
            self._heat[start] = heat + 1
            return self._interpret
        if changed:
            found = self._variant(start)
            if found is None:
                compiles = self._compiles.get(start, 0) + 1
                if compiles > MAX_RECOMPILES:
                    return self._interpret  # code that changes more ways than variants are kept
                self._compiles[start] = compiles
                found = self._compile(start, region=False)
        else:
            found = self._region_for(start)
        self._install(found)
        return found.function

    def _variant(self, start: int) -> _Unit | None:
        """A unit translated before at ``start`` from the bytes memory holds now (a region
        only if it holds no code that has changed since)."""
        groups = self._variants.get(start)
        if not groups:
            return None
        found = None
        for covered, by_bytes in groups.items():
            unit = by_bytes.get(self._bytes(covered))
            if unit is not None and self._unchecked_hold(unit):
                if not unit.region:
                    found = unit
                elif not self._touches_volatile(unit):
                    return unit
        return found

    def _region_for(self, start: int) -> _Unit:
        """A region holding the hot code at ``start``: a region that leads there grows to
        hold it (a few times: each time it is compiled whole again), else a new one."""
        for key in tuple(self._exits_to.get(start, ())):
            region = self._units[key]
            if region.grown < MAX_GROWTH:
                grown = self._compile(region.entry, region=True, takes={key})
                grown.grown = region.grown + 1
                if start in grown.starts:
                    return grown
                self._install(grown)
        return self._compile(start, region=True)

    def _interpret(self, cpu: CPU) -> int:
        """Run the code at the PC on the interpreter up to a jump, a taken branch, a
        return (or ``MAX_BLOCK`` instructions, a stop, a BRK): a block, as the translated
        code would, for code that is not worth translating."""
        memory = self.memory
        stops = self.stops
        brk = self.break_on_brk
        for count in range(MAX_BLOCK):
            pc = self.pc
            opcode = memory[pc]
            if count and (stops[pc] or (brk and opcode == 0)):
                break
            self.cycles += HANDLERS[opcode](self)
            self.instructions += 1
            if self.leave_block:  # the owner asked (the memory map or the chips' timing changed)
                self.leave_block = False
                break
            if (self.i_cleared or self.i_restored) and self.cli_ends_block:  # (as translated code does it)
                self.horizon = 0
                break
            if self.pc != (pc + _LENGTHS[opcode]) & 0xFFFF:
                break
        return self.pc

    def _compile(self, start: int, region: bool, takes: Iterable[int] = ()) -> _Unit:
        """Translate the region at ``start`` (or its block alone), taking blocks from the
        units ``takes`` names and from small regions."""
        writer, source, starts, covered = _RegionWriter.written(self, start, region, frozenset(takes))
        code = self._compiled.get(source)
        if code is None:
            try:
                code = compile(source, f"<6502 region ${start:04X}>", "exec")
            except (SyntaxError, RecursionError):
                # blocks written into blocks nested deeper than CPython takes (100 levels
                # of indentation): written again without those copies, each block once
                writer, source, starts, covered = _RegionWriter.written(self, start, region, frozenset(takes),
                                                                        copies=False)
                code = compile(source, f"<6502 region ${start:04X}>", "exec")
            self._compiled[source] = code
        key = self._next_key
        self._next_key += 1
        namespace: dict[str, Any] = {"decimal_adc": decimal_adc, "decimal_sbc_result": decimal_sbc_result,
                                     "HANDLERS": HANDLERS, "mem": self.memory, "watch": self.watch,
                                     "written": self._written, "io_read": self.io_read, "unit": key,
                                     **_TABLES}
        if self.io_access is not None:
            namespace[self.io_access.namespace_name] = self.io_access
            namespace["io_write"] = self.io_write
        exec(code, namespace)
        unit = _Unit(key, start, starts, covered, self._bytes(covered), namespace["region"], source, region,
                     writer.instructions, frozenset(writer.exits), tuple(sorted(writer.unchecked)),
                     bounds=writer.bounds)
        groups = self._variants.setdefault(start, {})
        groups.setdefault(covered, {})[unit.original] = unit
        order = self._variant_order.setdefault(start, deque())
        variant = (covered, unit.original)
        if variant in order:  # the same code compiled again (its unit replaced above): now the newest
            order.remove(variant)
        order.append(variant)
        if len(order) > MAX_VARIANTS:
            old_covered, old_bytes = order.popleft()
            group = groups[old_covered]
            group.pop(old_bytes, None)
            if not group:
                del groups[old_covered]
        return unit

    def _bytes(self, covered: tuple[tuple[int, int], ...]) -> bytes:
        memory = self.memory
        if len(covered) == 1:
            low, high = covered[0]
            return bytes(memory[low:high])
        return b"".join(bytes(memory[low:high]) for low, high in covered)

    def _unchecked_hold(self, unit: _Unit) -> bool:
        """Whether the stores ``unit`` writes without a watch check still reach no watched
        byte (translated code installed since, a debugger's watch: then it is compiled again)."""
        watch = self.watch
        return not any(any(watch[low:high]) for low, high in unit.unchecked)

    def _touches_volatile(self, unit: _Unit) -> bool:
        return any(self._volatile.find(1, low, high) >= 0 for low, high in unit.covered)

    def _install(self, unit: _Unit) -> None:
        """Make ``unit`` the code at each of its starts, watching the bytes it covers; a
        region it takes every start from is dropped."""
        self._units[unit.key] = unit
        blocks = self.blocks
        displaced = set()
        for start in unit.starts:
            before = blocks.get(start)
            if before is not None and before is not unit.function:
                displaced.add(before)
            blocks[start] = unit.function
            self._owner[start] = unit
        for target in unit.exits:
            self._exits_to.setdefault(target, set()).add(unit.key)
        self.sources[unit.entry] = unit.source
        byte_units = self._byte_units
        watch = self.watch
        unchecked_pages = self._unchecked_pages
        blind: set[int] = set()  # units that store here without a check: they go
        for low, high in unit.covered:
            for byte in range(low, high):
                owners = byte_units.get(byte)
                if owners is None:
                    byte_units[byte] = {unit.key}
                else:
                    owners.add(unit.key)
                watch[byte] |= WATCH_CODE
                if byte >> 8 in unchecked_pages:
                    blind.update(key for key in unchecked_pages[byte >> 8] if key != unit.key and any(
                        low <= byte < high for low, high in self._units[key].unchecked))
        for low, high in unit.unchecked:
            for page in range(low >> 8, ((high - 1) >> 8) + 1):
                unchecked_pages.setdefault(page, set()).add(unit.key)
        for key in blind:
            if key in self._units:
                self._drop(self._units[key])
        if displaced:
            for other in [other for other in self._units.values() if other.function in displaced]:
                if all(blocks.get(start) is not other.function for start in other.starts):
                    self._drop(other)

    def _drop(self, unit: _Unit) -> None:
        """Forget a unit: its starts, its source, the watch on its bytes."""
        del self._units[unit.key]
        for start in unit.starts:
            if self.blocks.get(start) is unit.function:
                del self.blocks[start]
            if self._owner.get(start) is unit:
                del self._owner[start]
        for target in unit.exits:
            leading = self._exits_to.get(target)
            if leading is not None:
                leading.discard(unit.key)
                if not leading:
                    del self._exits_to[target]
        if self.sources.get(unit.entry) is unit.source:
            del self.sources[unit.entry]
        for low, high in unit.unchecked:
            for page in range(low >> 8, ((high - 1) >> 8) + 1):
                keys = self._unchecked_pages.get(page)
                if keys is not None:
                    keys.discard(unit.key)
                    if not keys:
                        del self._unchecked_pages[page]
        byte_units = self._byte_units
        watch = self.watch
        for low, high in unit.covered:
            for byte in range(low, high):
                owners = byte_units.get(byte)
                if owners is not None:
                    owners.discard(unit.key)
                    if not owners:
                        del byte_units[byte]
                        watch[byte] &= ~WATCH_CODE


def _indented(text: str) -> str:
    return "\n".join(_INDENT + line for line in text.splitlines())


def _ranges(addresses: set[int]) -> tuple[tuple[int, int], ...]:
    """Sorted addresses as ranges (start, end exclusive)."""
    ranges: list[tuple[int, int]] = []
    for address in sorted(addresses):
        if ranges and ranges[-1][1] == address:
            ranges[-1] = (ranges[-1][0], address + 1)
        else:
            ranges.append((address, address + 1))
    return tuple(ranges)


class _PlainClock(Exception):
    """A region being written with the packed clock needs the plain one (see
    _RegionWriter.written)."""


class _RegionWriter:
    """Finds a region's blocks from its entry and writes the region's Python source."""

    def __init__(self, cpu: TranslatingCPU, entry: int, region: bool,
                 takes: frozenset[int] = frozenset(), packed: bool = False, copies: bool = True) -> None:
        self.cpu = cpu
        self.entry = entry
        self.region = region  # False: the entry's block alone
        self.takes = takes  # units whose blocks it may take, whatever their size
        self.exits: set[int] = set()  # known addresses outside the region where its code goes
        self.blocks: dict[int, list[_Line]] = {}
        self.bounds: dict[int, int] = {}  # per block: at most the cycles it takes run alone
        self.unchecked: set[tuple[int, int]] = set()  # reaches of the stores written without a check
        self.reads: set[str] = set()  # registers the code reads
        self.writes: set[str] = set()  # ... and writes
        self.covered: set[int] = set()
        self.instructions = 0
        # the region's calls: per subroutine, the addresses its JSRs return to; per block,
        # where its code goes and which of those are calls (see returns)
        self.calls: dict[int, set[int]] = {}
        self.edges: dict[int, tuple[list[int], set[int]]] = {}
        self.returns: dict[int, int] = {}  # per block holding an RTS: where it goes back, when known
        self.splice_left = 0  # the lines that blocks written in place of changes of block may still take
        self.sizes: dict[int, int] = {}  # per block, the lines of its code (_size)
        self.loops: set[int] = set()  # the blocks that are loops of their own (_comes_back)
        self.copies = copies  # whether blocks may be written in place of changes of block at all
        self.packed = packed  # its clock in one local (see CLOCK_SHIFT), where the code allows
        self._uses_io = False
        self._plain_clock = False

    @property
    def uses_io(self) -> bool:
        """Whether the region holds compiled I/O accesses."""
        return self._uses_io

    @uses_io.setter
    def uses_io(self, value: bool) -> None:
        if value and self.packed:
            raise _PlainClock  # (see written)
        self._uses_io = value

    @property
    def plain_clock(self) -> bool:
        """Whether the region's code needs cycles and instructions apart (an instruction
        run on the interpreter)."""
        return self._plain_clock

    @plain_clock.setter
    def plain_clock(self, value: bool) -> None:
        if value and self.packed:
            raise _PlainClock
        self._plain_clock = value

    @classmethod
    def written(cls, cpu: TranslatingCPU, entry: int, region: bool, takes: frozenset[int] = frozenset(),
                copies: bool = True
                ) -> tuple[_RegionWriter, str, tuple[int, ...], tuple[tuple[int, int], ...]]:
        """The writer of a region once it has written it, and what :meth:`write` gives:
        with the packed clock where its code allows, else written again without
        (``copies``: see _written_in)."""
        try:
            writer = cls(cpu, entry, region, takes, packed=True, copies=copies)
            source, starts, covered = writer.write()
        except _PlainClock:  # given up where the code first needs the plain clock (writing is pure)
            writer = cls(cpu, entry, region, takes, packed=False, copies=copies)
            source, starts, covered = writer.write()
        return writer, source, starts, covered

    def write(self) -> tuple[str, tuple[int, ...], tuple[tuple[int, int], ...]]:
        """The source, the blocks' starts, the bytes translated."""
        queue = deque([self.entry])
        seen = {self.entry}
        while queue and len(self.blocks) < MAX_REGION_BLOCKS and self.instructions < MAX_REGION_INSTRUCTIONS:
            start = queue.popleft()
            block = _BlockWriter(self, start)
            block.write()
            self.blocks[start] = block.lines
            self.bounds[start] = block.most
            self.edges[start] = (block.successors, block.called)
            if not self.region:
                break
            for target in block.successors:
                if target not in seen and self._may_join(target):
                    seen.add(target)
                    queue.append(target)
        self.returns = self._returns()
        self.sizes = {start: _size(lines) for start, lines in self.blocks.items()}
        self.loops = {start for start, lines in self.blocks.items() if _comes_back(lines, start)}
        self.splice_left = min(2 * sum(self.sizes.values()), MAX_COPIED_LINES) if self.copies else 0
        return self._source(), tuple(self.blocks), _ranges(self.covered)

    def _returns(self) -> dict[int, int]:
        """Per block, where its RTS goes back, where the region's code tells: the block
        belongs to one subroutine only (found from its start along the region's blocks,
        past the calls it makes itself) and the region calls that from one place only.
        (Code may reach the block otherwise, a program may change the return address on
        the stack: the RTS then finds its PC is not the one foreseen, see _Return.)"""
        owners: dict[int, set[int]] = {}
        for subroutine in self.calls:
            queue, seen = deque([subroutine]), {subroutine}
            while queue:
                start = queue.popleft()
                edges = self.edges.get(start)
                if edges is None:
                    continue
                owners.setdefault(start, set()).add(subroutine)
                successors, called = edges
                for target in successors:
                    if target not in seen and target not in called:
                        seen.add(target)
                        queue.append(target)
        returns = {}
        for start, subroutines in owners.items():
            if len(subroutines) == 1:
                (points,) = (self.calls[subroutine] for subroutine in subroutines)
                if len(points) == 1:
                    (point,) = points
                    if point in self.blocks:
                        returns[start] = point
        return returns

    def _may_join(self, address: int) -> bool:
        """Whether a block can start at ``address`` in this region: code that has run
        (so no data after a branch that is always taken, no code that is cold), not
        where the caller must see the CPU (a stop, a BRK), not at an instruction that has
        changed (it gets a block of its own)."""
        cpu = self.cpu
        owner = cpu._owner.get(address)
        if owner is not None and owner.key not in self.takes and owner.instructions > TAKE_OVER:
            return False  # a bigger region runs it (taken over, it would be compiled again)
        return bool(cpu._seen[address]) and not (
            cpu.stops[address] or (cpu.break_on_brk and cpu.memory[address] == 0) or cpu._changed(address)
            or cpu._in_io(address))

    def _source(self) -> str:
        used = [r for r in _LOCALS if r in self.reads or r in self.writes]
        changed = [r for r in _LOCALS if r in self.writes]
        tables = ", ".join(f"{name}={name}" for name in _TABLES)
        out = [f"def region(cpu, mem=mem, watch=watch, written=written, io_read=io_read, unit=unit, "
               f"{tables}):"]
        io = self.cpu.io_access
        if self.uses_io and io is not None:
            out[0] = out[0][:-2] + f", {io.namespace_name}={io.namespace_name}, io_write=io_write):"
            out.append(f"{_INDENT}io_on = {io.guard}")
            entry = len(out)  # the owner's names the code uses go here (below)
        out.extend(_INDENT + _LOAD_CODE[r] for r in used)
        if self.packed:
            out.append(f"{_INDENT}base = cpu.cycles\n{_INDENT}cycles = 0")
            out.extend(_INDENT + line for line in _PACKED_HORIZON.splitlines())
        else:
            out.append(_INDENT + "cycles = cpu.cycles\n    ins = cpu.instructions\n    horizon = cpu.horizon")
        starts = set(self.blocks)
        if len(self.blocks) == 1:
            (start, lines), = self.blocks.items()
            out.append(_INDENT + "pc = " + str(start))
            out.append(_INDENT + "while True:")
            self._emit_block(out, start, lines, 2, starts)
        else:
            out.append(_INDENT + "pc = cpu.pc\n    while True:")
            self._dispatch(out, sorted(self.blocks), 2, starts)
            out.append(_INDENT * 2 + "if cycles >= horizon:\n" + _INDENT * 3 + "break")
        out.extend(_INDENT + _STORE_CODE[r] for r in changed)
        if self.packed:
            out.append(f"{_INDENT}cpu.cycles = base + (cycles >> {CLOCK_SHIFT})\n"
                       f"{_INDENT}cpu.instructions += cycles & {(1 << CLOCK_SHIFT) - 1}")
        else:
            out.append(f"{_INDENT}cpu.cycles = cycles\n{_INDENT}cpu.instructions = ins")
        out.append(f"{_INDENT}cpu.pc = pc\n{_INDENT}return pc")
        if self.uses_io and io is not None:
            # set as the region starts: only those its code names (each costs a lookup a call)
            named = set(_NAME.findall("\n".join(out[entry:])))
            out[entry:entry] = [f"{_INDENT}{name} = {value}" for name, value in io.entry_names.items()
                                if name in named]
        return "\n".join(out) + "\n"

    def _unwatched(self, reach: tuple[int, int]) -> bool:
        """Whether a store into ``reach`` needs no watch check: no byte there is watched
        now, nor is any this region's own code (watched once it is installed)."""
        low, high = reach
        covered = self.covered
        return not any(self.cpu.watch[low:high]) and not any(byte in covered for byte in range(low, high))

    def _dispatch(self, out: list[str], starts: list[int], indent: int, members: set[int]) -> None:
        """Run the block at ``pc``: a binary search over the blocks' starts (sorted),
        down to a few compared in turn; a PC that is none of them leaves the loop."""
        pad = _INDENT * indent
        if len(starts) > 3:
            middle = len(starts) // 2
            out.append(f"{pad}if pc < {starts[middle]}:")
            self._dispatch(out, starts[:middle], indent + 1, members)
            out.append(f"{pad}else:")
            self._dispatch(out, starts[middle:], indent + 1, members)
            return
        keyword = "if"
        for start in starts:
            out.append(f"{pad}{keyword} pc == {start}:\n{pad}{_INDENT}while True:")
            self._emit_block(out, start, self.blocks[start], indent + 2, members)
            keyword = "elif"
        out.append(f"{pad}else:\n{pad}{_INDENT}break")

    def _written_in(self, target: int, chain: tuple[int, ...]) -> list[_Line] | None:
        """The lines of the block at ``target`` to write in place of a change of block
        to it (a call, a return, a way into a loop), within the region's allowance
        (``splice_left``: at most twice the lines of the blocks themselves, and at most
        MAX_COPIED_LINES, which bounds the time the region takes to compile; the first
        blocks written take it first; none of more than MAX_COPIED_BLOCK lines);
        None where it is not one of the region's blocks or already in the chain of
        blocks being written one into another, or that chain is MAX_SPLICE_DEPTH long."""
        lines = self.blocks.get(target)
        if lines is None or target in chain or len(chain) > MAX_SPLICE_DEPTH:
            return None  # (each may be a loop: CPython compiles at most 20 nested ones)
        size = self.sizes[target]
        if size > self.splice_left or size > MAX_COPIED_BLOCK:
            return None
        self.splice_left -= size
        return lines

    def _emit_block(self, out: list[str], start: int, lines: Iterable[_Line], base: int,
                    starts: set[int], chain: tuple[int, ...] = ()) -> None:
        chain = chain or (start,)
        for line in lines:
            if isinstance(line, _Checked):
                if self._unwatched(line.reach):
                    self.unchecked.add(line.reach)
                else:
                    out.extend(_INDENT * base + text for text in line.lines)
            elif isinstance(line, _Lean):  # (its store's _Checked comes next: the same decision)
                out.extend(_INDENT * base + text for text in (line.lean if self._unwatched(line.reach)
                                                              else line.full))
            elif isinstance(line, _Splice):
                if line.target in starts:  # the look at the horizon a change of block makes, then its code
                    pad = _INDENT * (base + line.indent)
                    out.append(f"{pad}if cycles >= horizon:\n{pad}    pc = {line.target}\n{pad}    break")
                    self._emit_block(out, start, line.lines, base + line.indent, starts, chain)
                else:
                    self._emit_block(out, start, [_Goto(line.indent, line.target)], base, starts, chain)
            elif isinstance(line, _Return):
                pad = _INDENT * (base + line.indent)
                point = self.returns.get(line.block)
                called = None if point is None else self._written_in(point, chain)
                if point is not None and called is not None:  # the return foreseen: that code, in here
                    out.append(f"{pad}if pc == {point}:\n{pad}    if cycles >= horizon:\n{pad}        break")
                    self._emit_block(out, start, called, base + line.indent + 1, starts, (*chain, point))
                out.append(f"{pad}break")
            elif isinstance(line, _Goto):
                pad = _INDENT * (base + line.indent)
                restore = [pad + text for text in line.restore.splitlines()]
                called = (self._written_in(line.target, chain)
                          if line.target != start and line.target in starts
                          and (line.call or line.target in self.loops) else None)
                if called is not None:  # the block's code, in here
                    out.extend(restore)
                    out.append(f"{pad}if cycles >= horizon:\n{pad}    pc = {line.target}\n{pad}    break")
                    inner = (*chain, line.target)
                    if line.target in self.loops:  # a loop of its own: a loop in here
                        out.append(f"{pad}while True:")
                        self._emit_block(out, line.target, called, base + line.indent + 1, starts, inner)
                        out.append(f"{pad}if pc == {start} and cycles < horizon:\n"
                                   f"{pad}    continue\n{pad}break")
                    else:
                        self._emit_block(out, start, called, base + line.indent, starts, inner)
                    continue
                if line.target == start and line.dead_at == start:  # the turn back needs no flags
                    out.append(f"{pad}if cycles < horizon:\n{pad}    continue")
                    out.extend(restore)
                    out.append(f"{pad}pc = {start}\n{pad}break")
                    continue
                out.extend(restore)
                if line.target == start:  # back to this block's start: a loop of its own
                    out.append(f"{pad}if cycles < horizon:\n{pad}    continue\n{pad}pc = {start}\n{pad}break")
                elif line.target in starts:
                    out.append(f"{pad}pc = {line.target}\n{pad}break")
                else:  # outside the region: back to the caller
                    self.exits.add(line.target)
                    out.append(f"{pad}pc = {line.target}\n{pad}horizon = -1\n{pad}break")
            else:
                out.append(_INDENT * base + line)


class _BlockWriter:
    """Writes the Python of one block from the instructions' code records.  Cycles and
    instructions are counted statically along each path and added to the locals
    ``cycles`` and ``ins`` where the path leaves the block (or joins another)."""

    def __init__(self, region: _RegionWriter, start: int, spliced_into: tuple[int, ...] = (),
                 splice_budget: list[int] | None = None) -> None:
        self.region = region
        self.cpu = region.cpu
        self.start = start
        # a block written into another one's code (_Splice): the starts of the blocks it is
        # written into (none: a block of its own), and the instructions that may still be
        # written so, shared by them all
        self.spliced_into = spliced_into
        self.splice_budget = [MAX_SPLICED] if splice_budget is None else splice_budget
        self.left = False  # the path being written has left the block (see compiled_store)
        self.lines: list[_Line] = []
        self.cycles = 0  # static cycles since the last sync
        self.count = 0  # instructions since the last sync
        self.budget = MAX_BLOCK
        self.most = 0  # the cycles of every instruction written, each at its longest
        self.successors: list[int] = []  # where the code goes next (and where calls return)
        self.called: set[int] = set()  # the subroutines its JSRs call
        self.inlined: set[int] = set()  # code from elsewhere copied into this block (each once)
        self._base = 0  # the operand's address of the store being written (for indexed stores)
        self._until: int | None = None  # where the code being written must stop (see sequence)
        # what stands for N and Z until the branch written next (see _fused): a register,
        # or the expression of a comparison's result; None where nr and zr hold them
        self.fused: str | None = None
        # what stands for C on the path being written, where an instruction's carry goes
        # to a BCC or BCS right after it (``BIT0[t]``, ``CARRY[t]``): set in c only where
        # the path needs it (it leaves the block, code reads C or replaces t); None where
        # c holds it
        self.carry: str | None = None

    # -- output --------------------------------------------------------------------------------
    def emit(self, code: Code | str, indent: int, **fields: str) -> None:
        if isinstance(code, Code):
            self.uses(" ".join(code.reads), " ".join(code.writes))
            text = code.text.format(**fields) if fields else code.text
            reads, writes = code.reads, code.writes
        else:
            text = code
            reads = writes = frozenset()
        if self.carry is not None:  # the carry that stands for C (see carry): set now, or no more needed
            if "c" in reads:
                self.carry_out(indent)
            elif "c" in writes:
                self.carry = None
            elif _ASSIGNS_T.search(text):
                self.carry_out(indent)
        for line in text.splitlines():
            self.lines.append(_INDENT * indent + line)

    def uses(self, reads: str = "", writes: str = "") -> None:
        """Registers read or written by code emitted as plain text."""
        self.region.reads.update(reads.split())
        self.region.writes.update(writes.split())

    def sync(self, indent: int, extra_cycles: int = 0) -> None:
        """Add the path's static counts to ``cycles`` and ``ins`` (on this path only)."""
        cycles = self.cycles + extra_cycles
        if self.region.packed:
            if cycles or self.count:
                # (cycles, then instructions: CPython folds the constant)
                self.emit(f"cycles += {cycles} << {CLOCK_SHIFT}" + (f" | {self.count}" if self.count else ""),
                          indent)
            return
        if cycles:
            self.emit(f"cycles += {cycles}", indent)
        if self.count:
            self.emit(f"ins += {self.count}", indent)

    def more_cycles(self, cycles: int) -> str:
        """The statement that adds ``cycles`` to the clock (a branch taken, a page crossed)."""
        return f"cycles += {cycles} << {CLOCK_SHIFT}" if self.region.packed else f"cycles += {cycles}"

    def goto(self, target: int, indent: int, extra_cycles: int = 0, restore: str = "",
             dead_at: int | None = None, call: bool = False) -> None:
        """Leave the block for a known address (``restore``, ``dead_at``: see :class:`_Goto`;
        a carry that stands for C goes with them where the turn back needs no C either)."""
        if self.carry is not None:
            carry = f"c = {self.carry}"
            self.uses("", "c")
            if target == self.start and (dead_at is not None or not restore) and self._sets_c_next(target):
                restore, dead_at = f"{restore}\n{carry}".lstrip("\n"), target
            else:
                self.emit(carry, indent)
        self.sync(indent, extra_cycles)
        self.lines.append(_Goto(indent, target & 0xFFFF, restore, dead_at, call))
        self.successors.append(target & 0xFFFF)

    def jump(self, pc: str, indent: int) -> None:
        """Leave the block for an address computed at run time (RTS, JMP ($xxxx))."""
        self.carry_set(indent)
        self.sync(indent)
        self.emit("break" if pc == "pc" else f"pc = {pc}\nbreak", indent)

    def leave(self, following: int, indent: int) -> None:
        """Leave the region after the current instruction (the code or the memory map changed)."""
        self.carry_set(indent)
        self.sync(indent)
        self.emit(f"pc = {following}\nhorizon = -1\nbreak", indent)

    def carry_set(self, indent: int) -> None:
        """C set from the carry that stands for it, where this way leaves the block (the
        path that goes on keeps it standing)."""
        if self.carry is not None:
            self.uses("", "c")
            self.emit(f"c = {self.carry}", indent)

    def carry_out(self, indent: int) -> None:
        """C set from the carry that stands for it, for all the code that follows."""
        carry, self.carry = self.carry, None
        if carry is not None:
            self.uses("", "c")
            self.emit(f"c = {carry}", indent)

    def now(self, later: int = 0) -> str:
        """The cycle count at the start of the current instruction, for the chips; an
        access ``later`` cycles after the one LDA abs reads in (see READ_LATER in
        toolchain.cpu.core): that many more."""
        clock = f"base + (cycles >> {CLOCK_SHIFT})" if self.region.packed else "cycles"
        cycles = self.cycles + later
        return f"{clock} + {cycles}" if cycles else clock

    def horizon_again(self) -> str:
        """The statement that takes the CPU's horizon again (the owner may have moved it)."""
        return _PACKED_HORIZON if self.region.packed else "horizon = cpu.horizon"

    # -- the paths -------------------------------------------------------------------------------
    def write(self) -> None:
        self.sequence(self.start, 0, None)
        self.lines[0:0] = self.poll_skip()

    def poll_skip(self) -> list[str | _Goto | _Checked]:
        """A block that polls a chip's register until it changes, a loop of its own
        (``LDA $D012 / CMP #n / BNE`` back to its start, or ``CMP $D012 / BEQ`` back, and
        the same with X and Y; ``BIT $D011 / BPL`` back, or a load and BMI): first, where
        the owner says how many of the loop's turns change nothing but the time
        (``poll_source``, see toolchain.c64.io), their cycles and instructions at once;
        the turn after them runs as written (it sets every register and flag the skipped
        turns would have set).  No lines for any other block."""
        io = self.cpu.io_access
        method = getattr(io, "poll_source", None)
        if method is None or self.cpu.io_read is None:
            return []
        memory, start, cpu = self.cpu.memory, self.start, self.cpu
        first = OPCODES.get(memory[start])
        if first is None or first.mode is not Mode.ABS:
            return []
        address = memory[(start + 1) & 0xFFFF] | memory[(start + 2) & 0xFFFF] << 8
        if address >> 12 != IO_PAGE_HIGH:
            return []
        pc = (start + 3) & 0xFFFF
        ops = [first]
        register = _POLL_LOADS.get(first.mnemonic)
        following_op = OPCODES.get(memory[pc])
        if following_op is not None and following_op.mnemonic in ("bpl", "bmi") and (
                register is not None or first.mnemonic == "bit"):
            kind, value = "sign", "128"  # bit 7 of the value read: the loop ends when it is (BPL) or not
        elif register is not None:  # a load, then a comparison with an immediate value
            wanted = _POLL_COMPARES[register]
            if following_op is None or following_op.mode is not Mode.IMM or following_op.mnemonic != wanted:
                return []
            kind, value = "compare", str(memory[(pc + 1) & 0xFFFF])
            ops.append(following_op)
            pc = (pc + 2) & 0xFFFF
        else:  # a comparison with the register
            register = {name: reg for reg, name in _POLL_COMPARES.items()}.get(first.mnemonic)
            if register is None:
                return []
            kind, value = "compare", register
        branch = OPCODES.get(memory[pc])
        if branch is None or branch.mnemonic not in (("bne", "beq") if kind == "compare" else ("bpl", "bmi")):
            return []
        offset = memory[(pc + 1) & 0xFFFF]
        following = (pc + 2) & 0xFFFF
        if (following + offset - (0x100 if offset & 0x80 else 0)) & 0xFFFF != start:
            return []
        ops.append(branch)
        step = sum(op.cycles for op in ops) + 1 + ((following ^ start) > 0xFF)  # the branch taken
        instructions = range(start, following)
        if step >= 63 or any(cpu.stops[at] or cpu._changed(at) or cpu._in_io(at) for at in instructions):
            return []
        polls = method(address, kind)
        if polls is None:
            return []
        self.region.uses_io = True
        self.uses(value if value.isalpha() else "")
        until_equal = branch.mnemonic in ("bne", "bpl")  # it loops while they differ (bit 7 clear)
        return ["if io_on:",
                f"{_INDENT}skipped = {polls}(cycles, horizon, {value}, {step}, {until_equal})",
                f"{_INDENT}cycles += {step} * skipped", f"{_INDENT}ins += {len(ops)} * skipped"]

    def sequence(self, pc: int, indent: int, until: int | None) -> bool:
        """Translate from ``pc`` on; True when the code reaches ``until`` (the end of a
        skip), False when it left the block."""
        cpu = self.cpu
        memory = cpu.memory
        region = self.region
        while True:
            if pc == until:
                self._unfuse(indent)
                return True
            if pc != self.start or self.lines:
                if pc == self.start or self.budget == 0 or self._stops_before(pc):
                    self._unfuse(indent)
                    self.goto(pc, indent)  # back at the start: a loop of its own
                    return False
            opcode = memory[pc]
            op = OPCODES.get(opcode)
            if op is None or op.mnemonic not in _NZ_BRANCHES:
                self._unfuse(indent)  # (a fused instruction is followed by its branch: _fused)
            length = op.length if op else 1
            operand = [memory[(pc + k) & 0xFFFF] for k in range(1, length)]
            following = (pc + length) & 0xFFFF
            region.covered.update((pc + k) & 0xFFFF for k in range(length))
            region.instructions += 1
            self.budget -= 1
            self.most += _most_cycles(op)
            self.emit(f"# ${pc:04X} {disassemble(memory, pc)[0]}", indent)
            if op is None or opcode in JAM_OPCODES or opcode in UNSTABLE_OPCODES:
                self.fallback(pc, indent)  # raises CpuHalted with the address
                self.jump("cpu.pc", indent)
                return False
            if op.mnemonic in _BRANCHES:
                pc = self.branch(op, operand, following, indent, until)
                continue
            self._until = until
            going_on = self.instruction(op, pc, operand, following, indent)
            if going_on is None:
                return False
            pc = going_on

    def _inlines(self, target: int) -> bool:
        """Whether the code at ``target`` (code that has run, not this block's start) is
        copied into the block where a jump or a loop's branch back goes there: no change
        of block, no dispatch."""
        cpu = self.cpu
        brk = cpu.break_on_brk and cpu.memory[target] == 0
        changed = self.region.region and cpu._changed(target)
        if (target == self.start or target in self.inlined or self.budget < INLINE_BUDGET or brk or changed
                or not cpu._seen[target] or cpu.stops[target] or cpu._in_io(target)):
            return False
        self.inlined.add(target)
        self.successors.append(target)  # other code that goes there stays in the region too
        return True

    def branch(self, op: Any, operand: list[int], following: int, indent: int, until: int | None) -> int:
        """A conditional branch; the address where the block goes on."""
        offset = operand[0]
        target = (following + offset - (0x100 if offset & 0x80 else 0)) & 0xFFFF
        taken, not_taken, flag = _BRANCHES[op.mnemonic]
        fused, self.fused = self.fused, None
        restore = ""
        carry = self.carry
        if flag == "c" and carry is not None:  # the condition on the carry's expression (it stands on)
            taken, not_taken = (condition.replace("c", carry) for condition in (taken, not_taken))
        elif fused is None:
            self.uses(flag)
        else:  # the condition on the value itself; N and Z set only where a path needs them
            taken, not_taken = (condition.replace(flag, fused) for condition in (taken, not_taken))
            restore = f"nr = zr = {fused}"
            self.uses("", _NZ)
        extra = 1 + ((following ^ target) > 0xFF)  # a taken branch: one cycle more, two across a page
        self.cycles += op.cycles
        self.count += 1
        if target == following:  # both ways lead on
            self.emit(f"if {taken}:\n{_INDENT}{self.more_cycles(extra)}", indent)
            if restore and not self._sets_nz_next(following, until=until):
                self.emit(restore, indent)
            return following
        if not self._skips(following, target, until):
            self.emit(f"if {taken}:", indent)
            if target < following and self._inlines(target):
                # a loop's branch back: the loop's code goes on inside the if
                if restore and not self._sets_nz_next(target, until=None):
                    self.emit(restore, indent + 1)
                cycles, count = self.cycles, self.count
                self.cycles += extra
                self.sequence(target, indent + 1, None)
                self.cycles, self.count, self.carry = cycles, count, carry
            elif restore and target == self.start and self._sets_nz_next(target, MAX_BLOCK, until=None,
                                                                            entering=True):
                self.goto(target, indent + 1, extra, restore, dead_at=target)
            else:
                self.goto(target, indent + 1, extra, restore)
            if restore and not self._sets_nz_next(following, until=until):
                self.emit(restore, indent)
            return following
        # a short forward branch: an if around the code it skips, both ways on in this block
        cycles, count = self.cycles, self.count
        self.emit(f"if {not_taken}:", indent)
        if restore and not self._sets_nz_next(following, until=target):
            self.emit(restore, indent + 1)
        taken_way = []  # what the taken way, straight to the target, sets (an else)
        if self.sequence(following, indent + 1, target):
            # the skipped code ran: count it now; after the if, both paths count as the taken one
            self.cycles -= cycles + extra
            self.count -= count
            self.sync(indent + 1)
            if self.carry != carry:  # the two ways meet with different carries: both set C
                self.carry_out(indent + 1)
                if carry is not None:
                    self.uses("", "c")
                    taken_way.append(f"c = {carry}")
        else:
            self.carry = carry  # (the skipped code left the block: the taken way goes on alone)
        self.cycles, self.count = cycles + extra, count
        if restore and not self._sets_nz_next(target, until=until):
            taken_way.append(restore)
        if taken_way:
            self.emit("else:\n" + _indented("\n".join(taken_way)), indent)
        return target

    def _skips(self, following: int, target: int, until: int | None) -> bool:
        """Whether a branch to ``target`` can be an if in this block: a short way forward,
        over instructions that end exactly there and that the block may hold."""
        return self._skip_fits(following, target, until, self.budget)

    def _skip_fits(self, following: int, target: int, until: int | None, budget: int) -> bool:
        """:meth:`_skips` with ``budget`` instructions left in the block."""
        if not following < target <= following + MAX_SKIP or (until is not None and target > until):
            return False
        cpu = self.cpu
        memory = cpu.memory
        pc, count = following, 0
        while pc < target:
            opcode = memory[pc]
            op = OPCODES.get(opcode)
            if op is None or opcode in JAM_OPCODES or opcode in UNSTABLE_OPCODES or self._stops_before(pc):
                return False
            pc += op.length
            count += 1
        return pc == target and count < budget

    # -- one instruction -----------------------------------------------------------------------
    def fallback(self, pc: int, indent: int) -> None:
        """Run one instruction on the interpreter, with the state handed over: every
        register is stored before and loaded after."""
        self.region.plain_clock = True
        self.carry_out(indent)
        self.uses(" ".join(_LOCALS), " ".join(_LOCALS))
        self.emit("\n".join(_STORE_CODE[r] for r in _LOCALS), indent)
        self.emit(f"cpu.pc = {pc}\ncpu.cycles = cycles = {self.now()}\n"
                  f"cpu.instructions = ins = ins + {self.count}\n"
                  f"cycles += HANDLERS[mem[{pc}]](cpu)\nins += 1", indent)
        self.emit("\n".join(_LOAD_CODE[r] for r in _LOCALS), indent)
        self.cycles = 0
        self.count = 0

    def store(self, op: Any, code: Code, address: str, following: int, indent: int,
              mode: Mode | None = None, lean: Code | None = None, later: int | None = None,
              old: str | None = None) -> None:
        """An instruction that writes memory: its code, then the watch: translated code
        there is dropped, the owner told, and the region left if it must end.  ``lean``:
        the code without its N and Z results, where the store has no watch check (see
        :class:`_Lean`).  ``later``: the cycle of the write after the one STA abs writes
        in (by default the mode's, WRITE_LATER); ``old``: a read-modify-write's old
        value, which the owner's ``io_write`` gets first, a cycle before the new one."""
        if later is None:
            later = WRITE_LATER.get(mode, 0) if mode is not None else 0
        now = self.now(later)
        reach = self._reach(address, mode)
        if old is not None:
            self._old_written(address, mode, old, self.now(later - 1), indent)
        mark = len(self.lines)
        self.emit(code, indent)
        if lean is not None and reach is not None:
            full = self.lines[mark:]
            del self.lines[mark:]
            self.emit(lean, indent)
            lean_lines = self.lines[mark:]
            del self.lines[mark:]
            self.lines.append(_Lean(reach, tuple(map(str, full)), tuple(map(str, lean_lines))))
        self.cycles += op.cycles
        self.count += 1
        mark = len(self.lines)
        self.emit(f"if watch[{address}]:\n    cpu.cycles = {now}\n    if {self._watched(address, mode)}:",
                  indent)
        self.leave(following, indent + 2)
        if reach is not None:
            self._checked(mark, reach)

    def _old_written(self, address: str, mode: Mode | None, old: str, now: str, indent: int) -> None:
        """A read-modify-write's first write, of the value it read (VICE 3.10: 6510core.c,
        the RMW opcodes' dummy_func), at ``now``: into memory, then the watch as the
        store's (the owner's ``io_write`` or ``written``), where the address can be in the
        I/O area; elsewhere the new value overwrites it at once and nobody sees it."""
        if address.isdigit():
            if int(address) >> 12 != IO_PAGE_HIGH:
                return
        elif mode in (Mode.ABX, Mode.ABY):
            if not (self._base <= 0xDFFF and self._base + 0xFF >= 0xD000):
                return
        elif mode in (None, Mode.ZP, Mode.ZPX, Mode.ZPY):
            return
        self.emit(f"mem[{address}] = {old}\nif watch[{address}]:\n    cpu.cycles = {now}\n"
                  f"    {self._watched(address, mode)}", indent)

    def _reach(self, address: str, mode: Mode | None) -> tuple[int, int] | None:
        """The addresses a store can write, where its watch check may be left out (a
        constant address, or an absolute base indexed within RAM below $A000); None
        where it is always written."""
        if address.isdigit():
            low = int(address)
            high = low + 1
        elif mode in (Mode.ABX, Mode.ABY) and address == "ea":
            low = self._base
            high = low + 0x100
        else:
            return None
        return (low, high) if UNCHECKED_LOW <= low and high <= UNCHECKED_HIGH else None

    def _checked(self, mark: int, reach: tuple[int, int]) -> None:
        """The lines emitted since ``mark`` (a store's watch check) as a :class:`_Checked`."""
        lines = self.lines[mark:]
        del self.lines[mark:]
        assert all(isinstance(line, str) for line in lines)
        self.lines.append(_Checked(reach, tuple(str(line) for line in lines)))

    def _watched(self, address: str, mode: Mode | None) -> str:
        """The call that tells of a store to a watched address: the owner's ``io_write``
        where the address is in the shown I/O area (and no debugger watches it there),
        else ``written``."""
        written = f"written({address}, unit)"
        io = self.cpu.io_access
        if io is None or self.cpu.io_write is None or mode in (None, Mode.ZP, Mode.ZPX, Mode.ZPY):
            return written
        if address.isdigit():
            if int(address) >> 12 != IO_PAGE_HIGH or int(address) in io.hooked:
                return written
            self.region.uses_io = True
            return f"(io_write({address}, mem[{address}]) if io_on else {written})"
        if io.hooked:
            return written
        if mode in (Mode.ABX, Mode.ABY):
            base = self._base
            if not (base <= 0xDFFF and base + 0xFF >= 0xD000):
                return written
        self.region.uses_io = True
        return (f"(io_write({address}, mem[{address}]) if io_on and {address} >> 12 == {IO_PAGE_HIGH} "
                f"else {written})")

    def _compiles_store(self, mode: Mode, address: str) -> bool:
        """Whether a store to ``address`` is compiled as the owner's source (see
        :meth:`compiled_store`)."""
        io = self.cpu.io_access
        return (io is not None and mode is Mode.ABS and int(address) >> 12 == IO_PAGE_HIGH
                and io.write_source(int(address)) is not None)

    def compiled_store(self, op: Any, mode: Mode, address: str, value: Code, following: int,
                       indent: int, old: str | None = None) -> bool:
        """A store to a constant address of the I/O area whose chip gives the write as
        source: that source while the I/O area is shown (ending the block after it where
        the owner says: the same place its write watch would end the region), else the
        plain store.  False (nothing written) for any other store.  ``old``: a
        read-modify-write's old value, written in its 5th cycle before the new value in
        its 6th (MODIFY_LATER in toolchain.cpu.core)."""
        if not self._compiles_store(mode, address):
            return False
        io = self.cpu.io_access
        assert io is not None
        found = io.write_source(int(address))
        assert found is not None
        source, ends_block = found
        self.region.uses_io = True
        self.uses(" ".join(value.reads))
        later = 0 if old is None else MODIFY_LATER[mode] + 2
        code = source.code.format(value=value.text, now=self.now(later))
        if old is not None:  # (where only a write log sees the old value: that part alone)
            back = getattr(io, "write_back_source", lambda address: None)(int(address)) or source
            code = back.code.format(value=old, now=self.now(later - 1)) + "\n" + code
        if ends_block and self.spliced_into and not source.guard:
            # a block written into another's code runs only where the I/O area is shown
            # (io_on holds for a whole region): the store has no other way on
            self.emit(code, indent)
            self.cycles += op.cycles
            self.count += 1
            self.change_block(following, indent)
            self.left = True
            return True
        condition = f"io_on and ({source.guard.format(now=self.now(later))})" if source.guard else "io_on"
        self.emit(f"if {condition}:\n{_INDENT}" + code.replace("\n", "\n" + _INDENT), indent)
        if ends_block:
            cycles, count = self.cycles, self.count
            self.cycles += op.cycles
            self.count += 1
            self.change_block(following, indent + 1)
            self.cycles, self.count = cycles, count
        self.emit("else:", indent)  # the I/O area hidden (RAM or the character ROM), or the guard false
        self.store(op, Code(f"mem[{address}] = {value.text}", value.reads), address, following, indent + 1,
                   mode, later=later, old=old)
        return True

    def _going_on(self, following: int) -> int | None:
        """Where the block goes on after a store: None where its path has left the block."""
        if self.left:
            self.left = False
            return None
        return following

    def change_block(self, following: int, indent: int) -> None:
        """Leave the block for ``following`` after a store that ends it: with the next
        block's code written in here where that closes a loop (:class:`_Splice`: a block
        that may join the region, not one this code is already written into, within
        MAX_SPLICED and MAX_SPLICE_DEPTH, whose code comes back to the start of the
        block it is written into), else an ordinary change of block.  (Written in
        everywhere, a raster routine's dozens of stores made its region's source some
        ten times as long, and it compiled as long as it then ran.)  The region's
        instruction count leaves the copy out: the region holds the same blocks either
        way."""
        region = self.region
        chain = (*self.spliced_into, self.start)
        if (not region.region or following in chain or len(chain) > MAX_SPLICE_DEPTH
                or self.splice_budget[0] <= 0 or not region._may_join(following)
                or not self._may_come_back(following, chain[0])):
            self.goto(following, indent)
            return
        self.splice_budget[0] -= MAX_BLOCK  # (taken before: the blocks written into it count too)
        block = _BlockWriter(region, following, chain, self.splice_budget)
        instructions = region.instructions
        block.write()
        region.instructions = instructions
        if not _comes_back(block.lines, chain[0]):
            self.goto(following, indent)
            return
        self.carry_set(indent)
        self.sync(indent)
        self.lines.append(_Splice(indent, following, tuple(block.lines)))
        self.successors.append(following)  # (a block of the region as before: see _Splice)

    def _may_come_back(self, pc: int, start: int) -> bool:
        """Whether the code from ``pc`` on can reach ``start`` within MAX_SPLICED
        instructions by falling through, its JMPs and its branches' other way: a quick
        look before the blocks are written (see change_block)."""
        memory = self.cpu.memory
        for _ in range(MAX_SPLICED):
            op = OPCODES.get(memory[pc])
            if op is None or op.mnemonic in ("rts", "rti", "brk") or (
                    op.mnemonic == "jmp" and op.mode is not Mode.ABS):
                return False
            following = (pc + op.length) & 0xFFFF
            if op.mnemonic == "jmp":
                following = memory[(pc + 1) & 0xFFFF] | memory[(pc + 2) & 0xFFFF] << 8
            elif op.mnemonic in _BRANCHES:
                offset = memory[(pc + 1) & 0xFFFF]
                if (following + offset - (0x100 if offset & 0x80 else 0)) & 0xFFFF == start:
                    return True
            if following == start:
                return True
            pc = following
        return False

    def compiled_indexed_store(self, op: Any, mode: Mode, address: str, value: Code, following: int,
                               indent: int) -> bool:
        """A store indexed by X or Y whose addresses lie in the I/O area, as the owner's
        source for the address it reaches (``indexed_write_source``, see
        toolchain.c64.io) while the area is shown and the source's guard holds; else the
        plain store and its watch.  False (nothing written) for any other store."""
        io = self.cpu.io_access
        method = getattr(io, "indexed_write_source", None)
        if method is None or mode not in (Mode.ABX, Mode.ABY) or self.cpu.io_write is None:
            return False
        source = method(self._base)
        if source is None:
            return False
        self.region.uses_io = True
        self.uses(" ".join(value.reads))
        fields = {"address": address, "value": value.text, "now": self.now(WRITE_LATER[mode])}
        self.emit(f"if io_on and ({source.guard.format(**fields)}):\n"
                  f"{_indented(source.code.format(**fields))}", indent)
        self.emit("else:", indent)  # the I/O area hidden, or the store goes through the owner
        self.store(op, Code(f"mem[{address}] = {value.text}", value.reads), address, following, indent + 1,
                   mode)
        return True

    def _joins_run(self, pc: int) -> bool:
        """Whether the instruction at ``pc`` may be written into the block here (the
        checks of :meth:`sequence`), as the next store of a run."""
        return not (pc == self._until or pc == self.start or self.budget == 0 or self._stops_before(pc))

    def _stops_before(self, pc: int) -> bool:
        """Whether a block ends before the instruction at ``pc``, wherever it comes (see
        sequence): a stop address, a BRK the caller sees, an instruction that has changed
        (in a region), code in the I/O area."""
        cpu = self.cpu
        return bool(cpu.stops[pc] or (cpu.break_on_brk and cpu.memory[pc] == 0)
                    or (self.region.region and cpu._changed(pc)) or cpu._in_io(pc))

    def store_run(self, op: Any, mode: Mode, address: str, value: Code, following: int,
                  indent: int) -> int | None:
        """A store to a constant address of the I/O area, and the absolute STA, STX and
        STY to the same chip right after it, as one piece where the owner gives them as
        a run (``write_run_source``, see toolchain.c64.io): the write log appended to
        once, each store's own statements, the run's end once, while the I/O area is
        shown; else the plain stores one by one.  Where the block goes on; None (nothing
        written) where this store is not one of a run."""
        io = self.cpu.io_access
        run_source = getattr(io, "write_run_source", None)
        if run_source is None or mode is not Mode.ABS or int(address) >> 12 != IO_PAGE_HIGH:
            return None
        first = run_source(int(address))
        if first is None:
            return None
        memory = self.cpu.memory
        region = self.region
        stores = [(op, int(address), value, following, first)]
        pc = following
        while self._joins_run(pc):
            follower = OPCODES.get(memory[pc])
            if follower is None or follower.mode is not Mode.ABS or follower.mnemonic not in _PLAIN_STORES:
                break
            target = memory[(pc + 1) & 0xFFFF] | memory[(pc + 2) & 0xFFFF] << 8
            found = run_source(target) if target >> 12 == IO_PAGE_HIGH else None
            if found is None or found.chip != first.chip or found.end != first.end:
                break
            region.covered.update((pc + k) & 0xFFFF for k in range(3))
            region.instructions += 1
            self.budget -= 1
            self.most += _most_cycles(follower)
            self.emit(f"# ${pc:04X} {disassemble(memory, pc)[0]}", indent)
            pc = (pc + 3) & 0xFFFF
            stores.append((follower, target, _WRITES[follower.mnemonic], pc, found))
        region.uses_io = True
        cycles = self.cycles
        nows, offsets = [], []
        for store_op, *_ in stores:
            nows.append(f"cycles + {cycles}" if cycles else "cycles")
            offsets.append(cycles)
            cycles += store_op.cycles
        entries = ", ".join(f"({now}, {found.register}, {stored.text})"
                            for now, (_, _, stored, _, found) in zip(nows, stores, strict=True))
        log = first.log or first.chip + ".write_log"
        lines = [f"if {log} is not None:",
                 f"    {log}.extend(({entries},))" if len(stores) > 1 else f"    {log}.append({entries})"]
        pair_source = getattr(io, "write_pair_source", None)
        index = 0
        while index < len(stores):  # each store's part, or two stores' as one piece where the owner has it
            _, target, stored, _, found = stores[index]
            self.uses(" ".join(stored.reads))
            if pair_source is not None and index + 1 < len(stores):
                _, second_target, second, _, _ = stores[index + 1]
                pair = pair_source(target, second_target, offsets[index + 1] - offsets[index])
                if pair is not None:
                    self.uses(" ".join(second.reads))
                    lines.append(pair.format(value=stored.text, now=nows[index], value2=second.text,
                                             now2=nows[index + 1]))
                    index += 2
                    continue
            lines.append(found.code.format(value=stored.text, now=nows[index]))
            index += 1
        lines.append(first.end.format(value=stores[-1][2].text, now=nows[-1]))
        self.emit("if io_on:\n" + _indented("\n".join(lines)), indent)
        self.emit("else:", indent)  # the I/O area hidden (RAM or the character ROM)
        for store_op, target, stored, going_on, _ in stores:
            self.store(store_op, Code(f"mem[{target}] = {stored.text}", stored.reads), str(target), going_on,
                       indent + 1, Mode.ABS)
        return pc

    def push(self, value: Code, indent: int) -> None:
        # Code translated from the stack page is dropped when pushed over; the region
        # that pushes runs on (code that overwrites itself through the stack while
        # running from the stack page is beyond what this core follows).
        self.emit(Code(f"mem[STACK[sp]] = {value.text}", value.reads | {"sp"}), indent)  # (PHP reads C)
        self.uses("", "sp")
        mark = len(self.lines)
        self.emit("if watch[STACK[sp]]:\n    written(STACK[sp], 0)", indent)
        self._checked(mark, (0x100, 0x200))
        self.emit("sp = DEC[sp]", indent)

    def push_return_address(self, address: int, indent: int) -> None:
        """JSR's two pushes (high byte, then low), SP moved once."""
        self.uses("sp", "sp")
        for where, byte in (("STACK", address >> 8), ("BELOW", address & 0xFF)):
            self.emit(f"mem[{where}[sp]] = {byte}", indent)
            mark = len(self.lines)
            self.emit(f"if watch[{where}[sp]]:\n    written({where}[sp], 0)", indent)
            self._checked(mark, (0x100, 0x200))
        self.emit("sp = DEC2[sp]", indent)

    def address(self, mode: Mode, operand: list[int], indent: int) -> str:
        """The effective address: a constant, an expression, or ``ea`` (computed here)."""
        if mode is Mode.ZP:
            return str(operand[0])
        if mode is Mode.ABS:
            return str(operand[0] | operand[1] << 8)
        if mode is Mode.ZPX:
            self.uses("x")
            return f"LOW[{operand[0]} + x]"
        if mode is Mode.ZPY:
            self.uses("y")
            return f"LOW[{operand[0]} + y]"
        if mode in (Mode.ABX, Mode.ABY):
            base = operand[0] | operand[1] << 8
            register = "x" if mode is Mode.ABX else "y"
            self.uses(register)
            return f"{base} + {register}" if base + 0xFF <= 0xFFFF else f"({base} + {register}) & 0xFFFF"
        if mode is Mode.IZX:
            pointer = f"t = LOW[{operand[0]} + x]\nea = mem[t] + mem[INC[t]] * 256"
            self.emit(_code(pointer, "x"), indent)
            return "ea"
        zp = operand[0]  # IZY
        self.emit(_code(f"w = mem[{zp}]\nea = w + mem[{(zp + 1) & 0xFF}] * 256 + y\nif ea > 0xFFFF:\n"
                        f"{_INDENT}ea -= 0x10000", "y"), indent)
        return "ea"

    def penalty(self, mode: Mode, operand: list[int], indent: int) -> None:
        """The cycle an indexed read takes more when it crosses a page: a comparison that
        is usually false (cheaper in Python than adding the carry out of the low byte, and
        nothing at all for a base at the start of a page)."""
        if mode in (Mode.ABX, Mode.ABY):
            if operand[0]:
                self.emit(f"if {'x' if mode is Mode.ABX else 'y'} > {0xFF - operand[0]}:\n"
                          f"{_INDENT}{self.more_cycles(1)}", indent)
        elif mode is Mode.IZY:
            self.emit(f"if w + y > 0xFF:\n{_INDENT}{self.more_cycles(1)}", indent)

    def load(self, mode: Mode, operand: list[int], address: str, indent: int, modify: bool = False) -> str:
        """The expression that reads the byte at ``address``: plain memory, or through
        the owner's ``io_read`` where the address can be in the I/O area ($D000-$DFFF),
        in the cycle the mode reads in (READ_LATER in toolchain.cpu.core; ``modify``: a
        read-modify-write's read, MODIFY_LATER)."""
        if self.cpu.io_read is None or mode in (Mode.ZP, Mode.ZPX, Mode.ZPY):
            return f"mem[{address}]"
        io = self.cpu.io_access
        if mode is Mode.ABS:
            if int(address) >> 12 != IO_PAGE_HIGH:
                return f"mem[{address}]"
            source = io.read_source(int(address)) if io is not None else None
            if source is not None:  # the chip's register as source: no call
                self.region.uses_io = True
                now = self.now()
                if not source.before and not source.guard:
                    return f"({source.code.format(now=now)} if io_on else mem[{address}])"
                condition = f"io_on and ({source.guard.format(now=now)})" if source.guard else "io_on"
                before = source.before.format(now=now)
                self.emit(f"if {condition}:\n" + (_indented(before) + "\n" if before else "")
                          + f"{_INDENT}u = {source.code.format(now=now)}\n"
                          f"elif io_on:\n{_INDENT}cpu.cycles = {now}\n{_INDENT}u = io_read({address})\n"
                          f"{_indented(self.horizon_again())}\nelse:\n{_INDENT}u = mem[{address}]", indent)
                return "u"
            self.emit(f"cpu.cycles = {self.now()}", indent)
            if io is not None:
                # the owner may move the chips' next event closer (see the module's description)
                self.emit(f"u = io_read({address})\n{self.horizon_again()}", indent)
                return "u"
            return f"io_read({address})"
        if mode in (Mode.ABX, Mode.ABY):
            base = operand[0] | operand[1] << 8
            if not (base <= 0xDFFF and base + 0xFF >= 0xD000):
                return f"mem[{address}]"
            if modify:
                now = self.now(MODIFY_LATER[mode])
            elif operand[0]:  # a cycle later across a page
                now = f"{self.now()} + ({'x' if mode is Mode.ABX else 'y'} > {0xFF - operand[0]})"
            else:
                now = self.now()
            self.emit(f"cpu.cycles = {now}", indent)
            if io is not None:
                self.emit(f"u = io_read({address})\n{self.horizon_again()}", indent)
                return "u"
            return f"io_read({address})"
        after = "\n" + _indented(self.horizon_again()) if io is not None else ""
        now = self.now(READ_LATER[mode])
        if mode is Mode.IZY:  # a cycle later across a page
            now += " + (w + y > 0xFF)"
        self.emit(f"if {address} >> 12 != {IO_PAGE_HIGH}:\n    u = mem[{address}]\nelse:\n"
                  f"    cpu.cycles = {now}\n    u = io_read({address}){after}", indent)
        return "u"

    def instruction(self, op: Any, pc: int, operand: list[int], following: int, indent: int) -> int | None:
        """Emit one instruction (not a branch); where the block goes on, None when it ends."""
        name, mode = op.mnemonic, op.mode
        documented = op.documented or name in ("lax", "sax", "nop")
        if name == "jmp" and mode is Mode.ABS:
            self.cycles += op.cycles
            self.count += 1
            target = operand[0] | operand[1] << 8
            if self._inlines(target):
                return target
            self.goto(target, indent)
            return None
        if name == "jmp":
            pointer = operand[0] | operand[1] << 8
            high = (pointer & 0xFF00) | ((pointer + 1) & 0xFF)  # the NMOS page-wrap bug
            self.cycles += op.cycles
            self.count += 1
            self.jump(f"mem[{pointer}] + mem[{high}] * 256", indent)
            return None
        if name == "jsr":
            self.cycles += op.cycles
            self.count += 1
            return_address = (pc + 2) & 0xFFFF
            self.push_return_address(return_address, indent)
            target = operand[0] | operand[1] << 8
            self.goto(target, indent, call=True)
            self.called.add(target)
            self.region.calls.setdefault(target, set()).add((return_address + 1) & 0xFFFF)
            self.successors.append((return_address + 1) & 0xFFFF)  # where its RTS comes back
            return None
        if name == "rts":
            self.cycles += op.cycles
            self.count += 1
            # ($FFFF + 1 wraps to 0)
            self.emit(_code("pc = RETURN[mem[ABOVE2[sp]]] + mem[ABOVE[sp]]\nsp = INC2[sp]\n"
                            "if pc > 0xFFFF:\n    pc = 0", "sp", "sp"),
                      indent)
            self.carry_set(indent)
            self.sync(indent)
            self.lines.append(_Return(indent, self.start))
            return None
        if name in ("rti", "brk"):
            self.fallback(pc, indent)
            if name == "rti" and self.cpu.cli_ends_block:
                # an RTI that clears the I flag ends the region: an IRQ still waiting comes
                # before the next instruction (CPU.i_restored), which the machine looks at
                self.emit("if cpu.i_restored:\n    cpu.horizon = 0\n    pc = cpu.pc\n    horizon = -1\n"
                          "    break", indent)
            self.jump("cpu.pc", indent)
            return None
        if name in ("cli", "plp") and mode is Mode.IMP and self.cpu.cli_ends_block:
            # an instruction that clears the I flag ends the region after it: a waiting IRQ
            # comes after the next instruction, which the machine's run loop runs on the
            # interpreter (CPU.i_cleared)
            self.cycles += op.cycles
            self.count += 1
            self.uses("i", "i")
            if name == "cli":
                self.emit("if i:\n    i = 0\n    cpu.i_cleared = True\n    cpu.horizon = 0", indent)
            else:
                self.emit("held = i", indent)
                self.emit(_IMPLIED["plp"], indent)  # (all of its flags: the region may end here)
                self.emit("if held and not i:\n    cpu.i_cleared = True\n    cpu.horizon = 0", indent)
            self.leave(following, indent + 1)
            return following
        if mode is Mode.IMP and name in _IMPLIED:
            self.emit(self._flags_used(_IMPLIED[name], following), indent)
        elif name == "pha":
            self.push(_code("a", "a"), indent)
        elif name == "php":
            self.push(_STATUS, indent)
        elif mode is Mode.ACC and name in _MODIFIES:
            modify, value = _MODIFIES[name]
            self.emit(Code(_OLD.sub("a", modify.text), modify.reads | {"a"}, modify.writes), indent)
            accumulator = _code(f"a = nr = zr = {_OLD.sub('a', value)}", "a", "a " + _NZ)
            self.emit(self._flags_used(accumulator, following), indent)
        elif documented and name in _READS:
            if mode is Mode.IMM:
                value = str(operand[0])
            else:
                value = self.load(mode, operand, self.address(mode, operand, indent), indent)
            if mode is Mode.IMM and name in _COMPARES:  # register - value + 256, folded
                code = Code(f"t = {_COMPARES[name]} + {256 - operand[0]}\nc = CARRY[t]\nnr = zr = LOW[t]",
                            frozenset({_COMPARES[name]}), frozenset({"c", "nr", "zr"}))
            else:
                code = _READS[name]
            code, carry = self._carry_fused(self._flags_used(code, following), following)
            self.emit(code, indent, v=value)
            if carry is not None:
                self.carry = carry
            if op.page_penalty:
                self.penalty(mode, operand, indent)
        elif name in _WRITES:
            address = self._stored_address(mode, operand, indent)
            stored = _WRITES[name]
            after_run = self.store_run(op, mode, address, stored, following, indent)
            if after_run is not None:
                return after_run
            if self.compiled_indexed_store(op, mode, address, stored, following, indent):
                return following
            if not self.compiled_store(op, mode, address, stored, following, indent):
                self.store(op, Code(f"mem[{address}] = {stored.text}", stored.reads), address, following,
                           indent, mode)
            return self._going_on(following)
        elif documented and name in _MODIFIES:
            address = self._stored_address(mode, operand, indent)
            old = self.load(mode, operand, address, indent, modify=True)
            modify, value = _MODIFIES[name]
            if name in ("asl", "lsr"):
                self.carry = None  # (a carry standing for C: this instruction replaces it unread)
            # where the store may reach a chip, it is given the old value first (see store)
            to_chip = mode is Mode.ABS and int(address) >> 12 == IO_PAGE_HIGH or mode is Mode.ABX and (
                self._base <= 0xDFFF and self._base + 0xFF >= 0xD000)
            if modify.text or to_chip:
                self.emit(f"t = {old}", indent)
            else:
                value = _OLD.sub(old, value)  # the old value is used once: no variable
            written_back = "t" if to_chip else None
            if self._compiles_store(mode, address):
                self.emit(Code(f"{modify.text}\nnr = zr = s = {value}".lstrip(), modify.reads,
                               modify.writes | {"nr", "zr"}), indent)
                self.compiled_store(op, mode, address, _code("s"), following, indent, old="t")
                return self._going_on(following)
            if name in ("asl", "lsr"):
                modify, carry = self._carry_fused(modify, following)
                if carry is not None:
                    self.carry = carry  # (set before the store: its watch check's way out sets C)
            lean = None
            if self._reach(address, mode) is not None and self._sets_nz_next(following):
                lean = Code(f"{modify.text}\nmem[{address}] = {value}".lstrip(), modify.reads, modify.writes)
            self.store(op, Code(f"{modify.text}\nmem[{address}] = nr = zr = {value}".lstrip(), modify.reads,
                                modify.writes | {"nr", "zr"}), address, following, indent, mode, lean,
                       later=MODIFY_LATER[mode] + 2 if mode in MODIFY_LATER else None, old=written_back)
            return following
        elif name in _MODIFIES_VIA_FALLBACK and mode is not Mode.IMM:
            # the interpreter writes memory for us (through the CPU's write, which keeps
            # translations in step and tells whether this region must end)
            self.fallback(pc, indent)
            self.emit("if cpu.leave_block:\n    cpu.leave_block = False", indent)
            self.leave(following, indent + 1)
            return following
        else:
            self.fallback(pc, indent)
            return following
        self.cycles += op.cycles
        self.count += 1
        return following

    def _flags_used(self, code: Code, following: int) -> Code:
        """``code`` without its N and Z results where the instructions that run next on
        this path set both before anything can look at them (a load before an AND, a
        compare before a load): two stores fewer on the most frequent statements.  Else,
        where a branch on N or Z comes next, see :meth:`_fused`."""
        if "nr = zr = " not in code.text:
            return code
        if not self._sets_nz_next(following):
            return self._fused(code, following)
        lines = [line.replace("nr = zr = ", "") for line in code.text.splitlines()
                 if not line.lstrip().startswith("nr = zr = ")]  # (each block keeps another statement)
        return Code("\n".join(lines), code.reads, code.writes)

    def _fused(self, code: Code, following: int) -> Code:
        """``code`` without its N and Z results where the branch right after it tests
        the value itself (``x = DEC[x]`` / ``if x < 0x80:``) and a way it goes on sets
        them again (a loop's turn, the code after a loop): :meth:`branch` writes
        ``nr = zr = x`` only on the ways that need them, and the statement that set them
        loses two stores.  Code whose N and Z come from more than one statement (ADC,
        SBC, BIT, PLP) stays as it is."""
        lines = code.text.splitlines()
        setting = [index for index, line in enumerate(lines) if "nr = zr = " in line]
        if len(setting) != 1 or lines[setting[0]].startswith(" "):
            return code
        op = OPCODES.get(self.cpu.memory[following])
        if op is None or op.mnemonic not in _NZ_BRANCHES or not self._joins_run(following):
            return code  # (no branch comes next in this block)
        branch_following = (following + 2) & 0xFFFF
        offset = self.cpu.memory[(following + 1) & 0xFFFF]
        target = (branch_following + offset - (0x100 if offset & 0x80 else 0)) & 0xFFFF
        pays = self._sets_nz_next(branch_following, self.budget - 1) or (
            target == self.start and self._sets_nz_next(target, MAX_BLOCK, until=None, entering=True))
        if target == branch_following or not pays:
            return code
        line = lines[setting[0]]
        if line.startswith("nr = zr = "):  # a comparison's result: its expression stands for them
            self.fused = line.removeprefix("nr = zr = ")
            del lines[setting[0]]
        else:  # a register's new value: the register stands for them
            self.fused = line.split(" = ")[0]
            lines[setting[0]] = line.replace("nr = zr = ", "")
        return Code("\n".join(lines), code.reads, code.writes)

    def _sets_c_next(self, start: int) -> bool:
        """Whether the code at this block's start (where a loop's turn goes back) sets C
        before it reads it or the block can end: after at most a few instructions that
        leave C alone and cannot end the block (loads, logic, transfers, PHA)."""
        cpu = self.cpu
        memory = cpu.memory
        pc = start
        for step in range(4):
            if step and (pc == self.start or self._stops_before(pc)):
                return False  # the block ends there (see sequence)
            op = OPCODES.get(memory[pc])
            if op is None or not op.documented:
                return False
            name = op.mnemonic
            if name in _COMPARES or name in ("asl", "lsr", "clc", "sec"):
                return True  # (a shift of memory sets C before its store's watch check)
            implied = _IMPLIED.get(name) if op.mode is Mode.IMP else None
            leaves_c = name in ("lda", "ldx", "ldy", "and", "ora", "eor", "bit", "nop", "pha") or (
                implied is not None and name not in ("cli", "plp")
                and "c" not in implied.reads | implied.writes)
            if not leaves_c:
                return False
            pc = (pc + op.length) & 0xFFFF
        return False

    def _carry_fused(self, code: Code, following: int) -> tuple[Code, str | None]:
        """``code`` without the statement that sets C from an expression on t, and that
        expression, where a BCC or BCS comes right after it in this block (see carry)."""
        op = OPCODES.get(self.cpu.memory[following])
        if op is None or op.mnemonic not in _CARRY_BRANCHES or not self._joins_run(following):
            return code, None
        lines = code.text.splitlines()
        setting = [line for line in lines if line.startswith("c = ") and line.endswith("[t]")]
        if len(setting) != 1 or sum(" c = " in line or line.startswith("c = ") for line in lines) != 1:
            return code, None
        lines.remove(setting[0])
        return Code("\n".join(lines), code.reads, code.writes - {"c"}), setting[0].removeprefix("c = ")

    def _unfuse(self, indent: int) -> None:
        """N and Z for the code that follows, where they stand fused (see :meth:`_fused`)
        and no branch takes them."""
        if self.fused is not None:
            self.emit(f"nr = zr = {self.fused}", indent)
            self.fused = None

    def _sets_nz_next(self, pc: int, budget: int | None = None, branches: bool = True,
                      until: int | None = _WRITING, entering: bool = False) -> bool:
        """Whether the code at ``pc`` runs next in this block and sets N and Z before it
        reads them or the block can end: after at most a few instructions that leave
        them alone and cannot end the block (flag changes, PHA, TXS, and a branch on C or
        V that becomes an ``if`` in the block: then on both of its ways).  A
        read-modify-write of memory sets them before its store (whose watch may end the
        block).  ``until``: the end of the skip that code is written in (by default the
        one of the instruction being written); ``entering``: ``pc`` is this block's start,
        where a loop's turn goes back."""
        cpu = self.cpu
        memory = cpu.memory
        if budget is None:
            budget = self.budget
        if until == _WRITING:
            until = self._until  # the end of the skip being written: its branches' ifs end there
        for _ in range(4):
            if budget == 0 or (pc == self.start and not entering) or self._stops_before(pc):
                return False  # the block ends there (see sequence): the flags go back to the CPU
            entering = False
            if pc == until:
                until, branches = None, False  # past the skip: which if a branch becomes is not known here
            opcode = memory[pc]
            op = OPCODES.get(opcode)
            if op is None or opcode in JAM_OPCODES or opcode in UNSTABLE_OPCODES:
                return False
            name, mode = op.mnemonic, op.mode
            if mode is Mode.IMP and name in _IMPLIED:
                writes = _IMPLIED[name].writes
                if "nr" in writes and "zr" in writes:
                    return True
                if name not in _NEUTRAL:
                    return False
            elif mode is Mode.ACC and name in _MODIFIES:
                return True
            elif name in _MODIFIES and op.documented:
                return True
            elif name in _READS and name != "nop" and (op.documented or name == "lax"):
                return True  # (every one of them sets both, BIT and decimal mode too)
            elif name in _BRANCHES and _BRANCHES[name][2] in ("c", "v") and branches:
                following = (pc + 2) & 0xFFFF
                offset = memory[(pc + 1) & 0xFFFF]
                target = (following + offset - (0x100 if offset & 0x80 else 0)) & 0xFFFF
                # as branch() writes it: a skip (an if around the code it jumps over) keeps
                # both ways in the block; the skipped code leads on to the target
                if target == following or not self._skip_fits(following, target, until, budget - 1):
                    return False
                return (self._sets_nz_next(following, budget - 1, branches=False, until=until)
                        and self._sets_nz_next(target, budget - 1 - self._skipped(following, target),
                                               branches=False, until=until))
            elif name != "pha":
                return False
            pc = (pc + op.length) & 0xFFFF
            budget -= 1
        return False

    def _skipped(self, following: int, target: int) -> int:
        """The instructions from ``following`` up to ``target`` (a skip's code)."""
        memory = self.cpu.memory
        pc, count = following, 0
        while pc < target:
            pc += OPCODES[memory[pc]].length
            count += 1
        return count

    def _stored_address(self, mode: Mode, operand: list[int], indent: int) -> str:
        """The address a store uses several times: a constant, or ``ea``."""
        self._base = operand[0] | operand[1] << 8 if len(operand) > 1 else operand[0]
        address = self.address(mode, operand, indent)
        if address.isdigit() or address == "ea":
            return address
        self.emit(f"ea = {address}", indent)
        return "ea"
