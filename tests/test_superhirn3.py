"""Superhirn III (sources/superhirn3.asm): minimax in the magazine's dialect, verified
against the Python model of the strategy game by game."""

from __future__ import annotations

import pytest

from tests.conftest import REPO
from toolchain.asm import assemble
from toolchain.c64.machine import C64
from toolchain.c64.run import Keyboard, RunResult, Stop, program_from_prg, run_program
from toolchain.disk import Prg
from toolchain.verify.scoring import score
from toolchain.verify.strategies import superhirn3_games, verify_superhirn3
from toolchain.verify.superhirn import secrets_sample

SOURCE = REPO / "sources" / "superhirn3.asm"


@pytest.fixture(scope="module")
def prg() -> Prg:
    program = assemble(SOURCE.read_text(), str(SOURCE))
    assert program.start == 0x3400  # started with SYS 13312, like Superhirn II
    return Prg(program.start, program.image)


def play(prg: Prg, answers: str) -> tuple[C64, RunResult]:
    result, machine = run_program(program_from_prg(prg, "superhirn3", sys_address=0x3400),
                                  Keyboard(answers), max_cycles=500_000_000)
    return machine, result


def test_source_is_in_the_listing_dialect() -> None:
    lines = SOURCE.read_text().splitlines()
    assert lines[0] == "100 sys32768" and lines[1] == "110 .opt oo,p" and lines[2] == "120 *= $3400"
    numbers = [int(line.split()[0]) for line in lines]
    assert numbers == sorted(numbers)


def test_the_article_secret_3436(prg: Prg) -> None:
    expected = superhirn3_games()["3436"]
    assert expected == ["1234", "5211", "6364", "4633", "3436"]
    answers = "|".join(f"{b}|{w}" for b, w in (score("3436", g) for g in expected[:-1])) + "|4"
    machine, result = play(prg, answers)
    assert result.stop is Stop.RETURNED
    shown = [line for line in machine.screen.transcript().splitlines() if len(line) == 4]
    assert shown == expected and machine.screen.transcript().splitlines()[-1] == "OK"


def test_an_impossible_answer_ends_in_error(prg: Prg) -> None:
    machine, result = play(prg, "3|1")  # three right in place and one misplaced: impossible
    assert result.stop is Stop.RETURNED
    assert machine.screen.transcript().splitlines()[-1] == "ERROR"


def test_sampled_games_agree_with_the_model(prg: Prg) -> None:
    verification = verify_superhirn3(prg, secrets_sample(3, seed=3) + ["1111"])
    assert verification.mismatches == [] and verification.passed


@pytest.mark.slow
def test_fifty_sampled_and_every_six_guess_code_agree_with_the_model(prg: Prg) -> None:
    worst = [secret for secret, game in superhirn3_games().items() if len(game) == 6]
    verification = verify_superhirn3(prg, sorted(set(secrets_sample(50)) | set(worst)))
    assert verification.mismatches == [] and verification.passed
    assert max(len(g.guesses) for g in verification.games) == 6
