"""Pairings of one round: Swiss, round robin and a single-elimination bracket.

Swiss is a maximum-weight matching (networkx's blossom algorithm), round robin the circle
method, and the single-elimination bracket is seeded, with byes to the top seeds; groups of four
for rotating partners are here too.

A *unit* is what is paired: a player (a game without partners, or rotating partners) or a
fixed team, named by an
int (its seed: 0 is the first to sign up). Points are integers in half points: a win 2, a
shared win 1, a loss 0, a bye 2.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import networkx as nx

BYE_POINTS = 2
WIN_POINTS = 2
SHARED_POINTS = 1

_BYE = -1  # the matching's dummy node: whoever it is matched with sits the round out


@dataclass(frozen=True, slots=True)
class RoundPairing:
    """One round: the tables (each a tuple of units, or for rotating partners the two
    partnerships of a table) and the units with a bye (a win, no table)."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = field(default=())


def _key(pair: Iterable[int]) -> frozenset[int]:
    return frozenset(pair)


def swiss(
    units: Sequence[int],
    points: Mapping[int, int],
    met: Iterable[Iterable[int]],
    had_bye: Iterable[int],
) -> RoundPairing:
    """A Swiss round: units of equal or near points meet, a bye (odd count) goes to the
    lowest-ranked unit that has not had one, and nobody meets an opponent again while any
    pairing avoids it. Solved as one maximum-weight perfect matching whose weights rank, in
    this order: a bye only to someone who never had one (while anyone has not), the fewest
    rematches, then the smallest score gaps (the bye to the lowest score)."""
    if len(units) < 2:
        return RoundPairing((), tuple(units))
    played = {_key(pair) for pair in met}
    byes_before = set(had_bye)
    graph: nx.Graph[int] = nx.Graph()
    top = max((points.get(u, 0) for u in units), default=0) + BYE_POINTS
    # each term dwarfs every sum of the ones below it, so the matching ranks them in order
    n = len(units)
    gap_scale = n  # above the tie term of a bye (the later signed-up sits out on equal points)
    rematch_scale = gap_scale * (top * top + 1) * n + n
    bye_scale = rematch_scale * 2 * n  # a second bye is worse than any number of rematches
    base = bye_scale * n * 4
    order = {unit: index for index, unit in enumerate(units)}
    for a, b in combinations(units, 2):
        gap = points.get(a, 0) - points.get(b, 0)
        rematch = _key((a, b)) in played
        weight = base - rematch * rematch_scale - gap * gap * gap_scale
        graph.add_edge(a, b, weight=weight)
    if len(units) % 2:
        for unit in units:
            again = unit in byes_before
            # the lowest score has the smallest gap to "nothing"
            gap = points.get(unit, 0)
            tie = n - 1 - order[unit]
            weight = base - again * bye_scale - gap * gap * gap_scale - tie
            graph.add_edge(_BYE, unit, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    tables: list[tuple[int, ...]] = []
    byes: list[int] = []
    for a, b in matching:
        if _BYE in (a, b):
            byes.append(b if a == _BYE else a)
        else:
            tables.append(tuple(sorted((a, b), key=lambda u: (-points.get(u, 0), order[u]))))
    tables.sort(key=lambda t: (-max(points.get(u, 0) for u in t), min(order[u] for u in t)))
    return RoundPairing(tuple(tables), tuple(byes))


def round_robin_rounds(units: Sequence[int]) -> list[RoundPairing]:
    """Every round of a round robin (the circle method): each pair of units meets exactly
    once; with an odd count, each unit sits out one round (its bye)."""
    ring: list[int | None] = list(units)
    if len(ring) % 2:
        ring.append(None)
    rounds: list[RoundPairing] = []
    half = len(ring) // 2
    for _ in range(len(ring) - 1):
        tables: list[tuple[int, ...]] = []
        byes: list[int] = []
        for i in range(half):
            a, b = ring[i], ring[-1 - i]
            if a is None or b is None:
                byes.extend(u for u in (a, b) if u is not None)
            else:
                tables.append((a, b))
        rounds.append(RoundPairing(tuple(tables), tuple(byes)))
        ring = [ring[0], ring[-1], *ring[1:-1]]  # the first stays, the others turn
    return rounds


def bracket_size(count: int) -> int:
    """The bracket's slots: the smallest power of two holding every unit."""
    size = 1
    while size < count:
        size *= 2
    return size


def _seed_order(size: int) -> list[int]:
    """Seed numbers (0 first) in bracket order: 1 meets the last seed, and the top two seeds
    can meet only in the final (0,7,3,4,1,6,2,5 for eight)."""
    order = [0]
    while len(order) < size:
        span = len(order) * 2
        order = [x for seed in order for x in (seed, span - 1 - seed)]
    return order


def elimination_first_round(seeds: Sequence[int]) -> tuple[list[int | None], RoundPairing]:
    """The bracket (units in bracket order, None for an empty slot) and its first round: the
    top seeds face the empty slots (their byes), everyone else plays."""
    size = bracket_size(len(seeds))
    slots: list[int | None] = [seeds[s] if s < len(seeds) else None for s in _seed_order(size)]
    return slots, elimination_round(slots)


def elimination_round(alive: Sequence[int | None]) -> RoundPairing:
    """A round of the bracket from the units still in it, in bracket order: neighbours meet;
    one facing an empty slot goes through (a bye)."""
    tables: list[tuple[int, ...]] = []
    byes: list[int] = []
    for i in range(0, len(alive) - 1, 2):
        a, b = alive[i], alive[i + 1]
        if a is not None and b is not None:
            tables.append((a, b))
        else:
            byes.extend(u for u in (a, b) if u is not None)
    return RoundPairing(tuple(tables), tuple(byes))


def next_bracket(alive: Sequence[int | None], winners: Iterable[int]) -> list[int | None]:
    """The bracket's next round: the winner (or the bye) of each neighbouring pair."""
    through = set(winners)
    return [
        next((u for u in (alive[i], alive[i + 1]) if u is not None and u in through), None)
        for i in range(0, len(alive) - 1, 2)
    ]


def rotating_groups(
    units: Sequence[int],
    points: Mapping[int, int],
    partnered: Iterable[Iterable[int]],
    had_bye: Iterable[int],
) -> RoundPairing:
    """A round of rotating partners (a partnership game's progressive night): tables of four
    by standing,
    each table's two partnerships chosen so nobody has the same partner again while the
    table allows it; the count beyond a multiple of four sit out (a bye), the lowest-ranked
    who never had one first. A table is (a, b, c, d): a and c partners, b and d partners
    (the seats of a partnership sit opposite)."""
    before = set(had_bye)
    order = {unit: index for index, unit in enumerate(units)}
    ranked = sorted(units, key=lambda u: (-points.get(u, 0), order[u]))
    extra = len(ranked) % 4
    byes: list[int] = []
    if extra:
        for unit in sorted(reversed(ranked), key=lambda u: u in before):
            if len(byes) == extra:
                break
            byes.append(unit)
    playing = [u for u in ranked if u not in byes]
    pairs = {_key(p) for p in partnered}
    tables: list[tuple[int, ...]] = []
    for start in range(0, len(playing), 4):
        four = playing[start : start + 4]
        options = [(four[0], four[1], four[2], four[3]), (four[0], four[2], four[1], four[3])]
        options.append((four[0], four[1], four[3], four[2]))

        # a-c and b-d are partners: fewest repeated partnerships, then the given order
        def repeats(t: tuple[int, ...]) -> int:
            return (_key((t[0], t[2])) in pairs) + (_key((t[1], t[3])) in pairs)

        tables.append(min(options, key=repeats))
    return RoundPairing(tuple(tables), tuple(byes))
