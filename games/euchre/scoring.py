"""Scoring one Euchre hand (docs/rules/euchre.md): only one team scores."""

from __future__ import annotations

MADE = "made"  # makers took 3 or 4 tricks
MARCH = "march"  # makers took all 5
EUCHRED = "euchred"  # makers took fewer than 3: the defenders score


def score_hand(maker_tricks: int, alone: bool) -> tuple[int, int, str]:
    """(makers' points, defenders' points, outcome) for the makers' trick count."""
    if maker_tricks < 3:
        return 0, 2, EUCHRED
    if maker_tricks == 5:
        return (4 if alone else 2), 0, MARCH
    return 1, 0, MADE
