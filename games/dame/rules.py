"""Dame de Pique (Québec) constants: the decisions of docs/rules/dame.md that are not table options.

Every constant here is a rule the engine enforces; the table options live in `options.py`.
"""

from __future__ import annotations

from games.cards import JOKER, SUITS, Card, standard_deck
from games.contract import FACING_PARTNERS

N_SEATS = 4
TEAMS = FACING_PARTNERS
HAND_SIZE = 13  # cards dealt to each seat, one at a time clockwise from the dealer's left
PACK_MIN = 3  # a new pack holds at least three cards
TAKE_NATURALS = 2  # natural cards of the top card's rank needed from hand to take the pile
WILD_RANKS = frozenset({"2", JOKER})  # "frames": jokers and 2s are only ever wild
# The ranks a pack can have, low to high (the order of hands, packs and action tokens).
NATURAL_RANKS: tuple[str, ...] = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
# To end a turn a player discards one card and, until allowed to go out, keeps at least one:
# a lay (or take) that would leave fewer than this many cards is refused before going out.
KEEP_BEFORE_GOING_OUT = 2
# Stock empty at a draw: the whole discard pile is shuffled into a new stock by
# `games.cards.shuffled(pile, seed)` with this seed (k = 1 for the first reshuffle of the hand),
# so the deal order and the action log determine every reshuffle.
RESHUFFLE_SEED = "{deck}/reshuffle/{k}"  # deck: the round's deck codes, space-separated


def card_value(card: Card) -> int:
    """Q♠ 100, joker 50, 2 20, ace 15, K Q J 10 → 10, 3–9 → 5, wherever the card lies."""
    if card.rank == "Q" and card.suit == "S":
        return 100
    if card.rank == JOKER:
        return 50
    if card.rank == "2":
        return 20
    if card.rank == "A":
        return 15
    if card.rank in ("K", "Q", "J", "10"):
        return 10
    return 5


def dame_deck() -> list[Card]:
    """Two 54-card decks: 104 cards in two copies plus 4 jokers (108 cards)."""
    return standard_deck(jokers=4, copies=2)


DECK: tuple[Card, ...] = tuple(dame_deck())
VALUE: dict[Card, int] = {c: card_value(c) for c in DECK}
IS_WILD: dict[Card, bool] = {c: c.rank in WILD_RANKS for c in DECK}
RANK_ORDER: dict[str, int] = {r: i for i, r in enumerate((*NATURAL_RANKS, "2", JOKER))}
SUIT_ORDER: dict[str, int] = {s: i for i, s in enumerate(SUITS)} | {"": len(SUITS)}
# Canonical order of cards in a hand, a pack or an action: naturals by rank 3 … K, A, then
# the wild cards 2 and JK; within a rank by suit S H D C, then by copy.
SORT_KEY: dict[Card, tuple[int, int, int, int]] = {
    c: (int(IS_WILD[c]), RANK_ORDER[c.rank], SUIT_ORDER[c.suit], c.copy) for c in DECK
}
