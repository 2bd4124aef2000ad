"""Exhaustive checks of built programs against independent Python models.

A verifier plays every case (for Superhirn II: all 1296 secrets) on the emulated C64
and compares each game with the model.  Verifiers register by name; ``c64tc verify
NAME`` runs one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from toolchain.c64.outcome import PAL_CLOCK_HZ


@dataclass
class Game:
    case: str  # e.g. the secret
    guesses: list[str]
    outcome: str  # "OK", "ERROR", or why the run stopped
    instructions: int = 0
    cycles: int = 0


@dataclass
class Verification:
    name: str
    games: list[Game]
    mismatches: list[str] = field(default_factory=list)  # game-by-game differences from the model

    @property
    def passed(self) -> bool:
        return not self.mismatches and all(g.outcome == "OK" for g in self.games)


Progress = Callable[[int, int], None]
VERIFIERS: dict[str, Callable[..., Verification]] = {}


def register(name: str) -> Callable[[Callable[..., Verification]], Callable[..., Verification]]:
    def add(function: Callable[..., Verification]) -> Callable[..., Verification]:
        VERIFIERS[name] = function
        return function

    return add


def guess_statistics(verification: Verification) -> str:
    """Distribution of guesses, the worst cases, and the cost, as a short report."""
    games = verification.games
    counts: dict[int, int] = {}
    for game in games:
        counts[len(game.guesses)] = counts.get(len(game.guesses), 0) + 1
    worst = max(len(g.guesses) for g in games)
    mean = sum(len(g.guesses) for g in games) / len(games)
    instructions = sum(g.instructions for g in games)
    cycles = sum(g.cycles for g in games)
    rows = [f"{verification.name}: {len(games)} games, "
            f"{sum(g.outcome == 'OK' for g in games)} solved, mean {mean:.3f} guesses, at most {worst}"]
    rows.append("guesses  games")
    rows += [f"{n:7}  {counts[n]:5}" for n in sorted(counts)]
    worst_cases = [g.case for g in games if len(g.guesses) == worst]
    more = len(worst_cases) - 12
    shown = ", ".join(worst_cases[:12]) + (f" (+{more} more)" if more > 0 else "")
    rows.append(f"worst ({worst} guesses): {shown}")
    rows.append(f"emulated: {instructions:,} instructions, {cycles:,} cycles "
                f"({cycles / PAL_CLOCK_HZ:,.0f} s on a PAL C64, "
                f"{cycles / PAL_CLOCK_HZ / len(games):.2f} s per game)")
    if verification.mismatches:
        rows.append(f"{len(verification.mismatches)} games differ from the model:")
        rows += ["  " + m for m in verification.mismatches[:20]]
    else:
        rows.append("every game agrees with the Python model of the algorithm")
    return "\n".join(rows) + "\n"


from toolchain.verify import superhirn  # noqa: E402,F401  (registers its verifier)
