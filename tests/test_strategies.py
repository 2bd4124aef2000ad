"""The Mastermind strategy models against published results."""

from __future__ import annotations

from click.testing import CliRunner

from toolchain.cli import main
from toolchain.verify import strategies
from toolchain.verify.scoring import score


def test_score_table_agrees_with_the_scorer() -> None:
    table = strategies.scores()
    codes = strategies.CODES
    for i in range(0, 1296, 97):
        for j in range(0, 1296, 89):
            black, white = score(codes[i], codes[j])
            assert table[i][j] == black * 10 + white


def test_knuth_needs_at_most_five_guesses_mean_4_476() -> None:
    result = strategies.knuth()
    # Knuth (1976): 5801 guesses over all 1296 codes, never more than five
    assert result.worst == 5 and sum(result.guesses.values()) == 5801


def test_superhirn3_rule_keeps_the_magazines_promise_of_six() -> None:
    result = strategies.superhirn3()
    assert result.worst == 6 and round(result.mean, 3) == 4.498  # the known results for this rule
    games = strategies.superhirn3_games()
    assert all(game[0] == "1234" and game[-1] == secret for secret, game in games.items())
    assert len(games) == 1296


def test_superhirn2_model_is_the_article_algorithm() -> None:
    result = strategies.superhirn2()
    assert (result.worst, result.distribution()[9]) == (9, 2)


def test_cli_comparison_table() -> None:
    output = CliRunner().invoke(main, ["verify", "strategies"]).output.splitlines()
    assert output[0].split()[:3] == ["strategy", "max", "mean"]
    assert output[2].startswith("Superhirn III") and " 6  4.498" in output[2]
    assert output[3].startswith("Knuth") and " 5  4.476" in output[3]
