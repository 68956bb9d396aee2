"""Dutch in the bot (classic and house rules): see plugin.py; texts in i18n/."""

from __future__ import annotations

from bot.games.dutch.plugin import DutchPlugin

PLUGIN = DutchPlugin()
