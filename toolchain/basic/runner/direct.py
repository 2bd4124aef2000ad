"""What BASIC's main loop does with a line typed at READY. ($A480): the line crunched
into tokens as the ROM's CRUNCH does it ($A57C), and a numbered line entered into the
program or deleted from it ($A49C).  The runtime (:meth:`Runtime.direct_mode`) runs
the rest."""

from __future__ import annotations

from toolchain.basic.detokenizer import split_program
from toolchain.basic.tokenizer import crunch, linget
from toolchain.petscii import BYTE_TEXT, Unit


def crunch_typed(text: bytes) -> bytes:
    """A typed line (PETSCII, as the screen editor hands it over) crunched as the ROM
    does: keywords outside quotes, REM and DATA become tokens (a shifted letter ends an
    abbreviation), ``?`` becomes PRINT."""
    units = [Unit(byte, BYTE_TEXT[byte] if len(BYTE_TEXT[byte]) == 1 else None, index)
             for index, byte in enumerate(text)]
    return crunch(units, question_mark_is_print=True)


def line_number_of(text: bytes) -> tuple[int, bytes] | None:
    """A typed line that starts with a digit (after spaces, which CHRGET skips): its
    number and the text after it (spaces after the number dropped, $A96B); None for a
    direct statement.  A number above 63999 is ?SYNTAX ERROR (ValueError)."""
    position = 0
    while position < len(text) and text[position] == 0x20:
        position += 1
    if position >= len(text) or not 0x30 <= text[position] <= 0x39:
        return None
    number, position = linget(text, position)  # ValueError above 63999
    return number, text[position:]


def edit_program(program: bytes, start: int, number: int, body: bytes) -> bytes:
    """The program at ``start`` with line ``number`` replaced by ``body`` (inserted in
    order; an empty body deletes it), linked anew as LINKPRG does ($A533)."""
    lines = [(line.number, line.body) for line in split_program(program, start)]
    lines = [line for line in lines if line[0] != number]
    if body:
        lines.append((number, body))
        lines.sort(key=lambda line: line[0])
    out = bytearray()
    for line_number, line_body in lines:
        following = start + len(out) + 4 + len(line_body) + 1
        out += following.to_bytes(2, "little") + line_number.to_bytes(2, "little") + line_body + b"\0"
    return bytes(out + b"\0\0")
