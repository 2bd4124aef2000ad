"""The translating 6502 core: basic blocks compiled to Python functions.

A block is the straight-line code from an address up to the next jump, branch,
return or interrupt (at most ``MAX_BLOCK`` instructions).  It becomes one Python
function with the registers in local variables and every operand that the code
itself holds (addresses, immediates, branch targets) folded into constants.
Blocks are cached by address.  A write to a byte that belongs to translated code
drops the blocks holding that byte, and if the write lands in the running block,
the block ends right after the writing instruction: self-modifying code stays
correct.  (Code is tracked per byte, not per page: programs keep their variables
right beside their code.)

Frequent instructions have inline templates; all others run through the reference
interpreter's handler (:data:`toolchain.cpu.core.HANDLERS`) for that one
instruction, so every behaviour has one definition.  The interpreter stays the
reference: the conformance suites run on both cores.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from toolchain.cpu.core import CPU, HANDLERS, decimal_adc, decimal_sbc_result
from toolchain.cpu.disassembler import disassemble
from toolchain.cpu.opcodes import JAM_OPCODES, OPCODES, UNSTABLE_OPCODES, Mode

MAX_BLOCK = 32
MAX_BLOCK_CYCLES = MAX_BLOCK * 8 + 16  # an upper bound of the cycles one block can take
BLOCKS_PER_CHECK = 64  # the machine loop checks its cycle budget once per this many blocks
MAX_VARIANTS = 16  # earlier translations kept per start address
WATCH_CODE, WATCH_MACHINE = 1, 2  # the flags of the write watch (see TranslatingCPU)
_WITHOUT_CODE = bytes(flags & ~WATCH_CODE for flags in range(256))
IO_PAGE_HIGH = 0xD  # $D000-$DFFF, by the address's top four bits

_REGISTERS = ("a", "x", "y", "sp", "c", "v", "d", "i")
# nr and zr hold N and Z lazily: the last result (N is bit 7 of nr; Z is set when zr is 0)
_LOCALS = (*_REGISTERS, "nr", "zr")


@dataclass(frozen=True)
class Code:
    """A piece of generated code and the registers it reads and writes: what the
    block loads from the CPU object on entry and stores back on exit comes from
    these records, never from reading the generated text."""

    text: str
    reads: frozenset[str] = frozenset()
    writes: frozenset[str] = frozenset()


def _code(text: str, reads: str = "", writes: str = "") -> Code:
    return Code(text, frozenset(reads.split()), frozenset(writes.split()))


_NZ = "nr zr"  # a result that sets N and Z
_BRANCHES = {"bpl": _code("not nr & 0x80", "nr"), "bmi": _code("nr & 0x80", "nr"),
             "bvc": _code("not v", "v"), "bvs": _code("v", "v"), "bcc": _code("not c", "c"),
             "bcs": _code("c", "c"), "bne": _code("zr", "zr"), "beq": _code("not zr", "zr")}  # fmt: skip
# operations on a value {v} read from memory or an immediate
_READS = {
    "lda": _code("a = nr = zr = {v}", "", "a " + _NZ),
    "ldx": _code("x = nr = zr = {v}", "", "x " + _NZ),
    "ldy": _code("y = nr = zr = {v}", "", "y " + _NZ),
    "lax": _code("a = x = nr = zr = {v}", "", "a x " + _NZ),
    "and": _code("a = nr = zr = a & {v}", "a", "a " + _NZ),
    "ora": _code("a = nr = zr = a | {v}", "a", "a " + _NZ),
    "eor": _code("a = nr = zr = a ^ {v}", "a", "a " + _NZ),
    "cmp": _code("t = a - {v}\nc = int(t >= 0)\nnr = zr = t & 0xFF", "a", "c " + _NZ),
    "cpx": _code("t = x - {v}\nc = int(t >= 0)\nnr = zr = t & 0xFF", "x", "c " + _NZ),
    "cpy": _code("t = y - {v}\nc = int(t >= 0)\nnr = zr = t & 0xFF", "y", "c " + _NZ),
    "bit": _code("t = {v}\nnr = t\nzr = a & t\nv = t >> 6 & 1", "a", "v " + _NZ),
    "adc": _code("m = {v}\nif d:\n    a, n_, v, z_, c = decimal_adc(a, m, c)\n    nr = n_ << 7\n"
                 "    zr = 1 - z_\nelse:\n    t = a + m + c\n    v = (~(a ^ m) & (a ^ t) & 0x80) >> 7\n"
                 "    c = int(t > 0xFF)\n    a = nr = zr = t & 0xFF", "a c d", "a c v " + _NZ),
    "sbc": _code("m = {v}\nt = a - m - 1 + c\nv = ((a ^ m) & (a ^ t) & 0x80) >> 7\nnr = zr = t & 0xFF\n"
                 "if d:\n    a = decimal_sbc_result(a, m, c)\nelse:\n    a = t & 0xFF\nc = int(t >= 0)",
                 "a c d", "a c v " + _NZ),
    "nop": _code(""),
}  # fmt: skip
# stores: the value written
_WRITES = {"sta": _code("a", "a"), "stx": _code("x", "x"), "sty": _code("y", "y"),
           "sax": _code("a & x", "a x")}
_MODIFIES_VIA_FALLBACK = frozenset({"slo", "rla", "sre", "rra", "dcp", "isc"})
# read-modify-write: t is the old value, r the new one
_MODIFIES = {
    "asl": _code("c = t >> 7\nr = (t << 1) & 0xFF", "", "c"),
    "lsr": _code("c = t & 1\nr = t >> 1", "", "c"),
    "rol": _code("r = ((t << 1) | c) & 0xFF\nc = t >> 7", "c", "c"),
    "ror": _code("r = (t >> 1) | (c << 7)\nc = t & 1", "c", "c"),
    "inc": _code("r = (t + 1) & 0xFF"), "dec": _code("r = (t - 1) & 0xFF"),
}  # fmt: skip
_IMPLIED = {
    "tax": _code("x = nr = zr = a", "a", "x " + _NZ), "tay": _code("y = nr = zr = a", "a", "y " + _NZ),
    "txa": _code("a = nr = zr = x", "x", "a " + _NZ), "tya": _code("a = nr = zr = y", "y", "a " + _NZ),
    "tsx": _code("x = nr = zr = sp", "sp", "x " + _NZ), "txs": _code("sp = x", "x", "sp"),
    "inx": _code("x = nr = zr = (x + 1) & 0xFF", "x", "x " + _NZ),
    "iny": _code("y = nr = zr = (y + 1) & 0xFF", "y", "y " + _NZ),
    "dex": _code("x = nr = zr = (x - 1) & 0xFF", "x", "x " + _NZ),
    "dey": _code("y = nr = zr = (y - 1) & 0xFF", "y", "y " + _NZ),
    "clc": _code("c = 0", "", "c"), "sec": _code("c = 1", "", "c"), "cli": _code("i = 0", "", "i"),
    "sei": _code("i = 1", "", "i"), "cld": _code("d = 0", "", "d"), "sed": _code("d = 1", "", "d"),
    "clv": _code("v = 0", "", "v"), "nop": _code(""),
    "pla": _code("sp = (sp + 1) & 0xFF\na = nr = zr = mem[0x100 + sp]", "sp", "sp a " + _NZ),
    "plp": _code("sp = (sp + 1) & 0xFF\nt = mem[0x100 + sp]\nnr = t & 0x80\nv = t >> 6 & 1\nd = t >> 3 & 1\n"
                 "i = t >> 2 & 1\nzr = 0 if t & 2 else 1\nc = t & 1", "sp", "sp v d i c " + _NZ),
}  # fmt: skip
_STATUS = _code("((nr & 0x80) | v << 6 | 0x30 | d << 3 | i << 2 | (0 if zr else 2) | c)", "nr v d i zr c")
_LOAD_CODE = {**{r: f"{r} = cpu.{r}" for r in _REGISTERS}, "nr": "nr = 0x80 if cpu.n else 0",
              "zr": "zr = 0 if cpu.z else 1"}
_STORE_CODE = {**{r: f"cpu.{r} = {r}" for r in _REGISTERS}, "nr": "cpu.n = nr >> 7",
               "zr": "cpu.z = 0 if zr else 1"}
_STORE_MARK = "#store#"  # where the registers a block changes are stored, filled in when it is done
# finished source by raw source: self-patching code re-translates the same variants
_FINISHED: dict[str, str] = {}


class TranslatingCPU(CPU):
    """Same registers and API as :class:`CPU`; ``run`` and ``run_block`` execute
    translated blocks, ``step`` still runs one instruction on the interpreter.

    ``stops`` are addresses where blocks must end (for example where a machine model
    handles ROM entry points); ``break_on_brk`` ends blocks before a BRK so that the
    caller sees it."""

    def __init__(self, memory: Any, stops: Iterable[int] = (), break_on_brk: bool = False,
                 watch: bytearray | None = None, on_write: Callable[[int], bool] | None = None,
                 io_read: Callable[[int], int] | None = None) -> None:
        super().__init__(memory)
        # the write watch: WATCH_CODE where a byte belongs to translated code (this core
        # keeps it), WATCH_MACHINE where the owner wants to see writes (``on_write``, which
        # returns True when the running block must end, e.g. after a bank switch)
        self.watch = watch if watch is not None else bytearray(0x10000)
        self.on_write = on_write
        # reads of the I/O area ($D000-$DFFF) go to ``io_read`` (chips whose registers
        # change by themselves); without it memory is plain
        self.io_read = io_read
        if io_read is not None:
            self.read = io_read
        self.write = self._write
        self.leave_block = False
        self.stops = bytearray(0x10000)
        for address in stops:
            self.stops[address] = 1
        self.break_on_brk = break_on_brk
        # for a block starting at a stop address: a function the owner provides, or None
        self.stop_block: Callable[[int], Callable[[CPU], int] | None] | None = None
        self.blocks: dict[int, Callable[[CPU], int]] = {}
        self.sources: dict[int, str] = {}  # the Python of each translated block, for --dump-python
        self._byte_blocks: dict[int, set[int]] = {}  # code byte -> starts of blocks holding it
        self._block_bytes: dict[int, range] = {}
        # compiled code by source: code that patches itself (operands set before a
        # call) cycles through a few variants, each compiled only once
        self._compiled: dict[str, Any] = {}
        # earlier translations by start: (end, the bytes they were made from, the block);
        # code that patches its own operands cycles through a few variants, and gets
        # each back without translating again
        self._variants: dict[int, list[tuple[int, bytes, Callable[[CPU], int]]]] = {}
        self._sources_of: dict[Callable[[CPU], int], str] = {}

    # -- running --------------------------------------------------------------------------
    def run_block(self) -> None:
        """Run the block at the PC (translating it first if needed)."""
        block = self.blocks.get(self.pc)
        if block is None:
            block = self._translate(self.pc)
        block(self)

    def run(self, until: int | Callable[[CPU], bool] | None = None, max_cycles: int | None = None) -> int:
        start = self.cycles
        limit = None if max_cycles is None else start + max_cycles
        if isinstance(until, int):
            self.add_stop(until)
            target = until
            stop: Callable[[CPU], bool] = lambda cpu: cpu.pc == target  # noqa: E731
        else:
            stop = until or (lambda cpu: False)
        blocks = self.blocks
        while not stop(self):
            if limit is not None and self.cycles + MAX_BLOCK_CYCLES >= limit:
                if self.cycles >= limit:
                    break
                self.step()  # near the limit: one instruction at a time, so the limit is exact
                continue
            block = blocks.get(self.pc)
            if block is None:
                block = self._translate(self.pc)
            block(self)
        return self.cycles - start

    def add_stop(self, address: int) -> None:
        if not self.stops[address]:
            self.stops[address] = 1
            self.flush()

    def restore_memory(self, image: bytes | bytearray) -> None:
        """Replace memory with ``image``, keeping the translations whose bytes did not
        change (a machine reset between runs of the same program keeps its blocks)."""
        memory = self.memory
        for page in range(0, 0x10000, 0x100):
            if memory[page : page + 0x100] != image[page : page + 0x100]:
                for address in range(page, page + 0x100):
                    if self.watch[address] & WATCH_CODE and memory[address] != image[address]:
                        self._invalidate(address, 0, 0)
                memory[page : page + 0x100] = image[page : page + 0x100]

    def flush(self) -> None:
        self._variants.clear()
        self._sources_of.clear()
        self.blocks.clear()
        self.sources.clear()
        self.watch[:] = self.watch.translate(_WITHOUT_CODE)
        self._byte_blocks.clear()
        self._block_bytes.clear()

    def translated_source(self) -> str:
        """The Python of every block translated so far, in address order."""
        blocks = [f"# block ${start:04X}\n{self.sources[start]}" for start in sorted(self.sources)]
        return "\n\n".join(blocks) + "\n"

    # -- self-modifying code --------------------------------------------------------------------
    def _write(self, address: int, value: int) -> None:
        """A data write of the interpreter (and of the instructions translated blocks
        leave to it): the store, then whatever the watch asks for.  ``leave_block`` tells
        a translated block that handed an instruction to the interpreter that it must
        end (translated code was changed, or the owner asked)."""
        self.memory[address] = value
        flags = self.watch[address]
        if flags and (self._written(address, 0, 0) or flags & WATCH_CODE):
            self.leave_block = True

    def _written(self, address: int, start: int, end: int) -> bool:
        """After a store to a watched byte: translated code there is dropped, the owner
        told.  True when the running block (``start``..``end``) must end."""
        flags = self.watch[address]
        leave = False
        if flags & WATCH_CODE:
            leave = self._invalidate(address, start, end)
        if flags & WATCH_MACHINE and self.on_write is not None:
            leave = self.on_write(address) or leave
        return leave

    def invalidate_range(self, addresses: range) -> None:
        """Drop the translations of code in ``addresses`` (their bytes were replaced
        behind the CPU's back: a bank switch)."""
        watch = self.watch
        for address in addresses:
            if watch[address] & WATCH_CODE:
                self._invalidate(address, 0, 0)

    def _invalidate(self, address: int, start: int, end: int) -> bool:
        """Drop the blocks holding the byte at ``address``; True if the running block
        (``start``..``end``) was written to."""
        for block_start in self._byte_blocks.pop(address, ()):
            self.blocks.pop(block_start, None)
            self.sources.pop(block_start, None)
            for byte in self._block_bytes.pop(block_start, ()):
                owners = self._byte_blocks.get(byte & 0xFFFF)
                if owners is not None:
                    owners.discard(block_start)
                    if not owners:
                        del self._byte_blocks[byte & 0xFFFF]
                        self.watch[byte & 0xFFFF] &= ~WATCH_CODE
        self.watch[address] &= ~WATCH_CODE
        return start <= address < end

    # -- translation ------------------------------------------------------------------------------
    def _translate(self, start: int) -> Callable[[CPU], int]:
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
        memory = self.memory
        variants = self._variants.setdefault(start, [])
        for end, original, block in variants:
            if memory[start:end] == original:  # translated before from these very bytes
                self._install(start, end, block, self._sources_of[block])
                return block
        source, end = _BlockWriter(self, start).write()
        code = self._compiled.get(source)
        if code is None:
            code = self._compiled[source] = compile(source, f"<6502 block ${start:04X}>", "exec")
        namespace: dict[str, Any] = {"decimal_adc": decimal_adc, "decimal_sbc_result": decimal_sbc_result,
                                     "HANDLERS": HANDLERS, "mem": self.memory, "watch": self.watch,
                                     "written": self._written, "io_read": self.io_read}
        exec(code, namespace)
        block = namespace["block"]
        variants.append((end, bytes(memory[start:end]), block))
        if len(variants) > MAX_VARIANTS:
            variants.pop(0)
        self._sources_of[block] = source
        self._install(start, end, block, source)
        return block

    def _install(self, start: int, end: int, block: Callable[[CPU], int], source: str) -> None:
        """Make ``block`` the code at ``start``, covering the bytes up to ``end``."""
        self.blocks[start] = block
        self.sources[start] = source
        covered = range(start, end)
        self._block_bytes[start] = covered
        for byte in covered:
            self._byte_blocks.setdefault(byte & 0xFFFF, set()).add(start)
            self.watch[byte & 0xFFFF] |= WATCH_CODE


class _BlockWriter:
    """Writes the Python source of one block from the instructions' code records."""

    def __init__(self, cpu: TranslatingCPU, start: int) -> None:
        self.cpu = cpu
        self.start = start
        self.lines: list[str] = []
        self.reads: set[str] = set()  # registers the block's code reads
        self.writes: set[str] = set()  # ... and writes
        self.cycles = 0  # static cycles since the last flush
        self.count = 0  # instructions since the last flush
        self.end = start  # one past the last byte translated (filled in as we go)
        self.closed = False  # an unconditional exit has been written

    def emit(self, code: Code | str, indent: int = 1, **fields: str) -> None:
        if isinstance(code, Code):
            self.reads |= code.reads
            self.writes |= code.writes
            text = code.text.format(**fields) if fields else code.text
        else:
            text = code
        for line in text.splitlines():
            self.lines.append("    " * indent + line)

    def uses(self, reads: str = "", writes: str = "") -> None:
        """Registers read or written by code emitted as plain text."""
        self.reads.update(reads.split())
        self.writes.update(writes.split())

    def exit(self, pc: str, extra_cycles: int = 0, indent: int = 1) -> None:
        """Leave the block: registers back to the CPU, PC, cycles, instruction count."""
        self.emit(_STORE_MARK, indent)
        cycles = self.cycles + extra_cycles
        self.emit(f"cpu.pc = pc = {pc}\ncpu.cycles += {cycles} + cyc\ncpu.instructions += {self.count}\n"
                  "return pc", indent)
        if indent == 1:
            self.closed = True

    def write(self) -> tuple[str, int]:
        cpu = self.cpu
        memory = cpu.memory
        pc = self.start
        for _ in range(MAX_BLOCK):
            opcode = memory[pc]
            if pc != self.start and (cpu.stops[pc] or (cpu.break_on_brk and opcode == 0)):
                break
            op = OPCODES.get(opcode)
            length = op.length if op else 1
            operand = [memory[(pc + k) & 0xFFFF] for k in range(1, length)]
            following = (pc + length) & 0xFFFF
            self.end = max(self.end, pc + length)
            self.emit(f"# ${pc:04X} {disassemble(memory, pc)[0]}")
            if op is None or opcode in JAM_OPCODES or opcode in UNSTABLE_OPCODES:
                self.fallback(pc)  # raises CpuHalted with the address
                self.exit("cpu.pc")
                break
            if self.instruction(op, pc, operand, following):
                break
            wrapped = following < pc
            pc = following
            if wrapped:  # end the block at $FFFF: its bytes stay one contiguous range
                break
        if not self.closed:  # ran to the size limit or up to a stop address
            self.exit(str(pc))
        return self._source(), self.end

    def _source(self) -> str:
        """The final text: only the registers the block uses loaded on entry, only those
        it changes stored back at each exit."""
        used = [r for r in _LOCALS if r in self.reads or r in self.writes]
        changed = [r for r in _LOCALS if r in self.writes]
        key = "\n".join(self.lines) + f"\n{used}{changed}"
        final = _FINISHED.get(key)
        if final is None:
            out = ["def block(cpu, mem=mem, watch=watch, written=written, io_read=io_read):", "    cyc = 0"]
            out.extend("    " + _LOAD_CODE[r] for r in used)
            for line in self.lines:
                if line.strip() == _STORE_MARK:
                    indent = line[: len(line) - len(line.lstrip())]
                    out.extend(indent + _STORE_CODE[r] for r in changed)
                else:
                    out.append(line)
            final = _FINISHED[key] = "\n".join(out)
        return final.replace("BLOCK_END", str(self.end))

    # -- one instruction -----------------------------------------------------------------------
    def fallback(self, pc: int) -> None:
        """Run one instruction on the interpreter, with the state handed over: every
        register is stored before and loaded after."""
        self.uses(" ".join(_LOCALS), " ".join(_LOCALS))
        self.emit("\n".join(_STORE_CODE[r] for r in _LOCALS))
        self.emit(f"cpu.pc = {pc}\ncpu.cycles += {self.cycles} + cyc\ncpu.instructions += {self.count}\n"
                  f"cyc = 0\ncpu.cycles += HANDLERS[mem[{pc}]](cpu)\ncpu.instructions += 1")
        self.emit("\n".join(_LOAD_CODE[r] for r in _LOCALS))
        self.cycles = 0
        self.count = 0

    def smc_check(self, address: str, following: int) -> None:
        """After a store: keep translated code in step with memory."""
        self.emit(f"if watch[{address}] and written({address}, {self.start}, BLOCK_END):")
        self.exit(str(following), indent=2)

    def write_memory(self, op: Any, code: Code | str, address: str, following: int) -> None:
        """An instruction that writes memory: its code, then the self-modification check
        (which may leave the block, so the instruction is counted first)."""
        self.emit(code)
        self.cycles += op.cycles
        self.count += 1
        self.smc_check(address, following)

    def push(self, value: Code) -> None:
        # Code translated from the stack page is dropped when pushed over; the block
        # that pushes runs on (code that overwrites itself through the stack while
        # running from the stack page is beyond what this core follows).
        self.uses("sp " + " ".join(value.reads), "sp")
        self.emit(f"mem[0x100 + sp] = {value.text}\nif watch[0x100 + sp]:\n"
                  "    written(0x100 + sp, 0, 0)\nsp = (sp - 1) & 0xFF")

    def address(self, mode: Mode, operand: list[int], penalty: bool) -> str:
        """Emit the effective-address computation into ``ea``; return the expression."""
        if mode is Mode.ZP:
            return str(operand[0])
        if mode is Mode.ABS:
            return str(operand[0] | operand[1] << 8)
        if mode is Mode.ZPX:
            self.emit(_code(f"ea = ({operand[0]} + x) & 0xFF", "x"))
        elif mode is Mode.ZPY:
            self.emit(_code(f"ea = ({operand[0]} + y) & 0xFF", "y"))
        elif mode in (Mode.ABX, Mode.ABY):
            base = operand[0] | operand[1] << 8
            register = "x" if mode is Mode.ABX else "y"
            self.emit(_code(f"ea = ({base} + {register}) & 0xFFFF", register))
            if penalty:
                self.emit(_code(f"cyc += ({operand[0]} + {register}) > 0xFF", register))
        elif mode is Mode.IZX:
            self.emit(_code(f"t = ({operand[0]} + x) & 0xFF\nea = mem[t] | mem[(t + 1) & 0xFF] << 8", "x"))
        elif mode is Mode.IZY:
            zp = operand[0]
            self.emit(_code(f"t = mem[{zp}]\nea = ((t | mem[{(zp + 1) & 0xFF}] << 8) + y) & 0xFFFF", "y"))
            if penalty:
                self.emit(_code("cyc += (t + y) > 0xFF", "y"))
        return "ea"

    def load(self, mode: Mode, operand: list[int], address: str) -> str:
        """The expression that reads the byte at ``address``: plain memory, or through
        the owner's ``io_read`` where the address can be in the I/O area ($D000-$DFFF)."""
        if self.cpu.io_read is None or mode in (Mode.ZP, Mode.ZPX, Mode.ZPY):
            return f"mem[{address}]"
        if mode is Mode.ABS:
            return f"io_read({address})" if int(address) >> 12 == IO_PAGE_HIGH else f"mem[{address}]"
        if mode in (Mode.ABX, Mode.ABY):
            base = operand[0] | operand[1] << 8
            reaches_io = base <= 0xDFFF and base + 0xFF >= 0xD000
            return f"io_read({address})" if reaches_io else f"mem[{address}]"
        return f"(mem[{address}] if {address} >> 12 != {IO_PAGE_HIGH} else io_read({address}))"

    def instruction(self, op: Any, pc: int, operand: list[int], following: int) -> bool:
        """Emit one instruction; True when it ends the block."""
        name, mode = op.mnemonic, op.mode
        documented = op.documented or name in ("lax", "sax", "nop")
        if name in _BRANCHES:
            offset = operand[0]
            target = (following + offset - (0x100 if offset & 0x80 else 0)) & 0xFFFF
            self.cycles += op.cycles
            self.count += 1
            # a side exit: the taken branch leaves the block, the fall-through path goes on
            # in the same block (no dispatch for a branch not taken)
            condition = _BRANCHES[name]
            self.emit(Code(f"if {condition.text}:", condition.reads))
            self.exit(str(target), 1 + ((following ^ target) > 0xFF), indent=2)
            return False
        if name == "jmp" and mode is Mode.ABS:
            self.cycles += op.cycles
            self.count += 1
            self.exit(str(operand[0] | operand[1] << 8))
            return True
        if name == "jmp":
            pointer = operand[0] | operand[1] << 8
            high = (pointer & 0xFF00) | ((pointer + 1) & 0xFF)  # the NMOS page-wrap bug
            self.cycles += op.cycles
            self.count += 1
            self.exit(f"mem[{pointer}] | mem[{high}] << 8")
            return True
        if name == "jsr":
            self.cycles += op.cycles
            self.count += 1
            return_address = (pc + 2) & 0xFFFF
            self.push(_code(str(return_address >> 8)))
            self.push(_code(str(return_address & 0xFF)))
            self.exit(str(operand[0] | operand[1] << 8))
            return True
        if name == "rts":
            self.cycles += op.cycles
            self.count += 1
            self.emit(_code("sp = (sp + 1) & 0xFF\nt = mem[0x100 + sp]\nsp = (sp + 1) & 0xFF", "sp", "sp"))
            self.exit("((mem[0x100 + sp] << 8 | t) + 1) & 0xFFFF")
            return True
        if name in ("rti", "brk"):
            self.fallback(pc)
            self.exit("cpu.pc")
            return True
        if mode is Mode.IMP and name in _IMPLIED:
            self.emit(_IMPLIED[name])
        elif name == "pha":
            self.push(_code("a", "a"))
        elif name == "php":
            self.push(_STATUS)
        elif mode is Mode.ACC and name in _MODIFIES:
            self.emit(_code("t = a", "a"))
            self.emit(_MODIFIES[name])
            self.emit(_code("a = nr = zr = r", "", "a " + _NZ))
        elif documented and name in _READS:
            if mode is Mode.IMM:
                value = str(operand[0])
            else:
                value = self.load(mode, operand, self.address(mode, operand, op.page_penalty))
            self.emit(_READS[name], v=value)
        elif name in _WRITES:
            address = self.address(mode, operand, False)
            stored = _WRITES[name]
            self.write_memory(op, Code(f"mem[{address}] = {stored.text}", stored.reads), address, following)
            return False
        elif documented and name in _MODIFIES:
            address = self.address(mode, operand, False)
            self.emit(f"t = {self.load(mode, operand, address)}")
            modify = _MODIFIES[name]
            self.write_memory(op, Code(f"{modify.text}\nmem[{address}] = nr = zr = r", modify.reads,
                                       modify.writes | {"nr", "zr"}), address, following)
            return False
        elif name in _MODIFIES_VIA_FALLBACK and mode is not Mode.IMM:
            # the interpreter writes memory for us (through the CPU's write, which keeps
            # translations in step and tells whether this block must end)
            self.fallback(pc)
            self.emit("if cpu.leave_block:")
            self.emit("cpu.leave_block = False", 2)
            self.exit(str(following), indent=2)
            return False
        else:
            self.fallback(pc)
            return False
        self.cycles += op.cycles
        self.count += 1
        return False
