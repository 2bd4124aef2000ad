"""COMPUTE!'s MLX listings: machine code typed as rows of numbers, each with a checksum.

Two formats, both printed in COMPUTE! and COMPUTE!'s Gazette:

* **MLX (1984)**: ``49152 :169,000,141,032,208,141,158``: a decimal address, six decimal
  bytes and the checksum, the low byte of the address plus the six bytes, modulo 256
  (MLX's line ``CKSUM = AD - INT(AD/256)*256 : FOR I=1 TO 6 : CKSUM = (CKSUM+A(I)) AND
  255``, as J. Nebus read the listing: its listing could not be had here, so this
  format is checked against that description only).
* **The new MLX (12/1985 on, "MLX II")**: ``C000: A9 37 85 FC A9 D7 85 FE 5B``: a hex
  address, eight hex bytes and the checksum.  MLX's lines 370-390: CK starts as the
  address's low byte plus its high byte rotated left; for each byte, CK is rotated
  left and the byte added; whenever CK passes 255, 255 is taken off (an end-around
  carry).  Measured on VICE by running those lines of the real MLX
  (tests/data/checksums/mlx2.json) and checked against rows the magazine printed.

MLX asks for the starting and the ending address (inclusive) and saves exactly that
range: the last row's bytes past the end are not saved.  A listing may say them the
way the magazine's article did, on lines of their own: ``Starting address: C000``,
``Ending address: CE7F`` (decimal for the 1984 format); else the rows' range is taken.
People typed these listings by hand, so upper or lower case, spaces around the colon,
blank lines and ``;`` comments are accepted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from toolchain.diagnostics import Diagnostic, UserError
from toolchain.disk.prg import Prg


class Format(Enum):
    """The two MLX formats, by the year they appeared."""

    MLX_1984 = "1984"  # decimal, 6 bytes a row
    MLX_1985 = "1985"  # hex, 8 bytes a row (the new MLX, "MLX II")

    @property
    def row_bytes(self) -> int:
        return 6 if self is Format.MLX_1984 else 8

    @property
    def title(self) -> str:
        return "MLX (1984)" if self is Format.MLX_1984 else "the new MLX (1985)"


def checksum(address: int, data: bytes | bytearray | list[int], format: Format = Format.MLX_1985) -> int:
    """The checksum MLX computes for a row of ``data`` starting at ``address``."""
    if format is Format.MLX_1984:
        return ((address & 0xFF) + sum(data)) & 0xFF
    high = address >> 8
    value = (address & 0xFF) + (((high << 1) & 0xFF) | (high >> 7))  # the high byte rotated left
    if value > 255:
        value -= 255
    for byte in data:
        value = (((value << 1) & 0xFF) | (value >> 7)) + byte  # CK*2 + 255*(CK>127): rotate left
        if value > 255:
            value -= 255
    return value


@dataclass(frozen=True, slots=True)
class Row:
    address: int
    data: bytes
    printed_checksum: int | None  # None when it could not be read
    line: int  # 1-based line in the file
    text: str
    columns: tuple[int, ...]  # 1-based column of each value after the address (bytes, then checksum)
    unreadable: tuple[tuple[int, str], ...] = ()  # (index, token) of values that are no number


@dataclass
class Listing:
    path: str
    format: Format
    start: int | None  # from a "Starting address" line
    end: int | None  # inclusive, from an "Ending address" line
    rows: list[Row]
    syntax_errors: list[Diagnostic]


_HEX_ROW = re.compile(r"\s*(?P<address>[0-9a-zA-Z]{4})\s*:(?P<rest>.*)$")
_DECIMAL_ROW = re.compile(r"\s*(?P<address>\d{1,5})\s*:(?P<rest>.*)$")
_BOUND = re.compile(r"\s*(?P<which>start(?:ing)?|end(?:ing)?)\s+address\s*[:=]?\s*"
                    r"(?P<value>\$?[0-9a-z]+)\s*$", re.IGNORECASE)
_HEX = re.compile(r"[0-9a-fA-F]{1,2}\Z")
_DECIMAL = re.compile(r"\d{1,3}\Z")


def detect_format(text: str) -> Format:
    """The 1984 format when the rows' values are separated by commas, else the new one."""
    for line in text.splitlines():
        match = _HEX_ROW.match(line) or _DECIMAL_ROW.match(line)
        if match is not None and not _BOUND.match(line):
            return Format.MLX_1984 if "," in match.group("rest") else Format.MLX_1985
    return Format.MLX_1985


