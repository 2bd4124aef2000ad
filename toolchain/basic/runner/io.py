"""BASIC's input and output: PRINT, INPUT, GET, CMD and files, through the machine's
screen editor and keyboard.

PRINT goes through CHROUT's screen output (numbers end in cursor-right, a comma moves
to the next ten-column zone by cursor-right), INPUT through the editor's line input
(the ``? `` prompt, ``??`` for more, ``?REDO FROM START``, ``?EXTRA IGNORED``), GET
takes one key.  Devices: the keyboard (0), the screen (3) and the serial bus (the
1541 on 8, a printer on 4 when one is attached: :mod:`toolchain.c64.drive`).  Files
are kept in the KERNAL's tables and go through the KERNAL's routines
(:mod:`toolchain.c64.kernal`: OPEN, CHKIN, CHKOUT, CLRCHN, LOAD, SAVE), so ST, the
devices and machine code see what BASIC did.  Tape and RS-232 end
with ``?DEVICE NOT PRESENT`` and a note saying why, never silently.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from toolchain.basic import floats
from toolchain.basic.runner import costs
from toolchain.basic.runner.contract import BasicError, Ended, Kind
from toolchain.basic.runner.expressions import COLON, COMMA, QUOTE
from toolchain.basic.runner.values import _byte
from toolchain.c64 import kernal
from toolchain.c64.editor import INSRT, LNMX, PNTR, QTSW
from toolchain.c64.machine import C64, MachineStopped
from toolchain.c64.memory import BASIC_PROGRAM_START
from toolchain.c64.outcome import Stop

#: INPUT's answer to an empty line: the variables keep their values ($ABEA).
UNCHANGED: list[Any] = []

# The KERNAL's error numbers as BASIC reports them (BASIC's errors 1-9 are the KERNAL's)
KERNAL_ERRORS = {number: name for number, name in kernal.BASIC_ERRORS.items() if number <= 9}
CLOCK = "_T"  # the generated code's clock (statements.CLOCK)
CHROUT_CYCLES, SCROLL_CYCLES = round(costs.WEIGHTS["chrout"]), round(costs.WEIGHTS["scroll"])
LONGEST_INPUT_LINE = 88  # INLIN's buffer ($A560): one more character is ?STRING TOO LONG


def chrout_extra(memory: bytearray, code: int) -> int:
    """CHROUT's cycles for ``code`` beyond a letter's, in the screen editor's mode and
    at its column before the byte is printed (costs.CHROUT_PLAIN and the others)."""
    if memory[INSRT]:
        extra = costs.CHROUT_INSERTING[code]
    elif memory[QTSW]:
        extra = costs.CHROUT_QUOTED[code]
    else:
        extra = costs.CHROUT_PLAIN[code]
    if extra is None:
        return costs.line_shift_extra(code, memory[PNTR], memory[LNMX], bool(memory[QTSW] or memory[INSRT]))
    return extra


# STR$ as generated code calls it: FOUT's text for the number, on the C64's clock with
# FOUT's time for its digits, as PRINT takes it (on the ROM, STR$ is FOUT and a time of
# its own: within 160 cycles for the 41 numbers of scripts/basic-costs --print,
# tests/test_basic_time).  ``_fout_digits`` is MID$(STR$(X),2), the text without the
# sign's place (a counter's digits, as Nikolaus takes them every pass of its loop):
# the same time, without the space put before the digits and cut off again.  Both are
# functions of the runtime's namespace, which add to its clock (_T) themselves, as the
# generated code does; a whole number 0 < n < 10**9 takes format_number's shortcut
# and costs.whole_fout_cycles's tables, inlined (from 100000 on, by the digits before
# the last five: costs.WHOLE_FOUT_TABLES; below, the high part's turns are 0).
# ``then``: the cycles of the code after the call, added with FOUT's where nothing
# between could look at the clock (linker._clock_into_str): one addition less.
# ``is_integer`` and ``floor`` (the whole number of a positive one) rather than
# ``int(value) == value``: a method and a function cost less than a call of the int
# type and an int compared with a float (STR$ of a counter runs every pass of a loop).
_FOUT_FUNCTION = """
    def {name}(value, then=0):
        global {clock}
        if 0.0 < value < 1e9 and value.is_integer():
            whole = floor(value)
            digits = str(whole){take_room}
            if high := whole // 100_000:
                {clock} += high_base[high] + high_low_turns[high][whole % 100_000] + then
            else:
                count = len(digits)
                {clock} += base[count] + sign[count] * turns[whole] + then
            return {whole_text}{other}
