"""When a Dame de Pique hand could go out on its next turn.

This is the test by which the knock is announced for a player who chose it (the bot's `/deck
auto_knock`), just before their discard.

A knock binds nothing (a player who knocked need not go out), so announcing it costs nothing;
it is what lets the next turn lay the last cards. The test counts on the next turn's draw being
the best card for the hand (a wild card, or a natural of a rank it holds), on the team's packs
as they lie, and on laying every card, or all but one that is discarded. It does not count on
the pile (a take brings cards that must be laid too) nor on packs the partner may lay meanwhile:
a knock made for those is the player's own to make.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from games.cards import Card
from games.dame.rules import IS_WILD, PACK_MIN

# wild cards a rank held n times needs to make a new pack (n = 0, 1, 2, 3 or more)
_WILDS_NEEDED = (0, PACK_MIN - 1, PACK_MIN - 2, 0)


def could_go_out_next_turn(kept: Sequence[Card], team_ranks: Collection[str]) -> bool:
    """Could a hand of `kept` cards go out on its next turn, after its draw, on a team whose
    packs have `team_ranks`? (Naturals of those ranks and wild cards add to the packs.)"""
    if not kept:
        return False  # the discard ends the hand: nothing is left to go out with
    wilds = sum(IS_WILD[c] for c in kept)
    loose = Counter(c.rank for c in kept if not IS_WILD[c] and c.rank not in team_ranks)
    has_pack = bool(team_ranks)
    # the draw: a wild card does all any other card could (it adds anywhere a card of a
    # pack's rank could, or is the discard), but a natural of a rank held may save wild cards
    if _laid_out(loose, wilds + 1, has_pack):
        return True
    return any(_laid_out(loose + Counter({rank: 1}), wilds, has_pack) for rank in loose)


def _laid_out(loose: Counter[str], wilds: int, has_pack: bool) -> bool:
    """Can every card be laid (the `loose` naturals, of ranks without a pack, in new packs with
    the wild cards' help; the other naturals and the spare wild cards added to packs), one at
    most kept back to discard?"""
    left_out: list[tuple[Counter[str], int]] = [(loose, wilds)]
    left_out += [(loose - Counter({rank: 1}), wilds) for rank in loose]
    if wilds:
        left_out.append((loose, wilds - 1))
    for naturals, wild in left_out:
        needed = sum(_WILDS_NEEDED[min(n, PACK_MIN)] for n in naturals.values())
        spare = wild - needed
        packs = has_pack or any(naturals.values())
        if spare >= 0 and (spare == 0 or packs):
            return True
    return False
