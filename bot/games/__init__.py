"""Games as plug-ins of the bot: one package per game, `bot/games/<game>/`, found by name.

A package here that defines `PLUGIN` (a `bot.games.plugin.GamePlugin`) in its `__init__.py` is
a game of the bot: its slash command group is loaded, its tables are rendered through it, its
translations (`i18n/en.json`, `i18n/fr.json` beside it) join the catalogs. Nothing shared lists
the games: adding one is adding a package (see README.md here). Every folder of this
package's `__path__` is searched, so a folder added to it (a test's own game) is too.

Plug-ins are imported on first use, not when this package is, so that shared modules may import
`plugin_for` while the plug-ins import those same shared modules.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.games.plugin import GamePlugin


@cache
def _discovered() -> dict[str, GamePlugin[Any]]:
    found: dict[str, GamePlugin[Any]] = {}
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not module.ispkg:
            continue
        package = importlib.import_module(f"{__name__}.{module.name}")
        plugin = getattr(package, "PLUGIN", None)
        if plugin is None:
            continue
        if plugin.name in found:
            raise RuntimeError(f"two plug-ins for the game {plugin.name!r}")
        found[plugin.name] = plugin
    return found


def plugins() -> tuple[GamePlugin[Any], ...]:
    """Every game of the bot, ordered by name."""
    return tuple(_discovered().values())


def plugin_for(name: str) -> GamePlugin[Any]:
    """The plug-in of a game by its engine name (KeyError if the bot has none)."""
    try:
        return _discovered()[name]
    except KeyError:
        raise KeyError(f"no bot plug-in for the game {name!r}") from None


def plugin_names() -> tuple[str, ...]:
    return tuple(_discovered())


def forget() -> None:
    """Look for the plug-ins again on next use (after a folder was added to `__path__`: a
    test's own game)."""
    _discovered.cache_clear()
