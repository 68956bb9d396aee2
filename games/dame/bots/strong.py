"""A stronger Dame de Pique bot.

It keeps its wild cards for packs worth them, takes the pile when that pays, discards what the
next player is least likely to take the pile with, and knocks on every turn, so that it may go
out whenever its cards allow.

It keeps no memory between calls and, like the simple policy, reads the round directly for
speed, but only what its seat may know: its own hand, the sizes of the other hands and of the
stock, the packs, the face-up pile and the knocks (a test deals the hidden cards anew and checks
its choice never changes; a property test checks the engine accepts every action it returns).
Each weighing is described on the function that makes it; the variants tried against the
simple bot, kept or left out, are in docs/performance.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from math import comb

from games.cards import Card
from games.dame.actions import ADD, ANNOUNCE, DISCARD, DRAW, MELD, TAKE, DameAction
from games.dame.round import DameRound
from games.dame.rules import (
    IS_WILD,
    N_SEATS,
    NATURAL_RANKS,
    PACK_MIN,
    SORT_KEY,
    TAKE_NATURALS,
    VALUE,
)

COPIES = 8  # natural cards of each rank in the two decks
HIGH_RANKS = frozenset({"10", "J", "Q", "K", "A"})  # a pair of these is worth a wild card
SMALL_HAND = 5  # at this size every wild card is spent: going out comes first
PILE_CARD_VALUE = 12.0  # rough worth of one pile card to whoever takes it
KEEP_WEIGHT = 0.35  # share of a card's value lost by holding it when no opponent knocked
DANGER_HAND = 1  # an opponent who knocked with this many cards or fewer may go out next turn

_DRAW = DameAction(DRAW)
_ANNOUNCE = DameAction(ANNOUNCE)


def choose_action(round_: DameRound, seat: int, rng: random.Random) -> DameAction:
    """A legal action for `seat`, which must be the seat to act.

    Wild cards (2s and jokers) stay in hand until they turn a pair of high cards (10 to A) into
    a pack, or the seat goes out, or the hand is in danger or down to `SMALL_HAND` cards (the
    simple bot spends them at once). It knocks on every turn, before the discard: a knock binds
    to nothing and lets the next turn lay the last cards, and going out as soon as the cards
    allow ends the hand while the opponents still hold theirs."""
    hand = round_.hands[seat]
    danger = _in_danger(round_, seat)
    if not round_.drawn:
        return _take_or_draw(round_, seat, hand, danger)
    team_ranks = set(round_.packs[seat % 2])
    max_lay = round_.max_lay(seat)
    going_out = round_.may_go_out(seat) and _layable(hand, team_ranks, spare=1)
    spend_wilds = danger or going_out or len(hand) <= SMALL_HAND
    lay = _next_lay(hand, team_ranks, max_lay, spend_wilds)
    if lay is not None:
        return lay
    if len(hand) > 1 and round_.announced_turn[seat] != round_.turn_no:
        return _ANNOUNCE
    discard = _choose_discard(round_, seat, hand, team_ranks, danger, rng)
    return DameAction(DISCARD, (f"{discard.name}#{discard.copy}",))


# -- what the seat can see ---------------------------------------------------------------
def _in_danger(round_: DameRound, seat: int) -> bool:
    """May an opponent go out before this seat's next turn (their knock holds and they hold
    `DANGER_HAND` cards or fewer)?

    Nobody goes out without a knock made on their previous turn; with one card, a draw and a
    lay or a discard suffice, so such a knock often ends the hand, one with more cards seldom.
    In danger this may be the seat's last turn: it lays every card it can (wild cards included)
    and discards its costliest card."""
    return any(
        round_.announcement_holds(s) and len(round_.hands[s]) <= DANGER_HAND
        for s in range(N_SEATS)
        if s % 2 != seat % 2
    )


def _visible_counts(round_: DameRound, seat: int) -> dict[str, int]:
    """Natural cards of each rank this seat can see: its hand, every pack, the pile."""
    counts = dict.fromkeys(NATURAL_RANKS, 0)
    seen: list[Iterable[Card]] = [round_.hands[seat], round_.pile]
    seen.extend(pack for packs in round_.packs for pack in packs.values())
    for group in seen:
        for c in group:
            if not IS_WILD[c]:
                counts[c.rank] += 1
    return counts


def _chance_of_pair(unknown_of_rank: int, unknown: int, hand_size: int) -> float:
    """The chance that a hand of `hand_size` cards drawn from `unknown` unseen cards holds at
    least two of the `unknown_of_rank` unseen naturals of a rank (hypergeometric)."""
    if unknown_of_rank < TAKE_NATURALS or hand_size < TAKE_NATURALS or unknown <= 0:
        return 0.0
    hand_size = min(hand_size, unknown)
    total = comb(unknown, hand_size)
    none = comb(unknown - unknown_of_rank, hand_size)
    one = unknown_of_rank * comb(unknown - unknown_of_rank, hand_size - 1)
    return max(0.0, 1.0 - (none + one) / total)


# -- laying ------------------------------------------------------------------------------
def _layable(cards: list[Card], team_ranks: set[str], *, spare: int) -> bool:
    """Could all of `cards` but `spare` of them be laid in one turn (on the team's packs or
    as new packs, wild cards filling packs or joining any pack)?"""
    naturals: dict[str, int] = {}
    wilds = 0
    for c in cards:
        if IS_WILD[c]:
            wilds += 1
        else:
            naturals[c.rank] = naturals.get(c.rank, 0) + 1
    stuck = 0
    packs = bool(team_ranks)
    shortfalls: list[int] = []
    for rank, count in naturals.items():
        if rank in team_ranks or count >= PACK_MIN:
            packs = True
        else:
            shortfalls.append(PACK_MIN - count)
    for need in sorted(shortfalls):
        if need <= wilds:
            wilds -= need
            packs = True
        else:
            stuck += PACK_MIN - need
    if wilds and not packs:
        stuck += wilds
    return stuck <= spare


def _next_lay(
    hand: list[Card], team_ranks: set[str], max_lay: int, spend_wilds: bool
) -> DameAction | None:
    """The next meld or add of this turn's plan, within `max_lay` cards (None: lay no more)."""
    if max_lay <= 0:
        return None
    by_rank: dict[str, list[Card]] = {}
    wilds: list[Card] = []
    for c in sorted(hand, key=SORT_KEY.__getitem__):
        if IS_WILD[c]:
            wilds.append(c)
        else:
            by_rank.setdefault(c.rank, []).append(c)
    for rank, naturals in by_rank.items():  # naturals onto the team's packs
        if rank in team_ranks:
            return DameAction(ADD, _codes(naturals[:max_lay]), rank)
    if max_lay >= PACK_MIN:
        for naturals in by_rank.values():  # packs of naturals
            if len(naturals) >= PACK_MIN:
                return DameAction(MELD, _codes(naturals[:max_lay]))
        # a pair and a wild card: only for high cards, unless the hand must shrink now
        pairs = [n for r, n in by_rank.items() if len(n) == PACK_MIN - 1 and wilds]
        pairs.sort(key=lambda n: -sum(VALUE[c] for c in n))
        for naturals in pairs:
            if spend_wilds or naturals[0].rank in HIGH_RANKS:
                return DameAction(MELD, _codes([*naturals, _cheapest(wilds)]))
        if spend_wilds and len(wilds) >= PACK_MIN - 1:
            singles = [n for n in by_rank.values() if len(n) == 1]
            if singles:
                best = max(singles, key=lambda n: VALUE[n[0]])
                spent = sorted(wilds, key=VALUE.__getitem__)[: PACK_MIN - 1]
                return DameAction(MELD, _codes([*best, *spent]))
    if spend_wilds and wilds and team_ranks:
        rank = min(team_ranks, key=NATURAL_RANKS.index)
        return DameAction(ADD, _codes(wilds[:max_lay]), rank)
    return None


