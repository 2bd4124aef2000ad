"""Mastermind strategies for 4 positions and 6 digits, as Python models.

* Superhirn II (64'er): the first code consistent with all answers, searched with the
  first position changing fastest (see :mod:`toolchain.verify.superhirn`).
* Superhirn III (minimax, superhirn-algorithm-notes.txt): among the codes still
  consistent with all answers, the one whose worst-case answer leaves the fewest
  codes; ties go to Superhirn II's order; the first guess is 1234.
* Knuth (1976): the same minimax rule, but over all 1296 codes, preferring a
  consistent code and then the lowest code on ties; the first guess is 1122.

A strategy's next guess depends only on the set of codes still possible, so each
strategy is worked out as a decision tree, solving every distinct set once.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from toolchain.disk.prg import Prg
from toolchain.verify.games import Progress, Verification, register
from toolchain.verify.scoring import score_table
from toolchain.verify.superhirn import (
    all_codes_first_position_fastest,
    all_secrets,
    model_game,
    verify_against,
)

CODES = all_secrets()  # 1111, 1112, ... (last position fastest): Knuth's order
_INDEX = {code: i for i, code in enumerate(CODES)}
_SUPERHIRN_ORDER = {code: i for i, code in enumerate(all_codes_first_position_fastest())}
ALL_BLACK = 4 * 10  # answers are encoded as black * 10 + white


_SCORES: list[bytes] | None = None


def scores() -> list[bytes]:
    """The answer table of all codes (computed once, on first use)."""
    global _SCORES
    if _SCORES is None:
        _SCORES = score_table(CODES)
    return _SCORES


def _worst_case(guess: int, possible: Sequence[int], table: list[bytes]) -> int:
    row = table[guess]
    sizes = Counter(row[s] for s in possible)
    return max(sizes.values())


Chooser = Callable[[tuple[int, ...], list[bytes]], int]


def _minimax_over_consistent(possible: tuple[int, ...], table: list[bytes]) -> int:
    return min(possible, key=lambda g: (_worst_case(g, possible, table), _SUPERHIRN_ORDER[CODES[g]]))


def _knuth(possible: tuple[int, ...], table: list[bytes]) -> int:
    if len(possible) == 1:
        return possible[0]
    consistent = set(possible)
    return min(range(len(CODES)),
               key=lambda g: (_worst_case(g, possible, table), g not in consistent, g))


def _play_tree(first: str, choose: Chooser) -> dict[str, list[str]]:
    """Every secret's guesses under a strategy (first guess fixed)."""
    table = scores()
    games: dict[str, list[str]] = {}
    decisions: dict[tuple[int, ...], int] = {}

    def walk(possible: tuple[int, ...], guess: int, history: list[str]) -> None:
        history = [*history, CODES[guess]]
        row = table[guess]
        groups: dict[int, list[int]] = {}
        for secret in possible:
            groups.setdefault(row[secret], []).append(secret)
        for answer, group in groups.items():
            if answer == ALL_BLACK:
                games[CODES[guess]] = history
                continue
            remaining = tuple(group)
            if remaining not in decisions:
                decisions[remaining] = choose(remaining, table)
            walk(remaining, decisions[remaining], history)

    walk(tuple(range(len(CODES))), _INDEX[first], [])
    return games


@dataclass
class StrategyResult:
    name: str
    guesses: dict[str, int]  # secret -> number of guesses

    @property
    def worst(self) -> int:
        return max(self.guesses.values())

    @property
    def mean(self) -> float:
        return sum(self.guesses.values()) / len(self.guesses)

    def distribution(self) -> dict[int, int]:
        return dict(sorted(Counter(self.guesses.values()).items()))


@functools.cache
def superhirn2() -> StrategyResult:
    return StrategyResult("Superhirn II (first consistent code)",
                          {secret: len(model_game(secret)[0]) for secret in CODES})


@functools.cache
def superhirn3_games() -> dict[str, list[str]]:
    return _play_tree("1234", _minimax_over_consistent)


@functools.cache
def superhirn3() -> StrategyResult:
    return StrategyResult("Superhirn III (minimax over consistent codes)",
                          {s: len(g) for s, g in superhirn3_games().items()})


@functools.cache
def knuth() -> StrategyResult:
    return StrategyResult("Knuth (minimax over all codes)",
                          {s: len(g) for s, g in _play_tree("1122", _knuth).items()})


def comparison(results: list[StrategyResult]) -> str:
    """The table: maximum, mean and distribution of guesses over all 1296 codes."""
    width = max(len(r.name) for r in results)
    counts = sorted({n for r in results for n in r.distribution()})
    header = f"{'strategy':<{width}}  max   mean  " + " ".join(f"{n:>4}" for n in counts)
    rows = [header]
    for result in results:
        distribution = result.distribution()
        rows.append(f"{result.name:<{width}}  {result.worst:>3}  {result.mean:.3f}  "
                    + " ".join(f"{distribution.get(n, 0):>4}" for n in counts))
    return "\n".join(rows) + "\n"


@register("superhirn3", default_prg="superhirn3.prg")
def verify_superhirn3(prg: Prg, secrets: list[str] | None = None,
                      progress: Progress | None = None, jobs: int = 1) -> Verification:
    """Superhirn III against the minimax model."""
    games = superhirn3_games()
    return verify_against(prg, "Superhirn III", lambda secret: (games[secret], "OK"), secrets, progress,
                          jobs)


@register("strategies")
def compare_strategies() -> str:
    """The Python models of Superhirn II, Superhirn III (minimax over the consistent
    codes) and Knuth's minimax compared over all 1296 codes."""
    return comparison([superhirn2(), superhirn3(), knuth()])
