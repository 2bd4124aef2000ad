"""Which dialect a directive belongs to: every 64tass directive, every ACME pseudo
opcode, and the message for a directive of another dialect than the source is read as.
Below the dialects' assemblers (which take their names from here), so that each of them,
and the Profi-Ass assembler, can name another's directives without importing it."""

from __future__ import annotations

import re

from toolchain.asm.parser import DATA_DIRECTIVES, PASS_DIRECTIVES

#: Every 64tass 1.58 directive, for the "unknown directive" and "not supported" messages.
TASS_DIRECTIVES = frozenset("""
addr al align alignblk alignind alignpageind as assert autsiz bend bfor binary binclude block break
breakif brept bwhile byte case cdef cerror char check comment continue continueif cpu cwarn databank
default dint dpage dsection dstruct dunion dword edef elif else elsif enc encode end endalignblk
endblock endc endcomment endencode endf endfor endfunction endif endlogical endm endmacro endn
endnamespace endp endpage endproc endrept ends endsection endsegment endstruct endswitch endu
endunion endv endvirtual endweak endwhile endwith eor error fi fill for from function goto here
hidemac if ifeq ifmi ifne ifpl include lbl lint logical long macro mansiz namespace next null offs
option page pend proc proff pron ptext rept rta section seed segment send sfunction shift shiftl
showmac sint struct switch tdef text union var virtual warn weak while with word xl xs
""".split())

#: Every ACME 0.97 pseudo opcode, by each spelling, to its canonical name.
ACME_PSEUDO_OPS = {
    "8": "byte", "08": "byte", "by": "byte", "byte": "byte", "16": "word", "wo": "word", "word": "word",
    "le16": "word", "be16": "be16", "24": "24", "le24": "24", "be24": "be24", "32": "32", "le32": "32",
    "be32": "be32", "hex": "hex", "h": "hex", "fill": "fill", "fi": "fill", "skip": "skip",
    "align": "align", "convtab": "convtab", "ct": "convtab", "text": "text", "tx": "text", "pet": "pet",
    "raw": "raw", "scr": "scr", "scrxor": "scrxor", "to": "to", "source": "source", "src": "source",
    "binary": "binary", "bin": "binary", "zone": "zone", "zn": "zone", "symbollist": "symbollist",
    "sl": "symbollist", "if": "if", "ifdef": "ifdef", "ifndef": "ifndef", "for": "for", "set": "set",
    "do": "do", "while": "while", "endoffile": "eof", "eof": "eof", "warn": "warn", "error": "error",
    "serious": "serious", "macro": "macro", "initmem": "initmem", "xor": "xor", "pseudopc": "pseudopc",
    "cpu": "cpu", "al": "al", "as": "as", "rl": "rl", "rs": "rs", "address": "address", "addr": "address",
    "cbm": "cbm", "subzone": "subzone", "sz": "subzone", "realpc": "realpc",
}  # fmt: skip


def foreign_directive(text: str, dialect: str) -> str | None:
    """If ``text`` starts with a directive of another dialect than ``dialect``, the
    message that says whose it is and what to do; else None."""
    match = re.match(r"([!.])([A-Za-z0-9_]+)", text)
    if match is None:
        return None
    prefix, word = match.group(1), match.group(2).lower()
    if prefix == "!":
        if word in ACME_PSEUDO_OPS and dialect != "acme":
            return (f"'!{word}' is an ACME directive, and this source is read as {_SHOWN[dialect]} "
                    "(--dialect acme reads ACME sources; so does the extension .a)")
        return None
    profi = f".{word}" in DATA_DIRECTIVES or f".{word}" in PASS_DIRECTIVES or word == "opt"
    if word in TASS_DIRECTIVES and dialect == "profi" and not profi:
        return (f"'.{word}' is a 64tass directive, and this source is read as Profi-Ass (--dialect 64tass "
                "reads 64tass sources)")
    return None


_SHOWN = {"profi": "Profi-Ass", "64tass": "64tass", "acme": "ACME"}
