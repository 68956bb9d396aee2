"""Deals carried from one decision of a hand to the next, as a pure function of what was seen.

In play, a seat's search takes its deals from one sequence per hand (`HandDeals`): deal `j` is
drawn from what the seat knew when the play started (`Knowledge.of(view, plays=0)`: its hand,
the bids' bounds) with a generator seeded by that knowledge and `j`, then moved along each card
played since (`repair`): the card leaves its player's hand; when the deal had placed it
elsewhere, the player gives that place one of his other cards in exchange; when he failed to
follow suit, his cards of that suit change places with cards of seats (or of the buried ones)
that may hold them, each choice drawn from a hash of the seed, the card's position in the hand
and `j`. A deal that cannot be mended is dropped. So deal `j` after `n` cards is a function of
the view alone: a later decision takes the deals an earlier one drew, carried along the cards
played since, and draws (and carries) only those beyond; a fresh worker, computing every deal
anew, takes the very same ones. `_CACHE` (bounded) only saves that recomputation: it maps the
seat's start of play and the cards played to the deals computed so far.
"""

from __future__ import annotations

import random
from collections import OrderedDict

from games.euchre.bots.fast import BIT, EFF, SUIT_ID, SUIT_MASK
from games.euchre.bots.inference import Knowledge, played_cards
from games.euchre.views import PLAYING, EuchreView

CACHE_SIZE = 1024  # entries kept: a seat's deals after the cards played so far (a few kB each)
MASK64 = (1 << 64) - 1

Deal = tuple[int, int, int, int, int]  # four hands, then the unseen cards held by nobody
Play = tuple[int, int, int, int]  # seat, card id, the trick's first card id, position
_CACHE: OrderedDict[tuple[object, ...], list[Deal | None]] = OrderedDict()


def _mix(*values: int) -> int:
    """A 64-bit hash of integers (splitmix64 steps), the same in every process."""
    h = 0x9E3779B97F4A7C15
    for v in values:
        h = ((h ^ v) * 0xBF58476D1CE4E5B9) & MASK64
        h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & MASK64
        h ^= h >> 31
    return h


class HandDeals:
    """The sequence of deals one seat's search takes in the play of one hand, at this moment.

    `deal(j)` is deal `j` (None if it was dropped); `remembered` how many were already
    computed (carried) when this moment was reached; deals beyond are drawn when asked for."""

    def __init__(self, view: EuchreView, *, auto_discard: bool = False) -> None:
        assert view.seat is not None and view.trump is not None
        self._view = view
        self._auto_discard = auto_discard
        self._plays: tuple[Play, ...] = tuple(played_cards(view))
        self._start: Knowledge | None = None
        self._key = (
            view.seat,
            view.dealer,
            view.turned,
            view.trump,
            view.bids,
            view.discard,
            self.start.mine,
            auto_discard,
        )
        self._seed = random.Random(repr(self._key)).getrandbits(64)
        trump = SUIT_ID[view.trump]
        self._eff = EFF[trump]
        self._masks = SUIT_MASK[trump]
        self._fixed = self.start.mine | self.start.known[view.dealer]  # never moved
        # voids[i]: every seat's void suits after the first i cards played
        voids = [0, 0, 0, 0]
        self._voids: list[tuple[int, ...]] = [tuple(voids)]
        for seat, c, first, position in self._plays:
            voids[seat] |= self._void(c, first, position)
            self._voids.append(tuple(voids))
        plays = self._plays
        n = len(plays)
        while n and (self._key, plays[:n]) not in _CACHE:
            n -= 1
        before = _CACHE.get((self._key, plays[:n]), [])
        deals = [self._along(d, j, n) for j, d in enumerate(before)]
        self.remembered = len(deals)
        self._deals = deals
        _remember((self._key, plays), deals)

    @property
    def start(self) -> Knowledge:
        if self._start is None:
            self._start = Knowledge.of(self._view, auto_discard=self._auto_discard, plays=0)
        return self._start

    def deal(self, j: int) -> Deal | None:
        while len(self._deals) <= j:
            k = len(self._deals)
            hands = self.start.sample(random.Random(self._seed ^ k))
            held = hands[0] | hands[1] | hands[2] | hands[3]
            drawn: Deal = (*hands, self.start.unseen & ~held)  # type: ignore[assignment]
            self._deals.append(self._along(drawn, k, 0))
        return self._deals[j]

    def _void(self, c: int, first: int, position: int) -> int:
        led = self._eff[first]
        return self._masks[led] if position and self._eff[c] != led else 0

    def _along(self, deal: Deal | None, j: int, since: int) -> Deal | None:
        """Deal `j` as it was after `since` cards, moved along the cards played after."""
        for i in range(since, len(self._plays)):
            if deal is None:
                return None
            seat, c, first, position = self._plays[i]
            void = self._void(c, first, position)
            salt = _mix(self._seed, i, j)
            deal = repair(deal, seat, c, void, self._voids[i + 1], self._fixed & ~BIT[c], salt)
        return deal


def hand_deals(view: EuchreView, *, auto_discard: bool = False) -> HandDeals | None:
    """The seat's deals at this moment of the play (None during bidding or the discard)."""
    if view.seat is None or view.trump is None or view.phase != PLAYING:
        return None
    return HandDeals(view, auto_discard=auto_discard)


def _remember(key: tuple[object, ...], deals: list[Deal | None]) -> None:
    _CACHE[key] = deals
    _CACHE.move_to_end(key)
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)


def _pick(mask: int, salt: int) -> int:
    """A set bit of `mask` (not empty), chosen by `salt`."""
    k = salt % mask.bit_count()
    while k:
        mask &= mask - 1
        k -= 1
    return mask & -mask


def repair(
    deal: Deal,
    seat: int,
    c: int,
    void: int,
    voids: tuple[int, ...],
    fixed: int,
    salt: int,
) -> Deal | None:
    """The deal after `seat` played card `c` (and, when `void` is a suit mask, showed he has
    none of it): the card leaves his hand; if the deal had it elsewhere (a hand or the
    unseen rest, index 4) he gives that place one of his cards it may hold. `voids` are every
    seat's void suits so far, `fixed` the cards that stay where they are (the searching seat's,
    the turned card the dealer holds); `salt` draws the choices. None when the deal cannot be
    mended."""
    hands = list(deal)
    bit = BIT[c]
    if hands[seat] & bit:
        hands[seat] ^= bit
    else:
        holder = next(h for h in range(5) if hands[h] & bit)
        room = hands[seat] & ~fixed & ~(voids[holder] if holder < 4 else 0)
        if not room:
            return None
        x = _pick(room, salt)
        hands[holder] ^= bit | x
        hands[seat] ^= x
    wrong = hands[seat] & void
    while wrong:
        y = wrong & -wrong
        wrong ^= y
        # y changes places with a card z of a place that may hold y, z allowed for `seat`
        options = [
            (h, zs)
            for h in range(5)
            if h != seat
            and not (h < 4 and voids[h] & y)
            and (zs := hands[h] & ~fixed & ~voids[seat])
        ]
        if not options:
            return None
        salt = _mix(salt, y)
        h, zs = options[salt % len(options)]
        z = _pick(zs, salt >> 8)
        hands[h] ^= z | y
        hands[seat] ^= y | z
    return (hands[0], hands[1], hands[2], hands[3], hands[4])
