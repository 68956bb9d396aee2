"""Players' own choices (`player_preferences`, one row per user who chose something).

They are kept across restarts, read back whole when the bot starts (the bot keeps them in
memory, so a click never reads them), and exported and deleted with the rest of a player's data
(`privacy.py`)."""

from __future__ import annotations

import logging

from pydantic import ValidationError

from storage.models import PlayerPreferences
from storage.sql import Database

log = logging.getLogger(__name__)


async def player_preferences(db: Database) -> list[PlayerPreferences]:
    """Every player's choices; a row this version cannot read is left out (that player gets
    the defaults until they choose again), logged once here."""
    rows = await db.fetchall(
        "SELECT user_id, deck, auto_play, auto_knock FROM player_preferences ORDER BY user_id"
    )
    kept = []
    for row in rows:
        try:
            kept.append(
                PlayerPreferences(
                    user_id=row["user_id"],
                    deck=row["deck"],
                    auto_play=bool(row["auto_play"]),
                    auto_knock=bool(row["auto_knock"]),
                )
            )
        except ValidationError:
            log.warning("a player's stored preferences are damaged: the defaults are used")
    return kept


async def save_player_preferences(db: Database, preferences: PlayerPreferences) -> None:
    """Keep a player's choices (replacing those kept before)."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO player_preferences (user_id, deck, auto_play, auto_knock, updated_at) "
            "VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET deck = excluded.deck, "
            "auto_play = excluded.auto_play, auto_knock = excluded.auto_knock, "
            "updated_at = excluded.updated_at",
            (
                preferences.user_id,
                preferences.deck,
                int(preferences.auto_play),
                int(preferences.auto_knock),
                db.stamp(),
            ),
        )
