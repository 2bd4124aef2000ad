"""The monitor's output, in the formats of VICE 3.10's monitor (vice/src/monitor:
mon_disassemble.c, mon_register6502.c, mon_memory.c, mon_breakpoint.c), so that a
transcript reads as VICE's does.  The layout is VICE's for an 80-column console: 16
bytes a line and 9 lines for ``m``, 24 lines for ``d``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from toolchain.cpu.opcodes import Mode
from toolchain.monitor.instructions import decode

__all__ = ["DISASSEMBLY_LINES", "MEMORY_BYTES", "Registers", "disassembly", "flags_text", "memory_rows",
           "register_dump", "registers_of", "registers_table", "trace_line", "vice_ascii"]

MEMORY_BYTES = 16 * 9  # 'm ADDRESS': VICE's default on an 80x25 console (mon_memory_display)
BYTES_PER_ROW = 16
DISASSEMBLY_LINES = 24  # 'd ADDRESS': the console's height less one (mon_disassemble_lines)

Read = Callable[[int], int]
Names = Callable[[int], "str | None"]


@dataclass(frozen=True)
class Registers:
    """The CPU's registers as the monitor shows them."""

    pc: int
    a: int
    x: int
    y: int
    sp: int
    n: int
    v: int
    d: int
    i: int
    z: int
    c: int

    @property
    def p(self) -> int:
        """The status register as PHP pushes it (bits 4 and 5 set)."""
        return self.n << 7 | self.v << 6 | 0x30 | self.d << 3 | self.i << 2 | self.z << 1 | self.c


def registers_of(cpu: object) -> Registers:
    """The registers of a CPU (:class:`toolchain.cpu.core.CPU`) now."""
    c = cpu
    return Registers(c.pc, c.a, c.x, c.y, c.sp, c.n, c.v, c.d, c.i, c.z, c.c)  # type: ignore[attr-defined]


def trace_line(cpu: object, read: Read, cycles: int) -> str:
    """One instruction of ``c64tc run --trace``: the line the monitor shows for a step
    (VICE's register dump), before the instruction runs; ``cycles`` since the run began."""
    return register_dump(read, registers_of(cpu), cycles, lambda _address: None)


def flags_text(registers: Registers) -> str:
    """``N.-..IZ.``: the flags set, dots for those clear.  The B flag is not a register
    bit on the 6502 (it exists only on the stack); c64tc shows it clear, as VICE does
    after a SYS."""
    r = registers
    return "".join((("N" if r.n else "."), ("V" if r.v else "."), "-", ".", ("D" if r.d else "."),
                    ("I" if r.i else "."), ("Z" if r.z else "."), ("C" if r.c else ".")))


def _operand(read: Read, address: int, mode: Mode, names: Names) -> str:
    if mode is Mode.IMP:
        return ""
    if mode is Mode.ACC:
        return " A"
    low = read((address + 1) & 0xFFFF)
    if mode is Mode.IMM:
        return f" #${low:02X}"
    if mode is Mode.REL:
        target = (address + 2 + low - (0x100 if low & 0x80 else 0)) & 0xFFFF
        return f" {names(target) or f'${target:04X}'}"
    if mode in (Mode.ABS, Mode.ABX, Mode.ABY, Mode.IND):
        value = low | read((address + 2) & 0xFFFF) << 8
        shown = names(value) or f"${value:04X}"
    else:
        value = low
        shown = names(value) or f"${value:02X}"
    return {Mode.ABX: f" {shown},X", Mode.ABY: f" {shown},Y", Mode.ZPX: f" {shown},X",
            Mode.ZPY: f" {shown},Y", Mode.IND: f" ({shown})", Mode.IZX: f" ({shown},X)",
            Mode.IZY: f" ({shown}),Y"}.get(mode, f" {shown}")


def instruction_text(read: Read, address: int, names: Names) -> tuple[str, int]:
    """``.C:3400  A9 93       LDA #$93`` and the instruction's length."""
    decoded = decode(read, address)
    raw = [read((address + offset) & 0xFFFF) for offset in range(decoded.length)]
    columns = " ".join(f"{byte:02X}" for byte in raw)
    text = f".C:{address:04x}  {columns:<12}{decoded.mnemonic}{_operand(read, address, decoded.mode, names)}"
    return text, decoded.length