def _cheapest(cards: list[Card]) -> Card:
    return min(cards, key=VALUE.__getitem__)


def _codes(cards: Iterable[Card]) -> tuple[str, ...]:
    """Exact copies (`7S#1`), in the canonical order of action tokens."""
    ordered = sorted(cards, key=SORT_KEY.__getitem__)
    return tuple(f"{c.name}#{c.copy}" for c in ordered)


# -- the take ----------------------------------------------------------------------------
def _take_or_draw(round_: DameRound, seat: int, hand: list[Card], danger: bool) -> DameAction:
    """Take the pile when the points it lets the seat lay at once outweigh the cards it leaves
    in the hand (weighted by the danger of being caught with them), else draw. A take always
    lays the top card with two naturals; the rest of the pile comes into the hand."""
    pile = round_.pile
    if not pile or IS_WILD[pile[-1]]:
        return _DRAW
    top = pile[-1]
    naturals = sorted((c for c in hand if c.rank == top.rank), key=SORT_KEY.__getitem__)
    left = len(hand) - TAKE_NATURALS + len(pile) - 1
    if len(naturals) < TAKE_NATURALS or not round_.keeps(seat, left):
        return _DRAW
    used = naturals[:TAKE_NATURALS]
    if round_.may_go_out(seat) and _layable(hand, set(round_.packs[seat % 2]), spare=0):
        return _DRAW  # going out after this draw: the pile would only cost time
    after = [c for c in hand if c not in used] + pile[:-1]
    laid, held = _lay_estimate(after, set(round_.packs[seat % 2]) | {top.rank})
    gain = VALUE[top] + sum(VALUE[c] for c in used) + laid
    weight = 1.0 if danger else KEEP_WEIGHT
    if gain - weight * held > 0:
        return DameAction(TAKE, _codes(used))
    return _DRAW


