"""Practice tables with a coach (issue #40): the table option, stored beside the game's
options like the bot level, and what it changes in the service. A coached table is unrated
(its matches are kept for the players' history but change no rating, leaderboard or season),
its players may ask for a hint, and each human is offered the review of their play after each
hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

COACH_OPTION = "coach"  # the table option's key, stored beside the game's options


def coached(stored_options: Mapping[str, Any]) -> bool:
    """Whether a stored table's options ask for a coach (tables opened before it: no)."""
    return stored_options.get(COACH_OPTION) is True
