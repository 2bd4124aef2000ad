"""What the monitor needs to know about one instruction: its name as VICE's monitor
writes it, where it goes next, which bytes it reads and writes.

The names come from the opcode table (:mod:`toolchain.cpu.opcodes`) with VICE's
spelling of the undocumented ones (vice/src/monitor/asm6502.c: NOOP, ASR, ISB, USBC,
JAM, and the unstable opcodes the CPU core refuses to run).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from toolchain.cpu.opcodes import OPCODES, Mode

__all__ = ["READS_DATA", "Decoded", "data_reads", "data_writes", "decode", "next_address"]

# VICE's names where the opcode table says otherwise (asm6502.c)
_VICE_NAMES = {"alr": "ASR", "isc": "ISB"}
# opcodes the CPU core does not run (JAM, unstable): VICE's names and modes
_NOT_RUN = {0x8B: ("ANE", Mode.IMM), 0x93: ("SHA", Mode.IZY), 0x9B: ("SHS", Mode.ABY),
            0x9C: ("SHY", Mode.ABX), 0x9E: ("SHX", Mode.ABY), 0x9F: ("SHA", Mode.ABY),
            0xAB: ("LXA", Mode.IMM)}

_READ_OPERATIONS = frozenset("lda ldx ldy lax and ora eor adc sbc cmp cpx cpy bit nop las".split())
_MODIFY_OPERATIONS = frozenset("asl lsr rol ror inc dec slo rla sre rra dcp isc".split())
_STORE_OPERATIONS = frozenset("sta stx sty sax".split())
_MEMORY_MODES = frozenset({Mode.ZP, Mode.ZPX, Mode.ZPY, Mode.ABS, Mode.ABX, Mode.ABY, Mode.IZX, Mode.IZY})
RTS, RTI, JSR, BRK = 0x60, 0x40, 0x20, 0x00


@dataclass(frozen=True)
class Decoded:
    """An instruction at an address: VICE's mnemonic, the addressing mode, the length."""

    mnemonic: str
    mode: Mode
    length: int
    operation: str  # the opcode table's lower-case name ("" for an opcode it lacks)


def decode(read: Callable[[int], int], address: int) -> Decoded:
    code = read(address)
    op = OPCODES.get(code)
    if op is None:
        name, mode = _NOT_RUN.get(code, ("JAM", Mode.IMP))
        return Decoded(name, mode, 1 + mode.operand_length, "")
    if op.mnemonic == "nop" and not op.documented:
        name = "NOOP"
    elif code == 0xEB:
        name = "USBC"  # the undocumented twin of SBC #
    else:
        name = _VICE_NAMES.get(op.mnemonic, op.mnemonic.upper())
    return Decoded(name, op.mode, op.length, op.mnemonic)


def _word(read: Callable[[int], int], address: int) -> int:
    return read(address & 0xFFFF) | read((address + 1) & 0xFFFF) << 8


def _effective(read: Callable[[int], int], pc: int, mode: Mode, x: int, y: int) -> tuple[int, list[int]]:
    """The data address of a memory mode and the pointer bytes read on the way."""
    operand = read((pc + 1) & 0xFFFF)
    if mode is Mode.ZP:
        return operand, []
    if mode is Mode.ZPX:
        return (operand + x) & 0xFF, []
    if mode is Mode.ZPY:
        return (operand + y) & 0xFF, []
    if mode is Mode.IZX:
        pointer = (operand + x) & 0xFF
        return read(pointer) | read((pointer + 1) & 0xFF) << 8, [pointer, (pointer + 1) & 0xFF]
    if mode is Mode.IZY:
        pointer = read(operand) | read((operand + 1) & 0xFF) << 8
        return (pointer + y) & 0xFFFF, [operand, (operand + 1) & 0xFF]
    base = _word(read, pc + 1)
    if mode is Mode.ABX:
        return (base + x) & 0xFFFF, []
    if mode is Mode.ABY:
        return (base + y) & 0xFFFF, []
    return base, []


