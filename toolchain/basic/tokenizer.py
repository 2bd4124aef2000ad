"""petcat-format text -> tokenized BASIC V2 program, as the C64 crunches typed lines.

Text conventions are petcat's (see :mod:`toolchain.petscii`).  ``?`` is not turned
into PRINT: petcat leaves it as the character $3F, and listings in its format write
``print``; we do the same so that files move freely between the tools.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolchain.basic.tokens import TOKEN, LineState, match_keyword
from toolchain.c64.memory import BASIC_PROGRAM_START
from toolchain.diagnostics import Diagnostic, UserError
from toolchain.petscii import PetsciiError, Unit, parse_units

MAX_LINE_NUMBER = 63999
# The longest line a C64 holds: 250 bytes of tokenized text, 255 bytes with its link,
# number and ending zero.  LOAD relinks the program (LINKPRG, $A533), looking for each
# line's zero with the Y register from the line's fifth byte on, and Y counts to 255:
# measured on VICE 3.10 (petcat PRGs of 10 REM xxx... and 20 PRINT"OK", loaded and RUN),
# a 250-byte line runs and lists; at 251 bytes Y wraps as it steps past the zero and the
# link points at the line itself (LOAD never returns), at 252 the zero is found in the
# line number (?SYNTAX ERROR IN 10 on RUN, line 20 gone).  petcat writes such lines
# (its line buffer holds 256 bytes, more overflows it): c64tc refuses them.
MAX_TOKENIZED_LINE = 250
# The screen editor takes a logical line of 80 characters (two screen rows), line
# number included, and each byte of a tokenized line is at least one typed character:
# a longer line is one no C64 user could have typed, only LOADed (magazines' one-liners
# on their disks, listed with petcat).  c64tc accepts it, with a warning.
TYPED_LINE = 80
C64_BASIC_START = BASIC_PROGRAM_START  # where LOAD puts a BASIC program on a C64

_LINE_NUMBER = re.compile(r"[ \t]*(\d+)")
# digits of a line number beyond which its value cannot be in range, whatever they are
# (leading zeros aside): a bound on the work, and on Python's int() of a long text
_MOST_DIGITS = len(str(MAX_LINE_NUMBER))


def linget(text: bytes, position: int) -> tuple[int, int]:
    """LINGET ($A96B): the line number at ``text[position:]`` as BASIC reads it after
    GOTO, GOSUB, THEN, RUN, LIST and at the start of a typed line: digits with CHRGET
    skipping spaces between them (``GOTO 1 0`` is GOTO 10), no digits being 0.  The
    value and where the digits and the spaces after them end.  Above 63999 the ROM stops
    with ?SYNTAX ERROR (before it multiplies a value of 6400 or more by ten): ValueError,
    after one step per digit at most (5,000 digits are no traceback)."""
    number = 0
    while position < len(text) and text[position] == 0x20:
        position += 1
    while position < len(text) and 0x30 <= text[position] <= 0x39:
        if number >= 6400:
            raise ValueError("line number above 63999")
        number = number * 10 + text[position] - 0x30
        position += 1
        while position < len(text) and text[position] == 0x20:
            position += 1
    return number, position


def _line_number_value(digits: str) -> int | None:
    """A listing's line number, None when it is beyond any line number (bounded work)."""
    significant = digits.lstrip("0")
    return None if len(significant) > _MOST_DIGITS else int(significant or "0")
QUESTION_MARK = 0x3F  # typed for PRINT
PI = 0xFF  # a token of its own: CRUNCH keeps it


@dataclass(frozen=True, slots=True)
class TokenizedLine:
    number: int
    body: bytes  # empty: "delete this line" (a line number typed alone)
    path: str
    source_line: int
    warning: Diagnostic | None = None  # the line cannot be typed on a C64 (TYPED_LINE)


def crunch(units: list[Unit], question_mark_is_print: bool = False, shifted_dropped: bool = False) -> bytes:
    """A line's text crunched as the ROM's CRUNCH does ($A57C): keywords outside quotes,
    REM and DATA become tokens (first match in token order).  ``question_mark_is_print``:
    ``?`` becomes PRINT, as for a line typed on a C64 ($A5A4); petcat's text format keeps
    it a character.  ``shifted_dropped``: a byte of $80 or more (but pi, $FF) where a token
    could start, outside quotes and REM, is left out, as CRUNCH does with a typed line
    ($A585: BPL, else skip; DATA too: its check comes after; measured on VICE,
    tests/data/checksums); petcat's text keeps it.  Brace codes (units without a
    character) are copied as they are."""
    out = bytearray()
    state = LineState()
    i = 0
    n = len(units)
    while i < n:
        unit = units[i]
        if shifted_dropped and unit.byte >= 0x80 and unit.byte != PI and not (state.quote or state.rem):
            i += 1
            continue
        if unit.char is None:  # a brace code: copied as it is (petcat does not track quotes here)
            out.append(unit.byte)
            i += 1
            continue
        if state.in_code and unit.char != '"':
            if question_mark_is_print and unit.byte == QUESTION_MARK:
                out.append(TOKEN["PRINT"])
                i += 1
                continue
            match = match_keyword(units, i)
            if match is not None:
                token, length = match
                out.append(token)
                state.keyword(token)
                i += length
                continue
        out.append(unit.byte)
        state.character(unit.byte)
        i += 1
    return bytes(out)


