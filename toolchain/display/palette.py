"""The C64's sixteen colours.

The palette is Philip "Pepto" Timmermann's PAL measurement of the VIC-II
(pepto.de/projects/colorvic, 2001), as VICE ships it in ``C64/pepto-pal.vpl``: the
palette file VICE's x64sc uses by default when an external palette is switched on
(``vicii-resources.c``: ``external_palette_name = "pepto-pal"``).  VICE's own
default, its internally computed palette, depends on its colour sliders and has no
published values; ``c64tc vice --screenshot`` therefore runs VICE with this file and
neutral sliders, so that its pictures and ours compare by value.
"""

from __future__ import annotations

PALETTE_NAME = "Pepto (PAL)"

#: RGB of colours 0-15: black, white, red, cyan, purple, green, blue, yellow, orange,
#: brown, light red, dark grey, grey, light green, light blue, light grey
PEPTO_PAL: tuple[tuple[int, int, int], ...] = (
    (0x00, 0x00, 0x00), (0xFF, 0xFF, 0xFF), (0x68, 0x37, 0x2B), (0x70, 0xA4, 0xB2),
    (0x6F, 0x3D, 0x86), (0x58, 0x8D, 0x43), (0x35, 0x28, 0x79), (0xB8, 0xC7, 0x6F),
    (0x6F, 0x4F, 0x25), (0x43, 0x39, 0x00), (0x9A, 0x67, 0x59), (0x44, 0x44, 0x44),
    (0x6C, 0x6C, 0x6C), (0x9A, 0xD2, 0x84), (0x6C, 0x5E, 0xB5), (0x95, 0x95, 0x95),
)  # fmt: skip

COLOUR_NAMES = ("black", "white", "red", "cyan", "purple", "green", "blue", "yellow", "orange",
                "brown", "light red", "dark grey", "grey", "light green", "light blue", "light grey")


def rgb(colour: int) -> tuple[int, int, int]:
    return PEPTO_PAL[colour & 0x0F]


def index_of(red: int, green: int, blue: int) -> int | None:
    """The colour number of an exact palette RGB value, None for any other."""
    try:
        return PEPTO_PAL.index((red, green, blue))
    except ValueError:
        return None


def _xterm_256(red: int, green: int, blue: int) -> int:
    """The nearest of the xterm 256-colour palette's cube and grey ramp."""
    levels = (0, 95, 135, 175, 215, 255)

    def nearest_level(value: int) -> int:
        return min(range(6), key=lambda i: abs(levels[i] - value))

    r, g, b = nearest_level(red), nearest_level(green), nearest_level(blue)
    cube = 16 + 36 * r + 6 * g + b
    cube_error = sum((x - y) ** 2 for x, y in zip((levels[r], levels[g], levels[b]), (red, green, blue),
                                                    strict=True))
    grey = min(range(24), key=lambda i: abs(8 + 10 * i - (red + green + blue) // 3))
    grey_value = 8 + 10 * grey
    grey_error = sum((grey_value - x) ** 2 for x in (red, green, blue))
    return cube if cube_error <= grey_error else 232 + grey


#: the palette in the xterm 256-colour set, for terminals without 24-bit colour
XTERM_256: tuple[int, ...] = tuple(_xterm_256(*colour) for colour in PEPTO_PAL)
