"""Tournaments in the store: an event, its entrants, rounds and tables (migration V16).

The event itself is `games.tournament.event.Tournament`, pure; this module keeps it: each
transition the bot makes is written here (in one transaction when it touches several rows)
before the bot announces it, and `load_tournament` rebuilds the event from its rows, so a
restart resumes it where it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from games.tournament.event import (
    CHECKIN,
    FINISHED,
    NO_SHOW_BOT,
    RUNNING,
    SIGNUP,
    Entrant,
    Format,
    Round,
    Table,
    Tournament,
)
from storage.codec import dumps, loads
from storage.errors import StoreError
from storage.sql import Connection, Database

OPEN_STATUSES = (SIGNUP, CHECKIN, RUNNING)


class TournamentSettings(BaseModel):
    """How an event is played, as `/tournament create` chose it."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    format: str
    seats: int = Field(ge=2, le=4)
    rounds: int = Field(ge=1, le=64)
    partners: str | None = None
    no_show: str = NO_SHOW_BOT
    turn_seconds: int | None = Field(default=None, ge=5, le=3600)

    def as_format(self) -> Format:
        return Format(self.format, self.seats, self.rounds, self.partners, self.no_show)


@dataclass(slots=True)
class StoredTournament:
    """An event and where it lives."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    created_by: int
    game: str
    preset: str | None
    target: int | None
    settings: TournamentSettings
    signup_closes_at: float
    starts_at: float
    event: Tournament
    announced: int = 0  # the rounds whose standings are posted; one more: the podium too


async def create_tournament(
    db: Database,
    *,
    guild_id: int,
    channel_id: int,
    created_by: int,
    game: str,
    preset: str | None,
    target: int | None,
    settings: TournamentSettings,
    signup_closes_at: float,
    starts_at: float,
) -> int:
    now = db.stamp()
    async with db.transaction() as conn:
        row = await conn.fetchone(
            "INSERT INTO tournaments (guild_id, channel_id, created_by, game, preset, target, "
            "settings, status, signup_closes_at, starts_at, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                guild_id,
                channel_id,
                created_by,
                game,
                preset,
                target,
                settings.model_dump_json(),
                SIGNUP,
                signup_closes_at,
                starts_at,
                now,
                now,
            ),
        )
    assert row is not None
    return int(row[0])


async def load_tournament(db: Database, tournament_id: int) -> StoredTournament:
    row = await db.fetchone("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
    if row is None:
        raise StoreError(f"there is no tournament {tournament_id}.")
    return await _built(db, row)


async def open_tournaments(db: Database) -> list[StoredTournament]:
    """Every event not over (signing up, checking in, running), and every finished one
    whose podium is not posted yet, oldest first."""
    rows = await db.fetchall(
        "SELECT * FROM tournaments WHERE status IN (?, ?, ?) OR (status = ? AND announced <= "
        "(SELECT COUNT(*) FROM tournament_rounds AS r WHERE r.tournament_id = tournaments.id)) "
        "ORDER BY id",
        (*OPEN_STATUSES, FINISHED),
    )
    return [await _built(db, row) for row in rows]


async def guild_tournaments(db: Database, guild_id: int, limit: int = 25) -> list[int]:
    """The guild's events, the newest first."""
    rows = await db.fetchall(
        "SELECT id FROM tournaments WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
        (guild_id, limit),
    )
    return [int(r["id"]) for r in rows]


