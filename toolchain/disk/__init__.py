"""PRG files and D64 disk images."""

from toolchain.disk.prg import Prg

__all__ = ["Prg"]
