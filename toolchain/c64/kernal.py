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

from toolchain.c64.editor import ENTRY_POINTS as EDITOR_ENTRY_POINTS
from toolchain.c64.memory import (
    BRK_VECTOR,
    IRQ_VECTOR,
    JIFFY_CLOCK,
    NMI_VECTOR,
    STOP_KEY,
    read_word,
    write_word,
)
from toolchain.c64.outcome import Stop
from toolchain.cpu.disassembler import KERNAL_NAMES

if TYPE_CHECKING:
    from toolchain.c64.machine import C64
    from toolchain.cpu.core import CPU

Routine = Callable[["C64"], "int | None"]
RUN_STOP_HELD = 0x7F  # STKEY while RUN/STOP (alone) is held: its column bit low
ROUTINES: dict[int, tuple[str, Routine]] = {}

# Known entry points (the KERNAL jump table and the routines magazine programs call),
# from the C64 Programmer's Reference Guide and Mäkelä's commented ROM listing.
ROM_NAMES: dict[int, str] = {
    **{address: name.upper() for address, name in KERNAL_NAMES.items()},  # the jump table
    **EDITOR_ENTRY_POINTS,
    0xEA31: "the IRQ handler",
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


# -- the KERNAL's variables for channels and files ----------------------------------------------
STATUS = 0x90  # ST
OPEN_FILES = 0x98  # LDTND: how many files are open
INPUT_DEVICE, OUTPUT_DEVICE = 0x99, 0x9A  # DFLTN, DFLTO
MESSAGES = 0x9D  # MSGFLG: bit 7 control messages, bit 6 error messages
NAME_LENGTH, LOGICAL_FILE, SECONDARY, DEVICE, NAME_POINTER = 0xB7, 0xB8, 0xB9, 0xBA, 0xBB
FILE_NUMBERS, FILE_DEVICES, FILE_SECONDARIES = 0x0259, 0x0263, 0x026D  # LAT, FAT, SAT
MEMORY_BOTTOM, MEMORY_TOP = 0x0281, 0x0283  # MEMSTR, MEMSIZ (the KERNAL's)
MAX_OPEN_FILES = 10
KEYBOARD, TAPE, RS232, SCREEN, PRINTER = 0, 1, 2, 3, 4
# KERNAL error numbers (carry set, the number in A; with messages on, "I/O ERROR #n")
TOO_MANY_FILES, FILE_OPEN, FILE_NOT_OPEN, FILE_NOT_FOUND, DEVICE_NOT_PRESENT = 1, 2, 3, 4, 5
NOT_INPUT_FILE, NOT_OUTPUT_FILE, MISSING_FILE_NAME, ILLEGAL_DEVICE = 6, 7, 8, 9
# the serial bus's status when nothing answers: time-out and device not present
NOTHING_ANSWERS = 0x80

# the jump table's vectors ($031A-$0333) and the routines they point to after power-on
JUMP_VECTORS = {0xFFC0: 0x031A, 0xFFC3: 0x031C, 0xFFC6: 0x031E, 0xFFC9: 0x0320, 0xFFCC: 0x0322,
                0xFFCF: 0x0324, 0xFFD2: 0x0326, 0xFFE1: 0x0328, 0xFFE4: 0x032A, 0xFFE7: 0x032C}  # fmt: skip


def _through_vector(entry: int, vector: int) -> None:
    """The jump table entry ``entry`` is JMP (``vector``): the CPU goes where the vector
    points (a program's hook, or the KERNAL's routine)."""

    def jump(machine: C64) -> int:
        return read_word(machine.memory, vector)

    routine(entry, ROM_NAMES[entry])(jump)


for _entry, _vector in JUMP_VECTORS.items():
    _through_vector(_entry, _vector)


def _ok(machine: C64) -> None:
    machine.cpu.c = 0


def _error(machine: C64, number: int) -> None:
    """A KERNAL error: carry set, the number in A, and "I/O ERROR #n" when the
    messages are on (the KERNAL's $F6FB-$F72A)."""
    cpu = machine.cpu
    if machine.memory[MESSAGES] & 0x40:
        for byte in f"\rI/O ERROR #{number}".encode("ascii"):
            machine.chrout(byte)
    cpu.a = number
    cpu.c = 1


def _find_file(machine: C64, number: int) -> int | None:
    """The table index of logical file ``number``."""
    memory = machine.memory
    for index in range(min(memory[OPEN_FILES], MAX_OPEN_FILES)):
        if memory[FILE_NUMBERS + index] == number:
            return index
    return None


@routine(0xF34A, "OPEN")
def open_file(machine: C64) -> None:
    """OPEN ($F34A): logical file, device, secondary address and name from SETLFS and
    SETNAM into the file tables; the keyboard, the screen and the printer (device 4,
    collected by c64tc) open; tape and disk drives are not attached."""
    memory = machine.memory
    number, device = memory[LOGICAL_FILE], memory[DEVICE]
    if number == 0:
        return _error(machine, NOT_INPUT_FILE)
    if _find_file(machine, number) is not None:
        return _error(machine, FILE_OPEN)
    count = memory[OPEN_FILES]
    if count >= MAX_OPEN_FILES:
        return _error(machine, TOO_MANY_FILES)
    if device not in (KEYBOARD, SCREEN, PRINTER):
        return _device_missing(machine, device)
    memory[FILE_NUMBERS + count] = number
    memory[FILE_DEVICES + count] = device
    memory[FILE_SECONDARIES + count] = memory[SECONDARY] | 0x60
    memory[OPEN_FILES] = count + 1
    return _ok(machine)


def _device_missing(machine: C64, device: int) -> None:
    if device == TAPE:
        machine.stop(Stop.ROM_CALL, "the program uses the datasette (device 1): c64tc has no tape drive")
    if device == RS232:
        machine.stop(Stop.ROM_CALL, "the program uses the RS-232 port (device 2): c64tc has none")
    machine.memory[STATUS] |= NOTHING_ANSWERS
    return _error(machine, DEVICE_NOT_PRESENT)


@routine(0xF291, "CLOSE")
def close_file(machine: C64) -> None:
    """CLOSE ($F291): logical file A out of the tables (closing one that is not open
    is no error)."""
    memory = machine.memory
    index = _find_file(machine, machine.cpu.a)
    if index is not None:
        last = memory[OPEN_FILES] - 1
        for table in (FILE_NUMBERS, FILE_DEVICES, FILE_SECONDARIES):
            memory[table + index] = memory[table + last]
        memory[OPEN_FILES] = last
    return _ok(machine)


@routine(0xF20E, "CHKIN")
def chkin(machine: C64) -> None:
    """CHKIN ($F20E): logical file X becomes the input channel."""
    memory = machine.memory
    index = _find_file(machine, machine.cpu.x)
    if index is None:
        return _error(machine, FILE_NOT_OPEN)
    device = memory[FILE_DEVICES + index]
    if device == PRINTER:
        return _error(machine, NOT_INPUT_FILE)
    memory[INPUT_DEVICE] = device
    return _ok(machine)


@routine(0xF250, "CHKOUT")
def chkout(machine: C64) -> None:
    """CHKOUT ($F250): logical file X becomes the output channel."""
    memory = machine.memory
    index = _find_file(machine, machine.cpu.x)
    if index is None:
        return _error(machine, FILE_NOT_OPEN)
    device = memory[FILE_DEVICES + index]
    if device == KEYBOARD:
        return _error(machine, NOT_OUTPUT_FILE)
    memory[OUTPUT_DEVICE] = device
    return _ok(machine)


@routine(0xF333, "CLRCHN")
def clrchn(machine: C64) -> None:
    """CLRCHN ($F333): input from the keyboard, output to the screen again (leaving
    X = 3 and A = 0 with Z and C set, as the ROM's LDX #3 / CPX / LDA #0 do)."""
    machine.memory[INPUT_DEVICE] = KEYBOARD
    machine.memory[OUTPUT_DEVICE] = SCREEN
    cpu = machine.cpu
    cpu.x, cpu.c = SCREEN, 1
    _load_a(cpu, 0)


@routine(0xF32F, "CLALL")
def clall(machine: C64) -> None:
    machine.memory[OPEN_FILES] = 0
    clrchn(machine)


@routine(0xF1CA, "CHROUT")
def chrout(machine: C64) -> None:
    """CHROUT ($F1CA): A to the output channel: the screen, or c64tc's printer."""
    cpu = machine.cpu
    device = machine.memory[OUTPUT_DEVICE]
    if device == SCREEN:
        machine.screen_output(cpu.a)
    elif device == PRINTER:
        machine.printer.append(cpu.a)
    elif device != KEYBOARD:
        machine.memory[STATUS] |= NOTHING_ANSWERS
    cpu.c = 0


@routine(0xF157, "CHRIN")
def chrin(machine: C64) -> None:
    """CHRIN ($F157): a byte from the input channel: a typed line from the keyboard
    (through the screen editor), the screen."""
    cpu = machine.cpu
    device = machine.memory[INPUT_DEVICE]
    if device in (KEYBOARD, SCREEN):
        cpu.a = machine.chrin()
    else:
        machine.memory[STATUS] |= NOTHING_ANSWERS
        cpu.a = 0x0D
    cpu.c = 0


@routine(0xF13E, "GETIN")
def getin(machine: C64) -> None:
    """GETIN ($F13E): a key from the keyboard buffer (0 when none), else CHRIN."""
    cpu = machine.cpu
    if machine.memory[INPUT_DEVICE] != KEYBOARD:
        chrin(machine)
        return
    key = machine.keyboard.next_key()
    if key is None:
        if machine.keyboard.exhausted:
            machine.stop(Stop.INPUT_EXHAUSTED, "the program waits for a key, but the input is used up")
        key = 0
    cpu.a = key
    cpu.z = int(key == 0)
    cpu.n = key >> 7
    cpu.c = 0


@routine(0xF6ED, "STOP")
def stop_key(machine: C64) -> None:
    """STOP ($F6ED): compares STKEY ($91) with $7F, RUN/STOP's column bit: Z set while
    RUN/STOP is held, and then the channels and the keyboard buffer are cleared (A = 0,
    X = 3).  Otherwise A holds STKEY; the flags are the comparison's."""
    cpu, memory = machine.cpu, machine.memory
    column = RUN_STOP_HELD if machine.keyboard.stop_pressed() else memory[STOP_KEY]
    difference = column - RUN_STOP_HELD
    if column == RUN_STOP_HELD:
        clrchn(machine)
        memory[0xC6] = 0
    else:
        cpu.a = column
    cpu.c, cpu.z, cpu.n = int(difference >= 0), int(difference == 0), difference >> 7 & 1


@routine(0xAB1E, "STROUT")
def strout(machine: C64) -> None:
    """BASIC's string output: the zero-ended string at A (low) / Y (high), through CHROUT."""
    cpu = machine.cpu
    address = cpu.a | cpu.y << 8
    for _ in range(0x10000):
        byte = machine.read(address)
        if not byte:
            break
        machine.chrout(byte)
        address = (address + 1) & 0xFFFF


@routine(0xFFF0, "PLOT")
def plot(machine: C64) -> None:
    """PLOT ($E50A): read (carry set: row to X, column to Y) or set the cursor."""
    _editor_call(machine, 0xE50A)
    _set_nz(machine.cpu, machine.cpu.y)  # $E513: LDX $D6 / LDY $D3


def _editor_call(machine: C64, address: int) -> None:
    """A screen editor routine with the registers the program gives it, returning
    them as the ROM's routine leaves them."""
    cpu = machine.cpu
    registers = machine.editor.call(address, cpu.a, cpu.x, cpu.y, bool(cpu.c))
    if registers is None:
        machine.stop(Stop.INPUT_EXHAUSTED, "the program waits for a typed line, but the input is used up")
    else:
        cpu.a, cpu.x, cpu.y = registers


def _editor_routine(address: int) -> Routine:
    def editor_routine(machine: C64) -> None:
        _editor_call(machine, address)

    return editor_routine


# the screen editor's entry points that programs call (the port in toolchain.c64.editor)
for _address, _name in EDITOR_ENTRY_POINTS.items():
    if _address != 0xE716:
        routine(_address, _name)(_editor_routine(_address))


@routine(0xE716, "output a character to the screen")
def screen_output(machine: C64) -> None:
    """$E716: A to the screen, whatever the output channel (kept for the transcript)."""
    machine.screen_output(machine.cpu.a)


@routine(0xFFBA, "SETLFS")
def setlfs(machine: C64) -> None:
    memory, cpu = machine.memory, machine.cpu
    memory[LOGICAL_FILE], memory[DEVICE], memory[SECONDARY] = cpu.a, cpu.x, cpu.y


@routine(0xFFBD, "SETNAM")
def setnam(machine: C64) -> None:
    memory, cpu = machine.memory, machine.cpu
    memory[NAME_LENGTH], memory[NAME_POINTER], memory[NAME_POINTER + 1] = cpu.a, cpu.x, cpu.y


@routine(0xFFB7, "READST")
def readst(machine: C64) -> None:
    _load_a(machine.cpu, machine.memory[STATUS])


@routine(0xFF90, "SETMSG")
def setmsg(machine: C64) -> None:
    machine.memory[MESSAGES] = machine.cpu.a
    _load_a(machine.cpu, machine.memory[STATUS])  # $FE18 runs on into READST


@routine(0xFF99, "MEMTOP")
def memtop(machine: C64) -> None:
    _memory_pointer(machine, MEMORY_TOP)


@routine(0xFF9C, "MEMBOT")
def membot(machine: C64) -> None:
    _memory_pointer(machine, MEMORY_BOTTOM)


def _memory_pointer(machine: C64, pointer: int) -> None:
    """MEMTOP/MEMBOT: carry set reads the pointer into X (low) and Y, clear sets it."""
    memory, cpu = machine.memory, machine.cpu
    if cpu.c:
        cpu.x, cpu.y = memory[pointer], memory[pointer + 1]
        _set_nz(cpu, cpu.y)
    else:
        memory[pointer], memory[pointer + 1] = cpu.x, cpu.y


@routine(0xFFDB, "SETTIM")
def settim(machine: C64) -> None:
    memory, cpu = machine.memory, machine.cpu
    memory[JIFFY_CLOCK + 2], memory[JIFFY_CLOCK + 1], memory[JIFFY_CLOCK] = cpu.a, cpu.x, cpu.y


@routine(0xFFDE, "RDTIM")
def rdtim(machine: C64) -> None:
    memory, cpu = machine.memory, machine.cpu
    cpu.a, cpu.x, cpu.y = memory[JIFFY_CLOCK + 2], memory[JIFFY_CLOCK + 1], memory[JIFFY_CLOCK]
    _set_nz(cpu, cpu.y)


@routine(0xFFEA, "UDTIM")
def udtim(machine: C64) -> None:
    machine.tick_jiffy_clock()


@routine(0xFFED, "SCREEN")
def screen_size(machine: C64) -> None:
    machine.cpu.x, machine.cpu.y = 40, 25


@routine(0xFFF3, "IOBASE")
def iobase(machine: C64) -> None:
    machine.cpu.x, machine.cpu.y = 0x00, 0xDC


@routine(0xFFA2, "SETTMO")
def settmo(machine: C64) -> None:
    machine.memory[0x0285] = machine.cpu.a


@routine(0xFF9F, "SCNKEY")
def scnkey(machine: C64) -> None:
    """SCNKEY: the keyboard scan puts a pressed key into the buffer (a typed key, when
    the buffer is empty)."""
    if not machine.keyboard.buffered():
        machine.keyboard.fill(1)


@routine(0xFF8A, "RESTOR")
def restor(machine: C64) -> None:
    """RESTOR ($FD15): the KERNAL's vectors at $0314-$0333 as after power-on."""
    from toolchain.c64.memory import KERNAL_VECTOR_VALUES, write_word

    for index, value in enumerate(KERNAL_VECTOR_VALUES):
        write_word(machine.memory, IRQ_VECTOR + 2 * index, value)
    # its copy loop ($FD1A) leaves the table's address low byte in X, the last (first)
    # byte copied in A, and Y = $FF (N set)
    cpu = machine.cpu
    cpu.x, cpu.y = 0x30, 0xFF
    cpu.a = KERNAL_VECTOR_VALUES[0] & 0xFF
    _set_nz(cpu, cpu.y)


@routine(0xFF8D, "VECTOR")
def vector(machine: C64) -> None:
    """VECTOR ($FD1A): the 32 bytes of vectors from (carry clear) or to (carry set) the
    table at X (low) / Y."""
    cpu, memory = machine.cpu, machine.memory
    table = cpu.x | cpu.y << 8
    for offset in range(32):
        if cpu.c:
            machine.write((table + offset) & 0xFFFF, memory[IRQ_VECTOR + offset])
        else:
            memory[IRQ_VECTOR + offset] = machine.read((table + offset) & 0xFFFF)


def _set_nz(cpu: CPU, value: int) -> None:
    """N and Z as the routine's last load leaves them (programs test them after a call)."""
    cpu.n, cpu.z = value >> 7 & 1, int(value == 0)


def _load_a(cpu: CPU, value: int) -> None:
    cpu.a = value
    _set_nz(cpu, value)


def _serial_silence(name: str) -> Routine:
    """The serial bus routines: no drive or printer answers on the bus itself (the
    printer c64tc collects is reached through OPEN and CHROUT)."""

    def nobody(machine: C64) -> None:
        machine.memory[STATUS] |= NOTHING_ANSWERS
        machine.cpu.c = 1

    return nobody


for _address, _name in ((0xFF93, "SECOND"), (0xFF96, "TKSA"), (0xFFA5, "ACPTR"), (0xFFA8, "CIOUT"),
                        (0xFFAB, "UNTLK"), (0xFFAE, "UNLSN"), (0xFFB1, "LISTEN"), (0xFFB4, "TALK")):
    routine(_address, _name)(_serial_silence(_name))


@routine(0xF4A5, "LOAD")
def load(machine: C64) -> None:
    """LOAD ($F4A5): c64tc has no drive or tape attached here."""
    _device_missing(machine, machine.memory[DEVICE])


@routine(0xF5ED, "SAVE")
def save(machine: C64) -> None:
    _device_missing(machine, machine.memory[DEVICE])


@routine(0xFFD5, "LOAD")
def load_entry(machine: C64) -> int:
    """LOAD's entry ($F49E): the address from X/Y, then through ($0330)."""
    memory, cpu = machine.memory, machine.cpu
    memory[0xC3], memory[0xC4], memory[0x93] = cpu.x, cpu.y, cpu.a
    return read_word(memory, 0x0330)


@routine(0xFFD8, "SAVE")
def save_entry(machine: C64) -> int:
    """SAVE's entry ($F5DD): the start from the zero-page pointer in A, the end from
    X/Y, then through ($0332)."""
    memory, cpu = machine.memory, machine.cpu
    memory[0xAE], memory[0xAF] = cpu.x, cpu.y
    memory[0xC1], memory[0xC2] = memory[cpu.a], memory[(cpu.a + 1) & 0xFF]
    return read_word(memory, 0x0332)


# -- BASIC's routines machine code calls ----------------------------------------------------------

@routine(0xBDCD, "BASIC's number output (LINPRT)")
def linprt(machine: C64) -> None:
    """LINPRT: the unsigned number A * 256 + X, printed as PRINT prints it (no
    leading space: the sign position of a positive number is not printed)."""
    from toolchain.basic.floats import format_number

    cpu = machine.cpu
    for byte in format_number(float(cpu.a << 8 | cpu.x)).lstrip(" ").encode("ascii"):
        machine.chrout(byte)


@routine(0xA3BF, "BASIC's block move (BLTU)")
def block_move(machine: C64) -> None:
    """BLTU ($A3BF, after its memory check): the bytes from ($5F) up to ($5A) moved up
    so that they end at ($58), copied from the top down."""
    memory = machine.memory
    start, end, new_end = read_word(memory, 0x5F), read_word(memory, 0x5A), read_word(memory, 0x58)
    count = (end - start) & 0xFFFF
    for offset in range(1, count + 1):
        machine.write((new_end - offset) & 0xFFFF, machine.read((end - offset) & 0xFFFF))
    write_word(memory, 0x58, (new_end - count) & 0xFFFF)
    write_word(memory, 0x5A, start)


@routine(0xA560, "BASIC's line input (INLIN)")
def inlin(machine: C64) -> None:
    """INLIN: a typed line into BASIC's input buffer at $0200 (at most 88 characters),
    a 0 after it; X/Y point to the byte before the buffer, as the ROM leaves them."""
    memory, cpu = machine.memory, machine.cpu
    count = 0
    while True:
        byte = machine.chrin()
        if byte == 0x0D:
            break
        if count >= 88:
            machine.stop(Stop.ERROR, "?STRING TOO LONG  ERROR (BASIC's line input: more than 88 characters)")
        memory[0x0200 + count] = byte
        count += 1
    memory[0x0200 + count] = 0
    cpu.x, cpu.y = 0xFF, 0x01
    if memory[0x13] == 0:  # $AACA: on the default channel, RETURN is printed after the line
        machine.chrout(0x0D)
        cpu.a = 0x0D ^ 0xFF


@routine(0xA474, "BASIC's READY.")
def ready(machine: C64) -> None:
    """Machine code that goes to BASIC's READY. ends the program: READY. is shown."""
    for byte in b"\rREADY.\r":
        machine.chrout(byte)
    machine.stop(Stop.READY, "the program went to BASIC's READY.")


@routine(0xFCE2, "reset")
def reset(machine: C64) -> None:
    machine.stop(Stop.READY, "the program reset the C64 (SYS 64738): c64tc ends the run there")


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
    """The standard interrupt: the jiffy clock and the cursor blink (then acknowledge
    CIA 1 and return, $EA7E).  The keyboard scan needs no work here: keys reach the
    buffer when the program waits for them."""
    machine.standard_interrupt()
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
