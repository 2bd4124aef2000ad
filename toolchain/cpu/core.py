"""The NMOS 6502 core: the reference interpreter.

One handler per opcode, built once from the opcode table (:mod:`toolchain.cpu.opcodes`)
into an immutable 256-entry tuple.  Registers are attributes (``pc a x y sp`` and
``p``, the status byte); ``step()`` runs one instruction and returns its cycles.

Sources for the behaviour: the MCS6500 programming manual (documented opcodes,
cycles, penalties); Bruce Clark, "Decimal Mode" (6502.org tutorial, appendix A:
the NMOS sequences for A, C, N, V, Z in decimal mode); groepaz, "NMOS 6510
Unintended Opcodes" (LAX, SAX, DCP, ISC, SLO, RLA, SRE, RRA, ANC, ALR, ARR, SBX).
An opcode that locks the chip (JAM) or behaves unpredictably halts the run with
a message naming it: nothing is ever a silent no-op.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence
from typing import Any

from toolchain.cpu.opcodes import JAM_OPCODES, OPCODES, UNSTABLE_OPCODES, Mode, Opcode

# Status register bits that are not flags of their own: B only exists on the stack (BRK and
# PHP push it set), bit 5 always reads 1
B_FLAG, U_FLAG = 0x10, 0x20
NMI_VECTOR, RESET_VECTOR, IRQ_VECTOR = 0xFFFA, 0xFFFC, 0xFFFE


class CpuHalted(Exception):
    """The CPU cannot go on: a JAM opcode, or an opcode whose result is undefined."""

    def __init__(self, message: str, address: int, opcode: int) -> None:
        super().__init__(message)
        self.address = address
        self.opcode = opcode


class CPU:
    """An NMOS 6502 working on ``memory``: a 64 KiB bytearray or any object with the
    same indexing (the C64 model's memory)."""

    def __init__(self, memory: MutableSequence[int] | Any) -> None:
        self.memory = memory
        self.a = self.x = self.y = 0
        self.sp = 0xFD
        self.pc = 0
        self.n = self.v = self.d = self.z = self.c = 0
        self.i = 1
        # the last instruction cleared the I flag (CLI, or PLP pulling it clear): a 6510
        # takes an IRQ waiting then only after the next instruction (VICE 3.10:
        # OPCODE_ENABLES_IRQ in 6510core.c; RTI does not wait); the machine's run loop
        # reads it and sets it back
        self.i_cleared = False
        # the last instruction was an RTI that cleared the I flag: unlike CLI, an IRQ waiting
        # then comes at once, before the next instruction (VICE 3.10: RTI polls the line
        # with the status it pulled; tests/data/machine/kernal/irq-rti-pending); the
        # machine's run loop reads it and sets it back
        self.i_restored = False
        self.cycles = 0
        self.instructions = 0
        # an instruction's data reads and writes (not its opcode and operand fetches, not
        # the stack): plain memory here; a machine model hooks its I/O in through these
        self.read: Callable[[int], int] = memory.__getitem__
        self.write: Callable[[int, int], None] = memory.__setitem__

    # -- the status byte ------------------------------------------------------------------
    @property
    def p(self) -> int:
        return (self.n << 7 | self.v << 6 | U_FLAG | self.d << 3 | self.i << 2 | self.z << 1 | self.c)

    @p.setter
    def p(self, value: int) -> None:
        self.n = value >> 7 & 1
        self.v = value >> 6 & 1
        self.d = value >> 3 & 1
        self.i = value >> 2 & 1
        self.z = value >> 1 & 1
        self.c = value & 1

    # -- running --------------------------------------------------------------------------
    def step(self) -> int:
        """Run one instruction; return its cycles."""
        cycles = HANDLERS[self.memory[self.pc]](self)
        self.cycles += cycles
        self.instructions += 1
        return cycles

    def run(self, until: int | Callable[[CPU], bool] | None = None, max_cycles: int | None = None) -> int:
        """Step until the PC reaches ``until`` (an address, or a predicate on the CPU)
        or ``max_cycles`` more cycles have run.  Returns the cycles used."""
        start = self.cycles
        limit = None if max_cycles is None else start + max_cycles
        if isinstance(until, int):
            target = until
            stop: Callable[[CPU], bool] = lambda cpu: cpu.pc == target  # noqa: E731
        else:
            stop = until or (lambda cpu: False)
        while not stop(self):
            if limit is not None and self.cycles >= limit:
                break
            self.step()
        return self.cycles - start

    # -- interrupts -------------------------------------------------------------------------
    def push(self, value: int) -> None:
        self.memory[0x100 + self.sp] = value & 0xFF
        self.sp = (self.sp - 1) & 0xFF

    def pull(self) -> int:
        self.sp = (self.sp + 1) & 0xFF
        return self.memory[0x100 + self.sp]

    def return_from_interrupt(self) -> int:
        """RTI's pulls: the status, then the address it returns to; an I flag cleared so
        sets ``i_restored``."""
        held = self.i
        self.p = self.pull()
        if held and not self.i:
            self.i_restored = True
        low = self.pull()
        return self.pull() << 8 | low

    def read_word(self, address: int) -> int:
        return self.memory[address] | self.memory[(address + 1) & 0xFFFF] << 8

    def _interrupt(self, vector: int, return_address: int, brk: bool) -> int:
        self.push(return_address >> 8)
        self.push(return_address)
        self.push(self.p | (B_FLAG if brk else 0))
        self.i = 1
        self.pc = self.read_word(vector)
        return 7

    def irq(self) -> int:
        """Request an IRQ; taken only when the I flag is clear.  Returns its cycles."""
        if self.i:
            return 0
        cycles = self._interrupt(IRQ_VECTOR, self.pc, brk=False)
        self.cycles += cycles
        return cycles

    def nmi(self) -> int:
        cycles = self._interrupt(NMI_VECTOR, self.pc, brk=False)
        self.cycles += cycles
        return cycles

    def reset(self) -> None:
        self.sp = 0xFD
        self.i = 1
        self.pc = self.read_word(RESET_VECTOR)


# -- addressing: each returns (effective address, page crossed) and advances the PC ---------

def _imm(cpu: CPU) -> tuple[int, bool]:
    address = (cpu.pc + 1) & 0xFFFF
    cpu.pc = (cpu.pc + 2) & 0xFFFF
    return address, False


def _zp(cpu: CPU) -> tuple[int, bool]:
    address = cpu.memory[(cpu.pc + 1) & 0xFFFF]
    cpu.pc = (cpu.pc + 2) & 0xFFFF
    return address, False


def _zpx(cpu: CPU) -> tuple[int, bool]:
    address = (cpu.memory[(cpu.pc + 1) & 0xFFFF] + cpu.x) & 0xFF
    cpu.pc = (cpu.pc + 2) & 0xFFFF
    return address, False


def _zpy(cpu: CPU) -> tuple[int, bool]:
    address = (cpu.memory[(cpu.pc + 1) & 0xFFFF] + cpu.y) & 0xFF
    cpu.pc = (cpu.pc + 2) & 0xFFFF
    return address, False


def _abs(cpu: CPU) -> tuple[int, bool]:
    address = cpu.read_word((cpu.pc + 1) & 0xFFFF)
    cpu.pc = (cpu.pc + 3) & 0xFFFF
    return address, False


def _abx(cpu: CPU) -> tuple[int, bool]:
    base = cpu.read_word((cpu.pc + 1) & 0xFFFF)
    cpu.pc = (cpu.pc + 3) & 0xFFFF
    address = (base + cpu.x) & 0xFFFF
    return address, (base ^ address) > 0xFF


def _aby(cpu: CPU) -> tuple[int, bool]:
    base = cpu.read_word((cpu.pc + 1) & 0xFFFF)
    cpu.pc = (cpu.pc + 3) & 0xFFFF
    address = (base + cpu.y) & 0xFFFF
    return address, (base ^ address) > 0xFF


def _ind(cpu: CPU) -> tuple[int, bool]:
    pointer = cpu.read_word((cpu.pc + 1) & 0xFFFF)
    cpu.pc = (cpu.pc + 3) & 0xFFFF
    # the NMOS bug: JMP ($xxFF) takes the high byte from $xx00, not from the next page
    high = (pointer & 0xFF00) | ((pointer + 1) & 0xFF)
    return cpu.memory[pointer] | cpu.memory[high] << 8, False


def _izx(cpu: CPU) -> tuple[int, bool]:
    pointer = (cpu.memory[(cpu.pc + 1) & 0xFFFF] + cpu.x) & 0xFF
    cpu.pc = (cpu.pc + 2) & 0xFFFF
    return cpu.memory[pointer] | cpu.memory[(pointer + 1) & 0xFF] << 8, False


def _izy(cpu: CPU) -> tuple[int, bool]:
    pointer = cpu.memory[(cpu.pc + 1) & 0xFFFF]
    cpu.pc = (cpu.pc + 2) & 0xFFFF
    base = cpu.memory[pointer] | cpu.memory[(pointer + 1) & 0xFF] << 8
    address = (base + cpu.y) & 0xFFFF
    return address, (base ^ address) > 0xFF


# When an instruction reads or writes its operand, counted from LDA abs's read (its 4th
# cycle, the one the CPU's ``cycles`` stands for while it accesses memory: see
# _make_handler): the 6502's cycle tables (MCS6500 programming manual, appendix A; the
# same in VICE 3.10's 6510core.c, LOAD_ABS_X, LOAD_IND_Y, STORE_ABS_X and the RMW
# macros).  A read in the mode's last cycle: LDA abs,X/abs,Y the 4th (+1 across a page),
# LDA (zp),Y the 5th (+1 across a page), LDA (zp,X) the 6th.  A write in the last
# cycle: STA abs the 4th, abs,X/abs,Y always the 5th, (zp),Y and (zp,X) the 6th.  A
# read-modify-write reads in the cycle a store would write (abs the 4th, abs,X the 5th,
# (zp),Y and (zp,X), undocumented, the 6th), writes the old value back in the next and
# the new one in the one after.  The zero page modes never reach the chips.
READ_LATER = {Mode.IZY: 1, Mode.IZX: 2}  # (abs,X, abs,Y and (zp),Y: +1 across a page)
WRITE_LATER = {Mode.ABX: 1, Mode.ABY: 1, Mode.IZY: 2, Mode.IZX: 2}
MODIFY_LATER = {Mode.ABS: 0, **WRITE_LATER}


_ADDRESSING = {Mode.IMM: _imm, Mode.ZP: _zp, Mode.ZPX: _zpx, Mode.ZPY: _zpy, Mode.ABS: _abs,
               Mode.ABX: _abx, Mode.ABY: _aby, Mode.IND: _ind, Mode.IZX: _izx, Mode.IZY: _izy}  # fmt: skip


# -- arithmetic ------------------------------------------------------------------------------

def _nz(cpu: CPU, value: int) -> int:
    cpu.n = value >> 7
    cpu.z = int(value == 0)
    return value


def _signed(value: int) -> int:
    return value - 0x100 if value & 0x80 else value


def decimal_adc(a: int, value: int, carry: int) -> tuple[int, int, int, int, int]:
    """NMOS ADC in decimal mode (Clark, appendix A, sequences 1 and 2).  Returns
    (A, N, V, Z, C); Z comes from the binary sum, as on the NMOS chip."""
    low = (a & 0x0F) + (value & 0x0F) + carry
    if low >= 0x0A:
        low = ((low + 0x06) & 0x0F) + 0x10
    signed_sum = _signed(a & 0xF0) + _signed(value & 0xF0) + low
    result = (a & 0xF0) + (value & 0xF0) + low
    if result >= 0xA0:
        result += 0x60
    return (result & 0xFF, int(bool(signed_sum & 0x80)), int(signed_sum < -128 or signed_sum > 127),
            int((a + value + carry) & 0xFF == 0), int(result >= 0x100))


def decimal_sbc_result(a: int, value: int, carry: int) -> int:
    """The accumulator after NMOS SBC in decimal mode (Clark, sequence 3); the flags
    are those of the binary subtraction."""
    low = (a & 0x0F) - (value & 0x0F) + carry - 1
    if low < 0:
        low = ((low - 0x06) & 0x0F) - 0x10
    result = (a & 0xF0) - (value & 0xF0) + low
    if result < 0:
        result -= 0x60
    return result & 0xFF


def adc(cpu: CPU, value: int) -> None:
    a, carry = cpu.a, cpu.c
    if cpu.d:
        cpu.a, cpu.n, cpu.v, cpu.z, cpu.c = decimal_adc(a, value, carry)
        return
    binary = a + value + carry
    cpu.c = int(binary > 0xFF)
    cpu.v = int(bool(~(a ^ value) & (a ^ binary) & 0x80))
    cpu.a = _nz(cpu, binary & 0xFF)


def sbc(cpu: CPU, value: int) -> None:
    a, carry = cpu.a, cpu.c
    binary = a - value - (1 - carry)
    # N, V, Z and C are those of the binary subtraction, in decimal mode too (NMOS)
    cpu.c = int(binary >= 0)
    cpu.v = int(bool((a ^ value) & (a ^ binary) & 0x80))
    _nz(cpu, binary & 0xFF)
    cpu.a = decimal_sbc_result(a, value, carry) if cpu.d else binary & 0xFF


def _compare(cpu: CPU, register: int, value: int) -> None:
    difference = register - value
    cpu.c = int(difference >= 0)
    _nz(cpu, difference & 0xFF)


# -- the operations, by how they use their operand ----------------------------------------------

def _op_lda(cpu: CPU, v: int) -> None:
    cpu.a = _nz(cpu, v)


def _op_ldx(cpu: CPU, v: int) -> None:
    cpu.x = _nz(cpu, v)


def _op_ldy(cpu: CPU, v: int) -> None:
    cpu.y = _nz(cpu, v)


def _op_lax(cpu: CPU, v: int) -> None:
    cpu.a = cpu.x = _nz(cpu, v)


def _op_and(cpu: CPU, v: int) -> None:
    cpu.a = _nz(cpu, cpu.a & v)


def _op_ora(cpu: CPU, v: int) -> None:
    cpu.a = _nz(cpu, cpu.a | v)


def _op_eor(cpu: CPU, v: int) -> None:
    cpu.a = _nz(cpu, cpu.a ^ v)


def _op_bit(cpu: CPU, v: int) -> None:
    cpu.n = v >> 7
    cpu.v = v >> 6 & 1
    cpu.z = int(cpu.a & v == 0)


def _op_anc(cpu: CPU, v: int) -> None:
    cpu.a = _nz(cpu, cpu.a & v)
    cpu.c = cpu.n


def _op_alr(cpu: CPU, v: int) -> None:
    t = cpu.a & v
    cpu.c = t & 1
    cpu.a = _nz(cpu, t >> 1)


def _op_arr(cpu: CPU, v: int) -> None:
    t = cpu.a & v
    result = t >> 1 | cpu.c << 7
    if not cpu.d:
        _nz(cpu, result)
        cpu.c = result >> 6 & 1
        cpu.v = (result >> 6 ^ result >> 5) & 1
        cpu.a = result
        return
    # decimal mode: the ALU's BCD fix-up applied to the rotated value (groepaz, ARR)
    cpu.n = cpu.c
    cpu.z = int(result == 0)
    cpu.v = int(bool((t ^ result) & 0x40))
    if (t & 0x0F) + (t & 0x01) > 5:
        result = (result & 0xF0) | ((result + 6) & 0x0F)
    if (t & 0xF0) + (t & 0x10) > 0x50:
        result = (result + 0x60) & 0xFF
        cpu.c = 1
    else:
        cpu.c = 0
    cpu.a = result


def _op_las(cpu: CPU, v: int) -> None:
    # LAS ($BB): A, X and SP all take memory AND SP (groepaz: stable on every NMOS chip)
    cpu.a = cpu.x = cpu.sp = _nz(cpu, v & cpu.sp)


def _op_sbx(cpu: CPU, v: int) -> None:
    t = cpu.a & cpu.x
    cpu.c = int(t >= v)
    cpu.x = _nz(cpu, (t - v) & 0xFF)


_READ_OPERATIONS: dict[str, Callable[[CPU, int], None]] = {
    "lda": _op_lda, "ldx": _op_ldx, "ldy": _op_ldy, "lax": _op_lax, "and": _op_and, "ora": _op_ora,
    "eor": _op_eor, "adc": adc, "sbc": sbc, "bit": _op_bit,
    "cmp": lambda cpu, v: _compare(cpu, cpu.a, v), "cpx": lambda cpu, v: _compare(cpu, cpu.x, v),
    "cpy": lambda cpu, v: _compare(cpu, cpu.y, v), "nop": lambda cpu, v: None,
    "anc": _op_anc, "alr": _op_alr, "arr": _op_arr, "sbx": _op_sbx, "las": _op_las,
}  # fmt: skip

_WRITE_OPERATIONS: dict[str, Callable[[CPU], int]] = {
    "sta": lambda cpu: cpu.a, "stx": lambda cpu: cpu.x, "sty": lambda cpu: cpu.y,
    "sax": lambda cpu: cpu.a & cpu.x,
}  # fmt: skip


def _asl(cpu: CPU, v: int) -> int:
    cpu.c = v >> 7
    return _nz(cpu, (v << 1) & 0xFF)


def _lsr(cpu: CPU, v: int) -> int:
    cpu.c = v & 1
    return _nz(cpu, v >> 1)


def _rol(cpu: CPU, v: int) -> int:
    result = (v << 1 | cpu.c) & 0xFF
    cpu.c = v >> 7
    return _nz(cpu, result)


def _ror(cpu: CPU, v: int) -> int:
    result = v >> 1 | cpu.c << 7
    cpu.c = v & 1
    return _nz(cpu, result)


def _inc(cpu: CPU, v: int) -> int:
    return _nz(cpu, (v + 1) & 0xFF)


def _dec(cpu: CPU, v: int) -> int:
    return _nz(cpu, (v - 1) & 0xFF)


def _combined(modify: Callable[[CPU, int], int],
              then: Callable[[CPU, int], None]) -> Callable[[CPU, int], int]:
    """The undocumented read-modify-write opcodes: modify memory, then use the result."""

    def operation(cpu: CPU, v: int) -> int:
        result = modify(cpu, v)
        then(cpu, result)
        return result

    return operation


_MODIFY_OPERATIONS: dict[str, Callable[[CPU, int], int]] = {
    "asl": _asl, "lsr": _lsr, "rol": _rol, "ror": _ror, "inc": _inc, "dec": _dec,
    "slo": _combined(_asl, _op_ora), "rla": _combined(_rol, _op_and), "sre": _combined(_lsr, _op_eor),
    "rra": _combined(_ror, adc), "dcp": _combined(_dec, lambda cpu, v: _compare(cpu, cpu.a, v)),
    "isc": _combined(_inc, sbc),
}  # fmt: skip

_BRANCH_CONDITIONS: dict[str, Callable[[CPU], bool]] = {
    "bpl": lambda cpu: not cpu.n, "bmi": lambda cpu: bool(cpu.n), "bvc": lambda cpu: not cpu.v,
    "bvs": lambda cpu: bool(cpu.v), "bcc": lambda cpu: not cpu.c, "bcs": lambda cpu: bool(cpu.c),
    "bne": lambda cpu: not cpu.z, "beq": lambda cpu: bool(cpu.z),
}  # fmt: skip


def _implied(name: str) -> Callable[[CPU], None]:
    """Implied-mode instructions (the PC is advanced by the caller)."""

    def tax(cpu: CPU) -> None:
        cpu.x = _nz(cpu, cpu.a)

    def tay(cpu: CPU) -> None:
        cpu.y = _nz(cpu, cpu.a)

    def txa(cpu: CPU) -> None:
        cpu.a = _nz(cpu, cpu.x)

    def tya(cpu: CPU) -> None:
        cpu.a = _nz(cpu, cpu.y)

    def tsx(cpu: CPU) -> None:
        cpu.x = _nz(cpu, cpu.sp)

    def txs(cpu: CPU) -> None:
        cpu.sp = cpu.x

    def inx(cpu: CPU) -> None:
        cpu.x = _nz(cpu, (cpu.x + 1) & 0xFF)

    def iny(cpu: CPU) -> None:
        cpu.y = _nz(cpu, (cpu.y + 1) & 0xFF)

    def dex(cpu: CPU) -> None:
        cpu.x = _nz(cpu, (cpu.x - 1) & 0xFF)

    def dey(cpu: CPU) -> None:
        cpu.y = _nz(cpu, (cpu.y - 1) & 0xFF)

    def pha(cpu: CPU) -> None:
        cpu.push(cpu.a)

    def php(cpu: CPU) -> None:
        cpu.push(cpu.p | B_FLAG)  # PHP pushes B set, like BRK

    def pla(cpu: CPU) -> None:
        cpu.a = _nz(cpu, cpu.pull())

    def plp(cpu: CPU) -> None:
        held = cpu.i
        cpu.p = cpu.pull()
        if held and not cpu.i:
            cpu.i_cleared = True

    def cli(cpu: CPU) -> None:
        if cpu.i:
            cpu.i_cleared = True
        cpu.i = 0

    def flag(name: str, value: int) -> Callable[[CPU], None]:
        return lambda cpu: setattr(cpu, name, value)

    table: dict[str, Callable[[CPU], None]] = {
        "tax": tax, "tay": tay, "txa": txa, "tya": tya, "tsx": tsx, "txs": txs, "inx": inx, "iny": iny,
        "dex": dex, "dey": dey, "pha": pha, "php": php, "pla": pla, "plp": plp,
        "clc": flag("c", 0), "sec": flag("c", 1), "cli": cli, "sei": flag("i", 1),
        "cld": flag("d", 0), "sed": flag("d", 1), "clv": flag("v", 0), "nop": lambda cpu: None,
    }  # fmt: skip
    return table[name]


def _make_handler(op: Opcode) -> Callable[[CPU], int]:
    name, mode, base, penalty = op.mnemonic, op.mode, op.cycles, op.page_penalty
    if name in _BRANCH_CONDITIONS:
        taken = _BRANCH_CONDITIONS[name]

        def branch(cpu: CPU) -> int:
            offset = cpu.memory[(cpu.pc + 1) & 0xFFFF]
            following = (cpu.pc + 2) & 0xFFFF
            if not taken(cpu):
                cpu.pc = following
                return base
            target = (following + offset - (0x100 if offset & 0x80 else 0)) & 0xFFFF
            cpu.pc = target
            return base + 1 + ((following ^ target) > 0xFF)

        return branch
    if name == "jmp":
        address_of = _ADDRESSING[mode]

        def jmp(cpu: CPU) -> int:
            cpu.pc = address_of(cpu)[0]
            return base

        return jmp
    if name == "jsr":
        def jsr(cpu: CPU) -> int:
            target = cpu.read_word((cpu.pc + 1) & 0xFFFF)
            return_address = (cpu.pc + 2) & 0xFFFF  # the last byte of the JSR
            cpu.push(return_address >> 8)
            cpu.push(return_address)
            cpu.pc = target
            return base

        return jsr
    if name == "rts":
        def rts(cpu: CPU) -> int:
            low = cpu.pull()
            cpu.pc = ((cpu.pull() << 8 | low) + 1) & 0xFFFF
            return base

        return rts
    if name == "rti":
        def rti(cpu: CPU) -> int:
            cpu.pc = cpu.return_from_interrupt()
            return base

        return rti
    if name == "brk":
        def brk(cpu: CPU) -> int:
            # BRK skips a padding byte: the return address is BRK + 2
            return cpu._interrupt(IRQ_VECTOR, (cpu.pc + 2) & 0xFFFF, brk=True)

        return brk
    if mode is Mode.IMP:
        implied = _implied(name)

        def run_implied(cpu: CPU) -> int:
            implied(cpu)
            cpu.pc = (cpu.pc + 1) & 0xFFFF
            return base

        return run_implied
    if mode is Mode.ACC:
        modify = _MODIFY_OPERATIONS[name]

        def accumulator(cpu: CPU) -> int:
            cpu.a = modify(cpu, cpu.a)
            cpu.pc = (cpu.pc + 1) & 0xFFFF
            return base

        return accumulator
    address_of = _ADDRESSING[mode]
    # (while an instruction reads or writes its operand, ``cpu.cycles`` is its start plus
    # how much later than LDA abs's read the access comes: READ_LATER and the others; the
    # machine times its chips' registers by it)
    if name in _READ_OPERATIONS:
        read = _READ_OPERATIONS[name]
        if mode not in (Mode.ABX, Mode.ABY, Mode.IZY, Mode.IZX):
            def read_operation(cpu: CPU) -> int:
                address, crossed = address_of(cpu)
                read(cpu, cpu.read(address))
                return base + (penalty and crossed)

            return read_operation
        fixed = READ_LATER.get(mode, 0)

        def late_read_operation(cpu: CPU) -> int:
            address, crossed = address_of(cpu)
            later = fixed + crossed
            if not later:
                read(cpu, cpu.read(address))
                return base
            start = cpu.cycles
            cpu.cycles = start + later
            try:
                value = cpu.read(address)
            finally:
                cpu.cycles = start
            read(cpu, value)
            return base + (penalty and crossed)

        return late_read_operation
    if name in _WRITE_OPERATIONS:
        value_of = _WRITE_OPERATIONS[name]
        write_later = WRITE_LATER.get(mode, 0)
        if not write_later:
            def write_operation(cpu: CPU) -> int:
                address = address_of(cpu)[0]
                cpu.write(address, value_of(cpu))
                return base

            return write_operation

        def late_write_operation(cpu: CPU) -> int:
            address = address_of(cpu)[0]
            start = cpu.cycles
            cpu.cycles = start + write_later
            try:
                cpu.write(address, value_of(cpu))
            finally:
                cpu.cycles = start
            return base

        return late_write_operation
    modify = _MODIFY_OPERATIONS[name]
    if mode not in MODIFY_LATER:  # the zero page
        def modify_operation(cpu: CPU) -> int:
            address = address_of(cpu)[0]
            cpu.write(address, modify(cpu, cpu.read(address)))
            return base

        return modify_operation
    modify_later = MODIFY_LATER[mode]

    def modify_twice_operation(cpu: CPU) -> int:
        address = address_of(cpu)[0]
        start = cpu.cycles
        cpu.cycles = start + modify_later
        try:
            old = cpu.read(address)
            cpu.cycles += 1
            cpu.write(address, old)  # the old value written back first (a chip sees both)
            cpu.cycles += 1
            cpu.write(address, modify(cpu, old))
        finally:
            cpu.cycles = start
        return base

    return modify_twice_operation


def _refuse(code: int) -> Callable[[CPU], int]:
    if code in JAM_OPCODES:
        def jam(cpu: CPU) -> int:
            raise CpuHalted(f"JAM: opcode ${code:02X} at ${cpu.pc:04X} locks the CPU", cpu.pc, code)

        return jam

    def unstable(cpu: CPU) -> int:
        raise CpuHalted(f"unsupported unstable opcode ${code:02X} at ${cpu.pc:04X} (its result "
                        "depends on the chip)", cpu.pc, code)

    return unstable


#: One handler per opcode byte: runs the instruction at cpu.pc, returns its cycles.
HANDLERS: tuple[Callable[[CPU], int], ...] = tuple(
    _make_handler(OPCODES[code]) if code in OPCODES else _refuse(code) for code in range(256))
assert all(code in JAM_OPCODES or code in UNSTABLE_OPCODES for code in range(256) if code not in OPCODES)