def _lay_estimate(cards: list[Card], team_ranks: set[str]) -> tuple[int, int]:
    """(points of `cards` that could be laid at once, points that would stay in hand); wild
    cards count as held. The take is judged by the whole hand it leaves: a pile that turns
    a hand into packs pays, one that only swells it does not."""
    by_rank: dict[str, int] = {}
    for c in cards:
        if not IS_WILD[c]:
            by_rank[c.rank] = by_rank.get(c.rank, 0) + 1
    laid = held = 0
    for c in cards:
        if not IS_WILD[c] and (c.rank in team_ranks or by_rank[c.rank] >= PACK_MIN):
            laid += VALUE[c]
        else:
            held += VALUE[c]
    return laid, held


# -- the discard -------------------------------------------------------------------------
def _choose_discard(
    round_: DameRound,
    seat: int,
    hand: list[Card],
    team_ranks: set[str],
    danger: bool,
    rng: random.Random,
) -> Card:
    """The card whose loss costs least: what it could still score (or, in danger, what it
    would cost in hand), plus the pile it may hand to the next player: the chance that they (an
    opponent) hold two naturals of its rank, from the copies this seat cannot see, times the
    pile's size. A wild card on top blocks the take."""
    visible = _visible_counts(round_, seat)
    sizes = [len(h) for h in round_.hands]  # sizes are public; no hidden card is read
    unknown = sum(sizes) - sizes[seat] + len(round_.stock)
    next_seat = (seat + 1) % N_SEATS
    at_stake = (len(round_.pile) + 1) * PILE_CARD_VALUE
    counts: dict[str, int] = {}
    for c in hand:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    best: list[Card] = []
    best_cost = float("inf")
    keep_for_out = len(hand) == 2  # the other card is kept: prefer keeping one that lays
    for c in hand:
        if IS_WILD[c]:
            risk = 0.0  # a wild card on top blocks the take
            worth = 0.0 if danger else VALUE[c] * 2.5
        else:
            chance = _chance_of_pair(COPIES - visible[c.rank], unknown, sizes[next_seat])
            risk = chance * at_stake
            worth = VALUE[c] * (1.0 if c.rank in team_ranks or counts[c.rank] >= 2 else 0.6)
        cost = risk - VALUE[c] * 1.5 if danger else worth + risk
        if keep_for_out:
            other = hand[1] if c is hand[0] else hand[0]
            if _layable([other], team_ranks, spare=0):
                cost -= 1000  # discarding this keeps a card that lays next turn
        if cost < best_cost - 1e-9:
            best, best_cost = [c], cost
        elif abs(cost - best_cost) <= 1e-9:
            best.append(c)
    return best[0] if len(best) == 1 else rng.choice(best)
