"""Guild settings: language, default presets, timers, threads."""

from __future__ import annotations

from storage.codec import dumps, loads
from storage.models import GuildSettings
from storage.sql import Database


async def get_guild_settings(db: Database, guild_id: int) -> GuildSettings:
    row = await db.fetchone("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
    if row is None:
        return GuildSettings(guild_id=guild_id)
    return GuildSettings.from_stored(
        guild_id,
        {
            "language": row["language"],
            "default_presets": loads(row["default_presets"]),
            "turn_seconds": row["turn_seconds"],
            "reveal_seconds": row["reveal_seconds"],
            "use_threads": bool(row["use_threads"]),
            "bots": row["bots"],
            "turn_pings": bool(row["turn_pings"]),
        },
    )


async def save_guild_settings(db: Database, settings: GuildSettings) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, language, default_presets, turn_seconds, "
            "reveal_seconds, use_threads, bots, turn_pings, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language, "
            "default_presets = excluded.default_presets, "
            "turn_seconds = excluded.turn_seconds, reveal_seconds = excluded.reveal_seconds, "
            "use_threads = excluded.use_threads, bots = excluded.bots, "
            "turn_pings = excluded.turn_pings, "
            "updated_at = excluded.updated_at",
            (
                settings.guild_id,
                settings.language,
                dumps(settings.default_presets),
                settings.turn_seconds,
                settings.reveal_seconds,
                int(settings.use_threads),
                settings.bots,
                int(settings.turn_pings),
                db.stamp(),
            ),
        )
