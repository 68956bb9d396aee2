"""Standings after any round: points, then the tie-breaks in order.

Points count in halves: a win 2, a shared win 1, a loss 0, a bye 2. The tie-breaks are Buchholz
(the sum of the points of everyone the unit played against), Sonneborn-Berger (the points of the
opponents it beat, plus half those of the ones it shared a win with), then the earlier sign-up."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.tournament.pairing import BYE_POINTS, SHARED_POINTS, WIN_POINTS


@dataclass(frozen=True, slots=True)
class Game:
    """One finished table, seen by the standings: each unit's side (units on one side are
    partners), and the sides that won (two sides winning share the win)."""

    sides: tuple[tuple[int, ...], ...]
    winning_sides: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Row:
    """A unit's line in the standings."""

    place: int
    unit: int
    points: int  # half points
    buchholz: int
    sonneborn_berger: int  # half points of half points: shown divided by 4
    wins: int
    played: int


def points_of(unit: int, games: Iterable[Game], byes: Iterable[int]) -> int:
    total = BYE_POINTS * sum(1 for b in byes if b == unit)
    for game in games:
        for index, side in enumerate(game.sides):
            if unit in side and index in game.winning_sides:
                shared = len(game.winning_sides) > 1
                total += SHARED_POINTS if shared else WIN_POINTS
    return total


def standings(units: Sequence[int], games: Sequence[Game], byes: Sequence[int]) -> list[Row]:
    """Every unit ranked: points, Buchholz, Sonneborn-Berger, then sign-up order."""
    points = {u: points_of(u, games, byes) for u in units}
    buchholz = dict.fromkeys(units, 0)
    berger = dict.fromkeys(units, 0)
    wins = dict.fromkeys(units, 0)
    played = dict.fromkeys(units, 0)
    for game in games:
        shared = len(game.winning_sides) > 1
        for index, side in enumerate(game.sides):
            won = index in game.winning_sides
            opponents = [u for i, s in enumerate(game.sides) if i != index for u in s]
            for unit in side:
                if unit not in points:
                    continue
                played[unit] += 1
                wins[unit] += won and not shared
                for rival in opponents:
                    buchholz[unit] += points.get(rival, 0)
                    if won:
                        berger[unit] += points.get(rival, 0) * (1 if shared else 2)
    order = {u: i for i, u in enumerate(units)}
    ranked = sorted(units, key=lambda u: (-points[u], -buchholz[u], -berger[u], order[u]))
    return [
        Row(place, u, points[u], buchholz[u], berger[u], wins[u], played[u])
        for place, u in enumerate(ranked, start=1)
    ]