async def _built(db: Database, row: Any) -> StoredTournament:
    tournament_id = int(row["id"])
    settings = TournamentSettings.model_validate_json(row["settings"])
    entrants = await db.fetchall(
        "SELECT user_id, display_name, checked_in FROM tournament_entrants "
        "WHERE tournament_id = ? ORDER BY position",
        (tournament_id,),
    )
    rounds = await db.fetchall(
        "SELECT round_no, byes FROM tournament_rounds WHERE tournament_id = ? ORDER BY round_no",
        (tournament_id,),
    )
    tables = await db.fetchall(
        "SELECT round_no, table_no, sides, table_id, winning_sides, place FROM tournament_tables "
        "WHERE tournament_id = ? ORDER BY round_no, table_no",
        (tournament_id,),
    )
    built_rounds = [Round(int(r["round_no"]), [], tuple(loads(r["byes"]))) for r in rounds]
    for t in tables:
        winners = loads(t["winning_sides"])
        built_rounds[int(t["round_no"]) - 1].tables.append(
            Table(
                int(t["table_no"]),
                tuple(tuple(side) for side in loads(t["sides"])),
                None if winners is None else tuple(winners),
                None if t["table_id"] is None else int(t["table_id"]),
                None if t["place"] is None else int(t["place"]),
            )
        )
    event = Tournament(
        settings.as_format(),
        status=row["status"],
        entrants=[
            Entrant(int(e["user_id"]), e["display_name"], bool(e["checked_in"])) for e in entrants
        ],
        units=[tuple(unit) for unit in loads(row["units"])],
        rounds=built_rounds,
        bracket=list(loads(row["bracket"])),
    )
    return StoredTournament(
        id=tournament_id,
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        message_id=None if row["message_id"] is None else int(row["message_id"]),
        created_by=int(row["created_by"]),
        game=row["game"],
        preset=row["preset"],
        target=row["target"],
        settings=settings,
        signup_closes_at=float(row["signup_closes_at"]),
        starts_at=float(row["starts_at"]),
        event=event,
        announced=int(row["announced"]),
    )


async def set_message(db: Database, tournament_id: int, message_id: int) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
        )


async def add_entrant(db: Database, tournament_id: int, entrant: Entrant) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO tournament_entrants (tournament_id, position, user_id, display_name, "
            "checked_in) VALUES (?, (SELECT COALESCE(MAX(position), 0) + 1 FROM "
            "tournament_entrants WHERE tournament_id = ?), ?, ?, ?)",
            (tournament_id, tournament_id, entrant.user_id, entrant.name, int(entrant.checked_in)),
        )


async def remove_entrant(db: Database, tournament_id: int, user_id: int) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
            (tournament_id, user_id),
        )


async def check_in(db: Database, tournament_id: int, user_id: int) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE tournament_entrants SET checked_in = 1 WHERE tournament_id = ? AND user_id = ?",
            (tournament_id, user_id),
        )


async def _save_event(conn: Connection, stamp: str, tournament_id: int, event: Tournament) -> None:
    await conn.execute(
        "UPDATE tournaments SET status = ?, units = ?, bracket = ?, updated_at = ? WHERE id = ?",
        (
            event.status,
            dumps([list(u) for u in event.units]),
            dumps(event.bracket),
            stamp,
            tournament_id,
        ),
    )


async def save_status(db: Database, tournament_id: int, event: Tournament) -> None:
    """The event's status, units and bracket (a start, a cancel, an end)."""
    async with db.transaction() as conn:
        await _save_event(conn, db.stamp(), tournament_id, event)


async def save_round(db: Database, tournament_id: int, event: Tournament, round_: Round) -> None:
    """A new round and its tables (and the event's status), in one transaction."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO tournament_rounds (tournament_id, round_no, byes) VALUES (?, ?, ?)",
            (tournament_id, round_.number, dumps(list(round_.byes))),
        )
        await conn.executemany(
            "INSERT INTO tournament_tables (tournament_id, round_no, table_no, sides, "
            "winning_sides) VALUES (?, ?, ?, ?, ?)",
            [
                (
                    tournament_id,
                    round_.number,
                    t.number,
                    dumps([list(s) for s in t.sides]),
                    None if t.winning_sides is None else dumps(list(t.winning_sides)),
                )
                for t in round_.tables
            ],
        )
        await _save_event(conn, db.stamp(), tournament_id, event)


async def set_table(
    db: Database, tournament_id: int, round_no: int, table_no: int, table_id: int
) -> None:
    """The bot's table that plays this tournament table."""
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE tournament_tables SET table_id = ? WHERE tournament_id = ? AND round_no = ? "
            "AND table_no = ?",
            (table_id, tournament_id, round_no, table_no),
        )


async def set_place(
    db: Database, tournament_id: int, round_no: int, table_no: int, place: int
) -> None:
    """Where the table will be played (its thread), kept before the bot's table is opened
    there, so a restart in between finds that table again rather than opening another."""
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE tournament_tables SET place = ? WHERE tournament_id = ? AND round_no = ? "
            "AND table_no = ?",
            (place, tournament_id, round_no, table_no),
        )


