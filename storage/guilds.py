"""Guild settings: language, default presets, timers, threads."""

from __future__ import annotations

import logging
from typing import Any

from storage.codec import dumps, loads
from storage.models import GuildSettings
from storage.sql import Database

log = logging.getLogger(__name__)

_reported: set[tuple[int, str]] = set()  # (guild, setting) already logged as damaged


def _report(guild_id: int, setting: str, stored: Any) -> None:
    """Log a damaged stored setting once per process: its default is used meanwhile, and
    /settings saving the guild's settings again writes a valid value in its place."""
    if (guild_id, setting) in _reported:
        return
    _reported.add((guild_id, setting))
    log.warning(
        "guild %s: the stored %s is damaged (%.60r): its default is used until /settings "
        "saves this server's settings again",
        guild_id,
        setting,
        stored,
    )


async def get_guild_settings(db: Database, guild_id: int) -> GuildSettings:
    """A guild's settings; a stored value that cannot be read, or that this version refuses,
    is its default (logged once), so a damaged row affects that guild's settings only."""
    row = await db.fetchone("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
    if row is None:
        return GuildSettings(guild_id=guild_id)
    stored: dict[str, Any] = {
        "language": row["language"],
        "turn_seconds": row["turn_seconds"],
        "reveal_seconds": row["reveal_seconds"],
        "use_threads": bool(row["use_threads"]),
        "bots": row["bots"],
        "turn_pings": bool(row["turn_pings"]),
        "max_tables_channel": row["max_tables_channel"],
        "max_tables_server": row["max_tables_server"],
        "season": row["season"] or "off",
        "season_channel": row["season_channel"],
    }
    try:
        stored["default_presets"] = loads(row["default_presets"])
    except (ValueError, TypeError):
        _report(guild_id, "default_presets", row["default_presets"])
    if not isinstance(stored.get("default_presets", {}), dict):
        _report(guild_id, "default_presets", stored.pop("default_presets"))
    settings = GuildSettings.from_stored(guild_id, stored)
    for name, value in stored.items():
        if name != "default_presets" and value is not None and getattr(settings, name) != value:
            _report(guild_id, name, value)
    return settings


async def save_guild_settings(db: Database, settings: GuildSettings) -> None:
    """Store every setting (a damaged stored value is replaced: reported again if damaged
    again later)."""
    _reported.difference_update({key for key in _reported if key[0] == settings.guild_id})
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, language, default_presets, turn_seconds, "
            "reveal_seconds, use_threads, bots, turn_pings, max_tables_channel, "
            "max_tables_server, season, season_channel, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language, "
            "default_presets = excluded.default_presets, "
            "turn_seconds = excluded.turn_seconds, reveal_seconds = excluded.reveal_seconds, "
            "use_threads = excluded.use_threads, bots = excluded.bots, "
            "turn_pings = excluded.turn_pings, max_tables_channel = excluded.max_tables_channel, "
            "max_tables_server = excluded.max_tables_server, season = excluded.season, "
            "season_channel = excluded.season_channel, updated_at = excluded.updated_at",
            (
                settings.guild_id,
                settings.language,
                dumps(settings.default_presets),
                settings.turn_seconds,
                settings.reveal_seconds,
                int(settings.use_threads),
                settings.bots,
                int(settings.turn_pings),
                settings.max_tables_channel,
                settings.max_tables_server,
                settings.season,
                settings.season_channel,
                db.stamp(),
            ),
        )
