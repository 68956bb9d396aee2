"""Which discards a player most likely wants, read from their own view: what a UI shows first.

A discard's cost weighs what the card could still score (a card the hand lays this turn
most; a wild card more than a natural: it turns a pair into a pack) and the chance that the
next player, an opponent, holds two naturals of its rank and takes the pile with it (from the
copies the viewer cannot see). The cheapest come first. It is the strong bot's weighing
(`games.dame.strong`) without its end-of-hand cases, and it reads only the view, so it shows
nothing the viewer may not know.
"""

from __future__ import annotations

from math import comb

from games.cards import card
from games.dame.rules import IS_WILD, N_SEATS, NATURAL_RANKS, PACK_MIN, TAKE_NATURALS, VALUE
from games.dame.views import DameView

COPIES = 8  # natural cards of each rank in the two decks
PILE_CARD_VALUE = 12.0  # rough worth of one pile card to whoever takes it
WILD_WEIGHT = 2.5  # a wild card in hand is worth this many times its value
LONE_WEIGHT = 0.6  # a natural with no pack and no pair is less likely to score
LAYS_NOW = 100.0  # a natural the hand can lay this turn (a pack of its rank, three of it)


def discard_order(view: DameView, discards: tuple[str, ...]) -> tuple[str, ...]:
    """`discards` (card codes of the viewer's hand), the likeliest to be wanted first; equal
    costs keep the order given."""
    if view.seat is None:
        return discards
    seen = _seen_naturals(view)
    unknown = sum(view.hand_sizes) - len(view.hand) + view.stock_size
    next_hand = view.hand_sizes[(view.seat + 1) % N_SEATS]
    at_stake = (len(view.discard) + 1) * PILE_CARD_VALUE
    in_hand: dict[str, int] = {}
    for code in view.hand:
        rank = card(code).rank
        in_hand[rank] = in_hand.get(rank, 0) + 1
    team_ranks = {pack.rank for pack in view.packs[view.seat % 2]}

    def cost(code: str) -> float:
        c = card(code)
        if IS_WILD[c]:
            return VALUE[c] * WILD_WEIGHT  # a wild card on top blocks the take: no risk
        held = in_hand.get(c.rank, 0)
        kept = c.rank in team_ranks or held >= TAKE_NATURALS
        worth = VALUE[c] * (1.0 if kept else LONE_WEIGHT)
        if c.rank in team_ranks or held >= PACK_MIN:
            worth += LAYS_NOW  # it scores this turn: the last card to throw away
        return worth + at_stake * chance_of_pair(COPIES - seen[c.rank], unknown, next_hand)

    return tuple(sorted(discards, key=cost))


def _seen_naturals(view: DameView) -> dict[str, int]:
    """Natural cards of each rank the viewer can see: their hand, every pack, the pile."""
    counts = dict.fromkeys(NATURAL_RANKS, 0)
    codes = [*view.hand, *view.discard]
    codes += [code for packs in view.packs for pack in packs for code in pack.cards]
    for code in codes:
        c = card(code)
        if not IS_WILD[c]:
            counts[c.rank] += 1
    return counts


def chance_of_pair(unknown_of_rank: int, unknown: int, hand_size: int) -> float:
    """The chance that a hand of `hand_size` cards drawn from `unknown` unseen cards holds at
    least two of the `unknown_of_rank` unseen naturals of a rank (hypergeometric)."""
    if unknown_of_rank < TAKE_NATURALS or hand_size < TAKE_NATURALS or unknown <= 0:
        return 0.0
    hand_size = min(hand_size, unknown)
    unknown_of_rank = min(unknown_of_rank, unknown)
    total = comb(unknown, hand_size)
    none = comb(unknown - unknown_of_rank, hand_size)
    one = unknown_of_rank * comb(unknown - unknown_of_rank, hand_size - 1)
    return max(0.0, 1.0 - (none + one) / total)