def _values(rest: str, offset: int, format: Format) -> list[tuple[int, str]]:
    """(1-based column, token) of each value after the colon."""
    separator = r"[^,\s]+" if format is Format.MLX_1984 else r"\S+"
    return [(offset + m.start() + 1, m.group()) for m in re.finditer(separator, rest)]


def parse(text: str, path: str = "<mlx>", format: Format | None = None) -> Listing:
    """Read a listing.  Lines that cannot be read are kept as syntax errors (reported by
    :func:`check`), so one typo never hides the rest."""
    format = format or detect_format(text)
    row_pattern = _DECIMAL_ROW if format is Format.MLX_1984 else _HEX_ROW
    number_pattern = _DECIMAL if format is Format.MLX_1984 else _HEX
    base = 10 if format is Format.MLX_1984 else 16
    listing = Listing(path, format, None, None, [], [])
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith(";") or set(stripped) <= {"-", "="}:
            continue
        bound = _BOUND.match(raw)
        if bound is not None:
            value = bound.group("value").removeprefix("$")
            try:
                address = int(value, base)
            except ValueError:
                address = -1
            if not 0 <= address <= 0xFFFF:
                listing.syntax_errors.append(Diagnostic(path, number, bound.start("value") + 1,
                                                        f"'{value}' is no address", source_line=raw))
            elif bound.group("which").lower().startswith("start"):
                listing.start = address
            else:
                listing.end = address
            continue
        match = row_pattern.match(raw)
        address_text = match.group("address") if match else ""
        if match is None or not (address_text.isdigit() if base == 10 else
                                 all(c in "0123456789abcdefABCDEF" for c in address_text)):
            shape = ("'ADDRESS :6 bytes and a checksum' (decimal, commas)" if format is Format.MLX_1984
                     else "'ADDR: 8 hex bytes and a checksum'")
            listing.syntax_errors.append(Diagnostic(path, number, 1, f"not an MLX row: expected {shape}",
                                                    source_line=raw))
            continue
        address = int(address_text, base)
        if address > 0xFFFF:
            listing.syntax_errors.append(Diagnostic(path, number, match.start("address") + 1,
                                                    f"address {address} is past 65535", source_line=raw))
            continue
        values = _values(match.group("rest"), match.start("rest"), format)
        if len(values) != format.row_bytes + 1:
            listing.syntax_errors.append(Diagnostic(
                path, number, match.start("rest") + 1, f"expected {format.row_bytes} bytes and a checksum, "
                f"found {len(values)} values", source_line=raw))
            continue
        data = bytearray()
        unreadable = []
        for index, (_, token) in enumerate(values):
            value = int(token, base) if number_pattern.match(token) else -1
            if not 0 <= value <= 255:
                unreadable.append((index, token))
                value = 0
            data.append(value)
        *row, printed = data
        if unreadable and unreadable[-1][0] == format.row_bytes:
            printed_checksum = None
        else:
            printed_checksum = printed
        listing.rows.append(Row(address, bytes(row), printed_checksum, number, raw,
                                tuple(column for column, _ in values), tuple(unreadable)))
    return listing


# Letters readers typed for digits they misread in the printed listing.
_MISREAD = {"l": "1", "i": "1", "o": "0", "s": "5", "g": "6", "z": "2", "q": "0", "t": "7", "b": "8"}
_MAX_LISTED_FIXES = 6
# Rows whose typos are looked for: a few hundred computations each; the commands show the
# first twenty problems anyway, so a file of garbage rows costs no more than this many
_MAX_HINTED_ROWS = 100


def _misread_fix(token: str, format: Format) -> int | None:
    fixed = "".join(_MISREAD.get(c.lower(), c) for c in token)
    if format is Format.MLX_1984:
        return int(fixed) if _DECIMAL.match(fixed) and int(fixed) <= 255 else None
    return int(fixed, 16) if _HEX.match(fixed) else None


