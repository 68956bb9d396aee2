"""Bot players for any game: the game's `games.<name>.policy` module when it has one
(`choose_action(round, seat, rng)`, `default_action(round, seat)`), else plain fallbacks."""

from __future__ import annotations

import importlib
import inspect
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

from games.contract import Game, Round


class SeatPolicy:
    """Picks actions for a seat nobody is clicking for: a bot player, an away player, or a
    player whose turn timed out (the safe default move)."""

    def __init__(self, module: ModuleType | None) -> None:
        self._choose: Callable[..., Any] | None = getattr(module, "choose_action", None)
        self._default: Callable[..., Any] | None = getattr(module, "default_action", None)
        self._default_takes_rng = (
            self._default is not None and len(inspect.signature(self._default).parameters) >= 3
        )

    def choose(self, round_: Round[Any, Any, Any], seat: int, rng: random.Random) -> Any:
        if self._choose is not None:
            return self._choose(round_, seat, rng)
        return rng.choice(round_.legal_actions(seat))

    def default(self, round_: Round[Any, Any, Any], seat: int, rng: random.Random) -> Any:
        """A safe move for a player who let the timer run out."""
        if self._default is not None:
            if self._default_takes_rng:
                return self._default(round_, seat, rng)
            return self._default(round_, seat)
        return round_.legal_actions(seat)[0]


_POLICIES: dict[str, SeatPolicy] = {}  # bounded: one per game the bot plays


def policy_for(game: Game[Any, Any, Any]) -> SeatPolicy:
    policy = _POLICIES.get(game.name)
    if policy is None:
        try:
            module: ModuleType | None = importlib.import_module(f"games.{game.name}.policy")
        except ModuleNotFoundError:
            module = None
        policy = _POLICIES[game.name] = SeatPolicy(module)
    return policy
