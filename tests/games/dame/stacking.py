"""Stacked decks for rule tests: choose some hands and the top of the stock, fill the rest."""

from __future__ import annotations

from collections.abc import Mapping

from games.cards import Card, card, cards
from games.contract import RoundSetup
from games.dame import GAME, DameOptions, DameRound
from games.dame.rules import HAND_SIZE, N_SEATS


def stacked_deck(hands: Mapping[int, str], stock: str = "", dealer: int = 0) -> list[Card]:
    """A deck order (top first) dealing `hands[seat]` (codes, up to 13, the rest filled) and
    putting `stock` (codes, top first) on top of the stock."""
    chosen = {seat: cards(text) for seat, text in hands.items()}
    top = cards(stock)
    used = [c for hand in chosen.values() for c in hand] + top
    assert len({c.code for c in used}) == len(used), "a card is stacked twice"
    rest = [c for c in GAME.deck(GAME.options()) if c not in used]
    first = (dealer + 1) % N_SEATS
    order: list[Card] = []
    for i in range(N_SEATS * HAND_SIZE):
        seat = (first + i) % N_SEATS
        hand = chosen.get(seat, [])
        index = i // N_SEATS
        order.append(hand[index] if index < len(hand) else rest.pop(0))
    return order + top + rest


def stacked_round(
    hands: Mapping[int, str],
    stock: str = "",
    *,
    dealer: int = 0,
    options: DameOptions | None = None,
) -> DameRound:
    deck = stacked_deck(hands, stock, dealer)
    setup = RoundSetup(n_seats=N_SEATS, dealer=dealer)
    round_ = GAME.new_round(options or GAME.options(), setup, deck=deck)
    assert isinstance(round_, DameRound)
    return round_


def draw_and_discard(round_: DameRound, seat: int) -> Card:
    """The seat draws and discards the card it drew (a turn that changes no hand)."""
    events = round_.apply(seat, "draw")
    drawn = card(events[0].data["card"])
    round_.apply(seat, f"discard {drawn.name}#{drawn.copy}")
    return drawn
