"""Every game, found by looking for the packages under `games/` that define one.

A package `games/<name>/` whose `__init__.py` defines `GAME` (a `games.contract.Game`) is a
game, registered under `GAME.name`. Nothing lists the games by hand, so adding one is adding its
package (see README.md here). Packages without `GAME` (`bench`, `strength`, `tournament`) are
tools, not games.

`games.__path__` is searched, so a directory appended to it (a test's own game) is searched
too; `forget()` drops what was found, to look again.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

import games
from games.contract import Game


@cache
def _discovered() -> dict[str, Game[Any, Any, Any]]:
    found: dict[str, Game[Any, Any, Any]] = {}
    folders: dict[str, str] = {}
    for module in sorted(pkgutil.iter_modules(games.__path__), key=lambda m: m.name):
        if not module.ispkg:
            continue
        game = getattr(importlib.import_module(f"games.{module.name}"), "GAME", None)
        if not isinstance(game, Game):
            continue
        if game.name in found:
            raise RuntimeError(
                f"two games named {game.name!r}: games/{folders[game.name]}/ and "
                f"games/{module.name}/"
            )
        found[game.name] = game
        folders[game.name] = module.name
    return found


def get_game(name: str) -> Game[Any, Any, Any]:
    """The game object by its name (KeyError for a name no package registers)."""
    try:
        return _discovered()[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}") from None


def game_names() -> tuple[str, ...]:
    """Every game's name, in alphabetical order."""
    return tuple(_discovered())


BOT_LEVEL_MODULES = {"simple": "policy", "strong": "strong"}
"""A game's bot players, apart from its rules in `games/<name>/bots/`: `policy` the simple
level (`choose_action`, `default_action`), `strong` the strong one (optional)."""


def bots_module_name(game_name: str, level: str) -> str:
    """The module of a game's bot players at this level (`simple` or `strong`)."""
    return f"games.{game_name}.bots.{BOT_LEVEL_MODULES[level]}"


def forget() -> None:
    """Look for the games again on next use (after a test added one to `games.__path__`)."""
    _discovered.cache_clear()