# Keywords a listing typed in upper case shows first; in petcat's format they are shifted
# letters, which crunch to no keyword (PRINT is P, R, RIGHT$'s shifted I, N, T).
_UPPER_KEYWORD = re.compile(r"PRINT|GOTO|GOSUB|POKE|INPUT|FOR|NEXT|IF|REM|DATA|END|RETURN|DIM|READ|SYS|LET")
_QUOTED_OR_BRACED = re.compile(r'"[^"]*("|$)|\{[^}]*\}')


def upper_case_warning(text: str, path: str) -> Diagnostic | None:
    """A listing in upper case only (as a C64 lists it, as web pages print it): in
    petcat's format, as petcat reads it, its keywords are shifted letters, and the PRG
    lists as `10 PRRIGHT$NT`.  The warning that says so at its first keyword, or None."""
    lines = text.splitlines()
    outside = [_QUOTED_OR_BRACED.sub(lambda m: " " * len(m[0]), line) for line in lines]
    if any(re.search("[a-z]", line) for line in outside):
        return None
    for index, line in enumerate(outside, 1):
        found = _UPPER_KEYWORD.search(line)
        if found is not None:
            message = (f"'{found[0]}' in upper case is shifted letters in petcat's format, not the "
                       f"keyword {found[0]}: a listing is typed in lower case (which a C64 shows as "
                       "capitals; upper case is its graphics)")
            return Diagnostic(path, index, found.start() + 1, message, "warning",
                              source_line=lines[index - 1])
    return None


def tokenize_lines(text: str, path: str) -> list[TokenizedLine]:
    """Tokenize every line of a petcat-format listing; raises UserError with all errors."""
    lines: list[TokenizedLine] = []
    errors: list[Diagnostic] = []
    for index, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if not line.strip() or line.lstrip().startswith(";"):
            continue
        match = _LINE_NUMBER.match(line)
        if match is None:
            column = len(line) - len(line.lstrip()) + 1
            errors.append(Diagnostic(path, index, column, "missing line number", source_line=line))
            continue
        number = _line_number_value(match.group(1))
        if number is None or number > MAX_LINE_NUMBER:
            digits = match.group(1)
            shown = digits if len(digits) <= 20 else f"of {len(digits):,} digits"
            errors.append(Diagnostic(path, index, match.start(1) + 1,
                                     f"line number {shown} is out of range (0-{MAX_LINE_NUMBER})",
                                     source_line=line if len(line) <= 400 else line[:400] + "..."))
            continue
        body_start = match.end()
        while body_start < len(line) and line[body_start] in " \t":
            body_start += 1  # spaces after the line number are dropped, as the ROM does
        try:
            units = parse_units(line[body_start:], column_offset=body_start)
        except PetsciiError as exc:
            errors.append(Diagnostic(path, index, exc.column + 1, str(exc), source_line=line,
                                     listing_line=number))
            continue
        zero = next((unit for unit in units if unit.byte == 0), None)
        if zero is not None:
            errors.append(Diagnostic(path, index, zero.column + 1, "a 0 byte cannot be part of a BASIC "
                                     "line (it ends the line)", source_line=line, listing_line=number))
            continue
        body = crunch(units)
        if len(body) > MAX_TOKENIZED_LINE:
            errors.append(Diagnostic(path, index, 1,
                                     f"line too long: {len(body)} bytes after tokenizing; a C64 holds "
                                     f"at most {MAX_TOKENIZED_LINE} (LOAD's relinking counts a line's "
                                     "bytes in one byte)", source_line=line, listing_line=number))
            continue
        warning = None
        typed = len(str(number)) + len(body)
        if typed > TYPED_LINE:
            warning = Diagnostic(path, index, 1,
                                 f"this line cannot be typed on a C64 as it stands: with its number it "
                                 f"takes {typed} characters at least ({len(body)} bytes after tokenizing), "
                                 f"the screen editor's line holds {TYPED_LINE} (a C64 runs and lists it "
                                 "once LOADed)", severity="warning", source_line=line,
                                 listing_line=number)
        lines.append(TokenizedLine(number, body, path, index, warning))
    if errors:
        raise UserError(errors)
    return lines


@dataclass(frozen=True, slots=True)
class MergeEvent:
    number: int
    action: str  # "replaced" or "deleted"
    by: TokenizedLine


def merge(listings: list[list[TokenizedLine]]) -> tuple[list[TokenizedLine], list[MergeEvent]]:
    """Apply listings in order, as typing them on a C64 would: a line replaces the one
    with the same number, a line number alone deletes it.  Result in line order."""
    program: dict[int, TokenizedLine] = {}
    events: list[MergeEvent] = []
    for listing in listings:
        for line in listing:
            existed = line.number in program
            if not line.body:
                if existed:
                    events.append(MergeEvent(line.number, "deleted", line))
                program.pop(line.number, None)
                continue
            if existed:
                events.append(MergeEvent(line.number, "replaced", line))
            program[line.number] = line
    return [program[number] for number in sorted(program)], events


def link(lines: list[TokenizedLine], load_address: int = C64_BASIC_START) -> bytes:
    """The program's bytes (without the load address): each line is a link to the next
    line's address, the line number, the tokenized text and a 0; two 0 bytes end it."""
    out = bytearray()
    address = load_address
    for line in lines:
        address += 4 + len(line.body) + 1
        if address + 2 > 0x10000:  # the line, and the end marker after it, must fit in memory
            raise UserError.single(line.path, f"the program runs past $FFFF: line {line.number} ends at "
                                   f"${address - 1:X} when loaded at ${load_address:04X}",
                                   line=line.source_line, listing_line=line.number)
        out += address.to_bytes(2, "little") + line.number.to_bytes(2, "little") + line.body + b"\x00"
    out += b"\x00\x00"
    return bytes(out)
