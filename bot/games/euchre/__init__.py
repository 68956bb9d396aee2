"""Euchre in the bot (standard and cards4net presets): see plugin.py; texts in i18n/."""

from __future__ import annotations

from bot.games.euchre.plugin import EuchrePlugin

PLUGIN = EuchrePlugin()
