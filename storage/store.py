"""`Store`: the one interface the bot uses to keep tables, rounds and statistics.

No SQL leaks out. It runs on SQLite (a file path) or PostgreSQL (a `postgresql://` URL): the
same modules run on both through `storage.sql.Database`."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from games.contract import RoundRecord, RoundResult
from games.match import MatchState
from games.registry import get_game
from storage import (
    compaction,
    guilds,
    history,
    mentions,
    preferences,
    privacy,
    recovery,
    rounds,
    seasons,
    stats,
    table_logs,
    tables,
    tournaments,
)
from storage.action_log import ActionWriter, OpenRounds
from storage.database import INTEGRITY_CHECK_DELAY, Synchronous, open_database
from storage.errors import StoreError
from storage.interface import GamesResolver
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
    TableLog,
    TableRecord,
    TableStatus,
    TurnMention,
    utc_now,
)
from storage.partition import Partition
from storage.postgres import is_database_url, open_postgres
from storage.round_writer import RoundWriter
from storage.sql import Database

ACTIVE_STATUSES = frozenset({"lobby", "playing"})


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


class Store:
    def __init__(
        self, db: Database, games_resolver: GamesResolver, partition: Partition | None = None
    ) -> None:
        self._db = db
        self.partition = partition or Partition()
        self._open_rounds = OpenRounds()
        self._actions = ActionWriter(db, self._open_rounds)
        self._rounds = RoundWriter(db, self._open_rounds)
        self._mentions = mentions.MentionWriter(db)
        self._games = games_resolver
        self._closed = False
        # Every round start reads its guild's turn time: kept here, as this process is the
        # only writer of its guilds' settings (bounded by the guilds it serves).
        self._guild_settings: dict[int, GuildSettings] = {}
        # Told how long each record_action waited for its commit (the bot's metrics), if set.
        self.on_commit: Callable[[float], None] | None = None

    # -- lifecycle -----------------------------------------------------------------------
    @classmethod
    async def open(
        cls,
        location: Path | str,
        *,
        games_resolver: GamesResolver = get_game,
        synchronous: Synchronous = "FULL",
        now: Callable[[], datetime] = utc_now,
        target_version: int | None = None,
        integrity_check_delay: float | None = INTEGRITY_CHECK_DELAY,
        partition: Partition | None = None,
    ) -> Store:
        """Open (or create) the store at `location`, an SQLite file's path or a
        `postgresql://` URL, migrating it to the latest schema. Raises StoreError with a clear
        message for a corrupt, foreign or too-new database, or an unreachable server.
        `target_version` stops the migrations early (tests of the migrations only).
        SQLite only: `synchronous` (PostgreSQL always commits durably), and the whole file is
        checked in the background `integrity_check_delay` seconds after (None: only on demand,
        `check_integrity`); corruption met earlier is refused as it is read. `partition`: the
        shards this process serves when the bot runs as several processes (PostgreSQL only): it
        restores only their tables, and a second process given one of them is refused."""
        db: Database
        if is_database_url(location):
            db = await open_postgres(
                str(location),
                now=now,
                target_version=target_version,
                partition=partition or Partition(),
            )
        else:
            if partition is not None and not partition.whole:
                raise StoreError(
                    f"this process serves only {partition}, but an SQLite file can serve one "
                    "process only: set DATABASE_URL to a PostgreSQL database to run several."
                )
            db = await open_database(
                Path(location),
                now=now,
                synchronous=synchronous,
                target_version=target_version,
                integrity_check_delay=integrity_check_delay,
            )
        store = cls(db, games_resolver, partition)
        store._actions.start()
        store._rounds.start()
        store._mentions.start()
        return store

    async def close(self) -> None:
        """Store queued actions, then close the file (a second call does nothing)."""
        if self._closed:
            return
        self._closed = True
        await self._rounds.close()
        await self._actions.close()
        await self._mentions.close()
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def location(self) -> str:
        """The SQLite file's path, or the PostgreSQL URL without its password."""
        return self._db.name

    @property
    def tournaments(self) -> tournaments.TournamentStore:
        """Tournaments: events, entrants, rounds and their tables (storage/tournaments.py)."""
        return tournaments.TournamentStore(self._db)

    @property
    def schema_version(self) -> int:
        return self._db.schema_version

    @property
    def commits(self) -> int:
        """Group-commit transactions of the action log so far (for benchmarks)."""
        return self._actions.batches

    # -- guild settings ------------------------------------------------------------------
    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults for a guild that never saved any."""
        found = self._guild_settings.get(guild_id)
        if found is None:
            read = await guilds.get_guild_settings(self._db, guild_id)
            # a save that ended while this read waited has kept the newer settings
            found = self._guild_settings.setdefault(guild_id, read)
        return found

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        self._guild_settings.pop(settings.guild_id, None)
        await guilds.save_guild_settings(self._db, settings)
        self._guild_settings[settings.guild_id] = settings

    # -- tables and seats ----------------------------------------------------------------
    async def create_table(
        self, guild_id: int, channel_id: int, game: str, options: dict[str, Any], host_id: int
    ) -> TableRecord:
        """A new table in the lobby."""
        return await tables.create_table(self._db, guild_id, channel_id, game, options, host_id)

    async def get_table(self, table_id: int) -> TableRecord:
        return await tables.get_table(self._db, table_id)

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
        given = {
            "status": status,
            "message_id": message_id,
            "thread_id": thread_id,
            "options": options,
            "broken_reason": broken_reason,
        }
        await tables.update_table(
            self._db, table_id, {k: v for k, v in given.items() if v is not UNSET}
        )
        if status is not UNSET:
            self._status_set(table_id, status)

    def _status_set(self, table_id: int, status: TableStatus) -> None:
        if status not in ACTIVE_STATUSES:
            # a round left unfinished (a stopped or abandoned match) takes no more actions
            self._open_rounds.drop_table(table_id)

    async def save_seats(
        self,
        table_id: int,
        seats: list[SeatRecord],
        *,
        status: TableStatus | None = None,
        log: TableLog | None = None,
    ) -> None:
        """Replace the table's seat list (kept in the given order, left players included);
        with `status`, the table's status changes in the same transaction, and with `log`
        the table's log is kept in it too (not for a status that ends the table)."""
        await tables.save_seats(self._db, table_id, seats, status, log)
        if status is not None:
            self._status_set(table_id, status)

    async def get_seats(self, table_id: int) -> list[SeatRecord]:
        return await tables.get_seats(self._db, table_id)

    # -- matches, rounds, actions --------------------------------------------------------
    async def start_match(self, table_id: int, state: MatchState) -> int:
        """Begin a (new) match at this table; returns its number at the table (0, 1, …)."""
        return await rounds.start_match(self._db, table_id, state)

    async def start_round(
        self, table_id: int, record: RoundRecord, *, log: TableLog | None = None
    ) -> int:
        """Store a new round's options, seats, dealer and deck order; returns the store's round
        number at this table (0, 1, … across matches), the one record_action takes. `log`:
        the table's log as the round starts, kept in the same transaction (taken in the new
        round, whatever its `round_no` says: the store numbers the round)."""
        return await self._rounds.start_round(table_id, record, log)

    async def record_action(
        self, table_id: int, round_no: int, seq: int, seat: int, notation: str
    ) -> None:
        """Append one action to an open round's log; returns once it is committed to disk.
        `seq` must grow within a round (use the action's index: len(round.history) - 1 after
        apply). Raises StoreError if the round is unknown or finished, or seq does not grow."""
        observe = self.on_commit
        if observe is None:
            await self._actions.submit(table_id, round_no, seq, seat, notation)
            return
        started = time.perf_counter()
        await self._actions.submit(table_id, round_no, seq, seat, notation)
        observe(time.perf_counter() - started)

    async def finish_round(
        self,
        table_id: int,
        round_no: int,
        result: RoundResult,
        totals_after: list[int],
        *,
        log: TableLog | None = None,
    ) -> None:
        """Store the round's result and the match totals after it; the round takes no more
        actions. `log`: the table's log as the round ends, kept in the same transaction."""
        await self._rounds.finish_round(table_id, round_no, result, totals_after, log)

    async def save_table_log(self, table_id: int, log: TableLog) -> None:
        """Keep the table's public log as it stands (a line that came with no other write:
        a timeout, a player back); a restart shows it again (`ActiveTable.kept_log`)."""
        await table_logs.save(self._db, table_id, log)

    async def finish_match(
        self,
        table_id: int,
        winners_seats: list[int],
        final_totals: list[int],
        at: datetime | None = None,
        *,
        rated: bool = True,
    ) -> None:
        """Close the table's current match and update the players' statistics and ratings
        (all time, and in the guild's season open at `at`, default now, if it runs seasons);
        an unrated match (a coached practice table) is closed for the history alone."""
        await stats.finish_match(
            self._db, self._games, table_id, winners_seats, final_totals, at, rated=rated
        )

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
        return await rounds.round_result(self._db, table_id, round_no)

    # -- recovery ------------------------------------------------------------------------
    async def load_active_tables(
        self, games_resolver: GamesResolver | None = None, table_ids: Sequence[int] | None = None
    ) -> LoadedTables:
        """Rebuild every lobby and running table of this process's guilds, or only those of
        `table_ids` that are active (matches restored, rounds replayed). A table that cannot be
        rebuilt is marked 'broken' with the reason and reported, not loaded."""
        return await recovery.load_active_tables(
            self._db, games_resolver or self._games, table_ids, self.partition
        )

    async def active_table_index(self) -> list[ActiveTableEntry]:
        """Every lobby and running table of this process's guilds in brief, without loading it
        (a restart answers clicks from this and loads the tables as they are needed)."""
        return await recovery.active_table_index(self._db, self.partition)

    # -- turn mentions -------------------------------------------------------------------
    async def save_turn_mention(self, mention: TurnMention) -> None:
        """Keep the message mentioning whose turn it is at a table (replacing the last)."""
        await self._mentions.save(mention)

    async def delete_turn_mention(self, table_id: int, message_id: int) -> None:
        """That mention was deleted (or its turn is over): forget it, if it is still kept."""
        await self._mentions.delete(table_id, message_id)

    async def turn_mentions(self) -> list[TurnMention]:
        """The mentions kept for this process's lobby and running tables (a restart deletes
        each once its turn is played, and posts none again for the same turn)."""
        return await mentions.turn_mentions(self._db, self.partition)

    # -- players' own choices ------------------------------------------------------------
    async def player_preferences(self) -> list[PlayerPreferences]:
        """Every player's kept choices (the bot reads them once, when it starts)."""
        return await preferences.player_preferences(self._db)

    async def save_player_preferences(self, chosen: PlayerPreferences) -> None:
        """Keep a player's choices (replacing those kept before)."""
        await preferences.save_player_preferences(self._db, chosen)

    # -- upkeep --------------------------------------------------------------------------
    async def compact_history(self, limit: int = 200) -> int:
        """Compact up to `limit` rounds stored before rounds were compacted when finished;
        returns how many (0 once none is left). Short transactions: run it in the background."""
        return await compaction.compact_history(self._db, limit)

    async def check_integrity(self) -> list[str]:
        """The problems found in the stored data ([] means sound). SQLite: the whole file's
        `PRAGMA quick_check`, in a thread with its own connection (minutes for a huge file,
        never blocking the store). PostgreSQL: the server checks its own pages and WAL."""
        return await self._db.check_integrity()

    @property
    def location_kind(self) -> str:
        return "PostgreSQL" if is_database_url(self._db.name) else "SQLite"

    async def size_bytes(self) -> int:
        """How much the store takes: the SQLite file and its WAL, or the PostgreSQL database."""
        if is_database_url(self._db.name):
            row = await self._db.fetchone("SELECT pg_database_size(current_database())")
            return int(row[0]) if row is not None else 0
        path = Path(self._db.name)
        return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())

    async def check_writable(self) -> None:
        """One small real write (the health row): raises StoreError if the store cannot write
        (a read-only file or database, a full disk, a lost server)."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO health (id, checked_at) VALUES (1, ?) "
                "ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at",
                (self._db.stamp(),),
            )

    # -- history and finished hands ------------------------------------------------------
    async def match_history(
        self, guild_id: int, user_id: int, game: str | None = None, limit: int = 5, offset: int = 0
    ) -> list[history.HistoryEntry]:
        """The user's matches here with a finished hand, newest first (a match in play shows
        its finished hands only)."""
        return await history.match_history(self._db, guild_id, user_id, game, limit, offset)

    async def finished_hand(self, table_id: int, round_no: int) -> history.FinishedHand:
        """A finished hand's record, result and names; StoreError for one not finished."""
        return await history.finished_hand(self._db, table_id, round_no)

    async def neighbour_hand(self, table_id: int, round_no: int, step: int) -> int | None:
        return await history.neighbour_hand(self._db, table_id, round_no, step)

    async def hand_review(self, table_id: int, round_no: int, seat: int) -> str | None:
        """The stored review of a seat's play in a hand (JSON text), or None."""
        return await history.hand_review(self._db, table_id, round_no, seat)

    async def save_hand_review(self, table_id: int, round_no: int, seat: int, review: str) -> None:
        await history.save_hand_review(self._db, table_id, round_no, seat, review)

    # -- players' data on request -------------------------------------------------------
    async def user_data(self, user_id: int) -> privacy.UserData:
        """Everything kept about one user (matches, hands' points, ratings, names, settings)."""
        return await privacy.user_data(self._db, user_id)

    async def forget_user(self, user_id: int) -> privacy.UserData:
        """Remove the user's id and names from everything kept (their seats in past matches
        stay, as a former player's); drops their ratings. Returns what was kept. Raises
        privacy.StillSeated while they sit at a table in play."""
        return await privacy.forget_user(self._db, user_id)

    async def guild_left(self, guild_id: int) -> None:
        await privacy.guild_left(self._db, guild_id)

    async def guild_present(self, guild_id: int) -> None:
        await privacy.guild_present(self._db, guild_id)

    async def retention_days(self, guild_id: int) -> int:
        return await privacy.retention_days(self._db, guild_id)

    async def set_retention_days(self, guild_id: int, days: int) -> None:
        await privacy.set_retention_days(self._db, guild_id, days)

    async def guilds_left(self) -> set[int]:
        """The guilds the bot is marked as out of (their data goes after their retention)."""
        return await privacy.guilds_left(self._db)

    async def guilds_past_retention(self) -> list[int]:
        """The guilds the bot left longer ago than their retention."""
        return await privacy.guilds_past_retention(self._db)

    async def forget_guild(self, guild_id: int) -> int:
        """Delete everything kept about one guild; returns how many tables went."""
        try:
            return await privacy.forget_guild(self._db, guild_id)
        finally:
            self._guild_settings.pop(guild_id, None)

    async def forget_guilds_past_retention(
        self, keep: set[int] | frozenset[int] = frozenset()
    ) -> list[int]:
        """Delete the data of every guild the bot left longer ago than its retention, except
        those in `keep` (tables of theirs still in play); returns the guilds deleted."""
        due = [g for g in await privacy.guilds_past_retention(self._db) if g not in keep]
        for guild_id in due:
            await self.forget_guild(guild_id)
        return due

    # -- statistics ----------------------------------------------------------------------
    async def leaderboard(
        self,
        guild_id: int,
        game: str,
        order: LeaderboardOrder = "rating",
        limit: int = 10,
        min_matches: int = 3,
        season: str | None = None,
    ) -> list[LeaderboardRow]:
        """`min_matches` applies to the win-rate board (a rating already weighs certainty);
        `season`: that season's board as stored (None: all time)."""
        return await stats.leaderboard(self._db, guild_id, game, order, limit, min_matches, season)

    async def seasons_played(self, guild_id: int) -> list[str]:
        """The seasons the guild played in (`2026-12`, `2026-Q4`), newest first."""
        return await seasons.seasons_played(self._db, guild_id)

    async def close_ended_seasons(self, now: datetime) -> list[ClosedSeason]:
        """Close the seasons over at `now` (or no longer run); each is returned by one call
        only, whose caller announces it."""
        return await seasons.close_ended_seasons(self._db, now)

    async def player_stats(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> PlayerStats:
        return await stats.player_stats(self._db, guild_id, user_id, game)

    async def recent_matches(
        self, guild_id: int, user_id: int, limit: int = 5
    ) -> list[MatchSummary]:
        return await stats.recent_matches(self._db, guild_id, user_id, limit)
