"""The KERNAL's and BASIC's routines that programs call, carried out in Python when the
CPU reaches their entry points and the machine has no ROM images (the real ROMs are
not ours to ship; with ``--roms`` the real code runs instead).

A routine is registered for its address with :func:`routine`: ``@routine(0xFFD2,
"CHROUT")``.  It works on the machine (registers in ``machine.cpu``, memory through
``machine.read``/``machine.write`` or ``machine.memory``) and returns None to return
to its caller as its RTS would, or an address where the CPU goes on (a routine that is
jumped to, like the interrupt handler's exit).  Time spent inside a routine is not
counted in the cycles (the JSR and RTS are).

``ROM_NAMES`` names the ROM's entry points for messages: a jump to one that is not
modelled stops with its name and the suggestion to use the real ROMs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from toolchain.c64.memory import BRK_VECTOR, IRQ_VECTOR, JIFFY_CLOCK, NMI_VECTOR, read_word
from toolchain.c64.outcome import Stop

if TYPE_CHECKING:
    from toolchain.c64.machine import C64

Routine = Callable[["C64"], "int | None"]
ROUTINES: dict[int, tuple[str, Routine]] = {}

# Known entry points (the KERNAL jump table and the routines magazine programs call),
# from the C64 Programmer's Reference Guide and Mäkelä's commented ROM listing.
ROM_NAMES: dict[int, str] = {
    0xFF81: "CINT", 0xFF84: "IOINIT", 0xFF87: "RAMTAS", 0xFF8A: "RESTOR", 0xFF8D: "VECTOR",
    0xFF90: "SETMSG", 0xFF93: "SECOND", 0xFF96: "TKSA", 0xFF99: "MEMTOP", 0xFF9C: "MEMBOT",
    0xFF9F: "SCNKEY", 0xFFA2: "SETTMO", 0xFFA5: "ACPTR", 0xFFA8: "CIOUT", 0xFFAB: "UNTLK",
    0xFFAE: "UNLSN", 0xFFB1: "LISTEN", 0xFFB4: "TALK", 0xFFB7: "READST", 0xFFBA: "SETLFS",
    0xFFBD: "SETNAM", 0xFFC0: "OPEN", 0xFFC3: "CLOSE", 0xFFC6: "CHKIN", 0xFFC9: "CHKOUT",
    0xFFCC: "CLRCHN", 0xFFCF: "CHRIN", 0xFFD2: "CHROUT", 0xFFD5: "LOAD", 0xFFD8: "SAVE",
    0xFFDB: "SETTIM", 0xFFDE: "RDTIM", 0xFFE1: "STOP", 0xFFE4: "GETIN", 0xFFE7: "CLALL",
    0xFFEA: "UDTIM", 0xFFED: "SCREEN", 0xFFF0: "PLOT", 0xFFF3: "IOBASE",
    0xE50A: "PLOT (the editor's)", 0xE510: "set the cursor from 211/214", 0xE544: "clear the screen",
    0xE566: "home the cursor", 0xE56C: "set the screen pointers for the cursor",
    0xE716: "the screen editor's output", 0xE9FF: "clear a screen line", 0xEA31: "the IRQ handler",
    0xEA81: "the IRQ handler's exit", 0xEB42: "keyboard decode", 0xEB48: "keyboard decode",
    0xFCE2: "reset", 0xFE66: "the warm start (BRK, RUN/STOP-RESTORE)", 0xFF48: "the IRQ entry",
    0xA3BF: "BASIC's block move (BLTU)", 0xA560: "BASIC's line input (INLIN)",
    0xAB1E: "BASIC's string output (STROUT)", 0xBDCD: "BASIC's number output (LINPRT)",
    0xA474: "BASIC's READY.", 0xA533: "BASIC's relink (LINKPRG)", 0xA659: "BASIC's CLR",
    0xA7AE: "BASIC's statement loop (NEWSTT)", 0xAD9E: "BASIC's expression evaluator (FRMEVL)",
    0xB79E: "BASIC's byte parameter (GETBYTC)", 0xE1D4: "BASIC's LOAD/SAVE parameters",
}  # fmt: skip


def routine(address: int, name: str) -> Callable[[Routine], Routine]:
    """Register ``function`` as the Python model of the ROM routine at ``address``."""

    def register(function: Routine) -> Routine:
        ROUTINES[address] = (name, function)
        ROM_NAMES.setdefault(address, name)
        return function

    return register


def name_of(address: int) -> str:
    """A ROM address as a message names it: ``$FFBA (SETLFS)``."""
    name = ROM_NAMES.get(address)
    return f"${address:04X} ({name})" if name else f"${address:04X}"


# -- the screen and the keyboard ---------------------------------------------------------------

@routine(0xFFD2, "CHROUT")
def chrout(machine: C64) -> None:
    machine.print_byte(machine.cpu.a)
    machine.cpu.c = 0


@routine(0xAB1E, "STROUT")
def strout(machine: C64) -> None:
    """BASIC's string output: the zero-ended string at A (low) / Y (high)."""
    cpu = machine.cpu
    address = cpu.a | cpu.y << 8
    for _ in range(0x10000):
        byte = machine.read(address)
        if not byte:
            break
        machine.print_byte(byte)
        address = (address + 1) & 0xFFFF


