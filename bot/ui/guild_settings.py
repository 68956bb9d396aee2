"""Guild settings, cached: every public message needs the guild's language."""

from __future__ import annotations

from typing import Protocol

from bot.i18n import language_of
from storage.models import GuildSettings


class SettingsStore(Protocol):
    async def get_guild_settings(self, guild_id: int) -> GuildSettings: ...

    async def save_guild_settings(self, settings: GuildSettings) -> None: ...


class GuildSettingsCache:
    def __init__(self, store: SettingsStore) -> None:
        self._store = store
        # Bounded by the guilds the bot is in: `forget` drops a guild the bot leaves.
        self._cache: dict[int, GuildSettings] = {}
        self._preferred: dict[int, str] = {}  # guild id -> language of its preferred locale

    async def get(self, guild_id: int) -> GuildSettings:
        found = self._cache.get(guild_id)
        if found is None:
            found = await self._store.get_guild_settings(guild_id)
            self._cache[guild_id] = found
        return found

    async def save(self, settings: GuildSettings) -> None:
        await self._store.save_guild_settings(settings)
        self._cache[settings.guild_id] = settings

    def forget(self, guild_id: int) -> None:
        """The bot left this guild: keep nothing of it (the store keeps its settings)."""
        self._cache.pop(guild_id, None)
        self._preferred.pop(guild_id, None)

    def note_preferred_locale(self, guild_id: int, locale: object) -> None:
        """Remember the guild's Discord locale (the default of its public language)."""
        self._preferred[guild_id] = language_of(locale)

    async def public_language(self, guild_id: int | None) -> str:
        """The language of public messages: the guild's setting, else its preferred locale."""
        if guild_id is None:
            return "en"
        settings = await self.get(guild_id)
        return settings.language or self._preferred.get(guild_id, "en")
