"""Dame de Pique (Québec) in the bot: see plugin.py; texts in i18n/."""

from __future__ import annotations

from bot.games.dame.plugin import DamePlugin
from bot.games.plugin import GamePlugin
from games.dame.views import DameView

# Annotated so that the type checker holds the plug-in to the protocol, for its view type.
PLUGIN: GamePlugin[DameView] = DamePlugin()
