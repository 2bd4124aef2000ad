"""BASIC's input and output: PRINT, INPUT, GET, CMD and files, through the machine's
screen editor and keyboard.

PRINT goes through CHROUT's screen output (numbers end in cursor-right, a comma moves
to the next ten-column zone by cursor-right), INPUT through the editor's line input
(the ``? `` prompt, ``??`` for more, ``?REDO FROM START``, ``?EXTRA IGNORED``), GET
takes one key.  Devices: the keyboard (0), the screen (3) and a printer (4, whose
output is collected as text).  Tape and disk end with ``?DEVICE NOT PRESENT`` and a
note saying why, never silently.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from toolchain.basic import floats
from toolchain.basic.detokenizer import list_program
from toolchain.basic.runner.contract import BasicError, Ended, Kind
from toolchain.basic.runner.expressions import COLON, COMMA, QUOTE
from toolchain.basic.runner.values import _byte
from toolchain.c64.machine import C64, MachineStopped
from toolchain.c64.memory import BASIC_PROGRAM_START
from toolchain.c64.outcome import Stop
from toolchain.petscii import char_to_petscii

#: INPUT's answer to an empty line: the variables keep their values ($ABEA).
UNCHANGED: list[Any] = []


class OpenFile(NamedTuple):
    device: int
    secondary: int | None


class ScreenOutput:
    """PRINT to the screen: numbers end in cursor-right, commas move by cursor-right."""

    def __init__(self, io: BasicIO) -> None:
        self.io = io

    def byte(self, value: int) -> None:
        self.io.machine.print_byte(value)

    def text(self, text: str) -> None:
        print_byte = self.io.machine.print_byte
        for character in text:
            print_byte(ord(character))

    def number(self, value: float) -> None:
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


class FileOutput(ScreenOutput):
    """PRINT# to a printer (device 4): bytes collected; spaces instead of cursor-right."""

    def __init__(self, io: BasicIO, sink: bytearray) -> None:
        super().__init__(io)
        self.sink = sink

    def byte(self, value: int) -> None:
        self.sink.append(0x20 if value == 0x1D else value)

    def text(self, text: str) -> None:
        self.sink.extend(text.encode("latin-1"))

    def number(self, value: float) -> None:
        self.text(floats.format_number(value))
        self.byte(0x20)

    def comma(self) -> None:
        line_start = self.sink.rfind(b"\r") + 1
        for _ in range(10 - (len(self.sink) - line_start) % 10):
            self.byte(0x20)

    def tab(self, column: int) -> None:
        self.spc(column - (len(self.sink) - self.sink.rfind(b"\r") - 1))


