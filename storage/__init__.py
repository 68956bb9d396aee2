"""The SQLite store: tables, action log, rounds, match totals, leaderboards (no discord here).

`Store` is the whole interface the bot uses (see storage/README.md); it never sees SQL.
"""

from storage.errors import StoreError, StoreUnavailable
from storage.models import (
    ActiveTable,
    ActiveTableEntry,
    GameStats,
    GuildSettings,
    LeaderboardRow,
    LoadedTables,
    MatchSummary,
    PlayerPreferences,
    PlayerStats,
    SeatRecord,
    TableLog,
    TableRecord,
    TableStatus,
    TurnMention,
)
from storage.store import Store

__all__ = [
    "ActiveTable",
    "ActiveTableEntry",
    "GameStats",
    "GuildSettings",
    "LeaderboardRow",
    "LoadedTables",
    "MatchSummary",
    "PlayerPreferences",
    "PlayerStats",
    "SeatRecord",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "TableLog",
    "TableRecord",
    "TableStatus",
    "TurnMention",
]
