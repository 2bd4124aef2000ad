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
from typing import TYPE_CHECKING, TypeVar

from toolchain.c64.drive import END_OF_FILE, DriveUnsupported
from toolchain.c64.editor import ENTRY_POINTS as EDITOR_ENTRY_POINTS
from toolchain.c64.memory import (
    BRK_VECTOR,
    CURLIN,
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
    from toolchain.c64.drive import SerialBus
    from toolchain.c64.machine import C64
    from toolchain.cpu.core import CPU

Routine = Callable[["C64"], "int | None"]
Answer = TypeVar("Answer")
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
    """A KERNAL error ($F6FB-$F72B): the number pushed, CLRCHN ($F716: input from the
    keyboard and output to the screen again, a serial device told UNLISTEN or UNTALK),
    then "I/O ERROR #n" on the screen when the messages are on (MSGFLG bit 6), and A the
    number (N and Z from its PLA), X 3 (CLRCHN's), Y 0 ($F719; 12 after the message,
    $F12F's index past its text), carry set.  Measured on VICE: io-errors."""
    cpu = machine.cpu
    clrchn(machine)
    cpu.y = 0
    if machine.memory[MESSAGES] & 0x40:
        for byte in f"\rI/O ERROR #{number}".encode("ascii"):
            machine.chrout(byte)
        cpu.y = 12
    _load_a(cpu, number)
    cpu.c, cpu.v = 1, 0  # V: $F71B's BIT $9D, or what printing the message leaves (measured)


def _find_file(machine: C64, number: int) -> int | None:
    """The table index of logical file ``number``."""
    memory = machine.memory
    for index in range(min(memory[OPEN_FILES], MAX_OPEN_FILES)):
        if memory[FILE_NUMBERS + index] == number:
            return index
    return None


def _bus(machine: C64) -> SerialBus:
    return machine.bus


def _set_status(machine: C64, bits: int) -> None:
    """$FE1C: bits ORed into ST."""
    machine.memory[STATUS] |= bits


def _is_serial(device: int) -> bool:
    """A device on the serial bus (4 and up: printers, drives)."""
    return device > SCREEN


def _turnaround(machine: C64, device: int) -> None:
    """TALK without a secondary address ($EDCC): the C64 waits with interrupts off until
    the talker takes the clock line, for ever when device ``device`` is not there."""
    if not _bus(machine).turnaround():
        machine.stop(Stop.CYCLE_LIMIT, f"the C64 hangs: it waits for device {device} to talk, and nothing "
                     "on the serial bus is that device (the KERNAL's turnaround at $EDCC waits for ever)")


def _tape_or_rs232(machine: C64, device: int) -> None:
    if device == TAPE:
        machine.stop(Stop.ROM_CALL, "the program uses the datasette (device 1): c64tc has no tape drive")
    if device == RS232:
        machine.stop(Stop.ROM_CALL, "the program uses the RS-232 port (device 2): c64tc has none")


def _file_name(machine: C64) -> bytes:
    """The file name SETNAM gave (length $B7, address ($BB))."""
    memory = machine.memory
    start = read_word(memory, NAME_POINTER)
    return bytes(machine.read((start + offset) & 0xFFFF) for offset in range(memory[NAME_LENGTH]))


def send_open(machine: C64, device: int, secondary: int, name: bytes) -> bool:
    """$F3D5: LISTEN, SECOND $F0+channel, the name, UNLISTEN; nothing at all without a
    secondary address or a name.  False when the device is not present."""
    if secondary & 0x80 or not name:
        return True
    memory, bus = machine.memory, _bus(machine)
    memory[STATUS] = 0
    _set_status(machine, bus.listen(device) | bus.second(secondary | 0xF0))
    if memory[STATUS] & NOTHING_ANSWERS:
        return False
    for byte in name:
        _set_status(machine, _serial(machine, bus.ciout, byte))
    _set_status(machine, _release_lines(machine, _serial(machine, bus.unlisten)))
    return True


def send_close(machine: C64, device: int, secondary: int) -> None:
    """$F642: LISTEN, SECOND $E0+channel, UNLISTEN (nothing without a secondary address)."""
    if secondary & 0x80:
        return
    bus = _bus(machine)
    _set_status(machine, bus.listen(device) | bus.second(secondary & 0xEF | 0xE0))
    _set_status(machine, _release_lines(machine, _serial(machine, bus.unlisten)))


def _release_lines(machine: C64, status: int = 0) -> int:
    """UNTALK and UNLISTEN end by releasing ATN, CLK and DATA ($EDBE, $EE85, $EE97: CIA 2's
    port A bits 3-5 cleared), so after any exchange with a serial device $DD00 holds $07
    with the VIC-II in its first bank (measured on VICE: tests/test_kernal_vice.py,
    serial-lines); c64tc's devices answer at the level of bytes, the port shows what
    the KERNAL leaves.  ``status`` is passed through."""
    machine.write(0xDD00, machine.read(0xDD00) & 0x07)
    return status


def _serial(machine: C64, call: Callable[..., Answer], *arguments: int) -> Answer:
    """A call to the drive; what it cannot do stops the run with a message."""
    try:
        return call(*arguments)
    except DriveUnsupported as unsupported:
        machine.stop(Stop.ROM_CALL, f"disk drive: {unsupported}")
        raise  # not reached


def open_channel(machine: C64, number: int, device: int, secondary: int, name: bytes) -> int:
    """OPEN ($F34A) with its parameters: the file into the KERNAL's tables, and for a
    device on the serial bus its name sent (ST cleared first).  The KERNAL's error number,
    0 when it opened.  As on a C64, a file whose device is not present stays in the
    tables (only CLOSE or CLR take it out)."""
    memory = machine.memory
    if number == 0:
        return NOT_INPUT_FILE
    memory[STATUS] = 0
    if _find_file(machine, number) is not None:
        return FILE_OPEN
    count = memory[OPEN_FILES]
    if count >= MAX_OPEN_FILES:
        return TOO_MANY_FILES
    _tape_or_rs232(machine, device)
    secondary |= 0x60
    memory[FILE_NUMBERS + count] = number
    memory[FILE_DEVICES + count] = device
    memory[FILE_SECONDARIES + count] = secondary
    memory[OPEN_FILES] = count + 1
    memory[LOGICAL_FILE], memory[DEVICE], memory[SECONDARY] = number, device, secondary
    if _is_serial(device) and not send_open(machine, device, secondary, name):
        return DEVICE_NOT_PRESENT
    return 0


def close_channel(machine: C64, number: int) -> None:
    """CLOSE ($F291): logical file ``number`` out of the tables, after telling a serial
    device (closing a file that is not open is no error; ST is not cleared)."""
    memory = machine.memory
    index = _find_file(machine, number)
    if index is None:
        return
    device, secondary = memory[FILE_DEVICES + index], memory[FILE_SECONDARIES + index]
    memory[LOGICAL_FILE], memory[DEVICE], memory[SECONDARY] = number, device, secondary
    if _is_serial(device):
        send_close(machine, device, secondary)
    last = memory[OPEN_FILES] - 1
    for table in (FILE_NUMBERS, FILE_DEVICES, FILE_SECONDARIES):
        memory[table + index] = memory[table + last]
    memory[OPEN_FILES] = last


def input_channel(machine: C64, number: int) -> int:
    """CHKIN ($F20E): logical file ``number`` becomes the input (ST cleared; a serial
    device is told to talk); the KERNAL's error number or 0."""
    return _select_channel(machine, number, talks=True)


def output_channel(machine: C64, number: int) -> int:
    """CHKOUT ($F250): logical file ``number`` becomes the output (ST cleared; a serial
    device is told to listen); the KERNAL's error number or 0."""
    return _select_channel(machine, number, talks=False)


def _select_channel(machine: C64, number: int, talks: bool) -> int:
    """What CHKIN and CHKOUT share (the ROM's two routines differ only in these
    points): the file looked up, the keyboard refused for output, a serial device
    addressed with TALK/TKSA (or the turnaround without a secondary address) or
    LISTEN/SECOND, the device made the input or the output."""
    memory = machine.memory
    memory[STATUS] = 0
    index = _find_file(machine, number)
    if index is None:
        return FILE_NOT_OPEN
    device, secondary = memory[FILE_DEVICES + index], memory[FILE_SECONDARIES + index]
    memory[LOGICAL_FILE], memory[DEVICE], memory[SECONDARY] = number, device, secondary
    if device == KEYBOARD and not talks:
        return NOT_OUTPUT_FILE
    if _is_serial(device):
        bus = _bus(machine)
        status = bus.talk(device) if talks else bus.listen(device)
        if not secondary & 0x80:
            status |= bus.tksa(secondary) if talks else bus.second(secondary)
        elif talks:
            _turnaround(machine, device)
        _set_status(machine, status)
        if memory[STATUS] & NOTHING_ANSWERS:
            return DEVICE_NOT_PRESENT
    _tape_or_rs232(machine, device)
    memory[INPUT_DEVICE if talks else OUTPUT_DEVICE] = device
    return 0


def restore_channels(machine: C64) -> None:
    """CLRCHN ($F333): a serial device listening is told to stop (UNLISTEN: a command sent
    to a drive runs then), one talking too; input from the keyboard, output to the screen."""
    memory = machine.memory
    bus = _bus(machine)
    if memory[OUTPUT_DEVICE] > SCREEN:
        _release_lines(machine, _serial(machine, bus.unlisten))
    if memory[INPUT_DEVICE] > SCREEN:
        _release_lines(machine, bus.untalk())
    memory[INPUT_DEVICE] = KEYBOARD
    memory[OUTPUT_DEVICE] = SCREEN


def serial_byte(machine: C64) -> int:
    """ACPTR ($EE13): a byte from the device talking; when it sends nothing, ST gets the
    time-out ($42) and the byte is what the KERNAL read last from CIA 2's port ($C7 with
    the VIC in its first bank: measured on VICE)."""
    byte, status = _serial(machine, _bus(machine).acptr)
    _set_status(machine, status)
    if byte is None:
        return (machine.read_io(0xDD00) & 0x07) | 0xC0  # the bus lines released, ATN/CLK/DATA out low
    return int(byte)


def input_byte(machine: C64) -> int:
    """CHRIN from a serial device ($F1AD): RETURN while ST is not 0, else ACPTR."""
    if machine.memory[STATUS]:
        return 0x0D
    return serial_byte(machine)


def output_byte(machine: C64, byte: int) -> None:
    """CHROUT to a serial device: CIOUT ($EDDD)."""
    _set_status(machine, _serial(machine, _bus(machine).ciout, byte))


@routine(0xF34A, "OPEN")
def open_file(machine: C64) -> None:
    """OPEN ($F34A): logical file, device, secondary address and name from SETLFS and
    SETNAM (see :func:`open_channel`)."""
    memory, cpu = machine.memory, machine.cpu
    index, name = memory[OPEN_FILES], _file_name(machine)
    error = open_channel(machine, memory[LOGICAL_FILE], memory[DEVICE], memory[SECONDARY], name)
    if error:
        return _error(machine, error)
    # the registers of the ROM's exits: X the file's index in the tables ($F359); for the
    # keyboard and the screen A the device ($F372, Z from its BEQ/CMP #3); for a serial
    # device A the secondary address ($F3D5) and Y 0 when no name is sent ($F3D9), else Y
    # the name's length ($F402; A is then what UNLISTEN read from CIA 2's port: kept)
    cpu.x = index
    device, secondary = memory[DEVICE], memory[SECONDARY]
    if not _is_serial(device):
        cpu.a, cpu.n, cpu.z = device, 0, 1
    elif secondary & 0x80 or not name:
        cpu.a = secondary
        if not secondary & 0x80:
            cpu.y = 0
        _set_nz(cpu, cpu.y if not secondary & 0x80 else secondary)
    else:
        cpu.y = len(name)
    return _ok(machine)


@routine(0xF291, "CLOSE")
def close_file(machine: C64) -> None:
    """CLOSE ($F291): logical file A.  The registers of the ROM's exits: a file not open
    leaves A, X $FF (its search, $F316, ran out: N set); else X is the file's index, and
    the table's last entry moved into its place leaves A its secondary address and Y the
    count ($F2F9-$F30A), or with none to move A is the index too ($F2F1, Z set)."""
    memory, cpu = machine.memory, machine.cpu
    index = _find_file(machine, cpu.a)
    close_channel(machine, cpu.a)
    if index is None:
        cpu.x, cpu.n, cpu.z = 0xFF, 1, 0
    else:
        count = memory[OPEN_FILES]
        cpu.x = index
        if index == count:
            cpu.a, cpu.n, cpu.z = index, 0, 1
        else:
            cpu.y = count
            _load_a(cpu, memory[FILE_SECONDARIES + index])
    return _ok(machine)


@routine(0xF20E, "CHKIN")
def chkin(machine: C64) -> None:
    """CHKIN ($F20E): logical file X becomes the input channel."""
    error = input_channel(machine, machine.cpu.x)
    return _error(machine, error) if error else _channel_registers(machine)


@routine(0xF250, "CHKOUT")
def chkout(machine: C64) -> None:
    """CHKOUT ($F250): logical file X becomes the output channel."""
    error = output_channel(machine, machine.cpu.x)
    return _error(machine, error) if error else _channel_registers(machine)


def _channel_registers(machine: C64) -> None:
    """What CHKIN and CHKOUT leave: A the device; X the file's index ($F314's search) for
    the keyboard and the screen (Z set by their BEQ or CMP #3), the device for a serial
    one (TAX, TXA) with N, V and Z from BIT ST ($F249, $F28A); carry clear."""
    memory, cpu = machine.memory, machine.cpu
    device = memory[DEVICE]
    cpu.a = device
    if _is_serial(device):
        status = memory[STATUS]
        cpu.x, cpu.n, cpu.v, cpu.z = device, status >> 7, status >> 6 & 1, int(device & status == 0)
    else:
        index = _find_file(machine, memory[LOGICAL_FILE])
        cpu.x, cpu.n, cpu.z = index if index is not None else cpu.x, 0, 1
    return _ok(machine)


@routine(0xF333, "CLRCHN")
def clrchn(machine: C64) -> None:
    """CLRCHN ($F333): input from the keyboard, output to the screen again (leaving
    X = 3 and A = 0 with Z set, as the ROM's LDX #3 / CPX / LDA #0 do; the carry from
    CPX $99: clear when a serial device was the input)."""
    cpu = machine.cpu
    carry = int(machine.memory[INPUT_DEVICE] <= SCREEN)  # $F33C CPX $99 (UNTALK keeps the carry)
    restore_channels(machine)
    cpu.x, cpu.c = SCREEN, carry
    _load_a(cpu, 0)


@routine(0xF32F, "CLALL")
def clall(machine: C64) -> None:
    """CLALL ($F32F): the tables emptied (the devices are not told), then CLRCHN."""
    machine.memory[OPEN_FILES] = 0
    clrchn(machine)


@routine(0xF1CA, "CHROUT")
def chrout(machine: C64) -> None:
    """CHROUT ($F1CA): A to the output channel: the screen, a serial device (a printer, a drive)."""
    cpu = machine.cpu
    device = machine.memory[OUTPUT_DEVICE]
    if device == SCREEN:
        machine.screen_output(cpu.a)
    elif device > SCREEN:
        output_byte(machine, cpu.a)
    else:
        _tape_or_rs232(machine, device)
    cpu.c = 0


@routine(0xF157, "CHRIN")
def chrin(machine: C64) -> None:
    """CHRIN ($F157): a byte from the input channel: a typed line from the keyboard
    (through the screen editor), the screen, a serial device."""
    cpu = machine.cpu
    device = machine.memory[INPUT_DEVICE]
    if device in (KEYBOARD, SCREEN):
        cpu.a = machine.chrin()
    elif device > SCREEN:
        _load_a(cpu, input_byte(machine))
    else:
        _tape_or_rs232(machine, device)
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
    else:
        # $E5B4 takes the key into Y, moves the buffer down with X counting up to the
        # count it had ($E5C0 CPX $C6), then TYA, CLI, CLC: X is the count before the
        # key was taken, Y the key, interrupts on (measured on VICE: getin)
        cpu.x, cpu.y, cpu.i = machine.memory[0xC6] + 1, key, 0
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
    """BASIC's string output ($AB1E): the string at A (low) / Y (high), through CHROUT.
    STRLIT ($B487) ends it at a zero byte or a quote (the quote is not printed: a
    string literal's end), and leaves its pointers: $6F/$70 and $62/$63 the start, $61
    the length, $71/$72 the end, $07/$08 the quote; FRESTR ($B6A6) leaves the start in
    $22/$23.  The print loop ($AB28) leaves X 0, Y the length, A the last byte ($0D
    EOR $FF after a RETURN, $AAE5), Z set and the carry of its CMP #$0D.  (A string in
    page 0 or 2, which STRLIT copies to the string space first, is printed from where
    it is.)  Measured on VICE: tests/test_kernal_vice.py, basic-output."""
    cpu, memory = machine.cpu, machine.memory
    start = cpu.a | cpu.y << 8
    length = 0
    while length < 0xFF:
        byte = machine.read((start + length) & 0xFFFF)
        if byte in (0, 0x22):
            break
        length += 1
    end = start + length
    memory[0x07] = memory[0x08] = 0x22
    memory[0x6F], memory[0x70] = memory[0x62], memory[0x63] = start & 0xFF, start >> 8
    memory[0x61], memory[0x71], memory[0x72] = length, end & 0xFF, end >> 8 & 0xFF
    memory[0x22], memory[0x23] = start & 0xFF, start >> 8
    last, carry = length, 0
    for offset in range(length):
        byte = machine.read((start + offset) & 0xFFFF)
        machine.chrout(byte)
        last, carry = byte ^ 0xFF if byte == 0x0D else byte, int(byte >= 0x0D)
    cpu.a, cpu.x, cpu.y, cpu.n, cpu.z, cpu.c = last, 0, length, 0, 1, carry


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


# The flags the editor's routines leave (KERNAL 901227-03, measured on VICE:
# tests/test_kernal_vice.py, editor-flags): $E50A-$E513 end in LDY $D3; $E518, $E544,
# $E566 and $E56C in $EA2C's ORA #$D8, $E9FF in DEY past 0 (N set, Z clear); $E518 and
# $E544 clear the screen through $E556's CPX #$1A, which leaves the carry set.  $E8EA
# (scroll-call) ends in PLA after comparing CTRL's keyboard row with $FB.
_ENDS_IN_CURSOR_COLUMN = (0xE50A, 0xE510, 0xE513)
_ENDS_NEGATIVE = (0xE518, 0xE544, 0xE566, 0xE56C, 0xE9FF)
_SETS_CARRY = (0xE518, 0xE544)


def _editor_routine(address: int) -> Routine:
    def editor_routine(machine: C64) -> None:
        _editor_call(machine, address)
        cpu = machine.cpu
        if address in _ENDS_IN_CURSOR_COLUMN:
            _set_nz(cpu, cpu.y)
        elif address in _ENDS_NEGATIVE:
            cpu.n, cpu.z = 1, 0
        if address in _SETS_CARRY:
            cpu.c = 1
        if address == 0xE8EA:  # N and Z from its last PLA ($AC), the carry from CMP #$FB
            _set_nz(cpu, cpu.a)
            cpu.c = int(machine.editor.scroll_keys >= 0xFB)

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
    """READST ($FE07): ST, the carry from comparing the current device ($BA) with 2; for
    the RS-232 device (2) its status at $0297, which it clears ($FE0D)."""
    memory, cpu = machine.memory, machine.cpu
    device = memory[DEVICE]
    cpu.c = int(device >= RS232)
    if device == RS232:
        cpu.a, memory[0x0297] = memory[0x0297], 0
        _set_nz(cpu, cpu.a)  # $FE16 PLA
        return
    _load_a(cpu, memory[STATUS])


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


# The jiffy clock's routines (KERNAL 901227-03, measured on VICE: tests/test_kernal_vice.py,
# clock): SETTIM ($F6E4) stores between SEI and CLI, RDTIM ($F6DD) loads and runs on into
# SETTIM, so both return with interrupts on.
@routine(0xFFDB, "SETTIM")
def settim(machine: C64) -> None:
    memory, cpu = machine.memory, machine.cpu
    memory[JIFFY_CLOCK + 2], memory[JIFFY_CLOCK + 1], memory[JIFFY_CLOCK] = cpu.a, cpu.x, cpu.y
    cpu.i = 0


@routine(0xFFDE, "RDTIM")
def rdtim(machine: C64) -> None:
    memory, cpu = machine.memory, machine.cpu
    cpu.a, cpu.x, cpu.y = memory[JIFFY_CLOCK + 2], memory[JIFFY_CLOCK + 1], memory[JIFFY_CLOCK]
    _set_nz(cpu, cpu.y)
    cpu.i = 0


@routine(0xFFEA, "UDTIM")
def udtim(machine: C64) -> None:
    """UDTIM ($F69B): the clock counted, then ($F6BC) the keyboard row of RUN/STOP's
    column read until two reads agree (CMP: carry set) into A and X (TAX), and kept in
    STKEY ($91) unless it shows RUN/STOP ($F6C5 BMI): then the columns of $BD are read
    ($F6C7; $DC00 gets the row back, as the ROM stores A there) and STKEY is only
    written when they show no key (INX from $FF)."""
    cpu, memory = machine.cpu, machine.memory
    machine.tick_jiffy_clock()
    row = machine.read(0xDC01)
    cpu.a = cpu.x = row
    if not row & 0x80:
        machine.write(0xDC00, 0xBD)
        other = machine.read(0xDC01)
        machine.write(0xDC00, row)
        cpu.x = (other + 1) & 0xFF
        if cpu.x:
            _set_nz(cpu, cpu.x)
            cpu.c = 1
            return
    memory[STOP_KEY] = row
    _set_nz(cpu, cpu.x)
    cpu.c = 1


@routine(0xFFED, "SCREEN")
def screen_size(machine: C64) -> None:
    machine.cpu.x, machine.cpu.y = 40, 25
    _set_nz(machine.cpu, 25)  # $E507 LDY #$19


@routine(0xFFF3, "IOBASE")
def iobase(machine: C64) -> None:
    machine.cpu.x, machine.cpu.y = 0x00, 0xDC
    _set_nz(machine.cpu, 0xDC)  # $E502 LDY #$DC


@routine(0xFFA2, "SETTMO")
def settmo(machine: C64) -> None:
    machine.memory[0x0285] = machine.cpu.a


@routine(0xFF9F, "SCNKEY")
def scnkey(machine: C64) -> None:
    """SCNKEY: the keyboard scan puts a pressed key into the buffer (a typed key, when
    the buffer is empty).  With no key ($EA87-$EA98: all columns driven, $DC01 reads
    $FF; then $EB26-$EB47) it leaves SHFLAG ($028D) 0, SFDX ($CB) and LSTX ($C5) $40,
    LSTSHF ($028E) 0, column 7 driven again ($DC00 $7F), A $7F, X $FF, Y 0, carry set
    (measured on VICE: tests/test_kernal_vice.py, scnkey)."""
    memory, cpu = machine.memory, machine.cpu
    if not machine.keyboard.buffered() and machine.keyboard.fill(1):
        return
    memory[0x028D] = memory[0x028E] = 0
    memory[0xCB] = memory[0xC5] = 0x40
    machine.write(0xDC00, 0x7F)
    cpu.a, cpu.x, cpu.y, cpu.c, cpu.n, cpu.z = 0x7F, 0xFF, 0, 1, 0, 0


@routine(0xFF8A, "RESTOR")
def restor(machine: C64) -> None:
    """RESTOR ($FD15): the KERNAL's vectors at $0314-$0333 as after power-on."""
    from toolchain.c64.memory import KERNAL_VECTOR_VALUES, write_word

    for index, value in enumerate(KERNAL_VECTOR_VALUES):
        write_word(machine.memory, IRQ_VECTOR + 2 * index, value)
    # its copy loop ($FD1A) leaves the table's address ($FD30) in X and in $C3/$C4, the
    # last (first) byte copied in A, and Y = $FF (N set); $FD19 CLC (measured on VICE:
    # tests/test_kernal_vice.py, vectors)
    cpu = machine.cpu
    cpu.x, cpu.y, cpu.c = 0x30, 0xFF, 0
    machine.memory[0xC3], machine.memory[0xC4] = 0x30, 0xFD
    cpu.a = KERNAL_VECTOR_VALUES[0] & 0xFF
    _set_nz(cpu, cpu.y)


@routine(0xFF8D, "VECTOR")
def vector(machine: C64) -> None:
    """VECTOR ($FD1A): the 32 bytes of vectors from (carry clear) or to (carry set) the
    table at X (low) / Y."""
    cpu, memory = machine.cpu, machine.memory
    table = cpu.x | cpu.y << 8
    # the ROM keeps the table's address in $C3/$C4 and copies from the last byte down
    # (Y $1F to $FF): A ends with the first byte, N set (measured on VICE: vectors)
    memory[0xC3], memory[0xC4] = cpu.x, cpu.y
    for offset in range(31, -1, -1):
        if cpu.c:
            machine.write((table + offset) & 0xFFFF, memory[IRQ_VECTOR + offset])
        else:
            memory[IRQ_VECTOR + offset] = machine.read((table + offset) & 0xFFFF)
    cpu.a, cpu.y = memory[IRQ_VECTOR], 0xFF
    _set_nz(cpu, cpu.y)


# IOINIT ($FDA3) and CINT ($FF5B), KERNAL 901227-03; what they leave was measured on
# VICE (tests/test_kernal_vice.py: ioinit, cint)
_IOINIT_WRITES = (
    (0xDC0D, 0x7F), (0xDD0D, 0x7F), (0xDC00, 0x7F),  # $FDA3: no CIA interrupts, keyboard column lines high
    (0xDC0E, 0x08), (0xDD0E, 0x08), (0xDC0F, 0x08), (0xDD0F, 0x08),  # $FDAE: timers stopped, one-shot
    (0xDC03, 0x00), (0xDD03, 0x00), (0xD418, 0x00), (0xDC02, 0xFF),  # $FDBC: port B inputs, volume 0
    (0xDD00, 0x07), (0xDD02, 0x3F),  # $FDCB: VIC bank 0, serial lines released
    (0x0001, 0xE7), (0x0000, 0x2F),  # $FDD5: the processor port
)  # fmt: skip


def _system_interrupt(machine: C64) -> None:
    """$FDDD: CIA 1's timer A every $4025 cycles on a PAL C64 (PALNTS, $02A6, non-zero),
    $4295 on NTSC; $FF6E: its interrupt on, CRA started continuous with force load (the
    TOD's bit 7 kept); $EE8E: the serial clock line low.  A = the port value written."""
    cpu = machine.cpu
    latch = 0x4025 if machine.memory[0x02A6] else 0x4295
    machine.write(0xDC04, latch & 0xFF)
    machine.write(0xDC05, latch >> 8)
    machine.write(0xDC0D, 0x81)
    machine.write(0xDC0E, machine.read(0xDC0E) & 0x80 | 0x11)
    value = machine.read(0xDD00) | 0x10
    machine.write(0xDD00, value)
    cpu.a, cpu.n, cpu.z = value, value >> 7, 0  # ORA #$10


def ioinit(machine: C64) -> None:
    """IOINIT ($FDA3): the CIAs, the SID's volume and the processor port as after reset,
    then the system interrupt (:func:`_system_interrupt`); X = $FF, Y kept."""
    for address, value in _IOINIT_WRITES:
        machine.write(address, value)
    machine.cpu.x = 0xFF
    _system_interrupt(machine)


def cint(machine: C64) -> None:
    """CINT ($FF5B): the screen editor's initialisation ($E518: the VIC-II's registers,
    the editor's variables, light blue, the screen cleared; the reverse and quote flags
    stay as they were), then PALNTS ($02A6) from the raster line 311's interrupt flag
    (1: c64tc's VIC-II is a PAL chip) and the system interrupt.  X and Y as $E518 leaves
    them."""
    _editor_call(machine, 0xE518)
    machine.cpu.c = 1  # $E556's CPX #$1A (see _SETS_CARRY)
    machine.memory[0x02A6] = 1
    _system_interrupt(machine)


def ramtas(machine: C64) -> None:
    """RAMTAS ($FD50): $0002-$0101, $0200-$03FF cleared; the tape buffer pointer ($B2)
    at $033C; then the RAM test from $0400 up ($FD6C): each byte read, $55 and $AA
    written and read back, the byte put back; at the first byte that does not keep
    them (the BASIC ROM at $A000 after reset) the test stops, leaving $55 or $AA there,
    and MEMTOP is set to that address (X its low byte, Y and $C2 its page), MEMBOT's
    page to $08 ($0281 is 0), the screen's page $0288 to $04.  A = 4, carry clear.
    Measured on VICE: tests/test_kernal_vice.py, ramtas."""
    memory, cpu = machine.memory, machine.cpu
    memory[0x0002:0x0102] = bytes(0x100)
    memory[0x0200:0x0400] = bytes(0x200)
    memory[0xB2], memory[0xB3] = 0x3C, 0x03
    memory_map, io = machine.map, machine.io

    def chip(address: int) -> bool:
        return 0xD000 <= address < 0xE000 and io.visible

    def read_back(address: int) -> int:  # a ROM byte as the CPU sees it, without a warning
        return machine.read(address) if chip(address) else memory[address]

    address = 0x0400
    while address < 0x10000:
        if not (memory_map.rom_shown_at(address) or chip(address)):
            address += 1  # RAM keeps both patterns and gets its byte back
            continue
        kept = read_back(address)
        machine.write(address, 0x55)
        if read_back(address) != 0x55:
            break
        machine.write(address, 0xAA)
        if read_back(address) != 0xAA:
            break
        machine.write(address, kept)
        address += 1
    address &= 0xFFFF  # a test that found no end wraps to page 0, as $C2 does
    cpu.x, cpu.y = address & 0xFF, address >> 8
    memory[0xC2] = address >> 8
    memory[MEMORY_TOP], memory[MEMORY_TOP + 1] = cpu.x, cpu.y
    memory[0x0282], memory[0x0288] = 0x08, 0x04
    _load_a(cpu, 0x04)
    cpu.c = 0


for _address, _name, _function in ((0xFF84, "IOINIT", ioinit), (0xFDA3, "IOINIT", ioinit),
                                   (0xFF81, "CINT", cint), (0xFF5B, "CINT", cint),
                                   (0xFF87, "RAMTAS", ramtas), (0xFD50, "RAMTAS", ramtas)):
    routine(_address, _name)(_function)


def _set_nz(cpu: CPU, value: int) -> None:
    """N and Z as the routine's last load leaves them (programs test them after a call)."""
    cpu.n, cpu.z = value >> 7 & 1, int(value == 0)


def _load_a(cpu: CPU, value: int) -> None:
    cpu.a = value
    _set_nz(cpu, value)


# -- the serial bus: the KERNAL's routines, and (with the real ROMs) the same as traps --------------
# Each leaves the registers as its ROM routine's exit does: carry clear, interrupts on
# (LISTEN, TALK, SECOND, TKSA, ACPTR, UNTLK and UNLSN end in CLI).  With the real ROMs
# c64tc runs these instead of the ROM's routines (VICE's virtual device traps do the
# same), so every ROM routine that uses the bus (OPEN, LOAD, SAVE ...) reaches the drive.
ROM_TRAPS: dict[int, tuple[str, Routine]] = {}


def _bus_routine(addresses: tuple[int, ...], name: str) -> Callable[[Routine], Routine]:
    def register(function: Routine) -> Routine:
        for address in addresses:
            routine(address, name)(function)
            if address < 0xFF00:
                ROM_TRAPS[address] = (name, function)
        return function

    return register


def _bus_done(machine: C64, status: int) -> None:
    _set_status(machine, status)
    machine.cpu.c = 0
    machine.cpu.i = 0


@_bus_routine((0xFFB1, 0xED0C), "LISTEN")
def listen(machine: C64) -> None:
    _bus_done(machine, _bus(machine).listen(machine.cpu.a))


@_bus_routine((0xFFB4, 0xED09), "TALK")
def talk(machine: C64) -> None:
    _bus_done(machine, _bus(machine).talk(machine.cpu.a))


@_bus_routine((0xFF93, 0xEDB9), "SECOND")
def second(machine: C64) -> None:
    _bus_done(machine, _serial(machine, _bus(machine).second, machine.cpu.a))


@_bus_routine((0xFF96, 0xEDC7), "TKSA")
def tksa(machine: C64) -> None:
    _bus_done(machine, _bus(machine).tksa(machine.cpu.a))


@_bus_routine((0xEDCC,), "TKSA's turnaround")
def turnaround(machine: C64) -> None:
    """$EDCC: the turnaround after TALK without a secondary address."""
    _turnaround(machine, machine.memory[DEVICE])
    _bus_done(machine, 0)


@_bus_routine((0xFFA8, 0xEDDD), "CIOUT")
def ciout(machine: C64) -> None:
    output_byte(machine, machine.cpu.a)
    machine.cpu.c = 0


@_bus_routine((0xFFA5, 0xEE13), "ACPTR")
def acptr(machine: C64) -> None:
    _load_a(machine.cpu, serial_byte(machine))
    _bus_done(machine, 0)


@_bus_routine((0xFFAB, 0xEDEF), "UNTLK")
def untlk(machine: C64) -> None:
    _bus_done(machine, _release_lines(machine, _bus(machine).untalk()))


@_bus_routine((0xFFAE, 0xEDFE), "UNLSN")
def unlsn(machine: C64) -> None:
    _bus_done(machine, _release_lines(machine, _serial(machine, _bus(machine).unlisten)))


# -- LOAD and SAVE -------------------------------------------------------------------------------
KERNAL_MESSAGES = {"searching": b"\rSEARCHING ", "for": b"FOR ", "loading": b"\rLOADING",
                   "verifying": b"\rVERIFYING", "saving": b"\rSAVING "}  # the KERNAL's texts at $F0BD


def _message(machine: C64, *parts: bytes) -> None:
    """A KERNAL message, shown only in direct mode (MSGFLG bit 7, as $F12B checks)."""
    if machine.memory[MESSAGES] & 0x80:
        for part in parts:
            for byte in part:
                machine.chrout(byte)


def load_file(machine: C64, device: int, secondary: int, name: bytes, address: int,
              verify: bool) -> tuple[int, int]:
    """LOAD ($F4A5) from a serial device: the file's bytes to ``address`` (secondary
    address 0) or to the address in its first two bytes, or compared with memory
    (``verify``: ST bit 4 on a difference).  The KERNAL's error number (0, 4 FILE NOT
    FOUND, 5 DEVICE NOT PRESENT, 8 MISSING FILE NAME, 9 ILLEGAL DEVICE NUMBER; -1 for
    BREAK) and the address after the last byte.  ST ends with $40 (EOI)."""
    memory, bus = machine.memory, _bus(machine)
    memory[0x93] = int(verify)
    memory[STATUS] = 0
    if device in (KEYBOARD, SCREEN):
        return ILLEGAL_DEVICE, address
    _tape_or_rs232(machine, device)
    if not name:
        return MISSING_FILE_NAME, address
    memory[SECONDARY] = 0x60  # $F4C7: the file is read on channel 0 (measured: load-save)
    _message(machine, KERNAL_MESSAGES["searching"], KERNAL_MESSAGES["for"], name)
    if not send_open(machine, device, 0x60, name):
        return DEVICE_NOT_PRESENT, address
    _set_status(machine, bus.talk(device) | bus.tksa(0x60))
    low = serial_byte(machine)
    if memory[STATUS] & 0x02:
        return FILE_NOT_FOUND, address
    high = serial_byte(machine)
    if secondary:
        address = low | high << 8
    _message(machine, KERNAL_MESSAGES["verifying" if verify else "loading"])
    if machine.keyboard.stop_pressed():
        _release_lines(machine, bus.untalk())
        send_close(machine, device, 0x60)
        return -1, address
    timeouts = 0
    while True:
        memory[STATUS] &= 0xFD
        byte = serial_byte(machine)
        if memory[STATUS] & 0x02:  # the ROM asks again (and would wait forever)
            timeouts += 1
            if timeouts > 2:
                machine.stop(Stop.ROM_CALL, "LOAD: the drive stopped sending in the middle of the file")
            continue
        if verify:
            if machine.read(address) != byte:
                _set_status(machine, 0x10)
        else:
            machine.write(address, byte)
        address = (address + 1) & 0xFFFF
        if memory[STATUS] & END_OF_FILE:
            break
    _release_lines(machine, bus.untalk())
    send_close(machine, device, 0x60)
    return 0, address


def save_file(machine: C64, device: int, name: bytes, start: int, end: int) -> int:
    """SAVE ($F5ED) to a serial device: the bytes from ``start`` up to ``end`` (not
    included) after their address, sent to channel 1.  The KERNAL's error number (0; 5,
    8, 9; -1 for BREAK).  A drive that refuses the file (it exists: 63, FILE EXISTS in its
    error channel) takes no byte: ST is $80 and, as on a C64, SAVE reports no error."""
    memory, bus = machine.memory, _bus(machine)
    if device in (KEYBOARD, SCREEN):
        return ILLEGAL_DEVICE
    _tape_or_rs232(machine, device)
    memory[SECONDARY] = 0x61  # $F5FA: written on channel 1 (measured: load-save)
    if not name:
        return MISSING_FILE_NAME
    if not send_open(machine, device, 0x61, name):
        return DEVICE_NOT_PRESENT
    _message(machine, KERNAL_MESSAGES["saving"], name)
    _set_status(machine, bus.listen(device) | bus.second(0x61))
    output_byte(machine, start & 0xFF)
    output_byte(machine, start >> 8)
    if machine.keyboard.stop_pressed():
        send_close(machine, device, 0x61)
        return -1
    address = start
    while address < end:
        output_byte(machine, machine.read(address))
        address += 1
    _set_status(machine, _release_lines(machine, _serial(machine, bus.unlisten)))
    send_close(machine, device, 0x61)
    memory[0xAC], memory[0xAD] = address & 0xFF, address >> 8
    return 0


def load_before_run(machine: C64, name: bytes, secondary: int = 0, device: int = 8) -> int:
    """What typing ``LOAD"NAME",8`` (``,1`` with ``secondary``) before RUN leaves behind, as
    VICE's autostart does: the drive has sent the file (its error channel says 00, OK;
    LOAD"*" finds it again), ST is $40, and the file's bytes are in memory.  The KERNAL's
    error number (0 when it loaded)."""
    memory = machine.memory
    messages, memory[MESSAGES] = memory[MESSAGES], 0
    try:
        return load_file(machine, device, secondary, name, read_word(memory, 0x2B), False)[0]
    finally:
        memory[MESSAGES] = messages


def _load_or_save_result(machine: C64, error: int) -> None:
    if error < 0:  # BREAK: A = 0, carry set (BASIC says BREAK)
        machine.cpu.a, machine.cpu.c = 0, 1
    elif error:
        _error(machine, error)
    else:
        machine.cpu.c = 0


@routine(0xF4A5, "LOAD")
def load(machine: C64) -> None:
    """LOAD ($F4A5, through ($0330)): A 0 loads, 1 verifies; from the device SETLFS
    named, to the address at $C3/$C4 (secondary address 0) or the file's own; X/Y the
    end address after."""
    memory, cpu = machine.memory, machine.cpu
    error, end = load_file(machine, memory[DEVICE], memory[SECONDARY], _file_name(machine),
                           read_word(memory, 0xC3), cpu.a != 0)
    write_word(memory, 0xAE, end)
    _load_or_save_result(machine, error)
    if not error:
        cpu.x, cpu.y = end & 0xFF, end >> 8


@routine(0xF5ED, "SAVE")
def save(machine: C64) -> None:
    """SAVE ($F5ED, through ($0332)): from ($C1) up to ($AE) to the device SETLFS named."""
    memory = machine.memory
    error = save_file(machine, memory[DEVICE], _file_name(machine), read_word(memory, 0xC1),
                      read_word(memory, 0xAE))
    _load_or_save_result(machine, error)
    if not error:
        machine.cpu.y = 0  # $F615 LDY #0 indexes the bytes sent


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
    cpu.x = cpu.a  # $F5E1 TAX: SAVE returns with it (the serial routines keep X)
    memory[0xC1], memory[0xC2] = memory[cpu.a], memory[(cpu.a + 1) & 0xFF]
    return read_word(memory, 0x0332)


# -- BASIC's routines machine code calls ----------------------------------------------------------

@routine(0xBDCD, "BASIC's number output (LINPRT)")
def linprt(machine: C64) -> None:
    """LINPRT: the unsigned number A * 256 + X, printed as PRINT prints it (no
    leading space: the sign position of a positive number is not printed).  FOUT puts
    the sign at $00FF and the digits from $0100 on, ended by 0; STROUT prints from
    $0100 (:func:`strout`: its registers, X 0 and Y the count of digits)."""
    from toolchain.basic.floats import format_number

    cpu, memory = machine.cpu, machine.memory
    digits = format_number(float(cpu.a << 8 | cpu.x)).lstrip(" ").encode("ascii")
    memory[0xFF] = 0x20
    memory[0x0100 : 0x0100 + len(digits) + 1] = digits + b"\0"
    cpu.a, cpu.y = 0x00, 0x01
    strout(machine)


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


# BASIC's errors by number, the X that its error routine takes: the messages of BASIC
# 901226-01 at the addresses its table at $A326 gives (1-9 are the KERNAL's numbers;
# tests/test_roms.py reads them from the ROM)
BASIC_ERRORS = {
    1: "TOO MANY FILES", 2: "FILE OPEN", 3: "FILE NOT OPEN", 4: "FILE NOT FOUND",
    5: "DEVICE NOT PRESENT", 6: "NOT INPUT FILE", 7: "NOT OUTPUT FILE", 8: "MISSING FILE NAME",
    9: "ILLEGAL DEVICE NUMBER", 10: "NEXT WITHOUT FOR", 11: "SYNTAX", 12: "RETURN WITHOUT GOSUB",
    13: "OUT OF DATA", 14: "ILLEGAL QUANTITY", 15: "OVERFLOW", 16: "OUT OF MEMORY",
    17: "UNDEF'D STATEMENT", 18: "BAD SUBSCRIPT", 19: "REDIM'D ARRAY", 20: "DIVISION BY ZERO",
    21: "ILLEGAL DIRECT", 22: "TYPE MISMATCH", 23: "STRING TOO LONG", 24: "FILE DATA",
    25: "FORMULA TOO COMPLEX", 26: "CAN'T CONTINUE", 27: "UNDEF'D FUNCTION", 28: "VERIFY",
    29: "LOAD",
}  # fmt: skip (30, "BREAK", ends with a 0 for STROUT: BREAK's message, not an error's)
ERROR_VECTOR = 0x0300  # IERROR: BASIC's error routine jumps through it ($A437)
ERROR_VECTOR_DEFAULT = 0xE38B  # where it points after power-on

# Where BASIC's routines raise an error: LDX #number, JMP $A437 (BASIC 901226-01).  A
# program's USR(X) goes to $B248 until the program sets the USR vector ($0311).
ERROR_ENTRIES = {0xA435: 16, 0xA8E3: 17, 0xAD99: 22, 0xAF08: 11, 0xB248: 14, 0xB97E: 15}


def _raise_basic_error(number: int) -> Routine:
    def raise_error(machine: C64) -> int:
        machine.cpu.x = number
        return 0xA437

    return raise_error


for _address, _number in ERROR_ENTRIES.items():
    routine(_address, f"BASIC's ?{BASIC_ERRORS[_number]} ERROR")(_raise_basic_error(_number))


@routine(0xA437, "BASIC's error routine (ERROR)")
def basic_error(machine: C64) -> int:
    """$A437: JMP (IERROR), which a program may have pointed at its own code."""
    return read_word(machine.memory, ERROR_VECTOR)


@routine(0xE37B, "BASIC's warm start")
def basic_warm_start(machine: C64) -> int:
    """$E37B, where BRK and RUN/STOP-RESTORE return to BASIC and machine code jumps to
    end: CLRCHN, $13 (the current I/O prompt flag) 0, BASIC's stack reset ($A67A: the
    stack pointer $FA, the temporary string stack $16 = $19, $3E and $10 cleared),
    CLI, then $E386 (measured on VICE: tests/test_kernal_vice.py, warm-start)."""
    cpu, memory = machine.cpu, machine.memory
    clrchn(machine)
    memory[0x13] = 0
    memory[0x16], memory[0x3E], memory[0x10] = 0x19, 0, 0
    cpu.sp, cpu.i = 0xFA, 0
    return 0xE386


@routine(0xE386, "BASIC's warm start, READY.")
def basic_warm_start_ready(machine: C64) -> int:
    """$E386: LDX #$80, JMP (IERROR): READY. without an error, or a program's handler."""
    machine.cpu.x = 0x80
    return read_word(machine.memory, ERROR_VECTOR)


@routine(ERROR_VECTOR_DEFAULT, "BASIC's error vector's default")
def basic_error_default(machine: C64) -> int:
    """$E38B: X with bit 7 set is READY. without an error ($A474), else the error's
    message ($A43A)."""
    return 0xA474 if machine.cpu.x & 0x80 else 0xA43A


@routine(0xA43A, "BASIC's error message")
def basic_error_message(machine: C64) -> int:
    """$A43A: error X ends the calling BASIC statement (the compiled runner's SYS and
    USR), or, for machine code started from direct mode, CLRCHN and
    "\\r?NAME  ERROR", " IN line" in a program (CURLIN's high byte not $FF), READY."""
    number = machine.cpu.x
    machine.basic_error_in_call(number)
    clrchn(machine)
    line = read_word(machine.memory, CURLIN)
    text = f"\r?{BASIC_ERRORS.get(number, '')}  ERROR" + ("" if line >> 8 == 0xFF else f" IN {line}")
    for byte in text.encode("latin-1"):
        machine.chrout(byte)
    return 0xA474


@routine(0xFCE2, "reset")
def reset(machine: C64) -> None:
    """The C64 starts again and waits at READY. with no program: c64tc ends the run
    there, on the power-on screen."""
    machine.restart_without_roms()
    machine.stop(Stop.READY, "the program reset the C64 (SYS 64738): c64tc ends the run there")


# -- interrupts ------------------------------------------------------------------------------------

# The cycles the KERNAL's interrupt code takes on the 6510 (KERNAL 901227-03 run by c64tc
# with the ROMs, instruction by instruction, between its addresses): the routines below
# take them as the ROM does, so that a program's raster or timer interrupt starts and
# ends at the cycle it does on a C64.  Without them an IRQ through ($0314) started 29
# cycles early, and the KERNAL's 60 Hz interrupt cost 7 cycles instead of 219, which put
# machine code 1.3% ahead of a C64's clock.
IRQ_ENTRY_CYCLES = 29  # $FF48: PHA TXA PHA TYA PHA TSX LDA $0104,X AND #$10 BEQ (taken) JMP ($0314)
BRK_ENTRY_CYCLES = 28  # ... the BEQ not taken, JMP ($0316)
# $EA31 to $EA7E: UDTIM, the cursor blink's and the cassette's checks, SCNKEY with no key
# down and the cursor not blinking (a program running); from $EA34 (POKE 788,52) the same
# without UDTIM
STANDARD_HANDLER_CYCLES = 157
HANDLER_WITHOUT_CLOCK_CYCLES = 94
ACKNOWLEDGE_CYCLES = 4  # $EA7E: LDA $DC0D, the read in its last cycle
IRQ_EXIT_CYCLES = 22  # $EA81 (and $FEBC): PLA TAY PLA TAX PLA RTI
NMI_ENTRY_CYCLES = 7  # $FE43: SEI, JMP ($0318)


@routine(0xFF48, "the IRQ entry")
def irq_entry(machine: C64) -> int:
    """The KERNAL's IRQ entry: A, X, Y on the stack, then through ($0316) for a BRK
    (the B flag in the pushed status), else through ($0314)."""
    cpu = machine.cpu
    status = machine.memory[0x100 + ((cpu.sp + 1) & 0xFF)]
    cpu.push(cpu.a)
    cpu.push(cpu.x)
    cpu.push(cpu.y)
    brk = status & 0x10
    cpu.cycles += BRK_ENTRY_CYCLES if brk else IRQ_ENTRY_CYCLES
    return read_word(machine.memory, BRK_VECTOR if brk else IRQ_VECTOR)


@routine(0xEA31, "the IRQ handler")
def irq_handler(machine: C64) -> int:
    """The standard interrupt: the jiffy clock and the cursor blink (then acknowledge
    CIA 1 and return, $EA7E).  The keyboard scan needs no work here: keys reach the
    buffer when the program waits for them."""
    machine.standard_interrupt()
    machine.cpu.cycles += STANDARD_HANDLER_CYCLES
    return 0xEA7E


@routine(0xEA34, "the IRQ handler after the clock")
def irq_handler_without_clock(machine: C64) -> int:
    """$EA34: the handler past its clock update (POKE 788,52 points the IRQ here: the
    jiffy clock stops, and with it the STOP key's check)."""
    machine.cpu.cycles += HANDLER_WITHOUT_CLOCK_CYCLES
    return 0xEA7E


@routine(0xEA7E, "the IRQ handler's exit")
def irq_acknowledge(machine: C64) -> int:
    machine.cpu.cycles += ACKNOWLEDGE_CYCLES
    machine.read(0xDC0D)  # reading the interrupt control register clears CIA 1's flags
    return 0xEA81


@routine(0xEA81, "the IRQ handler's exit")
def irq_exit(machine: C64) -> int:
    """Y, X, A back from the stack, RTI."""
    cpu = machine.cpu
    cpu.cycles += IRQ_EXIT_CYCLES
    cpu.y = cpu.pull()
    cpu.x = cpu.pull()
    cpu.a = cpu.pull()
    address = cpu.return_from_interrupt()
    if cpu.i_restored:  # an IRQ still waiting comes before the next instruction
        cpu.horizon = 0  # (the translated code the machine runs next stops at once)
    return address


# $FEBC, the NMI handler's exit, is the same PLA TAY PLA TAX PLA RTI: interrupt handlers
# of programs (raster interrupts through $0314) often end in JMP $FEBC (measured on VICE:
# tests/test_kernal_vice.py, irq-exit)
routine(0xFEBC, "the NMI handler's exit")(irq_exit)


@routine(0xFE43, "the NMI entry")
def nmi_entry(machine: C64) -> int:
    """$FE43, where the NMI vector $FFFA points: SEI, JMP ($0318) (a program's handler,
    or the KERNAL's at $FE47)."""
    machine.cpu.i = 1
    machine.cpu.cycles += NMI_ENTRY_CYCLES
    return read_word(machine.memory, NMI_VECTOR)


CARTRIDGE_SIGNATURE = b"\xc3\xc2\xcd80"  # "CBM80" at $8004, which $FD02 compares


@routine(0xFE47, "the NMI handler")
def nmi_handler(machine: C64) -> int:
    """The KERNAL's NMI handler ($FE47): A, X, Y pushed; CIA 2's interrupts all
    disabled ($FE4C) and its flags read, which acknowledges them.  From CIA 2 (bit 7,
    $FE54) the RS-232 bits enabled in ENABL ($02A1) would be served ($FE72): none are
    unless a program opened device 2; then ($FEB6) CIA 2's mask is set back to ENABL,
    so a timer interrupt a program enabled stays off, and $FEBC returns.  RESTORE (no
    CIA flag): a cartridge's "CBM80" at $8004 takes it through ($8002) ($FE56); with
    RUN/STOP held it is the warm start ($FE66).  Measured on VICE: tests/test_kernal_vice.py,
    nmi."""
    cpu, memory = machine.cpu, machine.memory
    cpu.push(cpu.a)
    cpu.push(cpu.x)
    cpu.push(cpu.y)
    machine.write(0xDD0D, 0x7F)
    flags = machine.read(0xDD0D)
    if not flags & 0x80:
        if bytes(memory[0x8004:0x8009]) == CARTRIDGE_SIGNATURE:
            return read_word(memory, 0x8002)
        if machine.keyboard.stop_pressed():
            return 0xFE66
    if flags & memory[0x02A1] & 0x13:
        machine.stop(Stop.ROM_CALL, "an NMI for the RS-232 port (device 2): c64tc has none")
    machine.write(0xDD0D, memory[0x02A1])
    return 0xFEBC


@routine(0xFE66, "the warm start (BRK, RUN/STOP-RESTORE)")
def warm_start(machine: C64) -> int:
    """BRK (and RUN/STOP-RESTORE): the KERNAL restores its vectors and I/O, clears the
    screen, and BASIC says READY. (measured on VICE: tests/data/machine/brk)."""
    machine.stop(Stop.BRK, machine.warm_start())
    return 0  # not reached


# Where the jump table's JMPs go (KERNAL 901227-03, $FF81-$FFF5): programs also call
# these addresses directly (JSR $FD15 for RESTOR, $FFBA's $FE00 ...), so each is the
# same routine as its entry (measured on VICE: tests/test_kernal_vice.py, jump-targets)
JUMP_TABLE_TARGETS = {
    0xFF8A: 0xFD15, 0xFF8D: 0xFD1A, 0xFF90: 0xFE18, 0xFF99: 0xFE25, 0xFF9C: 0xFE34, 0xFF9F: 0xEA87,
    0xFFA2: 0xFE21, 0xFFB7: 0xFE07, 0xFFBA: 0xFE00, 0xFFBD: 0xFDF9, 0xFFD5: 0xF49E, 0xFFD8: 0xF5DD,
    0xFFDB: 0xF6E4, 0xFFDE: 0xF6DD, 0xFFEA: 0xF69B, 0xFFED: 0xE505, 0xFFF3: 0xE500,
}  # fmt: skip
for _entry, _target in JUMP_TABLE_TARGETS.items():
    if _target not in ROUTINES:
        routine(_target, ROUTINES[_entry][0])(ROUTINES[_entry][1])


def jiffy_clock(memory: bytearray) -> int:
    return memory[JIFFY_CLOCK] << 16 | memory[JIFFY_CLOCK + 1] << 8 | memory[JIFFY_CLOCK + 2]


__all__ = ["NMI_VECTOR", "ROM_NAMES", "ROUTINES", "name_of", "routine"]
