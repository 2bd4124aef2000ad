"""Generalized Mastermind, the computer guessing (mastermind-list-algorithm.txt): a
model of the list algorithm, and games played on the BASIC port
(sources/mastermind.bas) in the runner against an automatic answerer.

The algorithm as the port implements it: the first guess is 1,2,3,... wrapping to 1
when there are fewer digits than positions; then the codes are walked in list order
(111, 112, ..., the LAST position fastest) and the first code that fits every answer
so far (standard Mastermind scoring) is the next guess.  The first walk starts at the
beginning of the list (the first guess did not come from it), later walks go on
after the last guess; reaching the end means an answer was wrong.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

from toolchain.c64.run import Keyboard, Session, Stop, program_from_prg
from toolchain.disk.prg import Prg
from toolchain.verify.scoring import score

WRONG_ANSWER = "NO CODE FITS ALL ANSWERS: ONE WAS WRONG"


def first_guess(positions: int, digits: int) -> str:
    return "".join(str(index % digits + 1) for index in range(positions))


def codes(positions: int, digits: int) -> list[str]:
    """Every code in list order: the last position changes fastest."""
    return ["".join(code) for code in itertools.product("123456789"[:digits], repeat=positions)]


def marks(black: int, white: int) -> str:
    return "+" * black + "-" * white


def model_game(secret: str, digits: int,
               answer: Callable[[str], tuple[int, int]] | None = None) -> tuple[list[str], bool]:
    """The guesses for ``secret`` and whether the game ends solved (False: the list
    ran out, which only wrong answers cause).  ``answer`` scores a guess (default:
    correctly, against the secret)."""
    answer = answer or (lambda guess: score(secret, guess))
    positions = len(secret)
    order = codes(positions, digits)
    guesses = [first_guess(positions, digits)]
    answers = [answer(guesses[0])]
    position = 0
    while answers[-1][0] != positions:
        for index in range(position, len(order)):
            candidate = order[index]
            if all(score(candidate, g) == a for g, a in zip(guesses, answers, strict=True)):
                guesses.append(candidate)
                answers.append(answer(candidate))
                position = index + 1
                break
        else:
            return guesses, False
    return guesses, True


@dataclass
class MastermindGame:
    guesses: list[str]
    solved: bool  # "SOLVED IN n GUESSES" shown, n = len(guesses)
    wrong_answer_reported: bool
    stop: Stop
    statements: int
    transcript: str


GUESS_LINE = re.compile(r" *(\d+) (\d+)")


def play(program: Prg | Session, secret: str, digits: int,
         answer: Callable[[str], tuple[int, int]] | None = None,
         max_statements: int = 50_000_000) -> MastermindGame:
    """Play the port in the BASIC runner; the answerer reads each guess off the
    screen and types its marks (correct ones against ``secret`` by default)."""
    answer = answer or (lambda guess: score(secret, guess))
    session = program if isinstance(program, Session) else Session(program_from_prg(program, "mastermind"))
    machine = session.machine
    setup = iter([str(len(secret)), str(digits)])
    guesses: list[str] = []

    def next_line() -> str | None:
        line = next(setup, None)
        if line is not None:
            return line
        shown = [GUESS_LINE.fullmatch(row.rstrip()) for row in machine.screen.transcript().splitlines()]
        found = [match.group(2) for match in shown if match]
        if len(found) == len(guesses):
            return None  # asked again without a new guess: give up
        guesses.append(found[-1])
        return marks(*answer(found[-1]))

    result = session.run(Keyboard(line_source=next_line), max_statements=max_statements)
    transcript = machine.screen.transcript()
    solved = f"SOLVED IN {len(guesses)} GUESSES" in transcript
    return MastermindGame(guesses, solved, WRONG_ANSWER in transcript, result.stop, result.statements,
                          transcript)
