"""The toy game's engine package (games/<game>/ in a real game): it exposes `GAME`."""

from tests.games.toygame import GAME

__all__ = ["GAME"]
