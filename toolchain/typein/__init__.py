"""The type-in checkers magazines printed, so that a reader typing from the page finds the
line with the typo.

* :mod:`toolchain.typein.checkers`: the value each BASIC checker shows for a typed line
  (the 64'er's Checksummer 64 V1/V2 and V3, COMPUTE!'s Automatic Proofreader of 1983
  and its new version of 1986);
* :mod:`toolchain.typein.listing`: a listing with the values the magazine printed
  (``<123>``, ``:rem 123``, ``EM 20 ...``): taken out of the program, compared;
* :mod:`toolchain.typein.mlx`: COMPUTE!'s MLX listings of machine code (1984: six
  decimal bytes a row; 1985 on: eight hex bytes), checked row by row and made a PRG.

The 64'er's MSE dumps are :mod:`toolchain.mse`.
"""

from __future__ import annotations

from toolchain.typein.checkers import ALIASES, CHECKERS, Checker, TypedLine, checker_named, typed_line
from toolchain.typein.listing import (
    STYLE_OF,
    LineValue,
    Listing,
    Printed,
    choose_checker,
    compare,
    line_values,
    read_listing,
)

__all__ = ["ALIASES", "CHECKERS", "STYLE_OF", "Checker", "LineValue", "Listing", "Printed", "TypedLine",
           "checker_named",
           "choose_checker", "compare", "line_values", "read_listing", "typed_line"]
