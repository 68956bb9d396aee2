"""The strong Dutch player: legal whole matches, only its seat's view and memory, and the
choices its expected values lead to."""

from __future__ import annotations

import random

import pytest

from games.dutch import GAME, DutchRound
from games.dutch.bots.strong import choose_action
from games.match import Match
from tests.games.dutch.stack import deal, play


@pytest.mark.parametrize("preset", ["classic", "house"])
@pytest.mark.parametrize("n_seats", [2, 5])
def test_strong_players_alone_play_whole_matches_with_legal_moves(
    preset: str, n_seats: int
) -> None:
    rng = random.Random(n_seats)
    match = Match(GAME, GAME.options(preset, target=60), n_seats)
    while not match.finished:
        round_ = match.new_round(seed=rng.random())
        assert isinstance(round_, DutchRound)
        while not round_.finished:  # ends: a strong player calls Dutch at the latest on patience
            seat = round_.to_act()[0]
            action = choose_action(round_, seat, rng)
            assert action in round_.legal_actions(seat)
            round_.apply(seat, action)
        match.add_round(round_.result())
    assert match.winners


def test_strong_choice_depends_only_on_the_seat_s_view_and_memory() -> None:
    # Seat 0 knows its slots 3 and 4 (KH 4S); its slots 1-2, the other grid and the stock
    # differ completely between the two deals.
    one = deal("classic", ["AS 2S KH 4S", "5S 6S 7S 8S"], "9S", "QC 3D 10C JD")
    other = deal("classic", ["5D 6D KH 4S", "9H 10H 5C 6C"], "9S", "QC 3D 10C JD")
    for move in ("draw", "discard", "look 1:1", "draw", "swap 3"):
        seat = one.to_act()[0]
        assert one.view(seat).legal == other.view(seat).legal
        for seed in range(5):
            assert choose_action(one, seat, random.Random(seed)) == choose_action(
                other, seat, random.Random(seed)
            )
        play(one, move)
        play(other, move)


def test_strong_takes_a_low_discard_into_its_worst_known_slot() -> None:
    round_ = deal("classic", ["AS 2S KH 4S", "5S 6S 7S 8S"], "AH")
    assert str(choose_action(round_, 0, random.Random(0))) == "take"
    play(round_, "take")
    assert str(choose_action(round_, 0, random.Random(0))) == "swap 3"  # the red king, 15


def _seat_zero_learns_its_grid(grids: list[str]) -> DutchRound:
    """Seat 0 peeks slots 3-4, then looks at slots 1 and 2 with two Queens from the stock."""
    round_ = deal("classic", grids, "9S", "QH 9C QD 9D QC")
    play(round_, "draw", "discard", "look 0:1", "draw", "discard")
    play(round_, "draw", "discard", "look 0:2", "draw", "discard")
    return round_


def test_strong_queen_looks_at_its_own_unknown_cards_then_at_an_opponent_s() -> None:
    round_ = deal("classic", ["AS 2S 3S 4S", "5S 6S 7S 8S"], "9S", "QH")
    play(round_, "draw", "discard")
    assert str(choose_action(round_, 0, random.Random(0))) in ("look 0:1", "look 0:2")
    known = _seat_zero_learns_its_grid(["10C 10D 3S 4S", "5S 6S 7S 8S"])
    play(known, "draw", "discard")  # the third Queen
    assert str(choose_action(known, 0, random.Random(0))).startswith("look 1:")


def test_strong_calls_dutch_only_with_a_low_known_total() -> None:
    low = _seat_zero_learns_its_grid(["JK KS AS 2S", "10S 10H 8S 8H"])  # -3 + 0 - 1 + 2
    assert str(choose_action(low, 0, random.Random(0))) == "dutch"
    high = _seat_zero_learns_its_grid(["JK KS 5S 6S", "10S 10H 8S 8H"])  # -3 + 0 + 5 + 6
    assert str(choose_action(high, 0, random.Random(0))) != "dutch"
    unknown = deal("classic", ["JK KS AS 2S", "10S 10H 8S 8H"], "9S", "8D 9C")
    play(unknown, "draw", "discard", "draw", "discard")  # seat 0 knows only AS 2S
    assert str(choose_action(unknown, 0, random.Random(0))) != "dutch"
