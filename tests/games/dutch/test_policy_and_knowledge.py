"""The simple policy, the timeout default and a seat's knowledge."""

from __future__ import annotations

import random
from dataclasses import fields, replace

import pytest

from games.dutch import GAME, DutchRound, DutchView
from games.dutch.bots.policy import choose_action, default_action
from games.dutch.knowledge import knowledge_from, knowledge_of
from games.match import Match
from tests.games.dutch.stack import deal, play


@pytest.mark.parametrize("preset", ["classic", "house"])
@pytest.mark.parametrize("n_seats", [2, 5, 10])
def test_policy_plays_whole_matches_with_legal_moves(preset: str, n_seats: int) -> None:
    rng = random.Random(n_seats)
    match = Match(GAME, GAME.options(preset, target=60), n_seats)
    while not match.finished:
        round_ = match.new_round(seed=rng.random())
        assert isinstance(round_, DutchRound)
        while not round_.finished:
            seat = round_.to_act()[0]
            action = choose_action(round_, seat, rng)
            assert action in round_.legal_actions(seat)
            round_.apply(seat, action)
        match.add_round(round_.result())
    assert match.winners


def test_policy_refuses_a_seat_that_may_not_act() -> None:
    round_ = deal("classic", ["AS 2S 3S 4S", "5S 6S 7S 8S"], "9S")
    with pytest.raises(ValueError):
        choose_action(round_, 1, random.Random(0))
    with pytest.raises(ValueError):
        default_action(round_, 1)


def test_timeout_default_peeks_draws_discards_and_skips_powers() -> None:
    round_ = deal("classic", ["AS 2S 3S 4S", "5S 6S 7S 8S"], "9S", "QH", peek=False)
    assert str(default_action(round_, 1)) == "peek 3 4"
    play(round_, "peek 3 4", "peek 3 4")
    assert str(default_action(round_, 0)) == "draw"
    play(round_, "draw")
    assert str(default_action(round_, 0)) == "discard"
    play(round_, "discard")
    assert str(default_action(round_, 0)) == "skip"
    house = deal("house", ["AS 2S 3S 4S", "5S 6S 7S 8S"], "9S", "10H")
    play(house, "take")
    assert str(default_action(house, 0)) == "swap 1"  # a taken card cannot be discarded
    play(house, "swap 1")
    assert str(default_action(house, 0)) == "end"


def test_policy_uses_its_peek_to_take_a_low_discard_over_a_high_known_card() -> None:
    round_ = deal("classic", ["AS 2S KH 4S", "5S 6S 7S 8S"], "AH")
    assert str(choose_action(round_, 0, random.Random(0))) == "take"
    play(round_, "take")
    assert str(choose_action(round_, 0, random.Random(0))) == "swap 3"  # the red king, 15


def test_knowledge_follows_swaps_the_seat_saw() -> None:
    round_ = deal("classic", ["AS 2S 3S 4S", "5S 6S 7S 8S"], "9S", "JH")
    assert knowledge_of(round_, 0).cards == {(0, 3): "3S", (0, 4): "4S"}
    play(round_, "draw", "discard", "jack 3 1:1")
    mine, theirs = knowledge_of(round_, 0), knowledge_of(round_, 1)
    assert mine.known(1, 1) == "3S" and mine.known(0, 3) is None
    assert theirs.known(1, 1) is None  # it knew nothing of seat 0's slot 3
    assert theirs.cards == {(1, 3): "7S", (1, 4): "8S"}
    play(round_, "take", "swap 3")  # the Jack taken from the pile is known to all
    assert knowledge_of(round_, 0).known(1, 3) == "JH"
    assert knowledge_of(round_, 1).known(1, 3) == "JH"


def test_knowledge_only_uses_events_the_seat_may_see() -> None:
    round_ = deal("classic", ["AS 2S 3S 4S", "5S 6S 7S 8S"], "9S", "QH")
    play(round_, "draw", "discard", "look 1:1")
    assert knowledge_of(round_, 0).known(1, 1) == "5S"
    assert knowledge_of(round_, 1).known(1, 1) is None
    assert knowledge_from(round_.events, 1).cards == knowledge_of(round_, 1).cards


def test_knowledge_learns_a_wrong_matching_card_and_the_nine_exchange() -> None:
    round_ = deal("house", ["6H 2S 3S 4S", "5S 6S 7S 8S"], "5D", "KD 9H")  # KD: the penalty
    play(round_, "match 1")
    assert knowledge_of(round_, 1).known(0, 1) == "6H"
    play(round_, "draw", "nine drawn 1:4")  # seat 0 receives seat 1's 8S, unseen
    assert knowledge_of(round_, 1).known(1, 4) == "9H"
    assert knowledge_of(round_, 0).held is None
    assert knowledge_of(round_, 1).held == "8S"  # seat 1 had peeked at its slot 4
    play(round_, "swap 1")
    assert knowledge_of(round_, 1).known(0, 1) == "8S"
    assert knowledge_of(round_, 0).known(0, 1) is None


def test_public_log_is_data_not_sentences() -> None:
    round_ = deal("classic", ["AS 2S 3S 4S", "5S 6S 7S 8S"], "9S", "QH")
    play(round_, "draw", "discard", "look 1:1")
    log = round_.public_view().log
    assert [e.kind for e in log[-4:]] == ["draw", "discard", "look", "turn"]
    assert log[-3].seat == 0 and log[-3].data == {"card": "QH"}
    assert log[-2].data == {"seat": 1, "slot": 1}
    assert all(e.to is None for e in log)
    assert len(log) <= 12


def test_views_hold_only_the_viewers_own_legal_actions() -> None:
    round_: DutchRound = deal("classic", ["AS 2S 3S 4S", "5S 6S 7S 8S"], "9S")
    assert [str(a) for a in round_.view(0).legal] == ["dutch", "draw", "take"]
    assert round_.view(1).legal == () and round_.public_view().legal == ()


def test_engine_views_are_complete_dataclasses() -> None:
    round_ = deal("house", ["AS 2S 3S 4S", "5S 6S 7S 8S"], "9S")
    view = round_.view(0)
    assert set(vars(view)) == {f.name for f in fields(DutchView)}
    assert replace(view) == view
