"""MSE V1 hex dumps, as the 64'er magazine printed machine code (1984-1986).

Format: an optional header ``PROGRAMM : NAME START END`` (hex, END exclusive) and
lines ``ADDR : b0 b1 .. b7 CS``.  The per-line checksum of MSE V1 (from the MSE
V1.0 machine code, 64'er 3/85): a 16-bit accumulator starts as the low byte of the
line's address; for each data byte, add the byte, then shift the 16-bit value left
by one; CS = (low byte + high byte + 1) mod 256.  On the last line only the bytes
before END count.  People typed these dumps by hand, so upper- and lower-case hex,
``:`` with or without spaces, blank lines and ``;`` comments are accepted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolchain.diagnostics import Diagnostic, UserError
from toolchain.disk.prg import Prg

BYTES_PER_LINE = 8


def checksum(address: int, data: bytes | bytearray) -> int:
    value = address & 0xFF
    for byte in data:
        value = ((value + byte) << 1) & 0xFFFF
    return ((value & 0xFF) + (value >> 8) + 1) & 0xFF


@dataclass(frozen=True, slots=True)
class DumpLine:
    address: int
    data: bytes  # the bytes that count (after cutting at END)
    printed_checksum: int | None  # None when the checksum itself was unreadable
    line: int  # 1-based line in the file
    text: str
    unreadable: tuple[tuple[int, str], ...] = ()  # (index in data, token) of non-hex bytes


@dataclass
class Dump:
    path: str
    name: str | None
    start: int | None
    end: int | None
    lines: list[DumpLine]
    syntax_errors: list[Diagnostic]


_HEADER = re.compile(r"\s*programm\s*:\s*(?P<name>.*?)\s+(?P<start>[0-9a-f]{4})\s+(?P<end>[0-9a-f]{4})\s*$",
                     re.IGNORECASE)
_DATA_LINE = re.compile(r"\s*(?P<address>[0-9a-zA-Z]{4})\s*:\s*(?P<rest>.*)$")
_HEX_BYTE = re.compile(r"[0-9a-fA-F]{2}\Z")


def parse(text: str, path: str = "<mse>") -> Dump:
    """Read a dump.  Lines that cannot be read are kept as syntax errors (reported by
    :func:`check`), so one typo never hides the rest of the dump."""
    name = start = end = None
    lines: list[DumpLine] = []
    errors: list[Diagnostic] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith(";") or set(stripped) <= {"-", "="}:
            continue
        header = _HEADER.match(raw)
        if header:
            name = header.group("name").strip()
            start, end = int(header.group("start"), 16), int(header.group("end"), 16)
            continue
        match = _DATA_LINE.match(raw)
        if not match or not _HEX_BYTE.match(match.group("address")[:2]) or \
                not _HEX_BYTE.match(match.group("address")[2:]):
            errors.append(Diagnostic(path, number, 1, "not an MSE line: expected 'ADDR : 8 bytes and a "
                                     "checksum' or 'PROGRAMM : NAME START END'", source_line=raw))
            continue
        address = int(match.group("address"), 16)
        tokens = match.group("rest").split()
        if len(tokens) < 2 or len(tokens) > BYTES_PER_LINE + 1:
            errors.append(Diagnostic(path, number, match.start("rest") + 1,
                                     f"expected 1 to {BYTES_PER_LINE} bytes and a checksum, "
                                     f"found {len(tokens)} values", source_line=raw))
            continue
        *byte_tokens, checksum_token = tokens
        data = bytearray()
        unreadable = []
        for index, token in enumerate(byte_tokens):
            if _HEX_BYTE.match(token):
                data.append(int(token, 16))
            else:
                unreadable.append((index, token))
                data.append(0)
        printed = int(checksum_token, 16) if _HEX_BYTE.match(checksum_token) else None
        if printed is None:
            unreadable.append((len(byte_tokens), checksum_token))
        if end is not None and address < end < address + len(data):
            data = data[: end - address]  # on the last line only the bytes before END count
        lines.append(DumpLine(address, bytes(data), printed, number, raw, tuple(unreadable)))
    return Dump(path, name, start, end, lines, errors)


# Letters that readers typed for digits they misread in the printed dump.
_MISREAD = {"l": "1", "i": "1", "o": "0", "s": "5", "g": "6", "z": "2", "q": "0", "t": "7"}


def _misread_fix(token: str) -> str | None:
    fixed = "".join(_MISREAD.get(c.lower(), c) for c in token)
    return fixed.upper() if _HEX_BYTE.match(fixed) else None


_MAX_LISTED_FIXES = 6


def _single_digit_fixes(line: DumpLine) -> list[tuple[int, int]]:
    """(index, value) pairs: changing one hex digit of one byte makes the checksum fit."""
    fixes = []
    data = bytearray(line.data)
    for index, original in enumerate(line.data):
        for shift in (4, 0):
            for digit in range(16):
                value = (original & ~(0xF << shift)) | (digit << shift)
                if value == original:
                    continue
                data[index] = value
                if checksum(line.address, data) == line.printed_checksum:
                    fixes.append((index, value))
        data[index] = original
    return fixes


def _columns(line: DumpLine) -> list[int]:
    """1-based column of each value after the address (bytes, then the checksum)."""
    match = _DATA_LINE.match(line.text)
    assert match is not None
    return [match.start("rest") + m.start() + 1 for m in re.finditer(r"\S+", match.group("rest"))]


def check(dump: Dump) -> list[Diagnostic]:
    """Every line whose checksum does not fit, or that cannot be read, with a hint at
    the likely typo where a single change explains it."""
    diagnostics = list(dump.syntax_errors)
    for line in dump.lines:
        columns = _columns(line)
        if line.unreadable:
            index, token = line.unreadable[0]
            message = f"'{token}' is not a hex byte"
            if line.printed_checksum is not None and len(line.unreadable) == 1:
                fixed = _misread_fix(token)
                if fixed is not None:
                    data = bytearray(line.data)
                    data[index] = int(fixed, 16)
                    if checksum(line.address, data) == line.printed_checksum:
                        message += f" (did you mean {fixed}? the checksum fits then)"
            diagnostics.append(Diagnostic(dump.path, line.line, columns[index], message,
                                          source_line=line.text))
            continue
        computed = checksum(line.address, line.data)
        if computed == line.printed_checksum:
            continue
        message = f"checksum {computed:02X}, expected {line.printed_checksum:02X}"
        fixes = _single_digit_fixes(line)
        if len(fixes) == 1:
            index, value = fixes[0]
            message += (f" (likely typo: byte {index + 1}, {line.data[index]:02X} should probably "
                        f"be {value:02X})")
        elif 1 < len(fixes) <= _MAX_LISTED_FIXES:
            # the V1 checksum is weak: several one-digit typos often fit; list them all
            message += " (one changed digit would fit: " + ", ".join(
                f"byte {i + 1} {line.data[i]:02X}->{v:02X}" for i, v in fixes) + ")"
        # the checksum covers the whole line, so no byte is to blame: the caret is under
        # the printed checksum, the value that disagrees (and FILE:LINE:COL keeps the form
        # of every other message, for editors and scripts)
        diagnostics.append(Diagnostic(dump.path, line.line, columns[-1], message, source_line=line.text))
    return diagnostics


def to_prg(dump: Dump) -> Prg:
    """The program the dump describes.  It must verify and be contiguous."""
    problems = check(dump)
    if problems:
        raise UserError(problems)
    if not dump.lines:
        raise UserError.single(dump.path, "the dump has no data lines")
    start = dump.start if dump.start is not None else dump.lines[0].address
    expected = start
    data = bytearray()
    for line in dump.lines:
        if line.address != expected:
            raise UserError.single(dump.path, f"line starts at ${line.address:04X}, but ${expected:04X} "
                                   "was expected (a line is missing or out of order)", line.line,
                                   1, source_line=line.text)
        if line.address + len(line.data) > 0x10000:
            # the C64's memory (and a PRG: Prg.from_bytes refuses one) ends at $FFFF
            raise UserError.single(dump.path, f"the line's bytes ${line.address:04X}-"
                                   f"${line.address + len(line.data) - 1:04X} run past $FFFF, the end of "
                                   "memory", line.line, 1, source_line=line.text)
        data += line.data
        expected += len(line.data)
    if dump.end is not None and expected != dump.end:
        raise UserError.single(dump.path, f"the dump ends at ${expected:04X}, but its header says "
                               f"${dump.end:04X}")
    return Prg(start, bytes(data))


def from_prg(prg: Prg, name: str, path: str = "<prg>") -> str:
    """A dump in the magazine's format, for publishing or comparing.  The header's END
    is exclusive, four hex digits (as SAVE's end address): a program that reaches $FFFF
    has none, and is refused (its dump would be one that parse cannot read), as is one
    of no bytes (a dump without lines)."""
    end = prg.end_address
    if not prg.data:
        # a dump of it would be the header alone, which check and toprg refuse ("no
        # data lines"): said here rather than written
        raise UserError.single(path, f"the program is its load address (${prg.load_address:04X}) alone: "
                               "no bytes to dump (an MSE dump has one data line at least)")
    if end > 0xFFFF:
        raise UserError.single(path, f"the program (${prg.load_address:04X}-${end - 1:04X}) reaches $FFFF: "
                               "an MSE dump's header ends with the address after the last byte, in four "
                               "hex digits, which has no room for $10000")
    rows = [f"PROGRAMM : {name.upper():<16} {prg.load_address:04X} {end:04X}", "-" * 35]
    for offset in range(0, len(prg.data), BYTES_PER_LINE):
        chunk = prg.data[offset : offset + BYTES_PER_LINE]
        address = prg.load_address + offset
        values = " ".join(f"{b:02X}" for b in chunk)
        rows.append(f"{address:04X} : {values:<{3 * BYTES_PER_LINE - 1}}   {checksum(address, chunk):02X}")
    return "\n".join(rows) + "\n"
