"""All games by name. Each game module registers itself here on import."""

from __future__ import annotations

import importlib
from typing import Any

from games.contract import Game

_MODULES = {"dutch": "games.dutch", "euchre": "games.euchre", "dame": "games.dame"}


def get_game(name: str) -> Game[Any, Any, Any]:
    """The game object for `dutch`, `euchre` or `dame` (each module exposes `GAME`)."""
    if name not in _MODULES:
        raise KeyError(f"unknown game {name!r}")
    return importlib.import_module(_MODULES[name]).GAME  # type: ignore[no-any-return]


def game_names() -> tuple[str, ...]:
    return tuple(_MODULES)
