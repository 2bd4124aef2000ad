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

_VICE_COMMANDS = ("al", "add_label")
_VICE_ADDRESS = re.compile(r"(?:[cC]:)?\$?([0-9a-fA-F]{1,4})")
_VICE_NAME = re.compile(r"\.[_@?:a-zA-Z][_@?:.a-zA-Z0-9]*")
_SYMBOL_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SYMBOL_VALUE = re.compile(r"\$([0-9A-Fa-f]{1,4})")
_SYMBOL_KINDS = ("label", "equate")
_VICE_FORM = "'al C:3400 .name' expected"


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
    """The labels of a VICE label file or a ``c64tc asm --symbols`` table, for the
    monitor and ``disasm --labels/--symbols`` alike.  Other lines (the table's headings)
    are passed over; a file with no label, or a line that starts as a label line (``al``,
    or a name and a ``$`` value) but is not one, is a UserError (every such line,
    ``FILE:LINE:COL``)."""
    try:
        text = read_text(path)
    except UnicodeDecodeError:
        raise UserError.single(path, "not a label file (it is not text): give the file 'c64tc asm "
                               "--vice-labels' writes") from None
    found: list[tuple[str, int]] = []
    problems: list[Diagnostic] = []
    for number, line in enumerate(text.splitlines(), start=1):
        label, problem = _label_line(line)
        if problem is not None:
            column, message = problem
            problems.append(Diagnostic(path, number, column, message, source_line=line))
        elif label is not None:
            found.append(label)
    if problems:
        raise UserError(problems)
    if not found:
        raise UserError.single(path, "no labels in this file (expected VICE's 'al C:3400 .name' lines, as "
                               "'c64tc asm --vice-labels' writes them, or 'c64tc asm --symbols' output)")
    return found


def _label_line(line: str) -> tuple[tuple[str, int] | None, tuple[int, str] | None]:
    """(the label of one line, or None when the line is none) and (column, message) of
    what is wrong with a line that starts as a label line but is not one."""
    words = list(re.finditer(r"\S+", line))
    end = len(line.rstrip()) + 1  # where a missing word would be

    def word(index: int) -> str:
        return words[index].group()

    def column(index: int) -> int:
        return words[index].start() + 1 if index < len(words) else end

    if words and word(0) in _VICE_COMMANDS:  # al C:3400 .name
        if len(words) < 2:
            return None, (end, f"an address and a name are missing: {_VICE_FORM}")
        address = _VICE_ADDRESS.fullmatch(word(1))
        if address is None:
            return None, (column(1), f"'{word(1)}' is not an address (1 to 4 hex digits): {_VICE_FORM}")
        if len(words) < 3:
            return None, (end, f"the label's name is missing: {_VICE_FORM}")
        if _VICE_NAME.fullmatch("." + word(2)):
            return None, (column(2), f"a label's name starts with a dot: '.{word(2)}'")
        if _VICE_NAME.fullmatch(word(2)) is None:
            return None, (column(2), f"'{word(2)}' is not a label name (a dot, a letter, then letters, "
                          "digits and _ @ ? : .)")
        if len(words) > 3:
            return None, (column(3), f"unexpected '{word(3)}' after the label: {_VICE_FORM}")
        return (word(2), int(address.group(1), 16)), None
    if len(words) < 2 or not _SYMBOL_NAME.fullmatch(word(0)) or not word(1).startswith("$"):
        return None, None  # no label line: a heading of the symbol table, a blank line
    value = _SYMBOL_VALUE.fullmatch(word(1))  # name  $3400  label
    if value is None:
        return None, (column(1), f"'{word(1)}' is not an address ('$' and 1 to 4 hex digits)")
    if len(words) < 3:
        return None, (end, "'label' or 'equate' is missing after the value: 'name  $3400  label' expected")
    if word(2) not in _SYMBOL_KINDS:
        return None, (column(2), f"'{word(2)}' is neither 'label' nor 'equate'")
    if len(words) > 3:
        return None, (column(3), f"unexpected '{word(3)}' after the symbol: 'name  $3400  label' expected")
    return ("." + word(0), int(value.group(1), 16)), None
