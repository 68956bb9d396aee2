"""A simple, fast policy for bot players and the benchmark.

It takes the pile when it can, lays every pack and adds every card it can, announces (again each
turn, as a knock lapses) when its hand is small, and discards a cheap card.

For speed it reads the round directly, but only what its seat may know: its own hand and the
public table (pile, packs, announcements). A test deals the hidden cards anew and checks that
the choice never changes."""

from __future__ import annotations

import random

from games.cards import Card
from games.dame.actions import ADD, ANNOUNCE, DISCARD, DRAW, MELD, TAKE, DameAction
from games.dame.round import DameRound
from games.dame.rules import IS_WILD, PACK_MIN, SORT_KEY, TAKE_NATURALS, VALUE

ANNOUNCE_AT = 6  # announce going out once the hand is this small

_DRAW = DameAction(DRAW)
_ANNOUNCE = DameAction(ANNOUNCE)


def choose_action(round_: DameRound, seat: int, rng: random.Random) -> DameAction:
    """A legal action for `seat`, which must be the seat to act."""
    hand = round_.hands[seat]
    if not round_.drawn:
        return _take_or_draw(round_, seat, hand)
    max_lay = round_.max_lay(seat)
    packs = round_.packs[seat % 2]
    if max_lay:
        by_rank: dict[str, list[str]] = {}
        wild = ""
        for c in hand:
            if IS_WILD[c]:
                wild = c.name
            else:
                by_rank.setdefault(c.rank, []).append(c.name)
        for rank, names in by_rank.items():
            if rank in packs:
                return DameAction(ADD, tuple(names[:max_lay]), rank)
        if max_lay >= PACK_MIN:
            for names in by_rank.values():
                if len(names) >= PACK_MIN:
                    return DameAction(MELD, tuple(names[:max_lay]))
            if wild:
                for names in by_rank.values():
                    if len(names) == PACK_MIN - 1:
                        return DameAction(MELD, (*names, wild))
        if wild and packs:
            return DameAction(ADD, (wild,), next(iter(packs)))
    if round_.announced_turn[seat] != round_.turn_no and len(hand) <= ANNOUNCE_AT:
        return _ANNOUNCE
    return DameAction(DISCARD, (cheapest_discard(hand, rng).name,))


def _take_or_draw(round_: DameRound, seat: int, hand: list[Card]) -> DameAction:
    pile = round_.pile
    if pile and not IS_WILD[pile[-1]]:
        rank = pile[-1].rank
        naturals = [c for c in hand if c.rank == rank]
        left = len(hand) - TAKE_NATURALS + len(pile) - 1
        if len(naturals) >= TAKE_NATURALS and round_.keeps(seat, left):
            naturals.sort(key=SORT_KEY.__getitem__)
            return DameAction(TAKE, tuple(c.name for c in naturals[:TAKE_NATURALS]))
    return _DRAW


def cheapest_discard(hand: list[Card], rng: random.Random) -> Card:
    """A random card among the cheapest natural ones (a wild card only if nothing else)."""
    best: list[Card] = []
    best_value = 10**6
    for c in hand:
        value = VALUE[c] + (1000 if IS_WILD[c] else 0)
        if value < best_value:
            best, best_value = [c], value
        elif value == best_value:
            best.append(c)
    return best[0] if len(best) == 1 else rng.choice(best)
