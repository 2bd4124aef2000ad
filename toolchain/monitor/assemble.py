"""The monitor's ``a`` command: one instruction at a time into memory, as VICE's
monitor assembles it (vice/src/monitor/mon_assemble6502.c), with the names and modes
of c64tc's opcode table (:mod:`toolchain.cpu.opcodes`, VICE's spelling of the
undocumented ones from :mod:`toolchain.monitor.instructions`).

How VICE picks the opcode: the operand's value decides zero page (below $100) or
absolute; the first opcode (in byte order) with the mnemonic and that mode wins;
failing that, a zero-page operand takes the absolute mode, a number is a branch's
target, no operand is the accumulator, ``(n)`` below $100 is JMP's indirect mode.
There is no fallback from ``n,X`` or ``n,Y`` in zero page to absolute (``sta 10,y``
is "Instruction not valid." as in VICE), and an immediate value above $FF is not
valid either.  The mnemonics are VICE's (``ISB``, ``ASR``, ``NOOP``, ``USBC``,
``JAM``); c64tc's assembler's names for the undocumented opcodes (``isc``, ``alr``)
and their usual other names (``dcm``, ``axs``) are taken as well.
"""

from __future__ import annotations

from collections.abc import Callable

from toolchain.cpu.opcodes import MNEMONIC_ALIASES, OPCODES, Mode
from toolchain.monitor.instructions import decode
from toolchain.monitor.syntax import Instruction

__all__ = ["AssemblyError", "encode", "known_mnemonic"]


class AssemblyError(Exception):
    """VICE's message for an instruction it cannot assemble."""


def _decoded(code: int) -> tuple[str, Mode]:
    """VICE's mnemonic and the mode of the opcode ``code``."""
    decoded = decode(bytes([code] * 3).__getitem__, 0)
    return decoded.mnemonic, decoded.mode


def _table() -> list[tuple[str, Mode, int]]:
    """(VICE's mnemonic, mode, opcode) for every byte, in byte order (VICE's search order)."""
    return [(*_decoded(code), code) for code in range(256)]


_OPCODES = _table()
# c64tc's (64tass's) names and the other usual ones, where VICE spells them otherwise
_OTHER_NAMES = {**{alias.upper(): target for alias, target in MNEMONIC_ALIASES.items()},
                **{op.mnemonic.upper(): op.mnemonic for op in OPCODES.values()}}
_VICE_NAME_OF = {op.mnemonic: _decoded(code)[0] for code, op in OPCODES.items()
                 if op.documented or op.mnemonic != "nop"}


def _vice_name(mnemonic: str) -> str:
    known = {name for name, _, _ in _OPCODES}
    if mnemonic in known:
        return mnemonic
    other = _OTHER_NAMES.get(mnemonic)
    if other is not None and other in _VICE_NAME_OF:
        return _VICE_NAME_OF[other]
    return mnemonic


def known_mnemonic(mnemonic: str) -> bool:
    """Whether ``mnemonic`` names an opcode (VICE's names, c64tc's, the usual others)."""
    name = _vice_name(mnemonic.upper())
    return any(name == known for known, _, _ in _OPCODES)


def encode(instruction: Instruction, address: int, value: Callable[[object], int]) -> bytes:
    """The bytes of ``instruction`` at ``address``; ``value`` evaluates its operand.
    AssemblyError with VICE's message when it cannot be assembled."""
    name = _vice_name(instruction.mnemonic)
    form = instruction.form
    operand = value(instruction.operand) if instruction.operand is not None else 0
    if operand > 0xFFFF or operand < 0:
        raise AssemblyError("Instruction not valid.")
    small = operand < 0x100
    wanted: Mode | None
    if form == "":
        wanted = Mode.IMP
    elif form == "A":
        wanted = Mode.ACC
    elif form == "#":
        if not small:
            raise AssemblyError("Instruction not valid.")  # VICE: IMMEDIATE_16, no 6502 opcode has it
        wanted = Mode.IMM
    elif form == "n":
        wanted = Mode.ZP if small else Mode.ABS
    elif form == "n,X":
        wanted = Mode.ZPX if small else Mode.ABX
    elif form == "n,Y":
        wanted = Mode.ZPY if small else Mode.ABY
    elif form == "(n)":
        wanted = None if small else Mode.IND  # VICE's INDIRECT (zero page): no 6502 opcode
    elif form == "(n,X)":
        wanted = Mode.IZX if small else None
    else:  # (n),Y
        wanted = Mode.IZY
    candidates = [(mode, code) for mnemonic, mode, code in _OPCODES if mnemonic == name]
    if wanted is Mode.ACC:
        # VICE's search meets LSR's zero-page opcode ($46) before its accumulator one ($4A)
        # and so assembles 'lsr a' as LSR $0A; c64tc takes the accumulator where there is
        # one, as the text says (and as 'lsr' alone gives in VICE)
        for mode, code in candidates:
            if mode is Mode.ACC:
                return bytes([code])
    for mode, code in candidates:
        if mode is wanted:
            return _bytes(code, mode, operand)
        if wanted is Mode.IMP and mode is Mode.ACC:
            return bytes([code])
        if wanted in (Mode.ZP, Mode.ABS) and mode is Mode.REL:
            offset = (operand - address - 2) & 0xFFFF
            if 0x7F < offset < 0xFF80:
                raise AssemblyError("Branch offset too large.")
            return bytes([code, offset & 0xFF])
        if wanted is Mode.ACC and mode in (Mode.ZP, Mode.ABS):
            return _bytes(code, mode, 0x0A)  # 'lda a': A is the number $0A
        if wanted is Mode.ZP and mode is Mode.ABS:
            return _bytes(code, mode, operand)
        if wanted is None and form == "(n)" and mode is Mode.IND:
            return _bytes(code, mode, operand)
    raise AssemblyError("Instruction not valid.")


def _bytes(code: int, mode: Mode, operand: int) -> bytes:
    return bytes([code, operand & 0xFF, operand >> 8][: mode.length])
