"""A simple Euchre bot: `choose_action(round, seat, rng)` reads only `round.view(seat)`.

Bidding counts trump strength (bowers, trumps, off-suit aces); the discard follows the
`auto` rule; in play it wins cheaply when it can, and plays low when its partner is winning
or it cannot win. `rng` breaks ties, so bots differ a little from hand to hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.cards import Card, card
from games.euchre.actions import EuchreAction, parse_action
from games.euchre.ranking import (
    EFFECTIVE,
    LEFT_BOWER_POWER,
    POWER,
    RIGHT_BOWER_POWER,
    lowest_discard,
    trick_winner,
)
from games.euchre.round import EuchreRound
from games.euchre.views import DEALER_DISCARD, NAME_TRUMP, ORDER_UP, EuchreView

BID_THRESHOLD = 7.0  # strength needed to make trump
ALONE_THRESHOLD = 12.0  # strength needed to go alone


def choose_action(round_: EuchreRound, seat: int, rng: random.Random) -> EuchreAction:
    view = round_.view(seat)
    legal = [parse_action(text) for text in view.legal]
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do")
    hand = [card(name) for name in view.hand]
    if view.phase == ORDER_UP:
        return _order_up(view, hand, legal, rng)
    if view.phase == NAME_TRUMP:
        return _name_trump(hand, legal, rng)
    if view.phase == DEALER_DISCARD:
        assert view.trump is not None
        dealt = [c for c in hand if c.name != view.turned]
        choice = lowest_discard(dealt, view.trump)
        return next(a for a in legal if a.card is choice)
    return _play(view, legal, rng)


def strength(hand: Sequence[Card], trump: str) -> float:
    """Bowers 4 and 3.5, ace of trump 3, other trumps 2, off-suit aces 1."""
    eff, pow_ = EFFECTIVE[trump], POWER[trump]
    total = 0.0
    for c in hand:
        p = pow_[c]
        if p == RIGHT_BOWER_POWER:
            total += 4
        elif p == LEFT_BOWER_POWER:
            total += 3.5
        elif eff[c] == trump:
            total += 3 if c.rank == "A" else 2
        elif c.rank == "A":
            total += 1
    return total


def _bid(score: float, alone: bool, rng: random.Random) -> bool:
    """Bid (alone) when strong enough, with a little noise so bots differ."""
    return score + rng.uniform(-0.5, 0.5) >= (ALONE_THRESHOLD if alone else BID_THRESHOLD)


def _order_up(
    view: EuchreView, hand: list[Card], legal: list[EuchreAction], rng: random.Random
) -> EuchreAction:
    turned = card(view.turned)
    trump = turned.suit
    score = strength(hand, trump)
    if view.seat == view.dealer:
        score += strength([turned], trump)
    elif view.seat is not None and (view.seat + 2) % 4 == view.dealer:
        score += 1.0  # the partner picks the card up
    elif view.seat is not None:
        score -= 1.0  # an opponent picks it up
    by_kind = {(a.kind, a.alone): a for a in legal}
    if _bid(score, True, rng):
        return by_kind[("order", True)]
    if _bid(score, False, rng):
        return by_kind[("order", False)]
    return by_kind[("pass", False)]


def _name_trump(hand: list[Card], legal: list[EuchreAction], rng: random.Random) -> EuchreAction:
    calls = [a for a in legal if a.kind == "call" and not a.alone]
    best = max(calls, key=lambda a: (strength(hand, a.suit or "S"), rng.random()))
    score = strength(hand, best.suit or "S")
    alone = next(a for a in legal if a.kind == "call" and a.alone and a.suit == best.suit)
    can_pass = any(a.kind == "pass" for a in legal)
    if _bid(score, True, rng):
        return alone
    if _bid(score, False, rng) or not can_pass:
        return best
    return next(a for a in legal if a.kind == "pass")


def _play(view: EuchreView, legal: list[EuchreAction], rng: random.Random) -> EuchreAction:
    trump = view.trump
    assert trump is not None and view.seat is not None
    pow_ = POWER[trump]
    eff = EFFECTIVE[trump]

    def low_key(a: EuchreAction) -> tuple[bool, int, float]:
        c = a.card
        assert c is not None
        return (eff[c] == trump, pow_[c], rng.random())  # plain cards before trumps

    if not view.trick:
        makers = view.maker is not None and (view.maker - view.seat) % 2 == 0
        trumps = [a for a in legal if a.card is not None and eff[a.card] == trump]
        if makers and trumps:
            return max(trumps, key=lambda a: pow_[a.card])  # type: ignore[index]
        aces = [a for a in legal if a.card is not None and a.card.rank == "A"]
        aces = [a for a in aces if eff[a.card] != trump]  # type: ignore[index]
        if aces:
            return rng.choice(aces)
        return min(legal, key=low_key)
    plays = [(s, card(n)) for s, n in view.trick]
    winner = trick_winner(plays, trump)
    if (winner - view.seat) % 2 == 0:
        return min(legal, key=low_key)  # the partner is winning
    winning = [a for a in legal if trick_winner([*plays, (view.seat, a.card)], trump) == view.seat]  # type: ignore[list-item]
    if winning:
        return min(winning, key=lambda a: pow_[a.card])  # type: ignore[index]
    return min(legal, key=low_key)
