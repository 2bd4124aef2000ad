"""What the assembler writes besides the code: PRG/raw images, the listing, the VICE
label file and the symbol table."""

from __future__ import annotations

import re

from toolchain.asm.assembler import Program

_BYTES_PER_ROW = 3  # as in the magazine printouts: one instruction per row


_DIALECT_NAMES = {"profi": "Profi-Ass 64", "64tass": "64tass", "acme": "ACME"}


def header(program: Program) -> str:
    """The listing's first line: which dialect read the source, and why."""
    reason = program.dialect_reason or ("the default" if program.dialect == "profi" else "--dialect")
    return f"; {_DIALECT_NAMES.get(program.dialect, program.dialect)} dialect ({reason})"


def listing(program: Program) -> str:
    """Address, bytes, the listing's line number and the source text, aligned like a
    magazine printout.  Data longer than three bytes continues on rows of its own.  The
    first line says which dialect read the source."""
    width = max((len(str(line.listing_number)) for line in program.lines
                 if line.listing_number is not None), default=0)
    rows: list[str] = [header(program)]
    for index, line in enumerate(program.lines):
        text = line.text[line.offset :].rstrip()
        number = "" if line.listing_number is None else str(line.listing_number)
        number_column = f"{number:>{width}} " if width else ""
        pieces: list[tuple[int | None, bytes]] = [(None, b"")]
        if index in program.line_output:
            pieces = list(program.line_output[index])
        for number_of_piece, (address, data) in enumerate(pieces):
            for offset in range(0, max(len(data), 1), _BYTES_PER_ROW):
                chunk = " ".join(f"{b:02X}" for b in data[offset : offset + _BYTES_PER_ROW])
                where = "    " if address is None else f"{address + offset:04X}"
                source = f"{number_column}{text}" if number_of_piece == 0 and offset == 0 else ""
                rows.append(f"{where}  {chunk:<8}  {source}".rstrip())
    return "\n".join(rows) + "\n"


_VICE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def vice_labels(program: Program) -> str:
    """VICE monitor label file (``al C:3400 .name``), loadable with ``-moncommands``
    or the monitor's ``ll`` command.  Only names VICE accepts and 16-bit values."""
    rows = [f"al C:{info.value:04x} .{name}" for name, info in sorted(program.symbols.items(),
                                                                        key=lambda kv: (kv[1].value, kv[0]))
            if _VICE_NAME.match(name) and 0 <= info.value <= 0xFFFF]
    return "\n".join(rows) + ("\n" if rows else "")


def symbol_table(program: Program) -> str:
    """All symbols, sorted by name and then by value."""
    entries = list(program.symbols.values())
    if not entries:
        return "no symbols\n"
    width = max(len(e.name) for e in entries)

    def row(entry) -> str:
        kind = "label" if entry.is_label else "equate"
        value = f"${entry.value:04X}" if 0 <= entry.value <= 0xFFFF else str(entry.value)
        return f"  {entry.name:<{width}}  {value:>6}  {kind}"

    by_name = sorted(entries, key=lambda e: e.name)
    by_value = sorted(entries, key=lambda e: (e.value, e.name))
    return ("symbols by name:\n" + "\n".join(row(e) for e in by_name)
            + "\n\nsymbols by value:\n" + "\n".join(row(e) for e in by_value) + "\n")
