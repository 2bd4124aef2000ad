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

import re
from collections.abc import Callable, Iterable
from typing import Any

from toolchain.cpu.core import CPU, HANDLERS, decimal_adc, decimal_sbc_result
from toolchain.cpu.opcodes import JAM_OPCODES, OPCODES, UNSTABLE_OPCODES, Mode

MAX_BLOCK = 32
MAX_BLOCK_CYCLES = MAX_BLOCK * 8 + 16  # an upper bound of the cycles one block can take
BLOCKS_PER_CHECK = 64  # the machine loop checks its cycle budget once per this many blocks

_REGISTERS = ("a", "x", "y", "sp", "c", "v", "d", "i")
_BRANCHES = {"bpl": "not nr & 0x80", "bmi": "nr & 0x80", "bvc": "not v", "bvs": "v", "bcc": "not c",
             "bcs": "c", "bne": "zr", "beq": "not zr"}  # fmt: skip
_READS = {
    "lda": "a = nr = zr = {v}", "ldx": "x = nr = zr = {v}", "ldy": "y = nr = zr = {v}",
    "lax": "a = x = nr = zr = {v}", "and": "a = nr = zr = a & {v}", "ora": "a = nr = zr = a | {v}",
    "eor": "a = nr = zr = a ^ {v}",
    "cmp": "t = a - {v}\nc = int(t >= 0)\nnr = zr = t & 0xFF",
    "cpx": "t = x - {v}\nc = int(t >= 0)\nnr = zr = t & 0xFF",
    "cpy": "t = y - {v}\nc = int(t >= 0)\nnr = zr = t & 0xFF",
    "bit": "t = {v}\nnr = t\nzr = a & t\nv = t >> 6 & 1",
    "adc": ("m = {v}\nif d:\n    a, n_, v, z_, c = decimal_adc(a, m, c)\n    nr = n_ << 7\n    zr = 1 - z_\n"
            "else:\n    t = a + m + c\n    v = (~(a ^ m) & (a ^ t) & 0x80) >> 7\n    c = int(t > 0xFF)\n"
            "    a = nr = zr = t & 0xFF"),
    "sbc": ("m = {v}\nt = a - m - 1 + c\nv = ((a ^ m) & (a ^ t) & 0x80) >> 7\nnr = zr = t & 0xFF\n"
            "if d:\n    a = decimal_sbc_result(a, m, c)\nelse:\n    a = t & 0xFF\nc = int(t >= 0)"),
    "nop": "",
}  # fmt: skip
_WRITES = {"sta": "a", "stx": "x", "sty": "y", "sax": "a & x"}
_MODIFIES_VIA_FALLBACK = frozenset({"slo", "rla", "sre", "rra", "dcp", "isc"})
_MODIFIES = {
    "asl": "c = t >> 7\nr = (t << 1) & 0xFF", "lsr": "c = t & 1\nr = t >> 1",
    "rol": "r = ((t << 1) | c) & 0xFF\nc = t >> 7", "ror": "r = (t >> 1) | (c << 7)\nc = t & 1",
    "inc": "r = (t + 1) & 0xFF", "dec": "r = (t - 1) & 0xFF",
}  # fmt: skip
_IMPLIED = {
    "tax": "x = nr = zr = a", "tay": "y = nr = zr = a", "txa": "a = nr = zr = x", "tya": "a = nr = zr = y",
    "tsx": "x = nr = zr = sp", "txs": "sp = x", "inx": "x = nr = zr = (x + 1) & 0xFF",
    "iny": "y = nr = zr = (y + 1) & 0xFF", "dex": "x = nr = zr = (x - 1) & 0xFF",
    "dey": "y = nr = zr = (y - 1) & 0xFF", "clc": "c = 0", "sec": "c = 1", "cli": "i = 0", "sei": "i = 1",
    "cld": "d = 0", "sed": "d = 1", "clv": "v = 0", "nop": "",
    "pla": "sp = (sp + 1) & 0xFF\na = nr = zr = mem[0x100 + sp]",
    "plp": ("sp = (sp + 1) & 0xFF\nt = mem[0x100 + sp]\nnr = t & 0x80\nv = t >> 6 & 1\nd = t >> 3 & 1\n"
            "i = t >> 2 & 1\nzr = 0 if t & 2 else 1\nc = t & 1"),
}  # fmt: skip
_STATUS = "((nr & 0x80) | v << 6 | 0x30 | d << 3 | i << 2 | (0 if zr else 2) | c)"
_LOCALS = (*_REGISTERS, "nr", "zr")
_LOAD_CODE = {**{r: f"{r} = cpu.{r}" for r in _REGISTERS}, "nr": "nr = 0x80 if cpu.n else 0",
              "zr": "zr = 0 if cpu.z else 1"}
