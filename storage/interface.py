"""What any store backend offers the bot: `Store` (SQLite) implements it; a PostgreSQL backend
would implement the same protocol, and the bot would not change."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from games.contract import Game, RoundRecord, RoundResult
from games.match import MatchState
from storage.models import (
    ActiveTableEntry,
    ClosedSeason,
    GuildSettings,
    LeaderboardOrder,
    LeaderboardRow,
    LoadedTables,
    MatchSummary,
    PlayerPreferences,
    PlayerStats,
    SeatRecord,
    TableRecord,
    TableStatus,
    TurnMention,
)

GamesResolver = Callable[[str], Game[Any, Any, Any]]


@runtime_checkable
class StoreInterface(Protocol):
    async def close(self) -> None: ...

    # guild settings
    async def get_guild_settings(self, guild_id: int) -> GuildSettings: ...
    async def save_guild_settings(self, settings: GuildSettings) -> None: ...

    # tables and seats
    async def create_table(
        self, guild_id: int, channel_id: int, game: str, options: dict[str, Any], host_id: int
    ) -> TableRecord: ...
    async def get_table(self, table_id: int) -> TableRecord: ...
    async def update_table(
        self,
        table_id: int,
        *,
        status: TableStatus = ...,
        message_id: int | None = ...,
        thread_id: int | None = ...,
        options: dict[str, Any] = ...,
        broken_reason: str | None = ...,
    ) -> None: ...
    async def save_seats(
        self, table_id: int, seats: list[SeatRecord], *, status: TableStatus | None = ...
    ) -> None: ...
    async def get_seats(self, table_id: int) -> list[SeatRecord]: ...

    # matches, rounds, the action log
    async def start_match(self, table_id: int, state: MatchState) -> int: ...
    async def start_round(self, table_id: int, record: RoundRecord) -> int: ...
    async def record_action(
        self, table_id: int, round_no: int, seq: int, seat: int, notation: str
    ) -> None: ...
    async def finish_round(
        self, table_id: int, round_no: int, result: RoundResult, totals_after: list[int]
    ) -> None: ...
    async def finish_match(
        self,
        table_id: int,
        winners_seats: list[int],
        final_totals: list[int],
        at: datetime | None = None,
    ) -> None: ...
    async def load_round(self, table_id: int, round_no: int) -> RoundRecord: ...
    async def load_match(self, table_id: int) -> MatchState | None: ...
    async def round_result(
        self, table_id: int, round_no: int
    ) -> tuple[RoundResult, list[int]] | None: ...

    # recovery
    async def load_active_tables(
        self, games_resolver: GamesResolver | None = None, table_ids: Sequence[int] | None = None
    ) -> LoadedTables: ...
    async def active_table_index(self) -> list[ActiveTableEntry]: ...

    # turn mentions, kept while their turn lasts (a restart deletes them when it is played)
    async def save_turn_mention(self, mention: TurnMention) -> None: ...
    async def delete_turn_mention(self, table_id: int, message_id: int) -> None: ...
    async def turn_mentions(self) -> list[TurnMention]: ...

    # players' own choices (read whole at start, kept in memory by the bot)
    async def player_preferences(self) -> list[PlayerPreferences]: ...
    async def save_player_preferences(self, chosen: PlayerPreferences) -> None: ...

    # upkeep: compact rounds stored before compaction; the full integrity check on demand
    async def compact_history(self, limit: int = 200) -> int: ...
    async def check_integrity(self) -> list[str]: ...

    # statistics
    async def leaderboard(
        self,
        guild_id: int,
        game: str,
        order: LeaderboardOrder = "rating",
        limit: int = 10,
        min_matches: int = 3,
        season: str | None = None,
    ) -> list[LeaderboardRow]: ...
    async def seasons_played(self, guild_id: int) -> list[str]: ...
    async def close_ended_seasons(self, now: datetime) -> list[ClosedSeason]: ...
    async def player_stats(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> PlayerStats: ...
    async def recent_matches(
        self, guild_id: int, user_id: int, limit: int = 5
    ) -> list[MatchSummary]: ...
