"""The bot policy reads only its seat's view."""

from __future__ import annotations

import random

from games.cards import cards
from games.euchre.policy import choose_action, strength
from tests.games.euchre.helpers import act, stacked_round


def test_policy_choice_depends_only_on_the_seat_s_view() -> None:
    # Seat 1 holds the same cards; the other hands differ completely between the two deals.
    mine = "JH JD AH 9S 9C"
    one = stacked_round({1: mine, 0: "10S JS QS KS AS", 2: "10C JC QC KC AC"}, "9D")
    other = stacked_round({1: mine, 0: "10C JC QC KC AC", 2: "10S JS QS KS AS"}, "9D")
    for round_ in (one, other):
        act(round_, "1 pass; 2 pass; 3 pass; 0 pass")
    assert one.view(1) == other.view(1)
    for seed in range(20):
        assert choose_action(one, 1, random.Random(seed)) == choose_action(
            other, 1, random.Random(seed)
        )


def test_policy_names_its_strong_suit_and_the_dealer_picks_a_legal_discard() -> None:
    round_ = stacked_round({1: "JH JD AH KH 9S"}, "9D")
    act(round_, "1 pass; 2 pass; 3 pass; 0 pass")
    action = choose_action(round_, 1, random.Random(0))
    assert (action.kind, action.suit) == ("call", "H")
    dealer_round = stacked_round({0: "JS JC AS KS 9H"}, "QS")
    act(dealer_round, "1 pass; 2 pass; 3 pass")
    assert choose_action(dealer_round, 0, random.Random(0)).kind == "order"
    act(dealer_round, "0 order")
    discard = choose_action(dealer_round, 0, random.Random(0))
    assert str(discard) == "discard 9H"


def test_strength_counts_bowers_trumps_and_off_aces() -> None:
    assert strength(cards("JH JD AH KH AS"), "H") == 4 + 3.5 + 3 + 2 + 1
    assert strength(cards("JH JD AH KH AS"), "S") == 3 + 1  # ace of trump, AH off-suit
