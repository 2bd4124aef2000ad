"""The one Mastermind scorer: how many digits of a guess are right and in the right
place (black), and how many more are right but elsewhere (white), as the standard
game and every model in c64tc count them.

white is the digits the two codes have in common (for each digit, the smaller of
its two counts) less black."""

from __future__ import annotations

import functools
import operator

_DIGITS = "0123456789"


def _black(secret: str, guess: str) -> int:
    return sum(map(operator.eq, secret, guess))


def _digit_counts(code: str) -> tuple[int, ...]:
    return tuple(code.count(digit) for digit in _DIGITS)


def _common(secret_counts: tuple[int, ...], guess_counts: tuple[int, ...]) -> int:
    return sum(map(min, secret_counts, guess_counts))


@functools.cache
def score(secret: str, guess: str) -> tuple[int, int]:
    """(black, white): right digit in the right place, right digit in the wrong place."""
    black = _black(secret, guess)
    return black, _common(_digit_counts(secret), _digit_counts(guess)) - black


def score_table(codes: list[str]) -> list[bytes]:
    """The answer of every secret against every guess, by index, encoded as
    black * 10 + white: the scorer's rule for a whole table at once (the common digits
    depend only on the two codes' digit counts, so they are worked out once per pair
    of counts; 126 kinds for 4 positions of 6 digits)."""
    counts = [_digit_counts(code) for code in codes]
    kinds = {kind: index for index, kind in enumerate(dict.fromkeys(counts))}
    kind_of = [kinds[count] for count in counts]
    kind_list = list(kinds)
    common = [[_common(a, b) for b in kind_list] for a in kind_list]
    table = []
    for secret, secret_kind in zip(codes, kind_of, strict=True):
        commons = common[secret_kind]
        table.append(bytes(black * 9 + commons[kind]  # black * 10 + (common - black)
                           for black, kind in zip(map(_black, [secret] * len(codes), codes), kind_of,
                                                  strict=True)))
    return table
