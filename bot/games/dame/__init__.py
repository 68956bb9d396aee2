"""Dame de Pique (Québec) in the bot: see plugin.py; texts in i18n/."""

from __future__ import annotations

from bot.games.dame.plugin import DamePlugin

PLUGIN = DamePlugin()
