"""The toy game's plug-in package (bot/games/<game>/ in a real game): it exposes `PLUGIN`."""

from tests.plugged.bot_games.toy.plugin import ToyPlugin

PLUGIN = ToyPlugin()
