"""The BASIC V2 runner: a tokenized program compiled to Python and run as the C64's
interpreter would, with the ROM's arithmetic, on the emulated machine.

Modules, in the order a program passes through them:

* :mod:`.loader`: what LOAD does (the program at $0801, its lines relinked);
* :mod:`.expressions`, :mod:`.statements`: the compiler, tokenized lines to segments
  of Python code, each with its exit;
* :mod:`.linker`: segments to one module (superblocks, ``# line N`` comments);
* :mod:`.runtime`: variables, stack, arrays, DATA, SYS/PEEK/POKE, the dispatcher;
* :mod:`.io`: PRINT, INPUT, GET and files through the machine's screen and keyboard;
* :mod:`.values`: the functions and arrays the generated code calls;
* :mod:`.contract`: what compiler and runtime agree on (kinds, names, frames, errors).

Programs are run through :mod:`toolchain.c64.run`, the one way to run anything.
"""

from toolchain.basic.runner.contract import BasicError
from toolchain.basic.runner.loader import as_loaded, is_basic_program
from toolchain.basic.runner.runtime import Runtime, compile_program

__all__ = ["BasicError", "Runtime", "as_loaded", "compile_program", "is_basic_program"]
