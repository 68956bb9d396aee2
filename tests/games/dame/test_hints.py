"""The discards a player most likely wants, first: what "My cards" shows as buttons."""

from __future__ import annotations

from games.dame.hints import chance_of_pair, discard_order
from tests.games.dame.stacking import stacked_round

BEN = 1


def test_a_lone_low_card_goes_before_a_pair_a_card_that_lays_now_and_a_wild_card() -> None:
    round_ = stacked_round({BEN: "3S 9H 9D KC KH KD 2C 4D 5C 6H 8S 10D JC"}, stock="AS")
    round_.apply(BEN, "draw")
    view = round_.view(BEN)
    order = discard_order(view, ("KC", "2C", "9H", "3S", "AS"))
    assert order[0] == "3S"  # lone and cheap
    assert order.index("9H") < order.index("KC")  # a pair before a rank that lays now
    assert order.index("AS") < order.index("2C")  # a wild card is worth keeping


def test_the_chance_of_a_pair_is_none_without_two_unseen_copies_and_grows_with_the_hand() -> None:
    assert chance_of_pair(1, 50, 13) == 0.0
    assert 0.0 < chance_of_pair(4, 50, 5) < chance_of_pair(4, 50, 13) < 1.0
