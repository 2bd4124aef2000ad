"""A BASIC listing typed from the magazine page, with the checkers' values the page printed:
find them, take them out of the program (the reader never typed them), and compare them
with what the checker shows for each line.

How the magazines printed them, and how people type them from a scan:

* the 64'er: ``<123>`` at the end of the line (Checksummer V1-V3; "die Checksumme ...
  wird beim Eintippen nicht mit eingegeben", 64'er 4/85);
* COMPUTE!'s Automatic Proofreader (1983-85): ``:rem 123`` at the end of the line
  (a REM, so a program typed with it still runs, but the Proofreader's value is of the
  line without it);
* the New Automatic Proofreader (1986 on): two letters before the line number
  (``EM 20 COLOR0,16:COLOR4,11``); some transcriptions put them at the end.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from toolchain.diagnostics import Diagnostic, counted
from toolchain.typein.checkers import CHECKERS, PROOFREADER_LETTERS, Checker, TypedLine, typed_line

# the printed value at the end (64'er, old Proofreader) or before the line number (new Proofreader)
_CHEVRONS = re.compile(r"[ \t]*<[ \t]*(\d{1,3})[ \t]*>[ \t]*$")
_REM = re.compile(r"[ \t]*:[ \t]*rem[ \t]*(\d{1,3})[ \t]*$", re.IGNORECASE)
_LETTERS = re.compile(rf"[ \t]*([{PROOFREADER_LETTERS}{PROOFREADER_LETTERS.lower()}]{{2}})[ \t]+(?=\d)")
# ... or after it, as some transcriptions have them (upper case only: in petcat's text a
# lower-case word at the end is the program's own)
_TRAILING_LETTERS = re.compile(rf"[ \t]+([{PROOFREADER_LETTERS}]{{2}})[ \t]*$")
_NUMBERED = re.compile(r"[ \t]*\d")

STYLES = {"chevrons": ("64er", "64er-v3"), "rem": ("proofreader",), "letters": ("proofreader-1986",)}
#: Where each style puts the value, for messages.
STYLE_PLACES = {"chevrons": "the <NNN> at the end", "rem": "the ':rem NNN' at the end",
                "letters": "the two letters before (or after) the line"}


@dataclass(frozen=True, slots=True)
class Printed:
    """A value printed beside a listing line."""

    line: int  # 1-based line in the file
    column: int  # 1-based column where the printed value starts
    value: str  # as printed: '123', 'EM'
    style: str  # 'chevrons', 'rem' or 'letters'


def _find(text: str) -> tuple[str, Printed | None]:
    """The line without a printed value, and the value (None when there is none)."""
    letters = _LETTERS.match(text)
    if letters is not None:
        return text[letters.end() :], Printed(0, letters.start(1) + 1, letters.group(1).upper(), "letters")
    if _NUMBERED.match(text) is None:
        return text, None
    for pattern, style in ((_CHEVRONS, "chevrons"), (_REM, "rem"), (_TRAILING_LETTERS, "letters")):
        found = pattern.search(text)
        if found is not None:
            value = found.group(1)
            value = str(int(value)) if value.isdigit() else value  # <007> is 7
            return text[: found.start()], Printed(0, found.start(1) + 1, value, style)
    return text, None


@dataclass
class Listing:
    """A listing file's text with the printed values taken out."""

    path: str
    text: str  # the listing as the reader typed it (the printed values left out)
    lines: list[str]  # the original lines, for messages
    printed: dict[int, Printed] = field(default_factory=dict)  # by 1-based line
    numbered: int = 0  # lines that are no comment and not blank

    @property
    def style(self) -> str | None:
        """How most printed values are written; None when the listing has none, or when
        they are on fewer than half of its lines (a program's own ``:rem 5`` is no
        Proofreader's value)."""
        styles = Counter(printed.style for printed in self.printed.values())
        if not styles:
            return None
        style, count = styles.most_common(1)[0]
        return style if count * 2 >= self.numbered else None