_STORE_CODE = {**{r: f"cpu.{r} = {r}" for r in _REGISTERS}, "nr": "cpu.n = nr >> 7",
               "zr": "cpu.z = 0 if zr else 1"}
_LOAD_MARK, _STORE_MARK = "#load#", "#store#"
_LOCAL_NAME = re.compile(r"(?<![.\w])(?:a|x|y|sp|c|v|d|i|nr|zr)\b")
# finished source by raw source: self-patching code re-translates the same variants
_FINISHED: dict[str, str] = {}


class TranslatingCPU(CPU):
    """Same registers and API as :class:`CPU`; ``run`` and ``run_block`` execute
    translated blocks, ``step`` still runs one instruction on the interpreter.

    ``stops`` are addresses where blocks must end (for example where a machine model
    handles ROM entry points); ``break_on_brk`` ends blocks before a BRK so that the
    caller sees it."""

    def __init__(self, memory: Any, stops: Iterable[int] = (), break_on_brk: bool = False) -> None:
        super().__init__(memory)
        self.stops = bytearray(0x10000)
        for address in stops:
            self.stops[address] = 1
        self.break_on_brk = break_on_brk
        # for a block starting at a stop address: a function the owner provides, or None
        self.stop_block: Callable[[int], Callable[[CPU], None] | None] | None = None
        self.blocks: dict[int, Callable[[CPU], None]] = {}
        self.code_bytes = bytearray(0x10000)  # 1 where a byte belongs to translated code
        self._byte_blocks: dict[int, set[int]] = {}  # code byte -> starts of blocks holding it
        self._block_bytes: dict[int, range] = {}
        # compiled code by source: code that patches itself (operands set before a
        # call) cycles through a few variants, each compiled only once
        self._compiled: dict[str, Any] = {}

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
                    if self.code_bytes[address] and memory[address] != image[address]:
                        self._invalidate(address, 0, 0)
                memory[page : page + 0x100] = image[page : page + 0x100]

    def flush(self) -> None:
        self.blocks.clear()
        self.code_bytes[:] = bytes(0x10000)
        self._byte_blocks.clear()
        self._block_bytes.clear()

    # -- self-modifying code --------------------------------------------------------------------
    def _invalidate(self, address: int, start: int, end: int) -> bool:
        """Drop the blocks holding the byte at ``address``; True if the running block
        (``start``..``end``) was written to."""
        for block_start in self._byte_blocks.pop(address, ()):
            self.blocks.pop(block_start, None)
            for byte in self._block_bytes.pop(block_start, ()):
                owners = self._byte_blocks.get(byte & 0xFFFF)
                if owners is not None:
                    owners.discard(block_start)
                    if not owners:
                        del self._byte_blocks[byte & 0xFFFF]
                        self.code_bytes[byte & 0xFFFF] = 0
        self.code_bytes[address] = 0
        return start <= address < end

    # -- translation ------------------------------------------------------------------------------
    def _translate(self, start: int) -> Callable[[CPU], None]:
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
        source, end = _BlockWriter(self, start).write()
        code = self._compiled.get(source)
        if code is None:
            code = self._compiled[source] = compile(source, f"<6502 block ${start:04X}>", "exec")
        namespace: dict[str, Any] = {"decimal_adc": decimal_adc, "decimal_sbc_result": decimal_sbc_result,
                                     "HANDLERS": HANDLERS, "mem": self.memory, "code_bytes": self.code_bytes,
                                     "invalidate": self._invalidate}
        exec(code, namespace)  # noqa: S102
        block = namespace["block"]
        self.blocks[start] = block
        covered = range(start, end)
        self._block_bytes[start] = covered
        for byte in covered:
            self._byte_blocks.setdefault(byte & 0xFFFF, set()).add(start)
            self.code_bytes[byte & 0xFFFF] = 1
        return block


