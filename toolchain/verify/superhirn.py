"""Superhirn II: the machine code against a model written from the 64'er article.

The article's algorithm (Superhirn II, 64'er; see ../shared/seeds/README.md): the
first guess is 1234; then candidates are tried in order 1111 ... 6666 with the FIRST
position changing fastest, and the first candidate consistent with every answer so
far is the next guess; the search goes on after the last guess; reaching the end
means an impossible answer: ERROR.  Answers are scored the standard Mastermind way.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from toolchain.c64.machine import C64
from toolchain.c64.run import Keyboard, Program, Session, Stop, program_from_prg
from toolchain.disk.prg import Prg
from toolchain.verify.games import Game, NotTheProgram, Progress, Verification, register
from toolchain.verify.scoring import score

POSITIONS, DIGITS = 4, 6
START = 0x3400  # SYS 13312


def all_codes_first_position_fastest() -> list[str]:
    """1111, 2111, ..., 6111, 1211, ...: the order Superhirn II searches in."""
    return ["".join(reversed(code)) for code in itertools.product("123456", repeat=POSITIONS)]


def all_secrets() -> list[str]:
    return ["".join(code) for code in itertools.product("123456", repeat=POSITIONS)]


_ORDER = all_codes_first_position_fastest()


def model_game(secret: str) -> tuple[list[str], str]:
    """The guesses Superhirn II makes for ``secret``, and the outcome."""
    guesses = ["1234"]
    answers = [score(secret, "1234")]
    position = 0  # the search starts at 1111
    while answers[-1][0] != POSITIONS:
        for index in range(position, len(_ORDER)):
            candidate = _ORDER[index]
            if all(score(candidate, g) == a for g, a in zip(guesses, answers, strict=True)):
                guesses.append(candidate)
                answers.append(score(secret, candidate))
                position = index + 1
                break
        else:
            return guesses, "ERROR"
    return guesses, "OK"


class Answerer:
    """Types the answers a careful player gives: blacks, RETURN, whites, RETURN."""

    GUESS = re.compile(rb"[1-6]{4}")

    def __init__(self, machine: C64, secret: str, max_guesses: int = 20) -> None:
        self.machine = machine
        self.secret = secret
        self.guesses: list[str] = []
        self.seen = 0
        self.white: int | None = None
        self.max_guesses = max_guesses

    def __call__(self) -> str | None:
        printed = bytes(self.machine.output_log[self.seen :])
        self.seen = len(self.machine.output_log)
        found = self.GUESS.findall(printed)
        if found:
            guess = found[-1].decode()
            self.guesses.append(guess)
            if len(self.guesses) > self.max_guesses:
                return None
            black, self.white = score(self.secret, guess)
            return str(black)
        if self.white is None:
            return None
        white, self.white = self.white, None
        return str(white)


def play(program: Prg | Session, secret: str) -> Game:
    """One game on the emulated C64 (on ``program``'s session if it is one, so that a
    thousand games share the translated machine code)."""
    session = program if isinstance(program, Session) else Session(superhirn_program(program))
    answerer = Answerer(session.machine, secret)
    result = session.run(Keyboard(line_source=answerer), max_cycles=50_000_000)
    tail = bytes(session.machine.output_log[-8:])
    if result.stop is Stop.RETURNED and b"OK" in tail:
        outcome = "OK"
    elif result.stop is Stop.RETURNED and b"ERROR" in tail:
        outcome = "ERROR"
    else:
        outcome = result.message
    return Game(secret, answerer.guesses, outcome, result.instructions, result.cycles)


def superhirn_program(prg: Prg) -> Program:
    return program_from_prg(prg, "superhirn", sys_address=START)


def secrets_sample(count: int, seed: int = 1985) -> list[str]:
    import random

    return random.Random(seed).sample(all_secrets(), count)


# a worker process's session per program: its shares reuse the translated machine code
# instead of translating it again for every share (as one process reuses it for all games)
_worker_sessions: dict[tuple[int, bytes], Session] = {}


def play_all(prg: Prg, secrets: list[str]) -> list[Game]:
    """The games of ``secrets``, in order, on this process's session (a worker's share)."""
    key = (prg.load_address, prg.data)
    session = _worker_sessions.get(key)
    if session is None:
        session = _worker_sessions.setdefault(key, Session(superhirn_program(prg)))
    return [play(session, secret) for secret in secrets]


def _shares(secrets: list[str], jobs: int) -> list[list[str]]:
    """The secrets in consecutive shares: a few per job, so that the progress moves
    and a slow share does not keep the others waiting."""
    size = max(1, min(64, -(-len(secrets) // (jobs * 4))))
    return [secrets[start : start + size] for start in range(0, len(secrets), size)]


def play_games(prg: Prg, secrets: list[str], progress: Progress | None = None, jobs: int = 1,
               session: Session | None = None) -> list[Game]:
    """Every secret's game on the machine code, in the order of ``secrets``; with
    ``jobs`` above 1 spread over that many processes (same games, same order).
    ``session``: the program's session in this process, when there is one already."""
    games: list[Game] = []
    if jobs <= 1 or len(secrets) < 2:
        session = session or Session(superhirn_program(prg))
        for secret in secrets:
            games.append(play(session, secret))
            if progress is not None:
                progress(len(games), len(secrets))
        return games
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for share in pool.map(play_all, itertools.repeat(prg), _shares(secrets, jobs)):
            games.extend(share)
            if progress is not None:
                progress(len(games), len(secrets))
    return games


def verify_against(prg: Prg, name: str, model: Callable[[str], tuple[list[str], str]],
                   secrets: list[str] | None = None, progress: Progress | None = None,
                   jobs: int = 1) -> Verification:
    """Play every secret (or the given ones) on the machine code and compare each game
    with ``model`` (secret -> guesses, outcome)."""
    secrets = secrets or all_secrets()
    if not prg.load_address <= START < prg.end_address:
        last = max(prg.end_address - 1, prg.load_address)
        raise NotTheProgram(f"it loads at ${prg.load_address:04X}-${last:04X}, but {name} starts at "
                            f"${START:04X} (SYS {START}), which it does not hold: not {name}'s PRG")
    # its first game before the others: a program that cannot play says so at once
    session = Session(superhirn_program(prg))
    first = play(session, secrets[0])
    if first.outcome not in ("OK", "ERROR") or not first.guesses:
        raise NotTheProgram(f"its first game (secret {secrets[0]}) does not play as {name} does (a guess "
                            f"printed, answers typed, OK): {first.outcome} after {len(first.guesses)} "
                            f"guesses; not {name}'s PRG?")

    def counted_with_the_first(done: int, total: int) -> None:
        if progress is not None:
            progress(done + 1, total + 1)

    games = [first, *play_games(prg, secrets[1:], counted_with_the_first, jobs, session)]
    mismatches: list[str] = []
    for game in games:
        expected, outcome = model(game.case)
        if game.guesses != expected or game.outcome != outcome:
            mismatches.append(f"{game.case}: machine {' '.join(game.guesses)} {game.outcome}; "
                              f"model {' '.join(expected)} {outcome}")
    return Verification(name, games, mismatches)


@register("superhirn", default_prg="superhirn2.prg")
def verify(prg: Prg, secrets: list[str] | None = None, progress: Progress | None = None,
           jobs: int = 1) -> Verification:
    """Superhirn II against the model of the 64'er article's algorithm."""
    return verify_against(prg, "Superhirn II", model_game, secrets, progress, jobs)
