"""Dutch in the bot (classic and house rules): see plugin.py; texts in i18n/."""

from __future__ import annotations

from bot.games.dutch.plugin import DutchPlugin
from bot.games.plugin import GamePlugin
from games.dutch.views import DutchView

# Annotated so that the type checker holds the plug-in to the protocol, for its view type.
PLUGIN: GamePlugin[DutchView] = DutchPlugin()
