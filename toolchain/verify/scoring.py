"""The one Mastermind scorer: how many digits of a guess are right and in the right
place (black), and how many more are right but elsewhere (white), as the standard
game and every model in c64tc count them."""

from __future__ import annotations

import functools
from collections import Counter


def _black_white(secret: str, guess: str, secret_counts: Counter[str],
                 guess_counts: Counter[str]) -> tuple[int, int]:
    black = sum(s == g for s, g in zip(secret, guess, strict=True))
    common = sum((secret_counts & guess_counts).values())
    return black, common - black


@functools.cache
def score(secret: str, guess: str) -> tuple[int, int]:
    """(black, white): right digit in the right place, right digit in the wrong place."""
    return _black_white(secret, guess, Counter(secret), Counter(guess))


def score_table(codes: list[str]) -> list[bytes]:
    """The answer of every secret against every guess, by index, encoded as
    black * 10 + white (a whole table with the scorer's rule, without caching a
    million pairs)."""
    counts = [Counter(code) for code in codes]
    table = []
    for secret, secret_counts in zip(codes, counts, strict=True):
        row = bytearray(len(codes))
        for index, (guess, guess_counts) in enumerate(zip(codes, counts, strict=True)):
            black, white = _black_white(secret, guess, secret_counts, guess_counts)
            row[index] = black * 10 + white
        table.append(bytes(row))
    return table
