"""Euchre in the bot (standard and cards4net presets): see plugin.py; texts in i18n/."""

from __future__ import annotations

from bot.games.euchre.plugin import EuchrePlugin
from bot.games.plugin import GamePlugin
from games.euchre.views import EuchreView

# Annotated so that the type checker holds the plug-in to the protocol, for its view type.
PLUGIN: GamePlugin[EuchreView] = EuchrePlugin()
