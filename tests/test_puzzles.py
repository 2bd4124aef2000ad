"""The two BASIC ports from the seed documents, played in the BASIC runner against
independent Python models: the fox hunt (foxhunt-mk61.txt) and the generalized
Mastermind list algorithm (mastermind-list-algorithm.txt)."""

from __future__ import annotations

import random

import pytest

from tests.conftest import DATA, REPO
from toolchain.c64.run import Keyboard, Session, Stop, load_program
from toolchain.verify import foxhunt, mastermind
from toolchain.verify.scoring import score


def built(name: str) -> Session:
    """The program on a session: compiled once for all the games a test plays."""
    path = REPO / "sources" / f"{name}.bas"
    return Session(load_program(path))


FOXHUNT = built("foxhunt")
MASTERMIND = built("mastermind")


def final_screen(session: Session, typed: str) -> list[str]:
    session.run(Keyboard(typed), max_statements=10_000_000)
    return [row.rstrip() for row in session.machine.screen.text().splitlines()]


# -- fox hunt ---------------------------------------------------------------------------------

def test_foxhunt_screen_equals_the_real_c64() -> None:
    """A whole game on VICE: the same seed gives the same field on a real C64 (the
    runner's RND is the ROM's), and the same answers."""
    typed = (DATA / "basic" / "foxhunt.input").read_text()
    expected = (DATA / "basic" / "foxhunt.vice.txt").read_text().splitlines()
    assert final_screen(FOXHUNT, typed)[: len(expected)] == expected


@pytest.mark.parametrize(("seed", "foxes"), [(".5", "3"), (".123", "1"), ("0", "5"), ("1", "12"),
                                             (".987654", "38")])
def test_foxhunt_answers_match_the_model(seed: str, foxes: str) -> None:
    game = foxhunt.play(FOXHUNT, seed, foxes, foxhunt.scan_moves(every_invalid=6))
    assert game.stop is Stop.END
    assert len(game.foxes()) == int(foxes)
    assert game.answers == foxhunt.model_answers(game.foxes(), game.moves)
    valid = [move for move in game.moves if foxhunt.CELL.fullmatch(move)]
    assert game.move_count == len(valid)  # wrong cells are not moves
    probed = {(int(move[0]), int(move[2])) for move in valid}
    assert game.probed() == probed - game.foxes()
    assert any(answer.startswith("-") for answer in game.answers)


def test_foxhunt_same_seed_same_field_other_seed_other_field() -> None:
    forward = foxhunt.play(FOXHUNT, ".25", "6", foxhunt.scan_moves())
    backward = foxhunt.play(FOXHUNT, ".25", "6", reversed(list(foxhunt.scan_moves())))
    other = foxhunt.play(FOXHUNT, ".26", "6", foxhunt.scan_moves())
    assert forward.foxes() == backward.foxes()
    assert forward.foxes() != other.foxes()


def test_foxhunt_found_fox_counts_once_but_keeps_counting() -> None:
    first = foxhunt.play(FOXHUNT, ".5", "3", foxhunt.scan_moves())
    fox = sorted(first.foxes())[0]
    cell = f"{fox[0]}.{fox[1]}"
    again = foxhunt.play(FOXHUNT, ".5", "3", [cell, cell, cell])
    assert again.answers[0] == again.answers[1] == again.answers[2]
    assert again.answers[0].endswith(".01")
    assert again.move_count is None  # three probes of one fox do not find three foxes


def test_foxhunt_asks_again_for_a_bad_number_of_foxes() -> None:
    game = foxhunt.play(FOXHUNT, ".5", "0", ["39", "2.5", "1"])
    lines = game.transcript.splitlines()
    assert [line for line in lines if line.startswith("FOXES")] == [
        "FOXES (1-38)? 0", "FOXES (1-38)? 39", "FOXES (1-38)? 2.5", "FOXES (1-38)? 1"]


# -- Mastermind -------------------------------------------------------------------------------

def test_mastermind_screen_equals_the_real_c64() -> None:
    typed = (DATA / "basic" / "mastermind.input").read_text()
    expected = (DATA / "basic" / "mastermind.vice.txt").read_text().splitlines()
    assert final_screen(MASTERMIND, typed)[: len(expected)] == expected


def test_mastermind_documents_example_with_standard_scoring() -> None:
    game = mastermind.play(MASTERMIND, "311", 3)
    assert game.guesses == ["123", "211", "212", "311"] and game.solved
    assert [mastermind.marks(*score("311", guess)) for guess in game.guesses] == [
        "--", "++", "+", "+++"]


def test_mastermind_first_guess_wraps_around() -> None:
    assert mastermind.first_guess(6, 4) == "123412"
    game = mastermind.play(MASTERMIND, "444444", 4)
    assert game.guesses[0] == "123412" and game.solved


def _sample(positions: int, digits: int, count: int) -> list[str]:
    codes = mastermind.codes(positions, digits)
    return codes if count >= len(codes) else random.Random(positions * 10 + digits).sample(codes, count)


@pytest.mark.parametrize(("positions", "digits", "count"), [(3, 3, 27), (2, 9, 81), (4, 6, 40),
                                                            (5, 8, 6), (6, 4, 6)])
def test_mastermind_games_agree_with_the_model(positions: int, digits: int, count: int) -> None:
    for secret in _sample(positions, digits, count):
        game = mastermind.play(MASTERMIND, secret, digits)
        expected, solved = mastermind.model_game(secret, digits)
        assert solved and game.solved, (secret, game.transcript)
        assert game.guesses == expected, secret


def test_mastermind_wrong_answer_is_reported() -> None:
    # the player claims no digit of 123 is in the code, then answers truthfully
    def fibbing(guess: str) -> tuple[int, int]:
        return (0, 0) if guess == "123" else score("311", guess)

    game = mastermind.play(MASTERMIND, "311", 3, fibbing)
    expected, solved = mastermind.model_game("311", 3, fibbing)
    assert not solved and game.wrong_answer_reported
    assert game.guesses == expected
    assert game.stop is Stop.END


def test_mastermind_rejects_other_characters_and_too_many_marks() -> None:
    screen = final_screen(MASTERMIND, "3|3|x|++++|--|++|+|+++|")
    assert "TYPE + AND - ONLY" in screen and "MORE MARKS THAN PLACES" in screen
    assert "SOLVED IN 4 GUESSES" in screen
