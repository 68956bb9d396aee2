"""The integer engine (games/euchre/bots/fast.py) plays by the rules of `EuchreRound`: its random
hands, replayed action by action on the round, are legal, offer the same cards at every turn
and score the same points."""

from __future__ import annotations

import random

import pytest

from games.cards import SUITS
from games.contract import RoundSetup
from games.euchre import GAME, EuchreRound
from games.euchre.actions import CALL, CALL_ALONE, DISCARD, ORDER, ORDER_ALONE, PASS, PLAY
from games.euchre.bots.fast import (
    BEATS,
    CARD_ID,
    DECK,
    EFF,
    auto_discard,
    card_ids,
    heuristic_card,
    play_tricks,
    random_hand,
)
from games.euchre.ranking import lowest_discard, trick_winner


def _replay(seed: int, stick: bool) -> tuple[EuchreRound, tuple[int, int]]:
    rng = random.Random(seed)
    order = list(range(24))
    rng.shuffle(order)
    dealer = seed % 4
    trace: list[tuple[str, int]] = []
    points = random_hand(rng, dealer, stick_the_dealer=stick, deck=order, trace=trace)
    options = GAME.options("standard", stick_the_dealer=stick)
    round_ = GAME.new_round(
        options, RoundSetup(n_seats=4, dealer=dealer), deck=[DECK[i] for i in order]
    )
    assert isinstance(round_, EuchreRound)
    legal_mask = None
    for kind, value in trace:
        if kind == "legal":
            legal_mask = value
            continue
        (seat,) = round_.to_act()
        if kind == "pass":
            action = PASS
        elif kind == "order":
            action = ORDER_ALONE if value else ORDER
        elif kind == "call":
            action = (CALL_ALONE if value & 1 else CALL)[SUITS[value >> 1]]
        elif kind == "discard":
            action = DISCARD[DECK[value]]
        else:
            offered = {a.card for a in round_.legal_actions(seat)}
            assert card_ids(list(offered)) == legal_mask, (seed, seat)  # type: ignore[arg-type]
            action = PLAY[DECK[value]]
        round_.apply(seat, action)
    assert round_.finished
    return round_, points


@pytest.mark.parametrize("stick", [True, False])
def test_random_hands_of_the_integer_engine_replay_on_the_round_with_equal_points(
    stick: bool,
) -> None:
    outcomes = set()
    for seed in range(300):
        round_, points = _replay(seed, stick)
        assert round_.result().points == points
        outcomes.add((round_.result().detail.get("outcome"), round_.alone))
    # The sample covers every kind of hand: made, march, euchred, alone or not.
    assert {o for o, _ in outcomes} == {"made", "march", "euchred"}
    assert {alone for _, alone in outcomes} == {True, False}


def test_integer_tables_agree_with_the_card_order_of_ranking() -> None:
    rng = random.Random(3)
    for _ in range(500):
        trump = rng.randrange(4)
        cards = rng.sample(range(24), 5)
        plays = cards[:4]
        led = EFF[trump][plays[0]]
        beats = BEATS[trump * 4 + led]
        best = max(range(4), key=lambda i: beats[plays[i]])
        expected = trick_winner([(i, DECK[c]) for i, c in enumerate(plays)], SUITS[trump])
        assert best == expected
        dealt = [DECK[c] for c in cards]
        five = card_ids(dealt)
        assert DECK[auto_discard(five, trump)] is lowest_discard(dealt, SUITS[trump])
    assert CARD_ID[DECK[7]] == 7


def test_play_tricks_with_the_heuristic_plays_out_all_five_tricks() -> None:
    rng = random.Random(5)
    for _ in range(200):
        order = rng.sample(range(24), 20)
        hands = [card_ids([DECK[c] for c in order[i * 5 : i * 5 + 5]]) for i in range(4)]
        won = [0, 0]
        sitting_out = rng.choice([-1, 0, 1, 2, 3])
        leader = 1 if sitting_out != 1 else 2
        trump, makers = rng.randrange(4), rng.randrange(2)
        play_tricks(hands, trump, makers, leader, sitting_out, -1, 0, 0, 0, won, heuristic_card)
        assert sum(won) == 5
        assert all(h == 0 for seat, h in enumerate(hands) if seat != sitting_out)
