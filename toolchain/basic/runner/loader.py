"""What LOAD does with a BASIC program: where it goes and how its lines are linked."""

from __future__ import annotations

from toolchain.basic.detokenizer import split_program
from toolchain.basic.tokenizer import MAX_LINE_NUMBER, TokenizedLine, link
from toolchain.c64.memory import BASIC_PROGRAM_START
from toolchain.diagnostics import UserError
from toolchain.disk.prg import Prg


def as_loaded(prg: Prg) -> Prg | None:
    """The program as ``LOAD"NAME",8`` puts it into memory, if its bytes are a BASIC
    program: at $0801, the line links made anew for that address (as the ROM's
    LINKPRG does after loading), so a program saved from elsewhere runs too.  None for
    anything else (machine code: its bytes do not chain into ascending lines)."""
    try:
        lines = split_program(prg.data, prg.load_address)
    except UserError:  # no line structure (split_program says where it breaks)
        return None
    numbers = [line.number for line in lines]
    if not lines or numbers != sorted(set(numbers)) or numbers[-1] > MAX_LINE_NUMBER:
        return None
    if prg.load_address == BASIC_PROGRAM_START:
        return prg
    end = lines[-1].offset - 2 + 4 + len(lines[-1].body) + 1
    relinked = link([TokenizedLine(line.number, line.body, "<prg>", 0) for line in lines])
    return Prg(BASIC_PROGRAM_START, relinked + bytes(prg.data[end + 2 :]))


def is_basic_program(prg: Prg) -> bool:
    """Whether a PRG holds a BASIC program (at $0801 or saved from elsewhere)."""
    return as_loaded(prg) is not None