def read_listing(text: str, path: str, style: str | None = None) -> Listing:
    """Take the printed values out of a listing's lines (only those in ``style`` when
    given: 'chevrons', 'rem' or 'letters'); comment lines (``;``) are left alone."""
    kept = []
    printed = {}
    lines = text.splitlines()
    numbered = 0
    for number, line in enumerate(lines, start=1):
        if line.lstrip().startswith(";") or not line.strip():
            kept.append(line)
            continue
        numbered += 1
        stripped, found = _find(line)
        if found is not None and (style is None or found.style == style):
            printed[number] = Printed(number, found.column, found.value, found.style)
            line = stripped
        kept.append(line)
    return Listing(path, "\n".join(kept) + "\n", lines, printed, numbered)


@dataclass(frozen=True, slots=True)
class LineValue:
    """What a checker shows for one listing line."""

    path: str
    line: int  # 1-based line in the file
    text: str  # the line as typed
    typed: TypedLine
    value: str | None  # None: the checker shows nothing (a deleted line, for the Checksummer)


def line_values(listing: Listing, checker: Checker) -> list[LineValue]:
    """The checker's value for every numbered line of ``listing`` (which must tokenize:
    lines that do not are skipped, the tokenizer reports them)."""
    values = []
    for number, text in enumerate(listing.text.splitlines(), start=1):
        if not text.strip() or text.lstrip().startswith(";"):
            continue
        try:
            typed = typed_line(text)
        except ValueError:  # PetsciiError too: the tokenizer names the problem
            continue
        values.append(LineValue(listing.path, number, text, typed, checker.value(typed)))
    return values


def choose_checker(listing: Listing) -> tuple[Checker, str]:
    """The checker whose values the listing printed, and why it was chosen (for the
    user); the 64'er's Checksummer V1/V2 when the listing prints none.  ``<n>`` values
    are V1/V2's or V3's: the one that fits more lines wins."""
    style = listing.style
    if style is None:
        return CHECKERS["64er"], "the listing prints no checksums; showing the 64'er Checksummer's"
    candidates = [CHECKERS[name] for name in STYLES[style]]
    if len(candidates) == 1:
        return candidates[0], f"the listing prints {candidates[0].title}'s values"
    fits = [(sum(1 for value in line_values(listing, checker) if value.line in listing.printed
                 and listing.printed[value.line].value == value.value), checker) for checker in candidates]
    fits.sort(key=lambda item: -item[0])
    (best, chosen), (other, rival) = fits[0], fits[1]
    return chosen, (f"checking with {chosen.title}: its values fit {counted(best, 'line')}, "
                    f"{rival.title}'s {other}")


def _hint(checker: Checker, value: LineValue, printed: str) -> str:
    """For a plain sum: the character a missing (or extra) one would explain."""
    if not checker.additive or value.value is None or not printed.isdigit():
        return ""
    difference = (int(printed) - int(value.value)) % 256
    for missing, code in (("missing", difference), ("one too many", 256 - difference)):
        if 0x21 <= code <= 0x5F:  # a character a reader drops or doubles: digits, signs, letters
            return f" (a '{chr(code).lower()}' {missing}?)"
    return ""


def compare(listing: Listing, checker: Checker, values: list[LineValue]) -> list[Diagnostic]:
    """An error for every line whose printed value the checker does not show."""
    problems = []
    for value in values:
        printed = listing.printed.get(value.line)
        if printed is None or printed.value == value.value:
            continue
        source = listing.lines[value.line - 1]
        if value.value is None:
            message = (f"{checker.title} shows nothing for this line (it deletes line "
                       f"{value.typed.number}), the magazine printed {printed.value}")
        else:
            message = (f"checksum {value.value}, the magazine printed {printed.value}"
                       + _hint(checker, value, printed.value))
        problems.append(Diagnostic(listing.path, value.line, 1, message, source_line=source,
                                   listing_line=value.typed.number))
    return problems


#: The way each checker's values are printed.
STYLE_OF = {name: style for style, names in STYLES.items() for name in names}
