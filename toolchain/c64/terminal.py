"""Playing a program on a terminal."""

from __future__ import annotations

from typing import Any

import click


class LineTerminal:
    """Interactive play: what the program printed is shown, then a line is read.

    The terminal moves to a new line when the player presses Enter; on the C64 the
    cursor stays behind the typed text until the program prints its RETURN.  So the
    first RETURN printed after a typed line is already on the terminal: skip it."""

    def __init__(self, machine: Any) -> None:
        self.machine = machine
        self.shown = 0
        self.after_input = False

    def flush(self) -> None:
        from toolchain.c64.editor import petscii_to_screen_code
        from toolchain.c64.screen import screen_code_to_text

        text = []
        for byte in self.machine.output_log[self.shown :]:
            if byte in (0x0D, 0x8D) and self.after_input:
                self.after_input = False
                continue
            self.after_input = False
            if byte in (0x0D, 0x8D, 0x93):
                text.append("\n")
            elif byte == 0x1D:  # cursor right: on a terminal's fresh line, a space
                text.append(" ")
            elif (code := petscii_to_screen_code(byte)) is not None:  # a printable character
                text.append(screen_code_to_text(code))
        self.shown = len(self.machine.output_log)
        click.echo("".join(text), nl=False)

    def __call__(self) -> str | None:
        self.flush()
        try:
            line = input()
        except EOFError:
            return None
        self.after_input = True
        return line
