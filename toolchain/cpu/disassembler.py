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


# -- whole programs: listing and re-assemblable source -------------------------------------------

#: KERNAL entry points (the jump table at $FF81-$FFF3, Commodore's names in lower case).
KERNAL_NAMES: dict[int, str] = {
    0xFF81: "cint", 0xFF84: "ioinit", 0xFF87: "ramtas", 0xFF8A: "restor", 0xFF8D: "vector",
    0xFF90: "setmsg", 0xFF93: "second", 0xFF96: "tksa", 0xFF99: "memtop", 0xFF9C: "membot",
    0xFF9F: "scnkey", 0xFFA2: "settmo", 0xFFA5: "acptr", 0xFFA8: "ciout", 0xFFAB: "untlk",
    0xFFAE: "unlsn", 0xFFB1: "listen", 0xFFB4: "talk", 0xFFB7: "readst", 0xFFBA: "setlfs",
    0xFFBD: "setnam", 0xFFC0: "open", 0xFFC3: "close", 0xFFC6: "chkin", 0xFFC9: "chkout",
    0xFFCC: "clrchn", 0xFFCF: "chrin", 0xFFD2: "chrout", 0xFFD5: "load", 0xFFD8: "save",
    0xFFDB: "settim", 0xFFDE: "rdtim", 0xFFE1: "stop", 0xFFE4: "getin", 0xFFE7: "clall",
    0xFFEA: "udtim", 0xFFED: "screen", 0xFFF0: "plot", 0xFFF3: "iobase",
}  # fmt: skip

_ENDS_FLOW = frozenset({"rts", "rti", "brk", "jmp"})
_BYTES_PER_DATA_LINE = 8


def listing(image: bytes, start: int, first: int | None = None, last: int | None = None,
            labels: dict[int, str] | None = None) -> str:
    """Address, bytes, mnemonic and operand, one instruction a line, as VICE's monitor
    ``d`` shows it (``.C:3400  A9 93     LDA #$93``), from ``first`` to ``last``
    (inclusive; default the whole image); a label from ``labels`` stands on a line of
    its own before its address."""
    memory = bytearray(0x10000)
    memory[start : start + len(image)] = image
    end = start + len(image) - 1
    address = start if first is None else first
    stop = end if last is None else min(last, end)
    rows = []
    labels = labels or {}
    while address <= stop:
        if address in labels:
            rows.append(f".{labels[address]}:")
        text, length = disassemble(memory, address)
        length = min(length, end - address + 1)
        raw = " ".join(f"{memory[address + i]:02X}" for i in range(length))
        rows.append(f".C:{address:04x}  {raw:<9} {text}".rstrip())
        address += length
    return "\n".join(rows) + ("\n" if rows else "")


def _encodable(opcode: int, undocumented: bool) -> bool:
    """Whether the assembler writes exactly this opcode for its mnemonic and mode."""
    from toolchain.cpu.opcodes import ENCODINGS, UNDOCUMENTED_ENCODINGS

    op = OPCODES.get(opcode)
    if op is None:
        return False
    table = ENCODINGS if op.documented else (UNDOCUMENTED_ENCODINGS if undocumented else {})
    found = table.get((op.mnemonic, op.mode))
    return found is not None and found.code == opcode


def trace_code(image: bytes, start: int, entries: list[int], undocumented: bool = False) -> dict[int, int]:
    """The instructions reached from the entry points (address -> length), following
    branches, jumps and subroutine calls inside the image; everything else is data.
    An instruction that would overlap another one, run past the end, or is not one the
    assembler writes the same way (JAM, unstable, undocumented without ``undocumented``,
    the duplicate NOPs) stops the flow there."""
    end = start + len(image)
    code: dict[int, int] = {}
    covered: set[int] = set()
    work = [entry for entry in entries if start <= entry < end]
    while work:
        address = work.pop()
        while start <= address < end and address not in code:
            opcode = image[address - start]
            op = OPCODES.get(opcode)
            if op is None or not _encodable(opcode, undocumented) or address + op.length > end:
                break
            span = range(address, address + op.length)
            if any(a in covered for a in span):
                break
            code[address] = op.length
            covered.update(span)
            operand = int.from_bytes(image[address + 1 - start : address + op.length - start], "little")
            following = address + op.length
            if op.mode is Mode.REL:
                work.append(following + operand - (0x100 if operand & 0x80 else 0))
            elif op.mnemonic in ("jsr", "jmp") and op.mode is Mode.ABS:
                work.append(operand)
            if op.mnemonic in _ENDS_FLOW:
                break
            address = following
    return code


def _valid_name(name: str, reserved: frozenset[str]) -> bool:
    import re

    return bool(re.fullmatch(r"[a-z_][a-z0-9_]*", name)) and name not in reserved | {"a", "x", "y"}


