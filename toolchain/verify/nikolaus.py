"""An independent model of the Haus-vom-Nikolaus listing: what it must print."""

from __future__ import annotations

import functools
import itertools

EDGES = {(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4), (3, 5), (4, 5)}
ERRATUM_END = 4555554  # line 270 as corrected on 14.12.2020
PRINTED_END = 5535554  # line 270 as first printed


@functools.cache
def solutions(end: int = ERRATUM_END) -> list[list[int]]:
    """Corner 1 to corner 2 over all eight edges, each once, in the order of the
    listing's loop over k = 2311111 .. end (seven digits 1-5 are the inner corners;
    the listing skips every k with another digit, so only those k are visited here,
    in the same increasing order)."""
    found = []
    for digits in itertools.product(range(1, 6), repeat=7):
        k = int("".join(map(str, digits)))
        if not 2311111 <= k <= end:
            continue
        path = [1, *digits, 2]
        used = {tuple(sorted(pair)) for pair in zip(path, path[1:], strict=False)}
        if len(used) == 8 and used <= EDGES:
            found.append(path)
    return found


def screen_lines(found: list[list[int]]) -> list[str]:
    """The lines the program prints: ``print "loesung"c"{left}:";`` then STR$ of each
    corner; {left} moves back over the cursor-right that follows a printed number."""
    return [f"LOESUNG {n}:" + "".join(f" {corner}" for corner in path)
            for n, path in enumerate(found, start=1)]
