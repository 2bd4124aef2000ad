"""The dialects c64tc assembles, and how one is chosen for a source.

``profi`` (the default: Profi-Ass 64, as the 64'er magazine printed its listings),
``64tass`` and ``acme``.  ``--dialect`` chooses; without it the file's extension decides
where it is unambiguous (ACME: ``.a``, ``.acme``: the extension ACME's manual asks for;
64tass has none of its own, and ``.tas`` is used for ACME sources too), else the first
directive of the source
(``!to``, ``!cpu``, ``!source``, any ``!`` directive is ACME; ``.cpu``, ``.proc``,
``.enc``... are 64tass; not those Profi-Ass has too, like ``.byte`` or ``.if``), else
Profi-Ass.  ``.s``, ``.asm`` and ``.src`` are used by every assembler, so they decide
nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

from toolchain.asm.assembler import AssemblyOptions, Program

NAMES = ("profi", "64tass", "acme")

# .tas says "Turbo Assembler source", and ACME sources use it too (VICE's test programs):
# only ACME's own extensions decide
_EXTENSIONS = {".a": "acme", ".acme": "acme"}
# a directive that only one dialect has, at the start of a statement
_ACME_DIRECTIVE = re.compile(r"^[ \t]*(?:[A-Za-z_.@][\w.]*[ \t]+)?!(?:to|cpu|source|src|zone|zn|byte|by|08|8|"
                             r"word|wo|16|24|32|pet|scr|raw|text|tx|fill|fi|binary|bin|macro|if|ifdef|ifndef|"
                             r"for|set|pseudopc|align|convtab|ct|initmem|warn|error|serious|do|while|eof|"
                             r"endoffile|sl|symbollist|addr|address|hex|h|skip|xor|scrxor|le16|be16)\b",
                             re.IGNORECASE | re.MULTILINE)
_TASS_DIRECTIVE = re.compile(r"^[ \t]*(?:[A-Za-z_][\w]*:?[ \t]+)?\.(?:cpu|proc|pend|enc|block|bend|null|"
                             r"logical|"
                             r"here|dsection|section|send|rept|segment|namespace|endn|cerror|cwarn|shift|ptext|"
                             r"elsif|virtual|endv|binclude|var|lbl|char|sint|dword|addr|rta|macro|endm|"
                             r"for|next)\b", re.IGNORECASE | re.MULTILINE)


def detect(path: str, text: str) -> tuple[str, str]:
    """The dialect of a source and why: (name, reason)."""
    suffix = Path(path).suffix.lower()
    if suffix in _EXTENSIONS:
        return _EXTENSIONS[suffix], f"from the extension {suffix}"
    acme = _ACME_DIRECTIVE.search(text)
    tass = _TASS_DIRECTIVE.search(text)
    if acme and (not tass or acme.start() < tass.start()):
        word = acme.group().strip().split()[-1].split("!")[-1]
        return "acme", f"from its first directive !{word.lower()}"
    if tass:
        word = tass.group().strip().split()[-1].lstrip(".")
        return "64tass", f"from its first directive .{word.lower()}"
    return "profi", "the default"


def assemble_dialect(sources: list[tuple[str, str]], options: AssemblyOptions) -> Program:
    if options.dialect == "64tass":
        from toolchain.asm.tass import TassAssembly

        assembly = TassAssembly(sources, options)
    elif options.dialect == "acme":
        from toolchain.asm.acme import AcmeAssembly

        assembly = AcmeAssembly(sources, options)  # type: ignore[assignment]
    else:
        raise ValueError(f"unknown dialect {options.dialect!r}")
    assembly.dialect_reason = options.dialect_reason
    return assembly.run()


def foreign_directive(text: str, dialect: str) -> str | None:
    """If ``text`` starts with a directive of another dialect than ``dialect``, the
    message that says whose it is and what to do; else None."""
    match = re.match(r"([!.])([A-Za-z0-9_]+)", text)
    if match is None:
        return None
    prefix, word = match.group(1), match.group(2).lower()
    if prefix == "!":
        from toolchain.asm.acme import PSEUDO_OPS

        if word in PSEUDO_OPS and dialect != "acme":
            return (f"'!{word}' is an ACME directive, and this source is read as {_SHOWN[dialect]} "
                    "(--dialect acme reads ACME sources; so does the extension .a)")
        return None
    from toolchain.asm.parser import DATA_DIRECTIVES, PASS_DIRECTIVES
    from toolchain.asm.tass import DIRECTIVES

    profi = f".{word}" in DATA_DIRECTIVES or f".{word}" in PASS_DIRECTIVES or word == "opt"
    if word in DIRECTIVES and dialect == "profi" and not profi:
        return (f"'.{word}' is a 64tass directive, and this source is read as Profi-Ass (--dialect 64tass "
                "reads 64tass sources)")
    return None


_SHOWN = {"profi": "Profi-Ass", "64tass": "64tass", "acme": "ACME"}
