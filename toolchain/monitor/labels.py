"""Labels for the monitor: names for addresses, as VICE's monitor keeps them.

A label file is what ``c64tc asm --vice-labels`` writes and VICE's ``ll`` reads
(``al C:3400 .start``, one a line), or the symbol table ``c64tc asm --symbols``
prints (``start  $3400  label``).  Names keep their dot, as VICE shows them
(``JSR .chrout``); looking a name up ignores case.
"""

from __future__ import annotations

import re

from toolchain.diagnostics import Diagnostic, UserError
from toolchain.fileio import read_text

__all__ = ["Labels", "read_labels"]

_VICE_LINE = re.compile(r"\s*(?:al|add_label)\s+(?:[cC]:)?\$?([0-9a-fA-F]{1,4})\s+"
                        r"(\.[_@?:a-zA-Z][_@?:.a-zA-Z0-9]*)\s*$")
_SYMBOL_LINE = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s+\$([0-9A-Fa-f]{1,4})\s+(?:label|equate)\s*$")


class Labels:
    """Names by address and addresses by name (several names may share an address:
    the first one given is shown)."""

    def __init__(self) -> None:
        self._by_name: dict[str, tuple[str, int]] = {}  # lower-case name -> (name, address)
        self._by_address: dict[int, str] = {}

    def add(self, name: str, address: int) -> None:
        """Define ``name`` (with its dot) at ``address``; a name defined again moves."""
        key = name.lower()
        old = self._by_name.get(key)
        if old is not None and self._by_address.get(old[1]) == old[0]:
            del self._by_address[old[1]]
            for other, where in self._by_name.values():  # another name for the old address
                if where == old[1] and other.lower() != key:
                    self._by_address[where] = other
                    break
        self._by_name[key] = (name, address)
        self._by_address.setdefault(address, name)

    def address(self, name: str) -> int | None:
        found = self._by_name.get(name.lower())
        return None if found is None else found[1]

    def name(self, address: int) -> str | None:
        return self._by_address.get(address)

    def entries(self) -> list[tuple[str, int]]:
        """(name, address) of every label, in the order they were defined."""
        return list(self._by_name.values())

    def __len__(self) -> int:
        return len(self._by_name)

    def listing(self) -> str:
        """As VICE's ``shl`` shows them: ``$3400 .start``, by address."""
        entries = sorted(self._by_name.values(), key=lambda entry: (entry[1], entry[0].lower()))
        return "".join(f"${address:04x} {name}\n" for name, address in entries)

    def load(self, path: str) -> int:
        """Add the labels of a file (see :func:`read_labels`); how many there were."""
        found = read_labels(path)
        for name, address in found:
            self.add(name, address)
        return len(found)


def read_labels(path: str) -> list[tuple[str, int]]:
    """The labels of a VICE label file or a ``c64tc asm --symbols`` table.  A file with
    none, or a line that looks like a label line but is not one, is a UserError."""
    try:
        text = read_text(path)
    except UnicodeDecodeError:
        raise UserError.single(path, "not a label file (it is not text): give the file 'c64tc asm "
                               "--vice-labels' writes") from None
    found: list[tuple[str, int]] = []
    problems: list[Diagnostic] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if vice := _VICE_LINE.match(line):
            found.append((vice.group(2), int(vice.group(1), 16)))
        elif table := _SYMBOL_LINE.match(line):
            found.append(("." + table.group(1), int(table.group(2), 16)))
        elif re.match(r"\s*(al|add_label)\b", line):
            problems.append(Diagnostic(path, number, 1, "not a label line: 'al C:3400 .name' expected",
                                       source_line=line))
    if problems:
        raise UserError(problems)
    if not found:
        raise UserError.single(path, "no labels in this file (expected VICE's 'al C:3400 .name' lines, as "
                               "'c64tc asm --vice-labels' writes them, or 'c64tc asm --symbols' output)")
    return found
