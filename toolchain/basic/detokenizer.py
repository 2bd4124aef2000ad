"""Tokenized BASIC V2 program -> petcat-format text, and the C64's LIST.

The text is what petcat writes, with one improvement: wherever the text would be
crunched back into a different token (plain letters spelling a keyword, a token
followed by letters that extend it into another keyword), the first character is
written as a brace code (``{t}o``), as petcat does for the first case, so that
tokenize(detokenize(program)) always gives the same bytes back.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolchain.basic.tokens import FIRST_TOKEN, KEYWORDS, PI, is_token, keyword_of, match_keyword, scan_tokens
from toolchain.diagnostics import UserError
from toolchain.petscii import BYTE_TEXT, Unit


@dataclass(frozen=True, slots=True)
class ProgramLine:
    number: int
    body: bytes
    offset: int  # byte offset of the line's link in the PRG file (load address included)


def split_program(data: bytes, load_address: int, path: str = "<prg>") -> list[ProgramLine]:
    """The lines of a tokenized program (PRG bytes after the load address).

    Follows the line structure and checks each link; bytes after the end marker
    (a machine-code part, as many programs have) are ignored, as by LOAD and petcat."""
    lines: list[ProgramLine] = []
    position = 0
    while True:
        file_offset = position + 2
        if position + 2 > len(data):
            raise UserError.single(path, f"broken program: it ends at byte offset {file_offset} "
                                   "without the two 0 bytes that end a BASIC program")
        link = int.from_bytes(data[position : position + 2], "little")
        if link >> 8 == 0:  # the end marker (petcat and the ROM stop on a zero high byte)
            return lines
        if position + 4 > len(data):
            raise UserError.single(path, f"broken program: line at byte offset {file_offset} is cut off")
        number = int.from_bytes(data[position + 2 : position + 4], "little")
        end = data.find(b"\x00", position + 4)
        if end < 0:
            raise UserError.single(path, f"broken program: line {number} at byte offset {file_offset} "
                                   "has no terminating 0 byte")
        expected = load_address + end + 1
        if link != expected:
            raise UserError.single(path, f"broken link at byte offset {file_offset} (line {number}): "
                                   f"${link:04X}, but the next line starts at ${expected:04X}")
        lines.append(ProgramLine(number, bytes(data[position + 4 : end]), file_offset))
        position = end + 1


_ONE_CHARACTER_NAMES = frozenset("abcdefghijklmnopqrstuvwxyz+-*/<=>^")


def _naive_units(body: bytes) -> list[Unit]:
    """The characters the text of ``body`` would show, as the tokenizer will see them
    (keywords spelled out, brace codes as non-characters), one unit per character,
    with ``column`` holding the byte index the character comes from."""
    units: list[Unit] = []
    for index, byte, in_code in scan_tokens(body):
        if in_code and is_token(byte):
            units.extend(Unit(0, char, index) for char in KEYWORDS[byte - FIRST_TOKEN])
            continue
        text = BYTE_TEXT[byte]
        units.append(Unit(byte, text if len(text) == 1 else None, index))
    return units


def detokenize_line(body: bytes) -> str:
    units = _naive_units(body)
    first_unit: dict[int, int] = {}
    for position, unit in enumerate(units):
        first_unit.setdefault(unit.column, position)
    out: list[str] = []
    escape_next_plain = False
    for index, byte, in_code in scan_tokens(body):
        if in_code and is_token(byte):
            keyword = KEYWORDS[byte - FIRST_TOKEN]
            # the text must crunch back to this very token, not a longer keyword: if it
            # would not, break the longer word at the next character, or, when that is
            # another token's text, write this token as a code
            escape_next_plain = match_keyword(units, first_unit[index]) != (byte, len(keyword))
            next_is_token = index + 1 < len(body) and is_token(body[index + 1])
            if escape_next_plain and next_is_token:
                out.append(f"{{${byte:02x}}}")
                escape_next_plain = False
            else:
                out.append(keyword)
            continue
        if in_code and byte == PI:
            out.append("~")
            escape_next_plain = False
            continue
        text = BYTE_TEXT[byte]
        plain = len(text) == 1
        if in_code and plain and (escape_next_plain or match_keyword(units, first_unit[index])):
            # petcat's one-character names are the unshifted letters and the operators
            text = "{" + text + "}" if text in _ONE_CHARACTER_NAMES else f"{{${byte:02x}}}"
        escape_next_plain = False
        if index == 0 and byte == 0x20:
            text = "{space}"  # typed spaces after the line number are dropped when crunching
        out.append(text)
    return "".join(out)


def detokenize_program(data: bytes, load_address: int, name: str | None = None,
                       path: str = "<prg>") -> str:
    """petcat-format text of a program, with petcat's header line when ``name`` is given."""
    header = f"\n\n;{name} =={load_address:04x}==\n" if name is not None else ""
    lines = split_program(data, load_address, path)
    footer = "\n" if name is not None else ""  # petcat ends its output with an empty line
    return header + "".join(f"{line.number:5d} {detokenize_line(line.body)}\n" for line in lines) + footer


def list_character(byte: int, shifted_as_codes: bool = False) -> str:
    """A PETSCII byte as LIST shows it in the upper case character set: unshifted
    letters as capitals, the pound sign and pi as such, others as petcat names;
    ``shifted_as_codes``: shifted letters as {SHIFT-A}, so they cannot be taken for
    unshifted ones (the C64 draws them as graphics in this set)."""
    if 0x41 <= byte <= 0x5A:
        return chr(byte)
    if shifted_as_codes and 0xC1 <= byte <= 0xDA:
        return "{SHIFT-" + chr(byte - 0x80) + "}"
    if byte == 0x5C:
        return "£"
    if byte == PI:
        return "π"
    return BYTE_TEXT[byte]


def listed_body(body: bytes, shifted_as_codes: bool = False) -> str:
    """A line's tokenized text as LIST shows it: keywords spelled out outside quotes."""
    return "".join(keyword_of(byte) if in_code and is_token(byte) else list_character(byte, shifted_as_codes)
                   for _, byte, in_code in scan_tokens(body))


def _as_list_shows(body: bytes) -> str:
    """A line as the ROM's LIST ($A6C9) shows it: its only state is the quote flag ($0F,
    toggled by each quote, $A6F3); every token byte outside quotes is spelled out
    (QPLOP, $A71A: BPL, pi, BIT $0F), after REM and in DATA too, where CRUNCH left
    typed shifted characters ($C1, shifted A, lists as ATN; petcat -2 writes the same).
    Bytes $CC-$FE print what the ROM finds past its keyword table: not modelled, shown
    as characters."""
    out: list[str] = []
    quote = False
    for byte in body:
        out.append(keyword_of(byte) if not quote and is_token(byte) else list_character(byte))
        if byte == 0x22:
            quote = not quote
    return "".join(out)


def list_program(data: bytes, load_address: int, path: str = "<prg>") -> str:
    """The program as the C64's LIST shows it in its default (upper case) character set:
    keywords and unshifted letters in capitals; other characters as petcat names."""
    rows = [f"{line.number} {_as_list_shows(line.body)}" for line in split_program(data, load_address, path)]
    return "\n".join(rows) + ("\n" if rows else "")
