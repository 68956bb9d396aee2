"""The toy game's plug-in package (bot/games/<game>/ in a real game): it exposes `PLUGIN`."""

from bot.games.plugin import GamePlugin
from tests.games.toygame import ToyView
from tests.plugged.bot_games.toy.plugin import ToyPlugin

PLUGIN: GamePlugin[ToyView] = ToyPlugin()
