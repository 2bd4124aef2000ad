"""A look at the live screen without a program: ``python -m toolchain.display.live_demo``.

Shows the C64's start screen with all sixteen colours and the graphics characters,
then echoes what is typed: printable keys appear at the cursor, the cursor keys,
HOME, CLR, DEL and RETURN move it, and the status line lists the PETSCII codes of
the last keys (RUN/STOP for Esc).  Ctrl-C ends (status 130).  The tests drive it on
a pseudo-terminal.
"""

from __future__ import annotations

import argparse
import functools
import sys

from toolchain.c64.editor import petscii_to_screen_code
from toolchain.diagnostics import UserError
from toolchain.display.keys import CLR, CURSOR, DEL, HOME, RETURN, RUN_STOP
from toolchain.display.live import LiveScreen
from toolchain.display.state import COLUMNS, ROWS, ScreenImage

CURSOR_UP, CURSOR_DOWN, CURSOR_RIGHT, CURSOR_LEFT = (CURSOR[k] for k in "ABCD")


def start_screen() -> tuple[bytearray, bytearray]:
    codes = bytearray(b" " * (COLUMNS * ROWS))
    colours = bytearray([14] * (COLUMNS * ROWS))

    def put(row: int, column: int, text: str) -> None:
        for offset, char in enumerate(text):
            codes[row * COLUMNS + column + offset] = petscii_to_screen_code(ord(char)) or 0x20

    put(1, 4, "**** COMMODORE 64 BASIC V2 ****")
    put(3, 1, "64K RAM SYSTEM  38911 BASIC BYTES FREE")
    put(5, 0, "READY.")
    for colour in range(16):  # a bar of reverse spaces in every colour
        index = 20 * COLUMNS + 4 + 2 * colour
        codes[index : index + 2] = bytes([0xA0, 0xA0])
        colours[index : index + 2] = bytes([colour, colour])
    codes[22 * COLUMNS : 22 * COLUMNS + 0x40] = bytes(range(0x40, 0x80))  # the graphics characters
    return codes, colours


def key_name(key: int) -> str:
    return "RUN/STOP" if key == RUN_STOP else f"${key:02X}"


def run(ascii: bool = False, fps: float = 30.0) -> int:
    codes, colours = start_screen()
    row, column = 6, 0
    typed: list[str] = []
    with LiveScreen(ascii=ascii, fps=fps) as live:
        while True:
            for key in live.poll_keys():
                typed = (typed + [key_name(key)])[-8:]
                if key == RUN_STOP:
                    continue
                if key == RETURN:
                    row, column = min(row + 1, ROWS - 1), 0
                elif key == CURSOR_DOWN:
                    row = min(row + 1, ROWS - 1)
                elif key == CURSOR_UP:
                    row = max(row - 1, 0)
                elif key == CURSOR_RIGHT:
                    column = min(column + 1, COLUMNS - 1)
                elif key == CURSOR_LEFT:
                    column = max(column - 1, 0)
                elif key == HOME:
                    row = column = 0
                elif key == CLR:
                    codes[:] = b" " * len(codes)
                    row = column = 0
                elif key == DEL:
                    column = max(column - 1, 0)
                    codes[row * COLUMNS + column] = 0x20
                elif (code := petscii_to_screen_code(key)) is not None:
                    codes[row * COLUMNS + column] = code
                    column = min(column + 1, COLUMNS - 1)
            image = functools.partial(ScreenImage, bytes(codes), bytes(colours), cursor=(row, column),
                                      cursor_visible=True)
            live.maybe_draw(image,
                            f"keys: {' '.join(typed) or '-'}   cursor {row},{column}   Ctrl-C ends")
            live.idle(0.01)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ascii", action="store_true", help="plain ASCII glyphs")
    parser.add_argument("--fps", type=float, default=30.0)
    options = parser.parse_args(argv)
    try:
        return run(options.ascii, options.fps)
    except KeyboardInterrupt:
        return 130
    except UserError as error:
        print(error.report(), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