class _BlockWriter:
    """Writes the Python source of one block."""

    def __init__(self, cpu: TranslatingCPU, start: int) -> None:
        self.cpu = cpu
        self.start = start
        self.lines: list[str] = []
        self.cycles = 0  # static cycles since the last flush
        self.count = 0  # instructions since the last flush
        self.end = start  # one past the last byte translated (filled in as we go)
        self.closed = False  # an unconditional exit has been written

    def emit(self, code: str, indent: int = 1) -> None:
        for line in code.splitlines():
            self.lines.append("    " * indent + line)

    def exit(self, pc: str, extra_cycles: int = 0, indent: int = 1) -> None:
        """Leave the block: registers back to the CPU, PC, cycles, instruction count."""
        self.emit(_STORE_MARK, indent)
        cycles = self.cycles + extra_cycles
        self.emit(f"cpu.pc = pc = {pc}\ncpu.cycles += {cycles} + cyc\ncpu.instructions += {self.count}\n"
                  "return pc", indent)
        if indent == 1:
            self.closed = True

    @staticmethod
    def store() -> str:
        return "\n".join(f"cpu.{r} = {r}" for r in _REGISTERS) + "\ncpu.n = nr >> 7\ncpu.z = 0 if zr else 1"

    @staticmethod
    def load() -> str:
        return "\n".join(f"{r} = cpu.{r}" for r in _REGISTERS) + (
            "\nnr = 0x80 if cpu.n else 0\nzr = 0 if cpu.z else 1")

    def write(self) -> tuple[str, int]:
        cpu = self.cpu
        memory = cpu.memory
        self.lines = ["def block(cpu, mem=mem, code_bytes=code_bytes, invalidate=invalidate):", "    cyc = 0",
                      "    " + _LOAD_MARK]
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
        raw = "\n".join(self.lines)
        final = _FINISHED.get(raw)
        if final is None:
            final = _FINISHED[raw] = self._finish()
        return final.replace("BLOCK_END", str(self.end))

    def _finish(self) -> str:
        """The final text: only the registers the block reads loaded, only those it
        changes stored back."""
        body = "\n".join(self.lines[3:])
        mentioned = set(_LOCAL_NAME.findall(body))
        used = [r for r in _LOCALS if r in mentioned]
        assigned = set()
        for line in body.splitlines():
            parts = line.split(" = ")
            for target in parts[:-1]:
                assigned.update(name.strip() for name in target.split(","))
        load = "\n    ".join(_LOAD_CODE[r] for r in used) or "pass"
        changed = [r for r in _LOCALS if r in assigned]
        text = "\n".join(self.lines).replace(_LOAD_MARK, load)
        lines = []
        for line in text.splitlines():
            if line.strip() == _STORE_MARK:
                indent = line[: len(line) - len(line.lstrip())]
                lines.extend(indent + _STORE_CODE[r] for r in changed)
            else:
                lines.append(line)
        return "\n".join(lines)

    # -- one instruction -----------------------------------------------------------------------
    def fallback(self, pc: int) -> None:
        """Run one instruction on the interpreter, with the state handed over."""
        self.emit(self.store())
        self.emit(f"cpu.pc = {pc}\ncpu.cycles += {self.cycles} + cyc\ncpu.instructions += {self.count}\n"
                  f"cyc = 0\ncpu.cycles += HANDLERS[mem[{pc}]](cpu)\ncpu.instructions += 1")
        self.emit(self.load())
        self.cycles = 0
        self.count = 0

    def smc_check(self, address: str, following: int) -> None:
        """After a store: keep translated code in step with memory."""
        self.emit(f"if code_bytes[{address}] and invalidate({address}, {self.start}, BLOCK_END):")
        self.exit(str(following), indent=2)

    def write_memory(self, op: Any, code: str, address: str, following: int) -> None:
        """An instruction that writes memory: its code, then the self-modification check
        (which may leave the block, so the instruction is counted first)."""
        self.emit(code)
        self.cycles += op.cycles
        self.count += 1
        self.smc_check(address, following)

    def push(self, value: str) -> None:
        # Code translated from the stack page is dropped when pushed over; the block
        # that pushes runs on (code that overwrites itself through the stack while
        # running from the stack page is beyond what this core follows).
        self.emit(f"mem[0x100 + sp] = {value}\nif code_bytes[0x100 + sp]:\n    invalidate(0x100 + sp, 0, 0)\n"
                  "sp = (sp - 1) & 0xFF")

    def address(self, mode: Mode, operand: list[int], penalty: bool) -> str:
        """Emit the effective-address computation into ``ea``; return the expression."""
        if mode is Mode.ZP:
            return str(operand[0])
        if mode is Mode.ABS:
            return str(operand[0] | operand[1] << 8)
        if mode is Mode.ZPX:
            self.emit(f"ea = ({operand[0]} + x) & 0xFF")
        elif mode is Mode.ZPY:
            self.emit(f"ea = ({operand[0]} + y) & 0xFF")
        elif mode in (Mode.ABX, Mode.ABY):
            base = operand[0] | operand[1] << 8
            register = "x" if mode is Mode.ABX else "y"
            self.emit(f"ea = ({base} + {register}) & 0xFFFF")
            if penalty:
                self.emit(f"cyc += ({operand[0]} + {register}) > 0xFF")
        elif mode is Mode.IZX:
            self.emit(f"t = ({operand[0]} + x) & 0xFF\nea = mem[t] | mem[(t + 1) & 0xFF] << 8")
        elif mode is Mode.IZY:
            zp = operand[0]
            self.emit(f"t = mem[{zp}]\nea = ((t | mem[{(zp + 1) & 0xFF}] << 8) + y) & 0xFFFF")
            if penalty:
                self.emit("cyc += (t + y) > 0xFF")
        return "ea"

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
            self.emit(f"if {_BRANCHES[name]}:")
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
            self.push(str(return_address >> 8))
            self.push(str(return_address & 0xFF))
            self.exit(str(operand[0] | operand[1] << 8))
            return True
        if name == "rts":
            self.cycles += op.cycles
            self.count += 1
            self.emit("sp = (sp + 1) & 0xFF\nt = mem[0x100 + sp]\nsp = (sp + 1) & 0xFF")
            self.exit("((mem[0x100 + sp] << 8 | t) + 1) & 0xFFFF")
            return True
        if name in ("rti", "brk"):
            self.fallback(pc)
            self.exit("cpu.pc")
            return True
        if mode is Mode.IMP and name in _IMPLIED:
            self.emit(_IMPLIED[name])
        elif name == "pha":
            self.push("a")
        elif name == "php":
            self.push(_STATUS)
        elif mode is Mode.ACC and name in _MODIFIES:
            self.emit("t = a\n" + _MODIFIES[name] + "\na = nr = zr = r")
        elif documented and name in _READS:
            if mode is Mode.IMM:
                value = str(operand[0])
            else:
                value = f"mem[{self.address(mode, operand, op.page_penalty)}]"
            self.emit(_READS[name].format(v=value))
        elif name in _WRITES:
            address = self.address(mode, operand, False)
            self.write_memory(op, f"mem[{address}] = {_WRITES[name]}", address, following)
            return False
        elif documented and name in _MODIFIES:
            address = self.address(mode, operand, False)
            code = f"t = mem[{address}]\n{_MODIFIES[name]}\nmem[{address}] = nr = zr = r"
            self.write_memory(op, code, address, following)
            return False
        elif name in _MODIFIES_VIA_FALLBACK and mode is not Mode.IMM:
            # the interpreter writes memory for us: find where first, then keep the
            # translated code in step with that write
            address = self.address(mode, operand, False)
            if address == "ea":
                self.emit("written = ea")
                address = "written"
            self.fallback(pc)
            self.smc_check(address, following)
            return False
        else:
            self.fallback(pc)
            return False
        self.cycles += op.cycles
        self.count += 1
        return False
