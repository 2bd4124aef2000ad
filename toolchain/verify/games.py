"""What every verifier shares: a played game, the result of a verification, the
registry ``c64tc verify`` offers, and the report of a verification."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from toolchain.c64.outcome import PAL_CLOCK_HZ
from toolchain.diagnostics import counted
from toolchain.disk.prg import Prg


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


class NotTheProgram(Exception):
    """The program given cannot be the one the verifier checks (it loads elsewhere, its
    first game does not play): said before a thousand games say only that they differ."""


@dataclass(frozen=True)
class Verifier:
    """A check ``c64tc verify NAME`` runs: on a built program (``default_prg`` names
    it) against a model, or (without a program) a comparison of models."""

    name: str
    run: Callable[..., Verification | str]
    default_prg: str | None = None  # the built program it checks, in build/


VERIFIERS: dict[str, Verifier] = {}


def register(name: str, default_prg: str | None = None) -> Callable[[Callable[..., Verification | str]],
                                                                      Callable[..., Verification | str]]:
    def add(function: Callable[..., Verification | str]) -> Callable[..., Verification | str]:
        VERIFIERS[name] = Verifier(name, function, default_prg)
        return function

    return add


def verify_program(name: str, prg: Prg, secrets: list[str] | None = None,
                   progress: Progress | None = None, jobs: int = 1) -> Verification:
    result = VERIFIERS[name].run(prg, secrets, progress, jobs)
    assert isinstance(result, Verification)
    return result


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
    rows = [f"{verification.name}: {counted(len(games), 'game')}, "
            f"{sum(g.outcome == 'OK' for g in games):,} solved, mean {mean:.3f} guesses, at most {worst}"]
    rows.append("guesses  games")
    rows += [f"{n:7}  {counts[n]:5}" for n in sorted(counts)]
    worst_cases = [g.case for g in games if len(g.guesses) == worst]
    more = len(worst_cases) - 12
    shown = ", ".join(worst_cases[:12]) + (f" (+{more} more)" if more > 0 else "")
    rows.append(f"worst ({counted(worst, 'guess', 'guesses')}): {shown}")
    rows.append(f"emulated: {instructions:,} instructions, {cycles:,} cycles "
                f"({cycles / PAL_CLOCK_HZ:,.0f} s on a PAL C64, "
                f"{cycles / PAL_CLOCK_HZ / len(games):.2f} s per game)")
    if verification.mismatches:
        differ = len(verification.mismatches)
        rows.append(f"{counted(differ, 'game')} {'differs' if differ == 1 else 'differ'} from the model:")
        rows += ["  " + m for m in verification.mismatches[:20]]
    else:
        rows.append("every game agrees with the Python model of the algorithm")
    return "\n".join(rows) + "\n"