async def set_announced(db: Database, tournament_id: int, announced: int) -> None:
    """How many of the event's end messages are posted (standings per round, then podium)."""
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE tournaments SET announced = ? WHERE id = ?", (announced, tournament_id)
        )


async def record_result(
    db: Database,
    tournament_id: int,
    event: Tournament,
    round_no: int,
    table_no: int,
    winning_sides: Sequence[int],
) -> None:
    """A table's result and what it changed in the event (status, bracket), together."""
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE tournament_tables SET winning_sides = ? WHERE tournament_id = ? "
            "AND round_no = ? AND table_no = ?",
            (dumps(list(winning_sides)), tournament_id, round_no, table_no),
        )
        await _save_event(conn, db.stamp(), tournament_id, event)


async def tournament_of_table(db: Database, table_id: int) -> tuple[int, int, int] | None:
    """(tournament, round, table number) of a bot table opened for a tournament, else None."""
    row = await db.fetchone(
        "SELECT tournament_id, round_no, table_no FROM tournament_tables WHERE table_id = ?",
        (table_id,),
    )
    return None if row is None else (int(row[0]), int(row[1]), int(row[2]))


async def table_outcome(db: Database, table_id: int) -> tuple[str, list[int] | None]:
    """A bot table's status and, once its first match is over, that match's winning seats
    (a tournament table plays one match; a rematch after it is not the tournament's)."""
    row = await db.fetchone("SELECT status FROM tables WHERE id = ?", (table_id,))
    if row is None:
        raise StoreError(f"there is no table {table_id}.")
    match = await db.fetchone(
        "SELECT winners FROM matches WHERE table_id = ? AND finished_at IS NOT NULL "
        "ORDER BY match_no LIMIT 1",
        (table_id,),
    )
    winners = None if match is None else [int(seat) for seat in loads(match["winners"]) or []]
    return str(row["status"]), winners


class TournamentStore:
    """The store's tournament calls (`Store.tournaments`), on its database."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(self, **fields: Any) -> int:
        return await create_tournament(self._db, **fields)

    async def load(self, tournament_id: int) -> StoredTournament:
        return await load_tournament(self._db, tournament_id)

    async def open_ones(self) -> list[StoredTournament]:
        return await open_tournaments(self._db)

    async def of_guild(self, guild_id: int, limit: int = 25) -> list[int]:
        return await guild_tournaments(self._db, guild_id, limit)

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        await set_message(self._db, tournament_id, message_id)

    async def add_entrant(self, tournament_id: int, entrant: Entrant) -> None:
        await add_entrant(self._db, tournament_id, entrant)

    async def remove_entrant(self, tournament_id: int, user_id: int) -> None:
        await remove_entrant(self._db, tournament_id, user_id)

    async def check_in(self, tournament_id: int, user_id: int) -> None:
        await check_in(self._db, tournament_id, user_id)

    async def save_status(self, tournament_id: int, event: Tournament) -> None:
        await save_status(self._db, tournament_id, event)

    async def save_round(self, tournament_id: int, event: Tournament, round_: Round) -> None:
        await save_round(self._db, tournament_id, event, round_)

    async def set_table(
        self, tournament_id: int, round_no: int, table_no: int, table_id: int
    ) -> None:
        await set_table(self._db, tournament_id, round_no, table_no, table_id)

    async def set_announced(self, tournament_id: int, announced: int) -> None:
        await set_announced(self._db, tournament_id, announced)

    async def set_place(self, tournament_id: int, round_no: int, table_no: int, place: int) -> None:
        await set_place(self._db, tournament_id, round_no, table_no, place)

    async def record_result(
        self,
        tournament_id: int,
        event: Tournament,
        round_no: int,
        table_no: int,
        winning_sides: Sequence[int],
    ) -> None:
        await record_result(self._db, tournament_id, event, round_no, table_no, winning_sides)

    async def of_table(self, table_id: int) -> tuple[int, int, int] | None:
        return await tournament_of_table(self._db, table_id)

    async def table_outcome(self, table_id: int) -> tuple[str, list[int] | None]:
        return await table_outcome(self._db, table_id)
