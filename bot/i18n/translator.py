"""Localized command names and descriptions, through discord.py's Translator hook.

Commands declare their English texts with `command_text(english, key)`; the translator looks
the key up in the catalog of the asked locale. English is the default, so only other languages
are returned (None tells discord.py to keep the English text).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import DEFAULT_LANGUAGE, catalog, language_of


def command_text(english: str, key: str, **parts: str) -> app_commands.locale_str:
    """An English command text with the catalog key of its translations. `parts` fill the
    template's placeholders with other catalog keys (`game="<game>.name"`), each translated."""
    return app_commands.locale_str(english, key=key, parts=parts)


def catalog_text(language: str, key: str, parts: dict[str, str] | None = None) -> str | None:
    """The text of `key` in `language` with its `parts` (keys) translated in, or None."""
    words = catalog(language)
    template = words.get(key)
    if template is None:
        return None
    if not parts:
        return template
    return template.format(**{name: words.get(part, part) for name, part in parts.items()})


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if key is None:
            return None
        language = language_of(locale)
        if language == DEFAULT_LANGUAGE:
            return None
        return catalog_text(language, key, string.extras.get("parts"))