class BasicIO:
    """The program's channels: where PRINT goes (the screen, or the file CMD named),
    what INPUT and GET read."""

    def __init__(self, machine: C64) -> None:
        self.machine = machine
        self.restart()

    def restart(self) -> None:
        self.output: ScreenOutput = ScreenOutput(self)
        self.printer = bytearray()
        self.files: dict[int, OpenFile] = {}

    def to_screen(self) -> ScreenOutput:
        """PRINT back on the screen (after an error or BREAK, as the ROM's CLRCHN)."""
        self.output = ScreenOutput(self)
        return self.output

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

    def input(self, prompt: str, kinds: tuple[Kind, ...]) -> list[Any] | None:
        """INPUT: '? ' prompt, items split at commas, '??' for more, ?REDO FROM START."""
        while True:
            self.output.text(prompt)
            self.output.text("?")
            self.output.byte(0x1D)
            line = self._read_line()
            if not line:
                return None
            values = self._parse_input(line, kinds)
            if values is not None:
                return values

    def _parse_input(self, line: bytes, kinds: tuple[Kind, ...]) -> list[Any] | None:
        values: list[Any] = []
        position = 0
        for index, kind in enumerate(kinds):
            if index and position >= len(line):
                self.output.text("??")
                self.output.byte(0x1D)
                line = self._read_line()
                position = 0
                if not line:
                    return None
            while position < len(line) and line[position] == 0x20:
                position += 1
            if kind is Kind.STRING:
                if position < len(line) and line[position] == QUOTE:
                    end = line.find(b'"', position + 1)
                    end = len(line) if end < 0 else end
                    values.append(line[position + 1 : end].decode("latin-1"))
                    position = end + 1
                else:
                    end = position
                    while end < len(line) and line[end] not in (COMMA, COLON):
                        end += 1
                    values.append(line[position:end].decode("latin-1"))
                    position = end
            else:
                end = position
                while end < len(line) and line[end] != COMMA:
                    end += 1
                item = line[position:end]
                try:
                    value, stop = floats.parse_number(item)
                except floats.FloatError as error:
                    raise BasicError(error.error) from None
                if item[stop:].strip(b" "):
                    self.output.text("?REDO FROM START\r")
                    return None
                values.append(value)
                position = end
            while position < len(line) and line[position] == 0x20:
                position += 1
            if position < len(line):
                if line[position] != COMMA:
                    if kind is Kind.STRING:
                        self.output.text("?REDO FROM START\r")
                        return None
                position += 1
                if index == len(kinds) - 1:
                    self.output.text("?EXTRA IGNORED\r")
        return values

    def get(self, kinds: tuple[Kind, ...], channel: float | None) -> list[Any]:
        if channel is not None:
            self._input_device(channel)
        values: list[Any] = []
        for kind in kinds:
            keyboard = self.machine.keyboard
            key = keyboard.next_key()  # the buffer first, then the next typed key
            if key is None:
                if keyboard.exhausted:
                    raise Ended(Stop.INPUT_EXHAUSTED, "the program waits for a key, but the input is "
                                "used up")
                text = ""
            else:
                text = chr(key)
            if kind is Kind.STRING:
                values.append(text)
            elif not text:
                values.append(0.0)
            elif 0x30 <= ord(text) <= 0x39:
                values.append(float(ord(text) - 0x30))
            else:
                raise BasicError("SYNTAX")
        return values

    def input_file(self, channel: float, kinds: tuple[Kind, ...]) -> list[Any] | None:
        self._input_device(channel)
        line = self._read_line()
        values = self._parse_input(line, kinds)
        if values is None:
            raise BasicError("FILE DATA")
        return values

    # -- devices -------------------------------------------------------------------------------
    def open_file(self, number: float, device: float | None, secondary: float | None,
                  name: str) -> None:
        logical = _byte(number)
        if logical == 0:
            raise BasicError("SYNTAX")
        if logical in self.files:
            raise BasicError("FILE OPEN")
        unit = 1 if device is None else _byte(device)
        if unit not in (0, 3, 4):
            raise BasicError("DEVICE NOT PRESENT", note=f"device {unit}: c64tc's BASIC runner has "
                             "the keyboard (0), the screen (3) and a printer (4, kept as text)")
        self.files[logical] = OpenFile(unit, None if secondary is None else _byte(secondary))

    def close_file(self, number: float) -> None:
        if self.files.pop(_byte(number), None) is not None and isinstance(self.output, FileOutput):
            self.output = ScreenOutput(self)  # a CMD channel ends with its file

    def _file(self, number: float) -> int:
        logical = _byte(number)
        if logical not in self.files:
            raise BasicError("FILE NOT OPEN")
        return self.files[logical].device

    def channel_output(self, number: float) -> ScreenOutput:
        device = self._file(number)
        if device == 0:
            raise BasicError("NOT OUTPUT FILE")
        return self.output if device == 3 else FileOutput(self, self.printer)

    def cmd(self, number: float) -> None:
        self.output = self.channel_output(number)

    def _input_device(self, number: float) -> None:
        device = self._file(number)
        if device == 4:
            raise BasicError("NOT INPUT FILE")

    def device_statement(self, name: str) -> None:
        raise BasicError("DEVICE NOT PRESENT", note=f"{name}: c64tc's BASIC runner has no tape or "
                         "disk drive")

    def list_program(self, program: bytes) -> None:
        """LIST: the program as the C64 prints it."""
        text = list_program(program, BASIC_PROGRAM_START)
        for line in text.splitlines():
            self.output.text("".join(chr(char_to_petscii(c)) for c in line.lower()))
            self.output.byte(0x0D)
