"""A machine-language monitor in the style of VICE's, for machine code on the emulated
C64: ``c64tc monitor PROGRAM`` and ``c64tc run PROGRAM --sys ADDRESS --monitor``.

* :mod:`~toolchain.monitor.syntax`: the command language (VICE's letters and numbers);
* :mod:`~toolchain.monitor.session`: the session (checkpoints, stepping, the commands);
* :mod:`~toolchain.monitor.commands`: memory, files and the machine (a, f, h, c, t, s, l,
  bs, bl, io, bank, reset), with :mod:`~toolchain.monitor.assemble` (``a``'s
  instructions) and :mod:`~toolchain.monitor.chips` (``io``'s details);
* :mod:`~toolchain.monitor.display`: VICE's output formats;
* :mod:`~toolchain.monitor.instructions`: what one instruction reads, writes, and where
  it goes;
* :mod:`~toolchain.monitor.labels`: names for addresses (VICE label files);
* :mod:`~toolchain.monitor.script`: commands from a file (``--monitor-commands``);
* :mod:`~toolchain.monitor.basic`: BASIC's break lines (``--break-line``).
"""

from toolchain.monitor.labels import Labels
from toolchain.monitor.session import Checkpoint, CommandError, Monitor

__all__ = ["Checkpoint", "CommandError", "Labels", "Monitor"]
