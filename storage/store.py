"""`Store`: the one interface the bot uses to keep tables, rounds and statistics (no SQL leaks
out). A PostgreSQL backend could implement the same methods."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from games.contract import RoundRecord, RoundResult
from games.match import MatchState
from games.registry import get_game
from storage import recovery, stats
from storage.action_log import ActionRow, ActionWriter, OpenRounds
from storage.codec import SEAT_COLUMNS, TABLE_COLUMNS, dumps, loads, seat_from_row, table_from_row
from storage.database import Database, Synchronous, open_database
from storage.errors import StoreError
from storage.interface import GamesResolver
from storage.models import (
    GuildSettings,
    LeaderboardOrder,
    LeaderboardRow,
    LoadedTables,
    MatchSummary,
    PlayerStats,
    SeatRecord,
    TableRecord,
    TableStatus,
    utc_now,
)


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


class Store:
    def __init__(self, db: Database, games_resolver: GamesResolver) -> None:
        self._db = db
        self._open_rounds = OpenRounds()
        self._actions = ActionWriter(db, self._open_rounds)
        self._games = games_resolver
        self._closed = False

    # -- lifecycle -----------------------------------------------------------------------
    @classmethod
    async def open(
        cls,
        path: Path | str,
        *,
        games_resolver: GamesResolver = get_game,
        synchronous: Synchronous = "FULL",
        now: Callable[[], datetime] = utc_now,
        target_version: int | None = None,
    ) -> Store:
        """Open (or create) the store at `path`, migrating it to the latest schema. Raises
        StoreError with a clear message for a corrupt, foreign or too-new file.
        `target_version` stops the migrations early (tests of the migrations only)."""
        db = await open_database(
            Path(path), now=now, synchronous=synchronous, target_version=target_version
        )
        store = cls(db, games_resolver)
        store._actions.start()
        return store

    async def close(self) -> None:
        """Store queued actions, then close the file (a second call does nothing)."""
        if self._closed:
            return
        self._closed = True
        await self._actions.close()
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def path(self) -> Path:
        return self._db.path

    @property
    def schema_version(self) -> int:
        return self._db.schema_version

    @property
    def commits(self) -> int:
        """Group-commit transactions of the action log so far (for benchmarks)."""
        return self._actions.batches

    # -- guild settings ------------------------------------------------------------------
    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self._db.fetchone(
            "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        if row is None:
            return GuildSettings(guild_id=guild_id)
        return GuildSettings(
            guild_id=guild_id,
            language=row["language"],
            default_presets=loads(row["default_presets"]),
            turn_seconds=row["turn_seconds"],
            reveal_seconds=row["reveal_seconds"],
            use_threads=bool(row["use_threads"]),
        )

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, language, default_presets, turn_seconds, "
                "reveal_seconds, use_threads, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language, "
                "default_presets = excluded.default_presets, "
                "turn_seconds = excluded.turn_seconds, reveal_seconds = excluded.reveal_seconds, "
                "use_threads = excluded.use_threads, updated_at = excluded.updated_at",
                (
                    settings.guild_id,
                    settings.language,
                    dumps(settings.default_presets),
                    settings.turn_seconds,
                    settings.reveal_seconds,
                    int(settings.use_threads),
                    self._db.stamp(),
                ),
            )

    # -- tables and seats ----------------------------------------------------------------
    async def create_table(
        self, guild_id: int, channel_id: int, game: str, options: dict[str, Any], host_id: int
    ) -> TableRecord:
        now = self._db.stamp()
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "INSERT INTO tables (guild_id, channel_id, game, options, host_id, status, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?)",
                (guild_id, channel_id, game, dumps(options), host_id, now, now),
            )
            table_id = cursor.lastrowid
        assert table_id is not None
        return await self.get_table(table_id)

    async def get_table(self, table_id: int) -> TableRecord:
        row = await self._db.fetchone(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
        )
        if row is None:
            raise StoreError(f"there is no table {table_id}.")
        return table_from_row(row)

    async def update_table(
        self,
        table_id: int,
        *,
        status: TableStatus = UNSET,
        message_id: int | None = UNSET,
        thread_id: int | None = UNSET,
        options: dict[str, Any] = UNSET,
        broken_reason: str | None = UNSET,
    ) -> None:
        """Change only the fields given (None is a value: it clears message_id or thread_id)."""
        changes: dict[str, Any] = {}
        if status is not UNSET:
            if status not in ("lobby", "playing", "finished", "abandoned", "broken"):
                raise StoreError(f"{status!r} is not a table status.")
            changes["status"] = status
        if message_id is not UNSET:
            changes["message_id"] = message_id
        if thread_id is not UNSET:
            changes["thread_id"] = thread_id
        if options is not UNSET:
            changes["options"] = dumps(options)
        if broken_reason is not UNSET:
            changes["broken_reason"] = broken_reason
        changes["updated_at"] = self._db.stamp()
        assignments = ", ".join(f"{column} = ?" for column in changes)
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                f"UPDATE tables SET {assignments} WHERE id = ?", (*changes.values(), table_id)
            )
            if cursor.rowcount == 0:
                raise StoreError(f"there is no table {table_id}.")

    async def save_seats(self, table_id: int, seats: list[SeatRecord]) -> None:
        """Replace the table's seat list (kept in the given order, left players included)."""
        async with self._db.transaction() as conn:
            await self._require_table(conn, table_id)
            await conn.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            await conn.executemany(
                "INSERT INTO seats (table_id, position, seat, user_id, display_name, is_bot, "
                "joined_at, left_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        table_id,
                        position,
                        s.seat,
                        s.user_id,
                        s.display_name,
                        int(s.is_bot),
                        s.joined_at.isoformat(),
                        s.left_at.isoformat() if s.left_at else None,
                    )
                    for position, s in enumerate(seats)
                ],
            )

    async def get_seats(self, table_id: int) -> list[SeatRecord]:
        rows = await self._db.fetchall(
            f"SELECT {SEAT_COLUMNS} FROM seats WHERE table_id = ? ORDER BY position", (table_id,)
        )
        return [seat_from_row(row) for row in rows]

    # -- matches, rounds, actions --------------------------------------------------------
    async def start_match(self, table_id: int, state: MatchState) -> int:
        """Begin a (new) match at this table; returns its number at the table (0, 1, …)."""
        if state.round_points:
            raise StoreError("start_match takes a match with no round played yet.")
        async with self._db.transaction() as conn:
            await self._require_table(conn, table_id)
            match_no = await _next_number(conn, "matches", "match_no", table_id)
            await conn.execute(
                "INSERT INTO matches (table_id, match_no, game, options, n_seats, first_dealer, "
                "started_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    table_id,
                    match_no,
                    state.game,
                    dumps(state.options),
                    state.n_seats,
                    state.first_dealer,
                    self._db.stamp(),
                ),
            )
        return match_no

    async def start_round(self, table_id: int, record: RoundRecord) -> int:
        """Store a new round's options, seats, dealer and deck order; returns the store's round
        number at this table (0, 1, … across matches), the one record_action takes."""
        if record.actions:
            raise StoreError(
                "start_round takes a round with no action yet; record them one by one."
            )
        async with self._db.transaction() as conn:
            await self._require_table(conn, table_id)
            async with conn.execute(
                "SELECT round_no FROM rounds WHERE table_id = ? AND finished_at IS NULL",
                (table_id,),
            ) as cursor:
                open_round = await cursor.fetchone()
            if open_round is not None:
                raise StoreError(
                    f"round {open_round[0]} of table {table_id} is not finished; "
                    "finish it before starting another."
                )
            async with conn.execute(
                "SELECT match_no FROM matches WHERE table_id = ? AND finished_at IS NULL "
                "ORDER BY match_no DESC LIMIT 1",
                (table_id,),
            ) as cursor:
                match_row = await cursor.fetchone()
            round_no = await _next_number(conn, "rounds", "round_no", table_id)
            cursor = await conn.execute(
                "INSERT INTO rounds (table_id, round_no, match_no, match_round, game, "
                "rules_version, options, n_seats, dealer, totals_before, deck, started_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table_id,
                    round_no,
                    match_row[0] if match_row else None,
                    record.round_no,
                    record.game,
                    record.rules_version,
                    dumps(record.options),
                    record.n_seats,
                    record.dealer,
                    dumps(list(record.totals)),
                    " ".join(record.deck),
                    self._db.stamp(),
                ),
            )
        assert cursor.lastrowid is not None
        self._open_rounds.opened((table_id, round_no), cursor.lastrowid, record.n_seats)
        return round_no

    async def record_action(
        self, table_id: int, round_no: int, seq: int, seat: int, notation: str
    ) -> None:
        """Append one action to an open round's log; returns once it is committed to disk.
        `seq` must grow within a round (use the action's index: len(round.history) - 1 after
        apply). Raises StoreError if the round is unknown or finished, or seq does not grow."""
        await self._actions.write(
            ActionRow(table_id, round_no, seq, seat, notation, self._db.stamp())
        )

    async def finish_round(
        self, table_id: int, round_no: int, result: RoundResult, totals_after: list[int]
    ) -> None:
        key = (table_id, round_no)
        try:
            async with self._db.transaction() as conn:
                cursor = await conn.execute(
                    "UPDATE rounds SET finished_at = ?, points = ?, detail = ?, totals_after = ? "
                    "WHERE table_id = ? AND round_no = ? AND finished_at IS NULL",
                    (
                        self._db.stamp(),
                        dumps(list(result.points)),
                        dumps(dict(result.detail)),
                        dumps(list(totals_after)),
                        table_id,
                        round_no,
                    ),
                )
                if cursor.rowcount == 0:
                    raise StoreError(
                        f"round {round_no} of table {table_id} is unknown or finished."
                    )
                self._open_rounds.close(key)  # under the lock: no action slips in after this
        except BaseException:
            self._open_rounds.forget({key})  # the file decides again on next use
            raise

    async def finish_match(
        self, table_id: int, winners_seats: list[int], final_totals: list[int]
    ) -> None:
        """Close the table's current match and update the players' statistics and ratings."""
        await stats.finish_match(self._db, self._games, table_id, winners_seats, final_totals)

    async def load_round(self, table_id: int, round_no: int) -> RoundRecord:
        """A stored round as its record, actions included (finished or not)."""
        return await recovery.load_round(self._db, table_id, round_no)

    async def load_match(self, table_id: int) -> MatchState | None:
        """The table's latest match (finished rounds' points included), or None."""
        return await recovery.load_match(self._db, table_id)

    async def round_result(
        self, table_id: int, round_no: int
    ) -> tuple[RoundResult, list[int]] | None:
        """A finished round's result and the match totals after it (None while unfinished)."""
        row = await self._db.fetchone(
            "SELECT points, detail, totals_after FROM rounds "
            "WHERE table_id = ? AND round_no = ? AND finished_at IS NOT NULL",
            (table_id, round_no),
        )
        if row is None:
            return None
        result = RoundResult(points=tuple(loads(row["points"])), detail=loads(row["detail"]))
        return result, loads(row["totals_after"])

    # -- recovery ------------------------------------------------------------------------
    async def load_active_tables(self, games_resolver: GamesResolver | None = None) -> LoadedTables:
        """Rebuild every lobby and running table (matches restored, rounds replayed). A table
        that cannot be rebuilt is marked 'broken' with the reason and reported, not loaded."""
        return await recovery.load_active_tables(self._db, games_resolver or self._games)

    # -- statistics ----------------------------------------------------------------------
    async def leaderboard(
        self,
        guild_id: int,
        game: str,
        order: LeaderboardOrder = "rating",
        limit: int = 10,
        min_matches: int = 3,
    ) -> list[LeaderboardRow]:
        """`min_matches` applies to the win-rate board (a rating already weighs certainty)."""
        return await stats.leaderboard(self._db, guild_id, game, order, limit, min_matches)

    async def player_stats(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> PlayerStats:
        return await stats.player_stats(self._db, guild_id, user_id, game)

    async def recent_matches(
        self, guild_id: int, user_id: int, limit: int = 5
    ) -> list[MatchSummary]:
        return await stats.recent_matches(self._db, guild_id, user_id, limit)

    # -- helpers -------------------------------------------------------------------------
    @staticmethod
    async def _require_table(conn: Any, table_id: int) -> None:
        async with conn.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)) as cursor:
            if await cursor.fetchone() is None:
                raise StoreError(f"there is no table {table_id}.")


async def _next_number(conn: Any, table: str, column: str, table_id: int) -> int:
    async with conn.execute(
        f"SELECT COALESCE(MAX({column}) + 1, 0) FROM {table} WHERE table_id = ?", (table_id,)
    ) as cursor:
        row = await cursor.fetchone()
    return int(row[0])
