"""The duplicate-deal match of a strong bot against the reference search
(benchmarks/strength/gap.py): each deal is played twice with the sides swapped, the reference side's
advantage is read the game's way, and the short mode runs."""

from __future__ import annotations

import pytest

from benchmarks.strength.__main__ import main
from benchmarks.strength.gap import advantage, play, seat_players
from games.dame.bots import strong as dame_strong
from games.dutch.bots import strong as dutch_strong

STRONG = {"dutch": dutch_strong.choose_action, "dame": dame_strong.choose_action}


def test_the_second_play_of_a_deal_swaps_every_seat() -> None:
    first, second = seat_players(False), seat_players(True)
    assert first == ("reference", "strong", "reference", "strong")
    assert all({a, b} == {"reference", "strong"} for a, b in zip(first, second, strict=True))


def test_the_advantage_is_in_the_reference_sides_favour_the_games_way() -> None:
    players = seat_players(False)
    assert advantage("dutch", (10, 0, 10, 0), players) == -10.0  # lower is better
    assert advantage("dutch", (0, 5, 2, 9), players) == 6.0
    assert advantage("dame", (300, 100), players) == 200.0  # per team: team 0 is the reference
    assert advantage("dame", (300, 100), seat_players(True)) == -200.0


@pytest.mark.parametrize("game", ["dutch", "dame"])
def test_a_deal_played_by_the_same_bot_on_both_sides_shows_no_gap(game: str) -> None:
    """The two plays of a deal are the same game with the labels swapped, so the deal's figure
    is exactly 0; without the swap it would be the seats' luck."""
    bot = STRONG[game]
    lucky = 0
    for index in range(4):
        a, b = (play(game, index, swapped, bot, bot) for swapped in (False, True))
        assert a.points == b.points
        assert a.advantage + b.advantage == 0.0
        lucky += a.advantage != 0.0
        assert a.reference_decisions == b.strong_decisions
    assert lucky  # the seats' luck is not 0: the swap is what cancels it


@pytest.mark.parametrize("game", ["dutch", "dame"])
def test_the_gap_scripts_short_mode_prints_its_interval(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["gap", game, "--short"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(f"{game}: 1 duplicate deals")
    assert "95% interval" in printed