def _digit_fixes(row: Row, format: Format) -> list[tuple[int, int]]:
    """(index, value): changing one digit of one byte makes the checksum fit."""
    fixes = []
    data = bytearray(row.data)
    base = 10 if format is Format.MLX_1984 else 16
    for index, original in enumerate(row.data):
        digits = f"{original:03d}" if base == 10 else f"{original:02X}"
        for position in range(len(digits)):
            for digit in "0123456789ABCDEF"[:base]:
                changed = digits[:position] + digit + digits[position + 1 :]
                value = int(changed, base)
                if value == original or value > 255:
                    continue
                data[index] = value
                if checksum(row.address, data, format) == row.printed_checksum:
                    fixes.append((index, value))
        data[index] = original
    return fixes


def _digit_swap_fixes(row: Row, format: Format) -> list[tuple[int, int]]:
    """(index, value): two neighbouring digits of one byte typed the wrong way round."""
    fixes = []
    data = bytearray(row.data)
    for index, original in enumerate(row.data):
        digits = f"{original:03d}" if format is Format.MLX_1984 else f"{original:02X}"
        for position in range(len(digits) - 1):
            swapped = digits[:position] + digits[position + 1] + digits[position] + digits[position + 2 :]
            value = int(swapped, 10 if format is Format.MLX_1984 else 16)
            if value == original or value > 255:
                continue
            data[index] = value
            if checksum(row.address, data, format) == row.printed_checksum and (index, value) not in fixes:
                fixes.append((index, value))
        data[index] = original
    return fixes


def _swap_fixes(row: Row, format: Format) -> list[int]:
    """Indexes i: bytes i and i+1 typed the wrong way round (the new MLX catches it)."""
    found = []
    for index in range(len(row.data) - 1):
        data = bytearray(row.data)
        if data[index] == data[index + 1]:
            continue
        data[index], data[index + 1] = data[index + 1], data[index]
        if checksum(row.address, data, format) == row.printed_checksum:
            found.append(index)
    return found


def _show(value: int, format: Format) -> str:
    return f"{value:03d}" if format is Format.MLX_1984 else f"{value:02X}"


def check(listing: Listing) -> list[Diagnostic]:
    """Every row whose checksum does not fit, or that cannot be read, with a hint at the
    likely typo where a single change explains it."""
    format = listing.format
    diagnostics = list(listing.syntax_errors)
    hinted = 0
    for row in listing.rows:
        if row.unreadable:
            index, token = row.unreadable[0]
            what = "a byte (0-255)" if format is Format.MLX_1984 else "a hex byte"
            message = f"'{token}' is not {what}"
            if row.printed_checksum is not None and len(row.unreadable) == 1:
                fixed = _misread_fix(token, format)
                if fixed is not None:
                    data = bytearray(row.data)
                    data[index] = fixed
                    if checksum(row.address, data, format) == row.printed_checksum:
                        message += f" (did you mean {_show(fixed, format)}? the checksum fits then)"
            diagnostics.append(Diagnostic(listing.path, row.line, row.columns[index], message,
                                          source_line=row.text))
            continue
        computed = checksum(row.address, row.data, format)
        if computed == row.printed_checksum:
            continue
        assert row.printed_checksum is not None
        message = f"checksum {_show(computed, format)}, expected {_show(row.printed_checksum, format)}"
        hinted += 1
        if hinted > _MAX_HINTED_ROWS:
            diagnostics.append(Diagnostic(listing.path, row.line, row.columns[-1], message,
                                          source_line=row.text))
            continue
        fixes = _digit_fixes(row, format)
        fixes += [fix for fix in _digit_swap_fixes(row, format) if fix not in fixes]
        swaps = _swap_fixes(row, format)
        if len(fixes) == 1 and not swaps:
            index, value = fixes[0]
            message += (f" (likely typo: byte {index + 1}, {_show(row.data[index], format)} should probably "
                        f"be {_show(value, format)})")
        elif swaps and not fixes and len(swaps) == 1:
            message += f" (likely typo: bytes {swaps[0] + 1} and {swaps[0] + 2} swapped)"
        elif 1 <= len(fixes) + len(swaps) <= _MAX_LISTED_FIXES:
            # an 8-bit checksum: several one-digit typos often fit; list them all
            options = [f"byte {i + 1} {_show(row.data[i], format)}->{_show(v, format)}" for i, v in fixes]
            options += [f"bytes {i + 1} and {i + 2} swapped" for i in swaps]
            message += " (one change would fit: " + ", ".join(options) + ")"
        elif format is Format.MLX_1984 and not fixes:
            message += " (the 1984 checksum cannot see swapped bytes: check the address too)"
        # the checksum covers the whole row, so no byte is to blame: the caret is under the
        # printed checksum, the value that disagrees (FILE:LINE:COL, as every other message)
        diagnostics.append(Diagnostic(listing.path, row.line, row.columns[-1], message,
                                      source_line=row.text))
    return diagnostics


