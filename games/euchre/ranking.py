"""Card order in Euchre: the 24-card deck, effective suits and trick-taking power per trump.

The jack of trump (right bower) is the highest card, then the jack of the same colour (left
bower), which belongs to the trump suit for the whole hand. Every table here is built once,
keyed by the interned `Card`, so the round looks cards up instead of computing in hot loops.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.cards import SUITS, Card, standard_deck

RANKS: tuple[str, ...] = ("9", "10", "J", "Q", "K", "A")
DECK: tuple[Card, ...] = tuple(standard_deck(ranks=RANKS))
SAME_COLOUR: dict[str, str] = {"S": "C", "C": "S", "H": "D", "D": "H"}

# Power of a card in a trick: trumps (20+) beat every plain card (1..6).
PLAIN_POWER: dict[str, int] = {"9": 1, "10": 2, "J": 3, "Q": 4, "K": 5, "A": 6}
TRUMP_POWER: dict[str, int] = {"9": 20, "10": 21, "Q": 22, "K": 23, "A": 24}
LEFT_BOWER_POWER = 25
RIGHT_BOWER_POWER = 26


def effective_suit(card: Card, trump: str) -> str:
    """The suit a card belongs to with this trump: the left bower is a trump."""
    if card.rank == "J" and card.suit == SAME_COLOUR[trump]:
        return trump
    return card.suit


def power(card: Card, trump: str) -> int:
    """The card's strength in a trick (meaningful for trumps and cards of the led suit)."""
    if card.rank == "J":
        if card.suit == trump:
            return RIGHT_BOWER_POWER
        if card.suit == SAME_COLOUR[trump]:
            return LEFT_BOWER_POWER
    if card.suit == trump:
        return TRUMP_POWER[card.rank]
    return PLAIN_POWER[card.rank]


EFFECTIVE: dict[str, dict[Card, str]] = {
    trump: {c: effective_suit(c, trump) for c in DECK} for trump in SUITS
}
POWER: dict[str, dict[Card, int]] = {trump: {c: power(c, trump) for c in DECK} for trump in SUITS}
SUIT_INDEX: dict[str, int] = {suit: i for i, suit in enumerate(SUITS)}  # ♠ ♥ ♦ ♣


def trick_winner(plays: Sequence[tuple[int, Card]], trump: str) -> int:
    """The seat that wins these plays (led card first): highest trump, else highest card of
    the led suit."""
    eff = EFFECTIVE[trump]
    pow_ = POWER[trump]
    led = eff[plays[0][1]]
    best_seat, best_card = plays[0]
    best = pow_[best_card]
    for seat, c in plays[1:]:
        suit = eff[c]
        if suit in (trump, led):
            p = pow_[c]
            if p > best:
                best, best_seat = p, seat
    return best_seat


def lowest_discard(cards: Iterable[Card], trump: str) -> Card:
    """The card the `auto` dealer discards: his lowest non-trump card, by plain rank
    9 < 10 < J < Q < K < A, ties broken by suit order ♠ ♥ ♦ ♣ (the first one goes). With only
    trumps, the lowest trump (trump order, so never a bower before the 9)."""
    hand = list(cards)
    eff = EFFECTIVE[trump]
    plain = [c for c in hand if eff[c] != trump]
    if plain:
        return min(plain, key=lambda c: (PLAIN_POWER[c.rank], SUIT_INDEX[c.suit]))
    pow_ = POWER[trump]
    return min(hand, key=lambda c: pow_[c])


def is_farmers_hand(hand: Iterable[Card]) -> bool:
    """At least four cards of rank 9 or 10."""
    return sum(1 for c in hand if c.rank in ("9", "10")) >= 4