"""
_OTHER = """
        {clock} += fout_cycles(value) + then
        return {other_text}"""
# the ``_kept`` variants: STR$ into a variable (LET keeps the string: runtime._kept), its
# room in string space taken in line while it lasts; where it does not, the plain
# function's way (FOUT's time), then the garbage collection (or ?OUT OF MEMORY), then
# ``then``, the time of the code after it
_TAKE_ROOM = """
            used = strings[0] + len(digits){sign_place}
            if used > strings[1]:
                return _kept_slowly({plain}, value, then)
            strings[0] = used"""
_OTHER_KEPT = """
        return _kept_slowly({plain}, value, then)"""
_KEPT_SLOWLY = """
    def _kept_slowly(plain, value, then):
        global {clock}
        text = plain(value)
        room_taken(len(text))
        {clock} += then
        return text
"""
_FOUT_VARIANTS = (("_fout_text", '" " + digits', "format_number(value)", " + 1"),
                  ("_fout_digits", "digits", "format_number(value)[1:]", ""))
_FOUT_SOURCE = ("def make(base, sign, turns, high_base, high_low_turns, fout_cycles, format_number, "
                "strings, room_taken, floor):\n" + _KEPT_SLOWLY.format(clock=CLOCK) + "".join(
                    _FOUT_FUNCTION.format(name=name + kept, clock=CLOCK, whole_text=whole, take_room=(
                        _TAKE_ROOM.format(sign_place=sign_place, plain=name) if kept else ""), other=(
                        _OTHER_KEPT.format(plain=name) if kept else
                        _OTHER.format(clock=CLOCK, other_text=other)))
                    for kept in ("", "_kept") for name, whole, other, sign_place in _FOUT_VARIANTS)
                + "    return _fout_text, _fout_digits, _fout_text_kept, _fout_digits_kept\n")
_FOUT_CODE = compile(_FOUT_SOURCE, "<STR$>", "exec")


def install_fout(namespace: dict[str, Any], strings: list[int] | None = None,
                 room_taken: Callable[[int], None] | None = None) -> None:
    """Put ``_fout_text`` and ``_fout_digits`` (STR$) and their ``_kept`` variants into
    the runtime's ``namespace``, whose clock they add to; ``strings``: the string space
    used and the room for strings, ``room_taken`` the runtime's way when it is used up
    (without them, as for a test of the time alone: room without end)."""
    if strings is None or room_taken is None:
        strings, room_taken = [0, 1 << 62], lambda size: None
    scope: dict[str, Any] = {}
    exec(_FOUT_CODE, namespace, scope)  # the functions' globals: the namespace
    (namespace["_fout_text"], namespace["_fout_digits"], namespace["_fout_text_kept"],
     namespace["_fout_digits_kept"]) = scope["make"](*costs.WHOLE_FOUT_TABLES, costs.fout_cycles,
                                                     floats.format_number, strings, room_taken, math.floor)


class ScreenOutput:
    """PRINT to the screen: numbers end in cursor-right, commas move by cursor-right.
    Each character takes CHROUT's time on the C64's clock (the byte's, in the editor's
    mode: chrout_extra), a scroll the editor's (costs.py: known only once the text is)."""

    def __init__(self, io: BasicIO) -> None:
        self.io = io

    def byte(self, value: int) -> None:
        io = self.io
        machine = io.machine
        rows = machine.screen.scrolled
        extra = chrout_extra(machine.memory, value)
        machine.print_byte(value)
        io.clock[CLOCK] += CHROUT_CYCLES + extra + SCROLL_CYCLES * (machine.screen.scrolled - rows)

    def text(self, text: str) -> None:
        io = self.io
        machine = io.machine
        rows = machine.screen.scrolled
        print_byte, memory = machine.print_byte, machine.memory
        cycles = CHROUT_CYCLES * len(text)
        for character in text:
            code = ord(character)
            cycles += chrout_extra(memory, code)
            print_byte(code)
        io.clock[CLOCK] += cycles + SCROLL_CYCLES * (machine.screen.scrolled - rows)

    def number(self, value: float) -> None:
        self.io.clock[CLOCK] += costs.fout_cycles(value)  # FOUT's time by the number's digits
        self.text(floats.format_number(value))
        self.byte(0x1D)

    def newline(self) -> None:
        self.byte(0x0D)

    def comma(self) -> None:
        column = self.io.column()
        for _ in range(10 - column % 10):
            self.byte(0x1D)

    def tab(self, column: int) -> None:
        for _ in range(column - self.io.column()):
            self.byte(0x1D)

    def spc(self, count: int) -> None:
        for _ in range(count):
            self.byte(0x1D)

    def done(self) -> None:
        """The end of a PRINT# statement (the ROM's CLRCHN)."""