def to_prg(listing: Listing, start: int | None = None, end: int | None = None) -> Prg:
    """The program the listing describes, from ``start`` to ``end`` (inclusive; default:
    the listing's "Starting/Ending address" lines, else its rows' range).  Every row must
    verify, and the rows must follow each other."""
    problems = check(listing)
    if problems:
        raise UserError(problems)
    if not listing.rows:
        raise UserError.single(listing.path, "the listing has no MLX rows")
    step = listing.format.row_bytes
    if start is None:
        start = listing.start if listing.start is not None else listing.rows[0].address
    last = listing.rows[-1].address + step - 1
    if end is None:
        end = listing.end if listing.end is not None else last
    if end < start:
        raise UserError.single(listing.path, f"the ending address {_address(end, listing.format)} is before "
                               f"the starting address {_address(start, listing.format)}")
    expected = start
    data = bytearray()
    for row in listing.rows:
        if row.address != expected:
            raise UserError.single(listing.path, f"row at {_address(row.address, listing.format)}, but "
                                   f"{_address(expected, listing.format)} was expected (a row is missing or "
                                   "out of order)", row.line, 1, source_line=row.text)
        if row.address > end:
            raise UserError.single(listing.path, f"row at {_address(row.address, listing.format)} is past "
                                   f"the ending address {_address(end, listing.format)}", row.line, 1,
                                   source_line=row.text)
        data += row.data
        expected += step
    if expected <= end:
        raise UserError.single(listing.path, f"the rows end at {_address(expected - 1, listing.format)}, "
                               f"before the ending address {_address(end, listing.format)}")
    return Prg(start, bytes(data[: end - start + 1]))


def _address(value: int, format: Format) -> str:
    return str(value) if format is Format.MLX_1984 else f"${value:04X}"


def from_prg(prg: Prg, format: Format = Format.MLX_1985, path: str = "<prg>") -> str:
    """A listing in the magazine's format (the last row filled up with zeros, as MLX
    shows it), with the starting and ending addresses MLX asks for.  A program of no
    bytes is refused: its listing would have no rows and an ending address before the
    starting one, which check and toprg refuse."""
    if not prg.data:
        load = _address(prg.load_address, format)
        raise UserError.single(path, f"the program is its load address ({load}) alone: no bytes to list (an "
                               "MLX listing has one row at least)")
    step = format.row_bytes
    end = prg.end_address - 1
    if format is Format.MLX_1984:
        rows = [f"Starting address: {prg.load_address}", f"Ending address: {end}"]
    else:
        rows = [f"Starting address: {prg.load_address:04X}", f"Ending address: {end:04X}"]
    for offset in range(0, len(prg.data), step):
        chunk = bytes(prg.data[offset : offset + step]).ljust(step, b"\x00")
        address = prg.load_address + offset
        check_value = checksum(address, chunk, format)
        if format is Format.MLX_1984:
            rows.append(f"{address} :" + ",".join(f"{b:03d}" for b in [*chunk, check_value]))
        else:
            rows.append(f"{address:04X}: " + " ".join(f"{b:02X}" for b in [*chunk, check_value]))
    return "\n".join(rows) + "\n"
