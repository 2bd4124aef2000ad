"""The fox hunt (MK-61 "Охота на лис", foxhunt-mk61.txt): a model of the rules, and
games played on the BASIC port (sources/foxhunt.bas) in the runner.

The rules, as the port states them: a 10x10 field; a move names a cell as
``row.col`` with one digit each; the answer is the number of foxes on the cell's
row, column and both diagonals (a fox on the cell counted once), printed with .01
added when a fox sits on the cell, which is then found; a wrong cell answers minus
the foxes still hidden and is not a move.  A found fox stays and keeps counting, but
is found only once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from toolchain.c64.run import Keyboard, Session, Stop, program_from_prg
from toolchain.disk.prg import Prg

SIZE = 10
CELL = re.compile(r"\d\.\d")


def model_answers(foxes: set[tuple[int, int]], moves: Iterable[str]) -> list[str]:
    """What the program must print for each move, until every fox is found."""
    found: set[tuple[int, int]] = set()
    printed = []
    for move in moves:
        if len(found) == len(foxes):
            break
        if not CELL.fullmatch(move):
            printed.append(f"-{len(foxes) - len(found)}")
            continue
        row, column = int(move[0]), int(move[2])
        count = sum(1 for r, c in foxes
                    if r == row or c == column or r - c == row - column or r + c == row + column)
        if (row, column) in foxes:
            found.add((row, column))
            printed.append(f" {count}.01")
        else:
            printed.append(f" {count}")
    return printed


@dataclass
class FoxGame:
    transcript: str
    stop: Stop
    moves: list[str]  # what was typed at each CELL? prompt
    answers: list[str]  # the line printed after each
    field: list[str]  # the 10 rows shown at the end ([] if the game did not end)
    move_count: int | None  # from "ALL FOXES FOUND IN n MOVES"

    def foxes(self) -> set[tuple[int, int]]:
        return {(r, c) for r, row in enumerate(self.field) for c, mark in enumerate(row) if mark == "F"}

    def probed(self) -> set[tuple[int, int]]:
        return {(r, c) for r, row in enumerate(self.field) for c, mark in enumerate(row) if mark == "+"}


def scan_moves(every_invalid: int = 0) -> Iterator[str]:
    """0.0, 0.1, ... 9.9: every cell once, which finds every fox; with a wrong entry
    after every ``every_invalid`` cells."""
    wrong = ["x", "10", "3.75", "", "5", ".7", "5-5"]
    for index in range(SIZE * SIZE):
        if every_invalid and index % every_invalid == every_invalid - 1:
            yield wrong[index // every_invalid % len(wrong)]
        yield f"{index // SIZE}.{index % SIZE}"


def play(program: Prg | Session, seed: str, foxes: str, moves: Iterable[str],
         max_statements: int = 5_000_000) -> FoxGame:
    """Play the port in the BASIC runner: the seed, the number of foxes, then moves
    until the program stops asking."""
    typed: list[str] = []
    answers = iter([seed, foxes])
    move_source = iter(moves)

    def next_line() -> str | None:
        line = next(answers, None)
        if line is None:
            line = next(move_source, None)
            if line is None:
                return None
            typed.append(line)
        return line

    session = program if isinstance(program, Session) else Session(program_from_prg(program, "fox hunt"))
    result = session.run(Keyboard(line_source=next_line), max_statements=max_statements)
    machine = session.machine
    transcript = machine.screen.transcript()
    lines = [line.rstrip() for line in transcript.splitlines()]
    printed = [lines[index + 1] for index, line in enumerate(lines[:-1]) if line.startswith("CELL?")]
    move_count = None
    field: list[str] = []
    for index, line in enumerate(lines):
        found = re.fullmatch(r"ALL FOXES FOUND IN (\d+) MOVES", line.strip())
        if found:
            move_count = int(found.group(1))
            field = lines[index + 1 : index + 1 + SIZE]
    return FoxGame(transcript, result.stop, typed[: len(printed)], printed, field, move_count)
