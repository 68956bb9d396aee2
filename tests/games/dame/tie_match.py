"""A short Dame de Pique match on stacked decks that ties above the target, then is won.

Target 100. Hand 1 (seat 0 deals, seat 1 plays first): seat 1 lays 10s, 4s and Ks, knocks,
and goes out next turn with a K: its team scores its packs, 110. Seats 2 and 0 lay all their
7s, 8s and 9s (24 five-point cards, 120) and each keep a 5: 120 − 10 = 110. Both teams reach
the target with equal totals: another hand. Hand 2 (seat 1 deals): seat 2 goes out the same
way (110, total 220); the other team scores minus its two full hands and loses.
"""

from __future__ import annotations

from games.cards import Card
from tests.games.dame.stacking import stacked_deck

TARGET = 100
GOES_OUT = "10S 10H 10D 10C 4S 4H 4D 4C KS KH KD KC 3S"
STOCK = "6S 6H 6D 6C KC#1"  # the five draws of each hand, in turn order
SEVENS_TO_NINES = "7S 7H 7D 7C 8S 8H 8D 8C 9S 9H 9D 9C"
OTHER_COPIES = " ".join(f"{name}#1" for name in SEVENS_TO_NINES.split())
GO_OUT_TURN = ("announce", "discard 6S")
LAY_OUT = ("meld 10S 10H 10D 10C", "meld 4S 4H 4D 4C", "meld KS KH KD KC")
FINISH = ("draw", "add K KC#1", "discard 3S")


def decks() -> list[list[Card]]:
    first = stacked_deck(
        {1: GOES_OUT, 2: f"{SEVENS_TO_NINES} 5S", 0: f"{OTHER_COPIES} 5H"}, STOCK, dealer=0
    )
    second = stacked_deck({2: GOES_OUT}, STOCK, dealer=1)
    return [first, second]


# (seat, notation) in play order
HAND_1: tuple[tuple[int, str], ...] = (
    *((1, a) for a in ("draw", *LAY_OUT, *GO_OUT_TURN)),
    *((2, a) for a in ("draw", "meld 7S 7H 7D 7C", "meld 8S 8H 8D 8C", "meld 9S 9H 9D 9C")),
    (2, "discard 6H"),
    (3, "draw"),
    (3, "discard 6D"),
    (0, "draw"),
    (0, "add 7 7S#1 7H#1 7D#1 7C#1"),
    (0, "add 8 8S#1 8H#1 8D#1 8C#1"),
    (0, "add 9 9S#1 9H#1 9D#1 9C#1"),
    (0, "discard 6C"),
    *((1, a) for a in FINISH),
)
HAND_2: tuple[tuple[int, str], ...] = (
    *((2, a) for a in ("draw", *LAY_OUT, *GO_OUT_TURN)),
    (3, "draw"),
    (3, "discard 6H"),
    (0, "draw"),
    (0, "discard 6D"),
    (1, "draw"),
    (1, "discard 6C"),
    *((2, a) for a in FINISH),
)
HAND_1_POINTS = (110, 110)  # per team: equal, both past the target