def source(image: bytes, start: int, entries: list[int] | None = None, names: dict[int, str] | None = None,
           undocumented: bool = False, title: str | None = None) -> str:
    """Re-assemblable source in the Profi-Ass dialect: ``c64tc asm`` turns it back into
    exactly ``image`` at ``start``.

    Code is what the entry points reach (default: the first byte); the rest is ``.byt``
    data.  Every branch, jump and absolute operand that points into the image gets a
    label (``l3436``, or its name from ``names``), KERNAL entry points their names.  The
    assembler's sizing rule is kept: an absolute operand below $100 whose instruction
    also has a zero-page form is written as a symbol defined at the end (a forward
    reference stays absolute), so every instruction keeps its encoding."""
    from toolchain.cpu.opcodes import ALL_MNEMONICS, MNEMONIC_ALIASES, MNEMONICS

    dialect = ALL_MNEMONICS if undocumented else MNEMONICS
    reserved = frozenset(ALL_MNEMONICS) | frozenset(MNEMONIC_ALIASES) | {"rem"}
    end = start + len(image)
    code = trace_code(image, start, entries if entries is not None else [start], undocumented)
    given = {address: name for address, name in (names or {}).items() if _valid_name(name, reserved)}
    used_names: set[str] = set()
    inside: dict[int, str] = {}  # labels placed in the program
    outside: dict[int, str] = {}  # equates above (KERNAL, named addresses)
    forward: dict[int, str] = {}  # equates below (absolute operands in zero page)

    def name_for(address: int, default: str) -> str:
        name = given.get(address, default)
        if name in used_names and given.get(address) == name:
            name = default
        used_names.add(name)
        return name

    instruction_at: dict[int, int] = {}  # every byte of an instruction -> its start
    for address, length in code.items():
        for a in range(address, address + length):
            instruction_at[a] = address
    operand_text: dict[int, str] = {}

    def reference(target: int) -> str:
        """An operand that names an address: a label inside the program."""
        owner = instruction_at.get(target, target)
        if owner not in inside:
            inside[owner] = name_for(owner, f"l{owner:04x}")
        return inside[owner] if owner == target else f"{inside[owner]}+{target - owner}"

    for address, length in sorted(code.items()):
        op = OPCODES[image[address - start]]
        mode = op.mode
        operand = int.from_bytes(image[address + 1 - start : address + length - start], "little")
        if mode is Mode.REL:
            target = address + 2 + operand - (0x100 if operand & 0x80 else 0)
            if start <= target < end:
                text = reference(target)
            elif 0 <= target <= 0xFFFF:
                text = f"${target:04x}"
            else:  # the 6502 wraps around $FFFF: relative to '*' the assembler computes the same offset
                text = f"*{target - address:+d}"
        elif mode.operand_length == 2:
            modes = dialect[op.mnemonic]
            short = {Mode.ABS: Mode.ZP, Mode.ABX: Mode.ZPX, Mode.ABY: Mode.ZPY}.get(mode)
            if start <= operand < end and (operand >= 0x100 or short not in modes):
                text = reference(operand)
            elif operand < 0x100 and short in modes:
                if operand not in forward:
                    forward[operand] = name_for(operand, f"z{operand:04x}")
                text = forward[operand]
            elif operand in KERNAL_NAMES or operand in given:
                if operand not in outside:
                    outside[operand] = name_for(operand, KERNAL_NAMES.get(operand, f"a{operand:04x}"))
                text = outside[operand]
            else:
                text = f"${operand:04x}"
        elif mode.operand_length == 1:
            text = f"${operand:02x}"
        else:
            text = ""
        operand_text[address] = _operand_syntax(mode, text)
    for address in given:  # named addresses inside the program get their labels even if unused
        if start <= address < end and address in instruction_at and instruction_at[address] == address \
                or start <= address < end and address not in instruction_at:
            if address not in inside:
                inside[address] = name_for(address, f"l{address:04x}")

    rows = [f"; {title}" if title else "; disassembled by c64tc", ""]
    rows += [f"{name} = ${address:04x}" for address, name in sorted(outside.items(), key=lambda kv: kv[0])]
    rows += [f"*= ${start:04x}"]
    data: list[int] = []
    data_start = start

    def flush() -> None:
        for offset in range(0, len(data), _BYTES_PER_DATA_LINE):
            chunk = data[offset : offset + _BYTES_PER_DATA_LINE]
            rows.append(" .byt " + ",".join(f"${b:02x}" for b in chunk))
        data.clear()

    address = start
    while address < end:
        label = inside.get(address)
        if address in code:
            flush()
            op = OPCODES[image[address - start]]
            statement = f" {op.mnemonic}{(' ' + operand_text[address]) if operand_text[address] else ''}"
            rows.append(f"{label}{statement}" if label else statement)
            address += code[address]
            continue
        if label is not None:
            flush()
            rows.append(label)
        if not data:
            data_start = address
        data.append(image[address - start])
        if address + 1 - data_start >= _BYTES_PER_DATA_LINE:
            flush()
        address += 1
    flush()
    if forward:
        rows.append("; zero-page addresses the program uses in absolute form (defined last, so they stay")
        rows.append("; absolute, as in the original)")
        rows += [f"{name} = ${address:02x}" for address, name in sorted(forward.items())]
    return "\n".join(rows) + "\n"


def _operand_syntax(mode: Mode, text: str) -> str:
    return {Mode.IMP: "", Mode.ACC: "a", Mode.IMM: f"#{text}", Mode.ZP: text, Mode.ZPX: f"{text},x",
            Mode.ZPY: f"{text},y", Mode.ABS: text, Mode.ABX: f"{text},x", Mode.ABY: f"{text},y",
            Mode.IND: f"({text})", Mode.IZX: f"({text},x)", Mode.IZY: f"({text}),y", Mode.REL: text}[mode]
