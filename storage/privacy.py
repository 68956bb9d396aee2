"""A player's data on request: what the store keeps about one Discord user, and forgetting it.

Forgetting a user removes their Discord id and every name they played under from everything
kept, and leaves every other player's records whole: their seats in past matches stay (a match
of four stays a match of four), shown as "a former player" (`FORMER_PLAYER` as the stored name,
`FORMER_ID` as the stored id where a column needs one), their ratings and statistics rows go
(so they leave every leaderboard), and the tables they hosted keep no host id. A user still
seated at a table in play is refused: the table needs their seat until it ends.

A guild's data goes when the bot has left the guild for longer than its retention
(`forget_guild`): the caller (the bot) decides when.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel

from storage import table_logs
from storage.codec import as_dict, dumps, loads
from storage.errors import StoreError
from storage.sql import Connection, Database

DEFAULT_RETENTION_DAYS = 30  # a guild's data is kept this long after the bot leaves it
FORMER_PLAYER = ""  # the stored name of a forgotten player: renderers show "a former player"
FORMER_ID = 0  # a Discord id is never 0
ACTIVE = "('lobby', 'playing')"


class StillSeated(StoreError):
    """The user holds a seat at a table still in play: forgetting them would break it."""

    def __init__(self, table_ids: list[int]) -> None:
        self.table_ids = table_ids
        super().__init__(f"the user is seated at tables in play: {table_ids}.")


class SeatKept(BaseModel):
    table_id: int
    guild_id: int
    game: str
    seat: int
    display_name: str
    joined_at: str
    left_at: str | None
    table_status: str


class MatchKept(BaseModel):
    table_id: int
    match_no: int
    guild_id: int
    game: str
    seat: int
    won: bool
    total: int
    rating_before: float | None
    rating_after: float | None
    finished_at: str
    players: list[str | None]  # every seat's name as kept, this user's included
    round_points: list[list[int]]  # each finished round's points, per side


class RatingKept(BaseModel):
    guild_id: int
    game: str
    display_name: str
    matches: int
    wins: int
    rounds: int
    points: int
    rating: float
    mu: float
    sigma: float
    updated_at: str


class UserData(BaseModel):
    """Everything the store keeps about one user (their `/privacy` download)."""

    user_id: int
    names: list[str]  # every name they were seen under
    hosted_tables: list[int]
    seats: list[SeatKept]
    matches: list[MatchKept]
    ratings: list[RatingKept]
    extra: dict[str, list[dict[str, Any]]] = {}  # rows of other tables keyed by a user id

    @property
    def empty(self) -> bool:
        return not (self.hosted_tables or self.seats or self.matches or self.ratings) and not any(
            self.extra.values()
        )


# Other tables that keep a user's id in `user_id` (per-player preferences, season boards…):
# each is exported whole and its rows deleted when the user is forgotten. The test that forgets a
# user scans every column of every table, so a table added without being listed here fails it.
USER_ROW_TABLES: tuple[str, ...] = ("player_preferences", "season_stats", "tournament_entrants")


async def user_data(db: Database, user_id: int) -> UserData:
    seats = await db.fetchall(
        "SELECT s.table_id, t.guild_id, t.game, s.seat, s.display_name, s.joined_at, "
        "s.left_at, t.status FROM seats AS s JOIN tables AS t ON t.id = s.table_id "
        "WHERE s.user_id = ? ORDER BY s.table_id, s.seat",
        (user_id,),
    )
    hosted = await db.fetchall("SELECT id FROM tables WHERE host_id = ? ORDER BY id", (user_id,))
    played = await db.fetchall(
        "SELECT p.table_id, p.match_no, p.guild_id, p.game, p.seat, p.won, p.total, "
        "p.rating_before, p.rating_after, p.finished_at, m.seat_names "
        "FROM match_players AS p JOIN matches AS m "
        "ON m.table_id = p.table_id AND m.match_no = p.match_no "
        "WHERE p.user_id = ? ORDER BY p.finished_at, p.table_id, p.match_no",
        (user_id,),
    )
    matches = []
    for row in played:
        rounds = await db.fetchall(
            "SELECT points FROM rounds WHERE table_id = ? AND match_no = ? "
            "AND points IS NOT NULL ORDER BY round_no",
            (row["table_id"], row["match_no"]),
        )
        matches.append(
            MatchKept(
                table_id=row["table_id"],
                match_no=row["match_no"],
                guild_id=row["guild_id"],
                game=row["game"],
                seat=row["seat"],
                won=bool(row["won"]),
                total=row["total"],
                rating_before=row["rating_before"],
                rating_after=row["rating_after"],
                finished_at=row["finished_at"],
                players=loads(row["seat_names"]) if row["seat_names"] else [],
                round_points=[loads(r["points"]) for r in rounds],
            )
        )
    ratings = await db.fetchall(
        "SELECT guild_id, game, display_name, matches, wins, rounds, points, rating, mu, "
        "sigma, updated_at FROM player_stats WHERE user_id = ? ORDER BY guild_id, game",
        (user_id,),
    )
    extra: dict[str, list[dict[str, Any]]] = {}
    for table in USER_ROW_TABLES:
        rows = await db.fetchall(f"SELECT * FROM {table} WHERE user_id = ?", (user_id,))
        extra[table] = [as_dict(r) for r in rows]
    # the lines naming them in the logs kept for a restart (tables in play: who joined, left)
    extra["table_logs"] = await table_logs.lines_naming(db, user_id)
    names = sorted(
        {row["display_name"] for row in seats} | {row["display_name"] for row in ratings}
    )
    return UserData(
        user_id=user_id,
        names=[name for name in names if name != FORMER_PLAYER],
        hosted_tables=[row["id"] for row in hosted],
        seats=[
            SeatKept(
                table_id=r["table_id"],
                guild_id=r["guild_id"],
                game=r["game"],
                seat=r["seat"],
                display_name=r["display_name"],
                joined_at=r["joined_at"],
                left_at=r["left_at"],
                table_status=r["status"],
            )
            for r in seats
        ],
        matches=matches,
        ratings=[RatingKept(**as_dict(r)) for r in ratings],
        extra=extra,
    )


async def forget_user(db: Database, user_id: int) -> UserData:
    """Remove the user's id and names from everything kept (one transaction); returns what
    was kept before. Raises StillSeated if they hold a seat at a table in play."""
    kept = await user_data(db, user_id)
    in_play = sorted({s.table_id for s in kept.seats if s.table_status in ("lobby", "playing")})
    if in_play:
        raise StillSeated(in_play)
    names = set(kept.names)
    async with db.transaction() as conn:
        # Names first (they are found through the seats' user id), then the ids.
        for table_id in sorted(
            {s.table_id for s in kept.seats} | {m.table_id for m in kept.matches}
        ):
            seats = {s.seat for s in kept.seats if s.table_id == table_id} | {
                m.seat for m in kept.matches if m.table_id == table_id
            }
            await _forget_names_in_matches(conn, table_id, seats, names)
        await conn.execute(
            "UPDATE seats SET user_id = NULL, display_name = ? WHERE user_id = ?",
            (FORMER_PLAYER, user_id),
        )
        await conn.execute(
            "UPDATE match_players SET user_id = ? WHERE user_id = ?", (FORMER_ID, user_id)
        )
        await conn.execute("UPDATE tables SET host_id = ? WHERE host_id = ?", (FORMER_ID, user_id))
        await conn.execute(
            "UPDATE tournaments SET created_by = ? WHERE created_by = ?", (FORMER_ID, user_id)
        )
        await conn.execute("DELETE FROM player_stats WHERE user_id = ?", (user_id,))
        # the lines naming them in the kept logs of tables in play (who joined and left)
        await table_logs.forget_user_in(conn, user_id, FORMER_PLAYER)
        for table in USER_ROW_TABLES:
            await conn.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
    return kept


async def _forget_names_in_matches(
    conn: Connection, table_id: int, seats: set[int], names: set[str]
) -> None:
    """The user's names at their seats in the stored seat names of the table's matches become
    FORMER_PLAYER (another player later seated at the same seat keeps their name)."""
    rows = await conn.fetchall(
        "SELECT match_no, seat_names FROM matches WHERE table_id = ? AND seat_names IS NOT NULL",
        (table_id,),
    )
    for row in rows:
        stored = loads(row["seat_names"])
        changed = [
            FORMER_PLAYER if seat in seats and name in names else name
            for seat, name in enumerate(stored)
        ]
        if changed != stored:
            await conn.execute(
                "UPDATE matches SET seat_names = ? WHERE table_id = ? AND match_no = ?",
                (dumps(changed), table_id, row["match_no"]),
            )


async def forget_guild(db: Database, guild_id: int) -> int:
    """Delete everything kept about one guild (its settings, tables, matches, rounds, actions,
    statistics, seasons); returns how many tables went."""
    async with db.transaction() as conn:
        ids = [
            row["id"]
            for row in await conn.fetchall("SELECT id FROM tables WHERE guild_id = ?", (guild_id,))
        ]
        for table_id in ids:
            await conn.execute(
                "DELETE FROM actions WHERE round_id IN (SELECT id FROM rounds WHERE table_id = ?)",
                (table_id,),
            )
            for table in (
                "hand_reviews",
                "rounds",
                "match_players",
                "matches",
                "seats",
                "turn_mentions",
                "table_logs",
            ):
                await conn.execute(f"DELETE FROM {table} WHERE table_id = ?", (table_id,))
        await conn.execute("DELETE FROM tables WHERE guild_id = ?", (guild_id,))
        await conn.execute("DELETE FROM player_stats WHERE guild_id = ?", (guild_id,))
        await conn.execute("DELETE FROM season_stats WHERE guild_id = ?", (guild_id,))
        await conn.execute("DELETE FROM seasons WHERE guild_id = ?", (guild_id,))
        for table in ("tournament_tables", "tournament_rounds", "tournament_entrants"):
            await conn.execute(
                f"DELETE FROM {table} WHERE tournament_id IN "
                "(SELECT id FROM tournaments WHERE guild_id = ?)",
                (guild_id,),
            )
        await conn.execute("DELETE FROM tournaments WHERE guild_id = ?", (guild_id,))
        await conn.execute("DELETE FROM match_players WHERE guild_id = ?", (guild_id,))
        await conn.execute("DELETE FROM guild_settings WHERE guild_id = ?", (guild_id,))
        await conn.execute("DELETE FROM guild_privacy WHERE guild_id = ?", (guild_id,))
    return len(ids)


async def retention_days(db: Database, guild_id: int) -> int:
    row = await db.fetchone(
        "SELECT retention_days FROM guild_privacy WHERE guild_id = ?", (guild_id,)
    )
    days = row["retention_days"] if row is not None else None
    return days if isinstance(days, int) and days >= 0 else DEFAULT_RETENTION_DAYS


async def set_retention_days(db: Database, guild_id: int, days: int) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guild_privacy (guild_id, retention_days) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET retention_days = excluded.retention_days",
            (guild_id, days),
        )


async def guild_left(db: Database, guild_id: int) -> None:
    """The bot left the guild now (a second call keeps the first time)."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guild_privacy (guild_id, left_at) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET "
            "left_at = COALESCE(guild_privacy.left_at, excluded.left_at)",
            (guild_id, db.stamp()),
        )


async def guild_present(db: Database, guild_id: int) -> None:
    """The bot is in the guild (again): its data is kept."""
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE guild_privacy SET left_at = NULL WHERE guild_id = ? AND left_at IS NOT NULL",
            (guild_id,),
        )


async def guilds_left(db: Database) -> set[int]:
    rows = await db.fetchall("SELECT guild_id FROM guild_privacy WHERE left_at IS NOT NULL")
    return {row["guild_id"] for row in rows}


async def guilds_past_retention(db: Database) -> list[int]:
    """The guilds the bot left longer ago than their retention."""
    now = db.now()
    rows = await db.fetchall(
        "SELECT guild_id, retention_days, left_at FROM guild_privacy WHERE left_at IS NOT NULL"
    )
    due = []
    for row in rows:
        days = row["retention_days"]
        days = days if isinstance(days, int) and days >= 0 else DEFAULT_RETENTION_DAYS
        try:
            left = datetime.fromisoformat(row["left_at"])
        except (TypeError, ValueError):
            continue  # a damaged stamp keeps the data: never delete on a guess
        if (now - left).total_seconds() >= days * 86400:
            due.append(row["guild_id"])
    return sorted(due)