def disassembly(read: Read, start: int, end: int | None, names: Names,
                label_of: Names) -> tuple[list[str], int]:
    """The ``d`` command's lines from ``start`` to ``end`` (an instruction starting at or
    before ``end`` is shown whole), or a screenful without ``end``; and the address
    after the last instruction.  A label stands on a line of its own before its address
    (``.C:3434   .l0:``) and counts as a line."""
    lines: list[str] = []
    address = start
    left = DISASSEMBLY_LINES
    length = 0 if end is None else (end - start) % 0x10000 + 1
    done = 0
    while True:
        label = label_of(address)
        if label is not None:
            lines.append(f".C:{address:04x}   {label}:")
        text, size = instruction_text(read, address, names)
        lines.append(text)
        done += size
        address = (address + size) & 0xFFFF
        if end is not None:
            if done >= length:
                break
            continue
        # VICE stops a screenful early when the next line would start with a label
        left -= (2 if label is not None else 1) + (1 if label_of(address) is not None else 0)
        if left <= 0:
            break
    return lines, address


def register_dump(read: Read, registers: Registers, cycles: int, names: Names) -> str:
    """The line a breakpoint or a step shows: the instruction at the PC, the registers,
    the cycle count (mon_disassemble_with_regdump)."""
    return register_dump_at(read, registers.pc, registers, cycles, names)


def register_dump_at(read: Read, address: int, registers: Registers, cycles: int, names: Names) -> str:
    """:func:`register_dump` for the instruction at ``address`` (a watchpoint shows the
    one that made the access)."""
    return register_dump_text(instruction_text(read, address, names)[0], registers, cycles)


def register_dump_text(text: str, registers: Registers, cycles: int) -> str:
    r = registers
    state = f"A:{r.a:02X} X:{r.x:02X} Y:{r.y:02X} SP:{r.sp:02x} {flags_text(r)}"
    return f"{text:<35} - {state} {cycles:>10}"


def registers_table(registers: Registers, zero: int, one: int, line: int, cycle: int, cycles: int) -> str:
    """The ``r`` command's two lines (mon_register6502.c)."""
    r = registers
    bits = f"{r.n}{r.v}1{0}{r.d}{r.i}{r.z}{r.c}"
    return ("  ADDR A  X  Y  SP 00 01 NV-BDIZC LIN CYC  STOPWATCH\n"
            f".;{r.pc:04x} {r.a:02x} {r.x:02x} {r.y:02x} {r.sp:02x} {zero:02x} {one:02x} {bits} "
            f"{line:03d} {cycle:03d} {cycles:>10}\n")


def vice_ascii(byte: int) -> str:
    """A byte as VICE's monitor prints memory as text (charset_p_toascii with control
    codes shown as letters): $01 is 'a', $41 'a', $C1 'A', unprintable bytes '.'."""
    if byte <= 0x1F:
        byte += 0x40
    if 0x60 <= byte <= 0x7F:
        byte += 0x60
    elif byte >= 0xE0:
        byte -= 0x40
    if byte == 0xA0:
        return " "
    if 0xC1 <= byte <= 0xDA:
        return chr(byte - 0xC1 + ord("A"))
    if 0x41 <= byte <= 0x5A:
        return chr(byte - 0x41 + ord("a"))
    return chr(byte) if 0x20 <= byte <= 0x7E else "."


def memory_rows(read: Read, start: int, count: int) -> tuple[list[str], int]:
    """The ``m`` command's lines for ``count`` bytes from ``start`` (mon_memory_display:
    blocks of four, the bytes as text at the end), and the address after them."""
    rows = []
    address = start
    left = count
    while left > 0:
        width = min(BYTES_PER_ROW, left)
        values = [read((address + offset) & 0xFFFF) for offset in range(width)]
        cells = []
        for index in range(BYTES_PER_ROW):
            gap = " " if index % 4 == 0 else ""
            cells.append(gap + (f"{values[index]:02x} " if index < width else "   "))
        rows.append(f">C:{address:04x} {''.join(cells)}  {''.join(vice_ascii(v) for v in values)}")
        address = (address + width) & 0xFFFF
        left -= width
    return rows, address
