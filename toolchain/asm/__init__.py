"""The 6502 assembler for the Profi-Ass dialect of 64'er magazine listings.

Public API: :func:`assemble` (source text -> :class:`Program`), :class:`AssemblyFailed`,
and the output formats in :mod:`toolchain.asm.output`.
"""

from toolchain.asm.assembler import AssemblyFailed, Program, SymbolInfo, assemble

__all__ = ["AssemblyFailed", "Program", "SymbolInfo", "assemble"]
