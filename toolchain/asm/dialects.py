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

from toolchain.asm import assembler
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


def assemble(text: str, path: str = "<source>", options: AssemblyOptions | None = None) -> Program:
    """Assemble a source text in ``options.dialect``.  Raises AssemblyFailed with every
    error found."""
    return assemble_sources([(text, path)], options)


def assemble_sources(sources: list[tuple[str, str]], options: AssemblyOptions | None = None) -> Program:
    """Assemble several source texts (text, path) as one program, in order, in
    ``options.dialect`` (Profi-Ass by default)."""
    options = options or AssemblyOptions()
    if options.dialect == "profi":
        return assembler.assemble_sources(sources, options)
    return assemble_dialect(sources, options)


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