class SerialOutput(ScreenOutput):
    """PRINT# or CMD to a device on the serial bus (a disk file), byte by byte through
    CHROUT as the ROM prints (:meth:`BasicIO.channel_output` did CHKOUT): numbers end in a
    space where the screen gets cursor-right ($AB3B), a comma and TAB( count from the
    screen cursor's column, as the ROM reads it with PLOT ($AAE8, $AAF8), and a file
    numbered 128 or more gets a line feed after each RETURN that ends a PRINT ($AADC)."""

    def __init__(self, io: BasicIO, logical: int) -> None:
        super().__init__(io)
        self.logical = logical  # the file's number

    def byte(self, value: int) -> None:
        kernal.output_byte(self.io.machine, value)

    def text(self, text: str) -> None:
        machine = self.io.machine
        for character in text:
            kernal.output_byte(machine, ord(character))

    def number(self, value: float) -> None:
        self.io.clock[CLOCK] += costs.fout_cycles(value)
        self.text(floats.format_number(value))
        self.byte(0x20)

    def newline(self) -> None:
        self.byte(0x0D)
        if self.logical >= 128:
            self.byte(0x0A)

    def comma(self) -> None:
        self.spc(10 - self.io.column() % 10)

    def tab(self, column: int) -> None:
        self.spc(column - self.io.column())

    def spc(self, count: int) -> None:
        for _ in range(count):
            self.byte(0x20)

    def done(self) -> None:
        """PRINT# ends with CLRCHN ($ABB5): the drive stops listening (a command sent to
        channel 15 runs now), and a CMD in force ends."""
        self.io.clear_channels()


