"""The C64's screen for people: PNG pictures, ANSI text, and a live terminal view.

``state.ScreenImage`` is what the machine hands over (screen codes, colour RAM,
border, background, character set, cursor); ``charset`` turns screen codes into
characters, ``font`` into pixels (the character ROM from ``toolchain.c64.roms``, or
the UNSCII fallback), ``png`` into a picture framed as VICE frames its screenshots,
``ansi`` into coloured terminal text, and ``live`` shows it on a terminal while a
program runs, with the keyboard (``keys``).
"""

from toolchain.display.state import ScreenImage, lowercase_from_d018

__all__ = ["ScreenImage", "lowercase_from_d018"]
