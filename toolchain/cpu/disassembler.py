"""6502 disassembly from the shared opcode table (used in traces and messages)."""

from __future__ import annotations

from collections.abc import Sequence

from toolchain.cpu.opcodes import JAM_OPCODES, OPCODES, Mode

_FORMAT = {Mode.IMP: "", Mode.ACC: "A", Mode.IMM: "#${0:02X}", Mode.ZP: "${0:02X}", Mode.ZPX: "${0:02X},X",
           Mode.ZPY: "${0:02X},Y", Mode.ABS: "${0:04X}", Mode.ABX: "${0:04X},X", Mode.ABY: "${0:04X},Y",
           Mode.IND: "(${0:04X})", Mode.IZX: "(${0:02X},X)", Mode.IZY: "(${0:02X}),Y", Mode.REL: "${0:04X}"}


def disassemble(memory: Sequence[int], address: int) -> tuple[str, int]:
    """The instruction at ``address`` as text (``LDA #$93``), and its length."""
    code = memory[address]
    op = OPCODES.get(code)
    if op is None:
        return (f"JAM (${code:02X})" if code in JAM_OPCODES else f"??? (${code:02X})"), 1
    if op.mode.operand_length == 0:
        operand = None
    elif op.mode.operand_length == 1:
        operand = memory[(address + 1) & 0xFFFF]
        if op.mode is Mode.REL:
            operand = (address + 2 + operand - (0x100 if operand & 0x80 else 0)) & 0xFFFF
    else:
        operand = memory[(address + 1) & 0xFFFF] | memory[(address + 2) & 0xFFFF] << 8
    text = op.mnemonic.upper()
    if operand is not None or op.mode is Mode.ACC:
        text += " " + _FORMAT[op.mode].format(operand)
    if not op.documented:
        text += "  ; undocumented"
    return text, op.length


def trace_line(cpu: object) -> str:
    """One line per instruction, as VICE's and py65's traces show it."""
    memory = cpu.memory  # type: ignore[attr-defined]
    pc = cpu.pc  # type: ignore[attr-defined]
    text, length = disassemble(memory, pc)
    raw = " ".join(f"{memory[(pc + i) & 0xFFFF]:02X}" for i in range(length))
    return (f"{pc:04X}  {raw:<8}  {text:<16} A:{cpu.a:02X} X:{cpu.x:02X} Y:{cpu.y:02X} "  # type: ignore[attr-defined]
            f"SP:{cpu.sp:02X} P:{cpu.p:02X} CYC:{cpu.cycles}")  # type: ignore[attr-defined]