@routine(0xFFCF, "CHRIN")
def chrin(machine: C64) -> None:
    cpu = machine.cpu
    cpu.a = machine.chrin()
    cpu.c = 0


@routine(0xFFE4, "GETIN")
def getin(machine: C64) -> None:
    key = machine.keyboard.next_key()
    if key is None:
        if machine.keyboard.exhausted:
            machine.stop(Stop.INPUT_EXHAUSTED, "the program waits for a key, but the input is used up")
        key = 0
    cpu = machine.cpu
    cpu.a = key
    cpu.z = int(key == 0)
    cpu.c = 0


@routine(0xFFE1, "STOP")
def stop_key(machine: C64) -> None:
    machine.cpu.z = 0  # the STOP key is never pressed


@routine(0xFFF0, "PLOT")
def plot(machine: C64) -> None:
    cpu = machine.cpu
    if cpu.c:
        cpu.x, cpu.y = machine.screen.cursor()
    else:
        machine.screen.set_cursor(cpu.x, cpu.y)


@routine(0xFFCC, "CLRCHN")
def clrchn(machine: C64) -> None:
    pass


# -- interrupts ------------------------------------------------------------------------------------

@routine(0xFF48, "the IRQ entry")
def irq_entry(machine: C64) -> int:
    """The KERNAL's IRQ entry: A, X, Y on the stack, then through ($0316) for a BRK
    (the B flag in the pushed status), else through ($0314)."""
    cpu = machine.cpu
    status = machine.memory[0x100 + ((cpu.sp + 1) & 0xFF)]
    cpu.push(cpu.a)
    cpu.push(cpu.x)
    cpu.push(cpu.y)
    vector = BRK_VECTOR if status & 0x10 else IRQ_VECTOR
    return read_word(machine.memory, vector)


@routine(0xEA31, "the IRQ handler")
def irq_handler(machine: C64) -> int:
    """The standard interrupt: the jiffy clock, then acknowledge CIA 1 and return
    ($EA7E).  The cursor blink and the keyboard scan need no work here: keys reach the
    buffer when the program waits for them, and the cursor is drawn by the live view."""
    machine.tick_jiffy_clock()
    return 0xEA7E


@routine(0xEA34, "the IRQ handler after the clock")
def irq_handler_without_clock(machine: C64) -> int:
    """$EA34: the handler past its clock update (POKE 788,52 points the IRQ here: the
    jiffy clock stops, and with it the STOP key's check)."""
    return 0xEA7E


@routine(0xEA7E, "the IRQ handler's exit")
def irq_acknowledge(machine: C64) -> int:
    machine.read(0xDC0D)  # reading the interrupt control register clears CIA 1's flags
    return 0xEA81


@routine(0xEA81, "the IRQ handler's exit")
def irq_exit(machine: C64) -> int:
    """Y, X, A back from the stack, RTI."""
    cpu = machine.cpu
    cpu.y = cpu.pull()
    cpu.x = cpu.pull()
    cpu.a = cpu.pull()
    cpu.p = cpu.pull()
    low = cpu.pull()
    return cpu.pull() << 8 | low


@routine(0xFE47, "the NMI entry")
def nmi_entry(machine: C64) -> int:
    """An NMI (RESTORE, CIA 2) without a program's handler: return from it."""
    cpu = machine.cpu
    cpu.p = cpu.pull()
    low = cpu.pull()
    return cpu.pull() << 8 | low


@routine(0xFE66, "the warm start (BRK, RUN/STOP-RESTORE)")
def warm_start(machine: C64) -> int:
    """BRK (and RUN/STOP-RESTORE): the KERNAL restores its vectors and I/O, clears the
    screen, and BASIC says READY. (measured on VICE: tests/data/machine/brk)."""
    machine.stop(Stop.BRK, machine.warm_start())
    return 0  # not reached


def jiffy_clock(memory: bytearray) -> int:
    return memory[JIFFY_CLOCK] << 16 | memory[JIFFY_CLOCK + 1] << 8 | memory[JIFFY_CLOCK + 2]


__all__ = ["NMI_VECTOR", "ROM_NAMES", "ROUTINES", "name_of", "routine"]
