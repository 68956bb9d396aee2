"""What the store asks of its caller: how to find a game by the name a record carries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.contract import Game

GamesResolver = Callable[[str], Game[Any, Any, Any]]