class BasicIO:
    """The program's channels: where PRINT goes (the screen, or the file CMD named),
    what INPUT and GET read."""

    def __init__(self, machine: C64) -> None:
        self.machine = machine
        self.clock: dict[str, Any] = {CLOCK: 0}  # the runtime's namespace, whose _T is BASIC's clock
        self.redone: list[Any] = []  # the values INPUT's last ?REDO FROM START had assigned
        self.restart()

    def restart(self) -> None:
        self.output: ScreenOutput = ScreenOutput(self)
        self.printer = self.machine.printer  # what the printer on device 4 got (the machine's paper)
        self.close_all()
        self.machine.memory[kernal.MESSAGES] = 0  # RUN turns the KERNAL's messages off ($A872)

    def close_all(self) -> None:
        """CLR's (and RUN's) CLALL: the KERNAL forgets every file (a drive is not told:
        its files stay open there), input and output go back to the keyboard and screen."""
        self.machine.memory[kernal.OPEN_FILES] = 0
        self.clear_channels()

    def clear_channels(self) -> None:
        """CLRCHN: a device on the serial bus stops listening or talking; PRINT goes to
        the screen again."""
        memory = self.machine.memory
        if memory[kernal.OUTPUT_DEVICE] > kernal.SCREEN or memory[kernal.INPUT_DEVICE] > kernal.SCREEN:
            self._kernal(kernal.restore_channels)
        memory[kernal.OUTPUT_DEVICE], memory[kernal.INPUT_DEVICE] = kernal.SCREEN, kernal.KEYBOARD
        self.output = ScreenOutput(self)

    def to_screen(self) -> ScreenOutput:
        """PRINT back on the screen (after an error or BREAK, as the ROM's CLRCHN)."""
        self.clear_channels()
        return self.output

    def _kernal(self, call: Callable[..., Any], *arguments: Any) -> Any:
        """A routine of the KERNAL's model; a run it stops (a drive command c64tc does
        not model) ends the program with its message."""
        try:
            return call(self.machine, *arguments)
        except MachineStopped as stopped:
            raise Ended(stopped.stop, stopped.message) from None

    def column(self) -> int:
        return self.machine.cursor_column()

    def position(self) -> float:
        return float(self.column())

    def _read_line(self) -> bytes:
        machine = self.machine
        try:
            line = machine.read_line()
        except MachineStopped as stopped:  # the input is used up
            raise Ended(stopped.stop, stopped.message) from None
        # the input routine prints RETURN after the line ($AACA), so the cursor moves on
        machine.print_byte(0x0D)
        return line

    def _read_file_line(self) -> bytes:
        """A typed line for INPUT# from the keyboard (OPEN 1,0): INLIN prints no RETURN
        after it when a file is the input ($AAD3: the channel in $13 is not 0), nor
        does the editor (the output is the screen, $E663), so the cursor stays after the
        typed text (VICE: PRINT "NAME: ";:INPUT#1,A$:PRINT "X" prints X after it)."""
        try:
            return self.machine.read_line()
        except MachineStopped as stopped:  # the input is used up
            raise Ended(stopped.stop, stopped.message) from None

    def input(self, prompt: str, kinds: tuple[Kind, ...]) -> list[Any] | None:
        """INPUT: '? ' prompt, items split at commas, '??' for more, ?REDO FROM START.
        The ROM assigns each variable as it reads its item, before it checks what
        follows ($AC83, $AC8E, then $AC91): the variables a line that ends in ?REDO FROM
        START reached keep their new values, which an empty line after it then leaves
        (the values returned: fewer than ``kinds``).  VICE: A=5:B=6:INPUT A,B with
        ``1,X`` and then an empty line prints 1 0."""
        assigned: list[Any] = []
        while True:
            self.output.text(prompt)
            self.output.text("?")
            self.output.byte(0x1D)
            line = self._read_line()
            if not line:
                return assigned or None
            values = self._parse_input(line, kinds, self._read_line)
            if values is not None:
                return values
            assigned = self.redone + assigned[len(self.redone):]

    def _parse_input(self, line: bytes, kinds: tuple[Kind, ...], read_more: Callable[[], bytes],
                     from_file: bool = False) -> list[Any] | None:
        """The items of INPUT as the ROM reads the line ($AC0D-$ACFB; ``from_file``: INPUT#,
        which prints no ``??``, no ``?EXTRA IGNORED``, and reports a bad item as ?FILE
        DATA instead of ?REDO FROM START).  Each item is taken from where CHRGET finds
        it (spaces passed): a string in quotes up to the next quote, one without up to a
        comma or colon (STRLT2), a number as far as FIN reads; then CHRGOT must find a
        comma, a colon or the line's end ($AC91).  A colon ends the line as its end does
        (CHRGOT's zero flag): the next variable asks ``??`` for another line, and one
        left after the last variable is ``?EXTRA IGNORED`` as a comma is ($ACEA); a
        line typed after ``??`` is read even when empty (a string "", a number 0).
        VICE: ``A:B`` into A$ gives A and ?EXTRA IGNORED, ``X:Y`` into A$,B$ asks ??."""
        values: list[Any] = []
        position = -1  # TXTPTR: $01FF, which holds a comma ($ABD3), before the buffer

        def chrgot() -> int:  # the character at TXTPTR, spaces passed (0 at the end)
            nonlocal position
            while 0 <= position < len(line) and line[position] == 0x20:
                position += 1
            return COMMA if position < 0 else line[position] if position < len(line) else 0

        for kind in kinds:
            if chrgot() in (0, COLON):  # no more on this line: another ($AC2F, $AC4A)
                if not from_file:
                    self.output.text("??")
                    self.output.byte(0x1D)
                line = read_more()
                position = -1
            position += 1  # CHRGET ($AC51)
            chrgot()
            if kind is Kind.STRING:
                if position < len(line) and line[position] == QUOTE:
                    end = line.find(b'"', position + 1)
                    closed = end >= 0
                    end = end if closed else len(line)
                    values.append(line[position + 1 : end].decode("latin-1"))
                    position = end + closed
                else:
                    end = position
                    while end < len(line) and line[end] not in (COMMA, COLON):
                        end += 1
                    values.append(line[position:end].decode("latin-1"))
                    position = end
            else:
                try:
                    value, position = floats.parse_number(line, min(position, len(line)))
                except floats.FloatError as error:
                    raise BasicError(error.error) from None
                values.append(value)
            after = chrgot()
            if after not in (0, COLON, COMMA):  # $AB4D
                if from_file:
                    raise BasicError("FILE DATA")
                self.output.text("?REDO FROM START\r")
                self.redone = values  # assigned up to this item, this one too
                return None
        if chrgot() and not from_file:
            self.output.text("?EXTRA IGNORED\r")
        return values

    def get(self, kinds: tuple[Kind, ...], channel: float | None) -> list[Any]:
        reader = None
        if channel is not None:
            reader = self._reader(channel)
        values: list[Any] = []
        left = ""  # a comma or colon a number's key left in GET's buffer
        try:
            for kind in kinds:
                if left == ",":  # the next variable reads the buffer's zero after it, no key
                    left = ""
                    values.append("" if kind is Kind.STRING else 0.0)
                    continue
                left = ""
                if reader is not None:
                    byte = reader()  # GETIN from a serial device: CHRIN ($F13E, $F166)
                    text = chr(byte) if byte else ""
                else:
                    text = self._key()
                if kind is Kind.STRING:
                    values.append(text)
                    continue
                # GET puts the key into the buffer at $0200 with a zero after it and
                # reads it as READ and INPUT do ($AB92, $AC35): CHRGET (passing a space),
                # FIN ($BCF3), then CHRGOT must find the end, a colon or a comma ($AC91);
                # anything else is ?SYNTAX ERROR reported as in direct mode (no IN:
                # $AB53 puts $FF in CURLIN's high byte; VICE: GET N with Q typed)
                if text and 0x30 <= ord(text) <= 0x39:
                    values.append(float(ord(text) - 0x30))
                elif text in ("", " ", ":", "+", "-", ".", "E", ","):  # FIN reads them as 0
                    values.append(0.0)
                    left = text if text in (",", ":") else ""
                else:
                    raise BasicError("SYNTAX", unnumbered=True)
            # a comma or colon is still in the buffer after the last variable: what
            # INPUT says of a line not used up ($ACEA; VICE: GET N with : or , typed)
            if left and not channel:  # not from a file: $13 holds GET#'s channel
                self.output.text("?EXTRA IGNORED\r")
        finally:
            if reader is not None:
                self.clear_channels()
        return values

    def _key(self) -> str:
        keyboard = self.machine.keyboard
        key = keyboard.next_key()  # the buffer first, then the next typed key
        if key is None:
            if keyboard.exhausted:
                raise Ended(Stop.INPUT_EXHAUSTED, "the program waits for a key, but the input is used up")
            return ""
        return chr(key)

    def input_file(self, channel: float, kinds: tuple[Kind, ...]) -> list[Any] | None:
        reader = self._reader(channel)
        if reader is None:  # the keyboard as a file: a typed line
            line = self._read_file_line()
            while not line:  # an empty line is read again ($ABEF)
                line = self._read_file_line()
            values = self._parse_input(line, kinds, self._read_file_line, from_file=True)
            if values is None:
                raise BasicError("FILE DATA")
            return values
        try:
            return self._input_from(channel, reader, kinds)
        finally:
            self.clear_channels()

    def _input_from(self, channel: float, reader: Callable[[], int],
                    kinds: tuple[Kind, ...]) -> list[Any] | None:
        """INPUT# from a serial device ($ABA5): lines through INLIN ($A560); a line read
        after a time-out (ST bit 1) ends the statement with the variables unchanged
        ($ABDD); an empty line is skipped ($ABEA)."""
        memory = self.machine.memory

        def line() -> bytes:
            text = bytearray()
            while (byte := reader()) != 0x0D:
                text.append(byte)
                if len(text) > LONGEST_INPUT_LINE:
                    raise BasicError("STRING TOO LONG")
            end = text.find(0)  # BASIC's input buffer ends at a zero byte
            return bytes(text if end < 0 else text[:end])

        while True:
            first = line()
            if memory[kernal.STATUS] & 0x02:
                return None
            if first:
                break
            if memory[kernal.STATUS]:
                # CHRIN answers RETURN while ST is not 0, without asking the drive: the
                # C64 reads empty lines for ever (only RUN/STOP-RESTORE gets it out)
                raise Ended(Stop.INPUT_EXHAUSTED, f"INPUT#{_byte(channel)} reads past the end of the file "
                            f"(ST={memory[kernal.STATUS]}): a C64 would read empty lines for ever here")
        return self._parse_input(first, kinds, line, from_file=True)

    # -- devices -------------------------------------------------------------------------------
    def open_file(self, number: float, device: float | None, secondary: float | None,
                  name: str) -> None:
        """OPEN: parameters as BASIC's $E219 takes them (device 1 and secondary address 0
        when not given; for a device from 3 on, no secondary address: $FF), then the
        KERNAL's OPEN."""
        logical = _byte(number)
        unit = 1 if device is None else _byte(device)
        if secondary is not None:
            address = _byte(secondary)
        else:
            address = 0xFF if unit >= 3 else 0
        self._unit_exists(unit)
        error = self._kernal(kernal.open_channel, logical, unit, address, name.encode("latin-1"))
        if error:
            raise self._kernal_error(error, unit)

    def _unit_exists(self, unit: int) -> None:
        if unit in (1, 2):
            raise BasicError("DEVICE NOT PRESENT", note=f"device {unit}: c64tc has no "
                             f"{'datasette' if unit == 1 else 'RS-232 interface'}")

    def _kernal_error(self, error: int, unit: int) -> BasicError:
        """A KERNAL error as BASIC reports it; a device that is not there says which."""
        if error == kernal.DEVICE_NOT_PRESENT:
            if unit == 8:
                note = "device 8: no disk drive (c64tc run --no-drive took it away)"
            elif unit == kernal.PRINTER:
                note = "device 4: no printer (c64tc run --printer FILE attaches one)"
            else:
                note = f"device {unit}: nothing on the serial bus answers (c64tc has the drive 8, and with " \
                       "--printer a printer 4)"
            return BasicError("DEVICE NOT PRESENT", note=note)
        return BasicError(KERNAL_ERRORS.get(error, "BREAK"))

    def close_file(self, number: float) -> None:
        logical = _byte(number)
        if isinstance(self.output, SerialOutput) and self.output.logical == logical:
            self.clear_channels()  # a CMD channel ends with its file
        self._kernal(kernal.close_channel, logical)

    def _device(self, logical: int) -> int | None:
        memory = self.machine.memory
        for index in range(min(memory[kernal.OPEN_FILES], kernal.MAX_OPEN_FILES)):
            if memory[kernal.FILE_NUMBERS + index] == logical:
                return memory[kernal.FILE_DEVICES + index]
        return None

    def _file(self, number: float) -> int:
        device = self._device(_byte(number))
        if device is None:
            raise BasicError("FILE NOT OPEN")
        return device

    def channel_output(self, number: float) -> ScreenOutput:
        """PRINT#'s and CMD's output: CHKOUT on the file."""
        logical = _byte(number)
        device = self._file(logical)
        if device == kernal.KEYBOARD:
            raise BasicError("NOT OUTPUT FILE")
        if device == kernal.SCREEN:
            return self.output
        error = self._kernal(kernal.output_channel, logical)
        if error:
            raise self._kernal_error(error, device)
        return SerialOutput(self, logical)

    def cmd(self, number: float) -> None:
        self.output = self.channel_output(number)

    def _reader(self, number: float) -> Callable[[], int] | None:
        """CHKIN on the file: how to read its bytes (None for the keyboard, which reads
        typed keys; the screen reads the line at the cursor, CHRIN's $F166)."""
        logical = _byte(number)
        device = self._file(logical)
        if device == kernal.KEYBOARD:
            return None
        error = self._kernal(kernal.input_channel, logical)
        if error:
            raise self._kernal_error(error, device)
        if device == kernal.SCREEN:
            return self.machine.chrin
        return lambda: self._kernal(kernal.input_byte)

    def load(self, name: str, device: float, secondary: float, verify: bool) -> None:
        """LOAD or VERIFY ($E165): to the start of BASIC (secondary address 0) or the
        file's own address.  A LOAD that is not a verify leaves the restart (the program
        runs again from its first line, variables kept) to the runtime."""
        unit, address = _byte(device), _byte(secondary)
        self._unit_exists(unit)
        error, _ = self._kernal(kernal.load_file, unit, address, name.encode("latin-1"),
                                BASIC_PROGRAM_START, verify)
        if error:
            raise self._kernal_error(error, unit) if error > 0 else Ended(Stop.BREAK, "BREAK")
        status = self.machine.memory[kernal.STATUS]
        if verify:
            if status & 0x10:
                raise BasicError("VERIFY")
            # $E187 skips the OK when TXTPTR's low byte is 2 (meant: in direct mode); in a
            # program that is rare, and c64tc does not keep TXTPTR: OK
            self.output.text("\rOK\r")
        elif status & 0xBF:
            raise BasicError("LOAD")

    def save(self, name: str, device: float, secondary: float, program: bytes) -> None:
        """SAVE ($E156): the program (from the start of BASIC to its end) to the device."""
        unit = _byte(device)
        _byte(secondary)
        self._unit_exists(unit)
        end = BASIC_PROGRAM_START + len(program)
        error = self._kernal(kernal.save_file, unit, name.encode("latin-1"), BASIC_PROGRAM_START, end)
        if error:
            raise self._kernal_error(error, unit) if error > 0 else Ended(Stop.BREAK, "BREAK")

    def status(self) -> float:
        """ST: the KERNAL's status byte, a signed number as BASIC reads it (READST, then
        $BC3C: 128 reads as -128)."""
        value = self.machine.memory[kernal.STATUS]
        return float(value - 256 if value & 0x80 else value)

