"""BASIC V2 keywords and the ROM's keyword matching rule ("crunching").

The C64 ROM's CRUNCH routine ($A57C) tries the keyword table in token order at
each position and takes the first keyword that matches; a keyword may be
abbreviated by typing the next letter shifted (``pO`` = POKE, ``pR`` = PRINT#,
since PRINT# comes before PRINT in the table).  Keyword search never starts at a
digit, ``:`` or ``;`` ($30-$3B), at a shifted character, or inside quotes, and
stops after REM (rest of line) and DATA (up to the next ``:`` outside quotes).

petcat differs in one respect: it takes the *longest* match, a tie going to the
later token.  Without abbreviations both rules give the same tokens for BASIC V2
(the only keywords that are prefixes of others, INPUT/INPUT#, PRINT/PRINT#,
GO/GOTO/GOSUB, have the longer one first); with abbreviations we follow the ROM.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from toolchain.petscii import Unit

#: Tokens $80-$CB, in ROM order ($A09E keyword table).
KEYWORDS: tuple[str, ...] = (
    "end", "for", "next", "data", "input#", "input", "dim", "read", "let", "goto", "run", "if",
    "restore", "gosub", "return", "rem", "stop", "on", "wait", "load", "save", "verify", "def",
    "poke", "print#", "print", "cont", "list", "clr", "cmd", "sys", "open", "close", "get", "new",
    "tab(", "to", "fn", "spc(", "then", "not", "step", "+", "-", "*", "/", "^", "and", "or", ">",
    "=", "<", "sgn", "int", "abs", "usr", "fre", "pos", "sqr", "rnd", "log", "exp", "cos", "sin",
    "tan", "atn", "peek", "len", "str$", "val", "asc", "chr$", "left$", "right$", "mid$", "go",
)  # fmt: skip
FIRST_TOKEN = 0x80
LAST_TOKEN = FIRST_TOKEN + len(KEYWORDS) - 1  # $CB, GO
PI = 0xFF
#: The one token table: the keyword in capitals (as LIST shows it) -> its token.
TOKEN: dict[str, int] = {keyword.upper(): FIRST_TOKEN + index for index, keyword in enumerate(KEYWORDS)}
TOKEN_REM = TOKEN["REM"]
TOKEN_DATA = TOKEN["DATA"]
QUOTE, COLON = 0x22, 0x3A


def keyword_of(token: int) -> str:
    """The keyword of a token, in capitals (``0x99`` -> ``PRINT``)."""
    return KEYWORDS[token - FIRST_TOKEN].upper()


class LineState:
    """Where the scan of a BASIC line is: inside quotes, after REM (the rest of the
    line), inside DATA (up to the next colon outside quotes), or in code, where
    keywords count.  The one rule the ROM's CRUNCH ($A57C), LIST ($A717) and the
    statement scanners share; tokenizer, detokenizer and runner all use it."""

    __slots__ = ("quote", "rem", "data")

    def __init__(self) -> None:
        self.quote = self.rem = self.data = False

    @property
    def in_code(self) -> bool:
        """Whether a keyword (or token) here is a keyword."""
        return not (self.quote or self.rem or self.data)

    def character(self, byte: int) -> None:
        """A plain character passes: a quote toggles quote mode, a colon outside
        quotes ends DATA."""
        if byte == QUOTE:
            self.quote = not self.quote
        elif byte == COLON and not self.quote:
            self.data = False

    def keyword(self, token: int) -> None:
        """A keyword passes in code: REM and DATA change what follows."""
        self.rem = self.rem or token == TOKEN_REM
        self.data = self.data or token == TOKEN_DATA


def is_token(byte: int) -> bool:
    return FIRST_TOKEN <= byte <= LAST_TOKEN


def scan_tokens(body: bytes) -> Iterator[tuple[int, int, bool]]:
    """(index, byte, in_code) for each byte of a tokenized line: ``in_code`` when the
    byte is not in quotes, REM or DATA, so that a token byte there is a keyword."""
    state = LineState()
    for index, byte in enumerate(body):
        in_code = state.in_code
        if in_code and FIRST_TOKEN <= byte <= LAST_TOKEN:
            state.keyword(byte)
        else:
            state.character(byte)
        yield index, byte, in_code


_BY_FIRST_CHAR: dict[str, list[tuple[int, str]]] = {}
for _index, _keyword in enumerate(KEYWORDS):
    _BY_FIRST_CHAR.setdefault(_keyword[0], []).append((FIRST_TOKEN + _index, _keyword))


def match_keyword(units: Sequence[Unit], start: int) -> tuple[int, int] | None:
    """The keyword the ROM crunches at ``units[start]``: (token, units consumed), or None.

    Only characters typed as plain text take part; a brace code ends a match."""
    first = units[start].char
    candidates = _BY_FIRST_CHAR.get(first) if first is not None else None
    if not candidates:
        return None
    end = len(units)
    for token, keyword in candidates:
        position = start + 1
        for expected in keyword[1:]:
            if position >= end:
                break
            typed = units[position].char
            if typed == expected:
                position += 1
                continue
            if typed is not None and expected.isalpha() and typed == expected.upper():
                return token, position - start + 1  # abbreviation: next letter typed shifted
            break
        else:
            return token, len(keyword)
    return None
