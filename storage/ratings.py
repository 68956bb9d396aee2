"""Skill ratings with openskill's Plackett-Luce model.

The model rates free-for-all (Dutch: every seat a side) and teams (Euchre, Dame de Pique
partners) alike. Only human players are rated: sides made only of bot players are left out, and
a match with fewer than two rated sides changes no rating (so nobody farms rating against bots)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative estimate leaderboards sort by (mu - 3 sigma)."""
        return self.mu - 3 * self.sigma


def side_ranks(
    totals: Sequence[int], winning_sides: set[int], *, lower_is_better: bool
) -> list[int]:
    """1 for the winners, then by final total; equal totals share a rank."""
    keys = [
        (0 if side in winning_sides else 1, total if lower_is_better else -total)
        for side, total in enumerate(totals)
    ]
    return [1 + sum(other < key for other in keys) for key in keys]


def rate(
    sides: Sequence[Sequence[int]],
    ranks: Sequence[int],
    skills: Mapping[int, Skill],
) -> dict[int, Skill]:
    """New skills of the given players. `sides[i]` lists the rated player ids on side i
    (possibly none), `ranks[i]` its rank (1 best). Players not in `skills` start at default."""
    rated = [(list(side), rank) for side, rank in zip(sides, ranks, strict=True) if side]
    if len(rated) < 2:
        return {}
    teams = [
        [
            MODEL.rating(
                mu=skills.get(p, Skill()).mu, sigma=skills.get(p, Skill()).sigma, name=str(p)
            )
            for p in side
        ]
        for side, _ in rated
    ]
    new_teams = MODEL.rate(teams, ranks=[rank for _, rank in rated])
    result: dict[int, Skill] = {}
    for (side, _), new_team in zip(rated, new_teams, strict=True):
        for player, rating in zip(side, new_team, strict=True):
            result[player] = Skill(rating.mu, rating.sigma)
    return result
