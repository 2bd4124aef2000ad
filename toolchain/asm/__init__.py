"""The 6502 assembler for the Profi-Ass dialect of 64'er magazine listings, and for
64tass's and ACME's (:mod:`toolchain.asm.dialects`).

Public API: :func:`assemble` (source text -> :class:`Program`), :func:`assemble_sources`
(several texts as one program), :class:`AssemblyOptions` (include paths, -D definitions,
undocumented opcodes, warnings), :func:`parse_define`, :class:`AssemblyFailed`,
and the output formats in :mod:`toolchain.asm.output`.
"""

from toolchain.asm.assembler import AssemblyFailed, AssemblyOptions, Program, SymbolInfo, parse_define
from toolchain.asm.dialects import assemble, assemble_sources

__all__ = ["AssemblyFailed", "AssemblyOptions", "Program", "SymbolInfo", "assemble", "assemble_sources",
           "parse_define"]
