from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.app import create_bot
from bot.cogs.leaderboard import LeaderboardCog
from bot.cogs.settings import SettingsCog
from bot.games.dutch import PLUGIN
from bot.i18n import catalog
from bot.i18n.translator import CatalogTranslator, command_text
from bot.settings import Settings

# Discord's rule for command and option names (lower case where a script has cases).
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
CONTEXT = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)


async def test_french_locale_gets_the_french_text() -> None:
    translator = CatalogTranslator()
    name = command_text("leaderboard", "cmd.leaderboard")
    assert await translator.translate(name, discord.Locale.french, CONTEXT) == "classement"


async def test_english_and_other_locales_keep_the_english_text() -> None:
    translator = CatalogTranslator()
    name = command_text("leaderboard", "cmd.leaderboard")
    for locale in (discord.Locale.american_english, discord.Locale.german):
        assert await translator.translate(name, locale, CONTEXT) is None
    plain = app_commands.locale_str("no key")
    assert await translator.translate(plain, discord.Locale.french, CONTEXT) is None


def _named(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The command and its options, subcommands and choices, all of them."""
    found = [payload]
    for child in [*payload.get("options", []), *payload.get("choices", [])]:
        found += _named(child)
    return found


async def test_every_command_and_option_is_translated_to_french() -> None:
    bot = create_bot(Settings(_env_file=None, DISCORD_TOKEN="t"))  # type: ignore[call-arg]
    for cog in (PLUGIN.command_group(bot), LeaderboardCog(bot), SettingsCog(bot)):
        await bot.add_cog(cog)
    translator = CatalogTranslator()
    commands = bot.tree.get_commands()
    assert {c.name for c in commands} == {"dutch", "leaderboard", "stats", "settings"}
    french = set(catalog("fr").values())
    for command in commands:
        payload = await command.get_translated_payload(bot.tree, translator)
        assert payload["description_localizations"]["fr"] in french
        for part in _named(payload):
            french_name = part["name_localizations"]["fr"]
            if "value" in part:  # a choice: any text up to 100 characters
                assert 1 <= len(french_name) <= 100
                continue
            assert COMMAND_NAME.match(french_name) and french_name == french_name.lower()
            assert 1 <= len(part["description_localizations"]["fr"]) <= 100
    await bot.close()
