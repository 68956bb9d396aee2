"""A game that lives only in the tests, plugged in by the route every game takes.

`tests/plugged/games/toy/` (its engine: `GAME`, the tiny draw-or-pass game of
tests/games/toygame.py, and its bot policy) and `tests/plugged/bot_games/toy/` (its plug-in:
`PLUGIN`, its texts) are the two folders the guide in games/README.md and bot/games/README.md
asks of a new game. `plugged()` adds them to the `games` and `bot.games` packages' paths, where
the registry and the plug-ins are looked for, so the bot finds the game as it finds the real
ones: nothing shared names it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import bot.games
import games
from bot.i18n import catalog
from games import registry

HERE = Path(__file__).resolve().parent
NAME = "toy"


def _look_again() -> None:
    registry.forget()
    bot.games.forget()
    catalog.cache_clear()


@contextlib.contextmanager
def plugged() -> Iterator[str]:
    """The test game is a game of the bot while this lasts (its name is given)."""
    engines, plugins = str(HERE / "games"), str(HERE / "bot_games")
    games.__path__.append(engines)
    bot.games.__path__.append(plugins)
    _look_again()
    try:
        yield NAME
    finally:
        games.__path__.remove(engines)
        bot.games.__path__.remove(plugins)
        _look_again()
