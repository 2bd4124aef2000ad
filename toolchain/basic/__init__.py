"""BASIC V2: tokenizer, detokenizer and LIST.

Public API: :func:`tokenize` (petcat text files -> :class:`~toolchain.disk.Prg`, errata
merged), :func:`detokenize` (PRG -> petcat text), :func:`list_prg` (the C64's LIST).
"""

from __future__ import annotations

from toolchain.basic.detokenizer import detokenize_program, list_program, split_program
from toolchain.basic.tokenizer import C64_BASIC_START, MergeEvent, link, merge, tokenize_lines
from toolchain.diagnostics import Diagnostic
from toolchain.disk.prg import Prg

__all__ = ["C64_BASIC_START", "MergeEvent", "detokenize", "list_prg", "split_program", "tokenize",
           "tokenize_text", "tokenize_with_warnings"]


def tokenize(sources: list[tuple[str, str]], load_address: int = C64_BASIC_START,
             ) -> tuple[Prg, list[MergeEvent]]:
    """Tokenize listings given as (path, text), later ones correcting earlier ones
    (same line number replaces, a line number alone deletes), into one program."""
    prg, events, _ = tokenize_with_warnings(sources, load_address)
    return prg, events


def tokenize_with_warnings(sources: list[tuple[str, str]], load_address: int = C64_BASIC_START,
                           ) -> tuple[Prg, list[MergeEvent], list[Diagnostic]]:
    """:func:`tokenize`, and the warnings of the program's lines (lines no C64 user
    could type), in program order."""
    lines, events = merge([tokenize_lines(text, path) for path, text in sources])
    warnings = [line.warning for line in lines if line.warning is not None]
    return Prg(load_address, link(lines, load_address)), events, warnings


def tokenize_text(text: str, path: str = "<text>", load_address: int = C64_BASIC_START) -> Prg:
    return tokenize([(path, text)], load_address)[0]


def detokenize(prg: Prg, name: str | None = None, path: str = "<prg>") -> str:
    return detokenize_program(prg.data, prg.load_address, name, path)


def list_prg(prg: Prg, path: str = "<prg>") -> str:
    return list_program(prg.data, prg.load_address, path)
