"""Deals carried from one decision of a hand to the next, as a pure function of what was seen.

When the play starts, a seat's search draws `POOL` deals consistent with what it knew then
(`Knowledge.of(view, plays=0)`: its hand, the bids' bounds), from a generator seeded with that
knowledge alone. Each card played afterwards moves every deal along (`repair`): the card leaves
its player's hand; when the deal had placed it elsewhere, the player gives that place one of
his other cards in exchange; when the player failed to follow suit, his cards of that suit
change places with cards of seats (or of the buried cards) that may hold them. A deal that
cannot be mended is dropped. At the seat's next decision the search evaluates these deals
first and samples fresh ones only when its sequential test wants more.

Every step draws from a generator seeded with the knowledge at the start of play and the cards
played so far, so the deals carried to a decision depend on the view alone: `carried(view)`
returns the same deals in a fresh process as in one that kept them. `_CACHE` only saves the
recomputation (a bounded map from that key to the deals; an entry is never changed once made).
"""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import NamedTuple

from games.euchre.fast import BIT, EFF, SUIT_ID, SUIT_MASK
from games.euchre.inference import Knowledge, played_cards
from games.euchre.views import EuchreView

POOL = 32  # deals drawn when the play starts (the sequential test's first look)
CACHE_SIZE = 1024  # entries kept: a seat's deals after the cards played so far (a few kB)

Deal = tuple[int, int, int, int, int]  # four hands, then the unseen cards held by nobody
_CACHE: OrderedDict[tuple[object, ...], tuple[Deal, ...]] = OrderedDict()


class Carried(NamedTuple):
    deals: tuple[Deal, ...]
    drawn: int  # of those, the deals drawn now (the play's first decision, or not remembered)


def carried(view: EuchreView, *, auto_discard: bool = False) -> Carried:
    """The deals carried to this moment of the play (none during bidding or the discard)."""
    if view.seat is None or view.trump is None or view.phase != "play":
        return Carried((), 0)
    plays = tuple(played_cards(view))
    start = Knowledge.of(view, auto_discard=auto_discard, plays=0)
    key = (
        view.seat,
        view.dealer,
        view.turned,
        view.trump,
        view.bids,
        view.discard,
        start.mine,
        auto_discard,
    )
    n = len(plays)
    while n and (key, plays[:n]) not in _CACHE:
        n -= 1
    deals = _CACHE.get((key, plays[:n]))
    drawn = 0
    if deals is None:
        drawn = POOL
        rng = random.Random(repr(key))
        deals = tuple(_deal(start.sample(rng), start) for _ in range(POOL))
        _remember((key, ()), deals)
    fixed = start.mine | start.known[view.dealer]  # cards whose place never changes
    trump = SUIT_ID[view.trump]
    eff = EFF[trump]
    voids = [0, 0, 0, 0]
    for i, (seat, c, first, position) in enumerate(plays):
        led = eff[first]
        void = SUIT_MASK[trump][led] if position and eff[c] != led else 0
        voids[seat] |= void
        if i >= n:
            rng = random.Random(f"{key!r}|{i}")
            moved = (repair(d, seat, c, void, voids, fixed & ~BIT[c], rng) for d in deals)
            deals = tuple(d for d in moved if d is not None)
    if n < len(plays):
        _remember((key, plays), deals)
    return Carried(deals, drawn)


def _deal(hands: list[int], knowledge: Knowledge) -> Deal:
    held = hands[0] | hands[1] | hands[2] | hands[3]
    return (hands[0], hands[1], hands[2], hands[3], knowledge.unseen & ~held)


def _remember(key: tuple[object, ...], deals: tuple[Deal, ...]) -> None:
    _CACHE[key] = deals
    _CACHE.move_to_end(key)
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)


def _pick(mask: int, rng: random.Random) -> int:
    """A random set bit of `mask` (not empty)."""
    k = rng.randrange(mask.bit_count())
    while k:
        mask &= mask - 1
        k -= 1
    return mask & -mask


def repair(
    deal: Deal,
    seat: int,
    c: int,
    void: int,
    voids: list[int],
    fixed: int,
    rng: random.Random,
) -> Deal | None:
    """The deal after `seat` played card `c` (and, when `void` is a suit mask, showed he has
    none of it): the card leaves his hand; if the deal had it elsewhere (a hand or the
    unseen rest, index 4) he gives that place one of his cards it may hold. `voids` are every
    seat's void suits so far, `fixed` the cards that stay where they are (the searching seat's,
    the turned card the dealer holds). None when the deal cannot be mended."""
    hands = list(deal)
    bit = BIT[c]
    if hands[seat] & bit:
        hands[seat] ^= bit
    else:
        holder = next(h for h in range(5) if hands[h] & bit)
        room = hands[seat] & ~fixed & ~(voids[holder] if holder < 4 else 0)
        if not room:
            return None
        x = _pick(room, rng)
        hands[holder] ^= bit | x
        hands[seat] ^= x
    wrong = hands[seat] & void
    while wrong:
        y = wrong & -wrong
        wrong ^= y
        # swap y with a card z of another place that may hold y, z allowed for `seat`
        options = []
        for h in range(5):
            if h == seat or (h < 4 and voids[h] & y):
                continue
            zs = hands[h] & ~fixed & ~voids[seat]
            if zs:
                options.append((h, zs))
        if not options:
            return None
        h, zs = options[rng.randrange(len(options))]
        z = _pick(zs, rng)
        hands[h] ^= z | y
        hands[seat] ^= y | z
    return (hands[0], hands[1], hands[2], hands[3], hands[4])