def data_reads(read: Callable[[int], int], pc: int, x: int, y: int) -> list[int]:
    """The bytes the instruction at ``pc`` reads as data (with X and Y before it runs):
    its operand's address for the instructions that read or modify memory, the pointer
    bytes of an indirect mode, the pointer of JMP ($1234).  Not the opcode and operand
    fetches, not the stack."""
    decoded = decode(read, pc)
    if decoded.operation == "jmp" and decoded.mode is Mode.IND:
        pointer = _word(read, pc + 1)
        return [pointer, (pointer & 0xFF00) | ((pointer + 1) & 0xFF)]  # the NMOS page wrap
    if decoded.mode not in _MEMORY_MODES:
        return []
    address, pointers = _effective(read, pc, decoded.mode, x, y)
    if decoded.operation in _READ_OPERATIONS or decoded.operation in _MODIFY_OPERATIONS:
        return [*pointers, address]
    return pointers


def _reads_data(code: int) -> bool:
    op = OPCODES.get(code)
    if op is None:
        mode, operation = _NOT_RUN.get(code, ("JAM", Mode.IMP))[1], ""
    else:
        mode, operation = op.mode, op.mnemonic
    if operation == "jmp":
        return mode is Mode.IND
    return mode in (Mode.IZX, Mode.IZY) or (mode in _MEMORY_MODES and (
        operation in _READ_OPERATIONS or operation in _MODIFY_OPERATIONS))


#: per opcode, whether ``data_reads`` can find a byte (a quick test before decoding it)
READS_DATA = bytes(_reads_data(code) for code in range(256))


def data_writes(read: Callable[[int], int], pc: int, x: int, y: int, sp: int) -> list[int]:
    """The bytes the instruction at ``pc`` wrote, stack pushes included, from the
    registers after it ran (a store leaves X and Y as they were; ``sp`` is the stack
    pointer after the push)."""
    decoded = decode(read, pc)
    if decoded.operation in ("pha", "php"):
        return [0x100 + ((sp + 1) & 0xFF)]
    if decoded.operation == "jsr":
        return [0x100 + ((sp + 1) & 0xFF), 0x100 + ((sp + 2) & 0xFF)]
    if decoded.mode in _MEMORY_MODES and (decoded.operation in _STORE_OPERATIONS
                                          or decoded.operation in _MODIFY_OPERATIONS):
        return [_effective(read, pc, decoded.mode, x, y)[0]]
    return []


def next_address(read: Callable[[int], int], pc: int, flags: dict[str, int], sp: int) -> int:
    """Where the instruction at ``pc`` leaves the PC (the registers before it runs; no
    interrupt in between): a branch as its flag says, jumps, returns, BRK's vector."""
    decoded = decode(read, pc)
    operation, following = decoded.operation, (pc + decoded.length) & 0xFFFF
    if decoded.mode is Mode.REL:
        taken = {"bpl": not flags["n"], "bmi": flags["n"], "bvc": not flags["v"], "bvs": flags["v"],
                 "bcc": not flags["c"], "bcs": flags["c"], "bne": not flags["z"],
                 "beq": flags["z"]}[operation]
        offset = read((pc + 1) & 0xFFFF)
        return (following + offset - (0x100 if offset & 0x80 else 0)) & 0xFFFF if taken else following
    if operation in ("jmp", "jsr"):
        if decoded.mode is Mode.IND:
            pointer = _word(read, pc + 1)
            return read(pointer) | read((pointer & 0xFF00) | ((pointer + 1) & 0xFF)) << 8
        return _word(read, pc + 1)
    if operation == "rts":
        return ((read(0x100 + ((sp + 1) & 0xFF)) | read(0x100 + ((sp + 2) & 0xFF)) << 8) + 1) & 0xFFFF
    if operation == "rti":
        return read(0x100 + ((sp + 2) & 0xFF)) | read(0x100 + ((sp + 3) & 0xFF)) << 8
    if operation == "brk":
        return _word(read, 0xFFFE)
    return following
