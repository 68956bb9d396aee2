"""Effective suit and card order for every trump suit (docs/rules/euchre.md, bowers)."""

from __future__ import annotations

import pytest

from games.cards import card, cards
from games.euchre.ranking import (
    DECK,
    EFFECTIVE,
    POWER,
    effective_suit,
    lowest_discard,
    trick_winner,
)

# For each trump: every effective suit, strongest card first.
ORDER_BY_TRUMP = {
    "H": {
        "H": "JH JD AH KH QH 10H 9H",
        "D": "AD KD QD 10D 9D",
        "S": "AS KS QS JS 10S 9S",
        "C": "AC KC QC JC 10C 9C",
    },
    "D": {
        "D": "JD JH AD KD QD 10D 9D",
        "H": "AH KH QH 10H 9H",
        "S": "AS KS QS JS 10S 9S",
        "C": "AC KC QC JC 10C 9C",
    },
    "S": {
        "S": "JS JC AS KS QS 10S 9S",
        "C": "AC KC QC 10C 9C",
        "H": "AH KH QH JH 10H 9H",
        "D": "AD KD QD JD 10D 9D",
    },
    "C": {
        "C": "JC JS AC KC QC 10C 9C",
        "S": "AS KS QS 10S 9S",
        "H": "AH KH QH JH 10H 9H",
        "D": "AD KD QD JD 10D 9D",
    },
}


@pytest.mark.parametrize("trump", ["H", "D", "S", "C"])
def test_effective_suit_and_card_order_for_every_trump(trump: str) -> None:
    expected = ORDER_BY_TRUMP[trump]
    for suit, order in expected.items():
        members = [c for c in DECK if EFFECTIVE[trump][c] == suit]
        strongest_first = sorted(members, key=lambda c: -POWER[trump][c])
        assert [c.name for c in strongest_first] == order.split()
        assert all(effective_suit(c, trump) == suit for c in members)
    assert len(expected[trump].split()) == 7  # both bowers are trumps
    (same_colour,) = [s for s in expected if s != trump and len(expected[s].split()) == 5]
    assert card(f"J{same_colour}") in [c for c in DECK if EFFECTIVE[trump][c] == trump]


@pytest.mark.parametrize("trump", ["H", "D", "S", "C"])
def test_every_trump_beats_every_plain_card(trump: str) -> None:
    weakest_trump = min(POWER[trump][c] for c in DECK if EFFECTIVE[trump][c] == trump)
    strongest_plain = max(POWER[trump][c] for c in DECK if EFFECTIVE[trump][c] != trump)
    assert weakest_trump > strongest_plain


def test_highest_trump_wins_else_highest_of_the_led_suit() -> None:
    led_spade = list(zip([0, 1, 2, 3], cards("9S AS AC 10S"), strict=True))
    assert trick_winner(led_spade, "H") == 1  # an ace of another suit never wins
    trumped = list(zip([0, 1, 2, 3], cards("AS 9H KS JD"), strict=True))
    assert trick_winner(trumped, "H") == 3  # the left bower beats the 9 of trump
    left_led = list(zip([2, 3, 0, 1], cards("JD AD AH JH"), strict=True))
    assert trick_winner(left_led, "H") == 1  # a led left bower is a trump lead


def test_auto_discard_is_the_lowest_non_trump_card_with_the_left_bower_as_trump() -> None:
    assert lowest_discard(cards("JD AS KS QC KC"), "H").name == "QC"
    assert lowest_discard(cards("AH 10C 10S KD QS"), "H").name == "10S"  # ties: ♠ before ♣
    assert lowest_discard(cards("JH JD AH QH 10H"), "H").name == "10H"  # all trumps
