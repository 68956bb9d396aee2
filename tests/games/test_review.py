"""The review of a seat's play: deterministic for a seed, graded by the game's thresholds, and
blind to every card the seat never saw (two hands differing only there get the same review)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.cards import card
from games.contract import RoundRecord, RoundSetup
from games.registry import get_game
from games.review import (
    accuracy_of,
    grade_of,
    positions_of,
    review_decision,
    review_from_json,
    review_hand,
    review_to_json,
    same_move,
    seen_now,
)

GAMES = ("euchre", "dutch", "dame")


def finished(name: str, seed: int = 3) -> RoundRecord:
    game = get_game(name)
    round_: Any = game.new_round(game.options(), RoundSetup(n_seats=4, dealer=1), seed=seed)
    rng = random.Random(seed)
    while not round_.finished:
        seat = round_.to_act()[0]
        round_.apply(seat, rng.choice(round_.legal_actions(seat)))
    return round_.record()  # type: ignore[no-any-return]


def never_seen(record: RoundRecord) -> list[int]:
    """Deck positions whose card no seat saw while the hand was played (before its end)."""
    game = get_game(record.game)
    round_ = game.replay(record.model_copy(update={"actions": []}))
    seen: set[Any] = set()
    for who, notation in [*record.actions, (None, None)]:
        for seat in range(record.n_seats):
            seen |= seen_now(game, round_, seat)
        if who is not None:
            round_.apply(who, notation)
    return [i for i, code in enumerate(record.deck) if card(code) not in seen]


@pytest.mark.parametrize("name", GAMES)
def test_the_review_never_reads_a_card_the_seat_did_not_see(name: str) -> None:
    record = finished(name, seed=4)  # Dame: a hand that ends before the stock runs out
    hidden = never_seen(record)
    assert len(hidden) >= 2
    a, b = hidden[0], hidden[-1]
    deck = list(record.deck)
    deck[a], deck[b] = deck[b], deck[a]
    other = record.model_copy(update={"deck": deck})
    game = get_game(name)
    assert game.replay(other).finished  # the same actions hold: only hidden cards moved
    positions = positions_of(record, 0)[:3]
    assert positions
    for position, twin in zip(positions, positions_of(other, 0)[:3], strict=True):
        mine = review_decision(record, 0, position, seed=5, samples=3, budget=None)
        theirs = review_decision(other, 0, twin, seed=5, samples=3, budget=None)
        assert mine == theirs


def test_a_review_is_the_same_for_the_same_seed() -> None:
    record = finished("euchre")
    first = review_hand(record, 0, seed=2, samples=4, budget=None)
    assert first == review_hand(record, 0, seed=2, samples=4, budget=None)
    assert first.decisions and all(d.offered > 1 for d in first.decisions)


def test_costs_are_graded_by_the_games_thresholds() -> None:
    inaccuracy, mistake, blunder = get_game("dutch").review_terms.thresholds
    assert grade_of("dutch", inaccuracy - 0.01) == ""
    assert grade_of("dutch", inaccuracy) == "inaccuracy"
    assert grade_of("dutch", mistake) == "mistake"
    assert grade_of("dutch", blunder + 5) == "blunder"
    assert accuracy_of("dutch", [0.0, inaccuracy, 0.5, blunder]) == 50.0
    assert accuracy_of("euchre", []) == 100.0


def test_the_same_move_with_another_copy_of_a_card_is_the_same_move() -> None:
    assert same_move("add 10 10D#1", "add 10 10D")
    assert not same_move("add 10 10D", "add 10 10C")


def test_a_seat_not_at_the_table_is_refused() -> None:
    with pytest.raises(ValueError):
        review_hand(finished("dutch"), 7)


def test_a_review_read_back_from_its_json_is_the_same() -> None:
    review = review_hand(finished("dutch"), 0, seed=1, samples=2, budget=None)
    assert review_from_json(review_to_json(review)) == review


def test_the_review_values_a_result_as_its_game_weighs_it() -> None:
    points = (3, 5, 1, 2)
    assert get_game("dutch").review_value(points, 1, 4) == -5.0  # lower is better
    assert get_game("dame").review_value(points, 1, 4) == 5.0  # the team's points
    assert get_game("euchre").review_value((2, 0), 3, 4) == -2.0  # the team's margin


def test_each_game_declares_its_review_terms() -> None:
    for name in GAMES:
        terms = get_game(name).review_terms
        assert list(terms.thresholds) == sorted(terms.thresholds)
        assert 0 < terms.decision_budget < terms.hand_budget


def test_a_seat_has_seen_what_its_views_showed_it_and_no_joker_by_name() -> None:
    """Dutch views name a joker `JK`, which does not tell which of the two it was: neither
    counts as seen, so neither keeps its real place in the worlds the review plays out."""
    game = get_game("dutch")
    round_: Any = game.new_round(game.options(), RoundSetup(n_seats=2), seed=31)
    top = round_.view(0).discard_top
    assert {c.name for c in seen_now(game, round_, 0)} == {top}  # before the peek
    round_.apply(0, "peek 1 2")
    peeked = [s.card for s in round_.view(0).grids[0] if s.card is not None]
    assert sorted(peeked) == ["8H", "JK"]  # the seed deals a joker to a peeked slot
    assert {c.name for c in seen_now(game, round_, 0)} == {top, "8H"}
