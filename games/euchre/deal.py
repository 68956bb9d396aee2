"""Dealing: how a deck order (top first) becomes hands, the turned card and the buried three.

Cards go out in blocks of five from the top, starting at the dealer's left and ending with
the dealer; the 21st card is turned up and the last three stay face down out of play. (A table
deals 2-3 or 3-2; with a shuffled deck the blocks are equivalent, and they make a stacked
deck easy to read.) `stack_deck` is the inverse, for tests and the sandbox.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.cards import Card, cards, shuffled
from games.euchre.ranking import DECK, is_farmers_hand

N_SEATS = 4
HAND_SIZE = 5
MAX_FARMER_REDEALS = 1000  # a farmer's hand is dealt ~10% of the time: never reached


def deal(deck: Sequence[Card], dealer: int) -> tuple[list[list[Card]], Card, tuple[Card, ...]]:
    hands: list[list[Card]] = [[] for _ in range(N_SEATS)]
    for i in range(N_SEATS):
        seat = (dealer + 1 + i) % N_SEATS
        hands[seat] = list(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE])
    base = N_SEATS * HAND_SIZE
    return hands, deck[base], tuple(deck[base + 1 :])


def farmers_redeal(deck: Sequence[Card]) -> list[Card]:
    """The next deck when a farmer's hand was dealt: a reshuffle seeded by this deck's order,
    so the redeal is a pure function of the recorded deck."""
    return shuffled(deck, " ".join(c.code for c in deck))


def deal_without_farmers_hand(
    deck: Sequence[Card], dealer: int
) -> tuple[list[list[Card]], Card, tuple[Card, ...], tuple[Card, ...], int]:
    """Deal, redealing (same dealer) while any hand is a farmer's hand. Returns the hands, the
    turned card, the buried cards, the deck actually dealt and the number of redeals."""
    current = tuple(deck)
    for redeals in range(MAX_FARMER_REDEALS):
        hands, turned, buried = deal(current, dealer)
        if not any(is_farmers_hand(h) for h in hands):
            return hands, turned, buried, current, redeals
        current = tuple(farmers_redeal(current))
    raise RuntimeError("no deal without a farmer's hand")  # pragma: no cover


def stack_deck(dealer: int, hands: Mapping[int, str], turned: str, buried: str = "") -> list[Card]:
    """A deck order that deals `hands` (seat: "9S 10S JS QS KS"), turns `turned` up and buries
    `buried`; cards not named fill the short hands (from the dealer's left), then the buried
    three, in the order of the unshuffled deck."""
    named: list[Card] = [c for text in hands.values() for c in cards(text)]
    named += cards(turned) + cards(buried)
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice")
    spare = [c for c in DECK if c not in named]
    order: list[Card] = []
    for i in range(N_SEATS):
        seat = (dealer + 1 + i) % N_SEATS
        hand = cards(hands.get(seat, ""))
        if len(hand) > HAND_SIZE:
            raise ValueError(f"seat {seat} is given more than {HAND_SIZE} cards")
        while len(hand) < HAND_SIZE:
            hand.append(spare.pop(0))
        order += hand
    order += cards(turned)
    rest = cards(buried)
    while len(rest) < N_SEATS - 1:
        rest.append(spare.pop(0))
    return order + rest
