"""Leaderboard seasons: their periods, ratings, closing and boards.

Periods are in UTC; the per-season ratings are written as a match ends; a season that is over is
closed once; and a season has its board.

A season is a calendar period in UTC: `monthly` seasons start at 00:00 UTC on the 1st of each
month (named `2026-12`), `quarterly` ones at 00:00 UTC on 1 January, April, July and October
(named `2026-Q4`). Each season rates afresh: every player starts it at openskill's default
rating, so a new season puts everyone on the same footing, while the all-time ratings
(`player_stats`) go on unchanged. A season's rows are written only while it is open: once
closed, its board is the final one kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from storage.models import ClosedSeason, SeasonKind
from storage.ratings import Skill, rate
from storage.sql import Connection, Database


@dataclass(frozen=True, slots=True)
class SeasonPeriod:
    """One season: its name, and when it starts and ends (UTC, end excluded)."""

    key: str
    starts_at: datetime
    ends_at: datetime


def _month_start(year: int, month: int) -> datetime:
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return datetime(year, month, 1, tzinfo=UTC)


def season_at(kind: SeasonKind | None, moment: datetime) -> SeasonPeriod | None:
    """The season of `kind` that `moment` falls in (None: seasons are off)."""
    if kind is None or kind == "off":
        return None
    moment = moment.astimezone(UTC)
    if kind == "monthly":
        start = _month_start(moment.year, moment.month)
        return SeasonPeriod(
            f"{start.year}-{start.month:02d}", start, _month_start(start.year, start.month + 1)
        )
    quarter = (moment.month - 1) // 3
    start = _month_start(moment.year, 3 * quarter + 1)
    return SeasonPeriod(
        f"{start.year}-Q{quarter + 1}", start, _month_start(start.year, start.month + 3)
    )


def period_of(key: str) -> SeasonPeriod | None:
    """The season a name stands for (`2026-12`, `2026-Q4`); None for anything else."""
    year, dash, part = key.partition("-")
    if not (dash and year.isdigit() and len(year) == 4):
        return None
    if part.startswith("Q") and part[1:] in ("1", "2", "3", "4"):
        return season_at("quarterly", _month_start(int(year), 3 * (int(part[1:]) - 1) + 1))
    if part.isdigit() and len(part) == 2 and 1 <= int(part) <= 12:
        return season_at("monthly", _month_start(int(year), int(part)))
    return None


def next_boundary(moment: datetime) -> datetime:
    """The next moment a season of any kind may end: 00:00 UTC on the next 1st of a month
    (every quarter's end is a month's)."""
    moment = moment.astimezone(UTC)
    return _month_start(moment.year, moment.month + 1)


async def guild_season_kind(conn: Connection | Database, guild_id: int) -> SeasonKind | None:
    row = await conn.fetchone("SELECT season FROM guild_settings WHERE guild_id = ?", (guild_id,))
    kind = row["season"] if row is not None else None
    return kind if kind in ("monthly", "quarterly") else None


async def rate_in_season(
    conn: Connection,
    *,
    guild_id: int,
    game: str,
    at: datetime,
    stamp: str,
    sides: list[list[int]],
    ranks: list[int],
    players: list[tuple[int, str, bool, int, int]],
) -> None:
    """Count a finished match in the guild's season open at `at` (nothing if the guild has no
    seasons, or if that season is closed already: a closed board never changes). `players`:
    (user id, name, won, rounds, points) of each rated human; `sides` their ids per side."""
    period = season_at(await guild_season_kind(conn, guild_id), at)
    if period is None:
        return
    row = await conn.fetchone(
        "SELECT closed_at FROM seasons WHERE guild_id = ? AND season = ?", (guild_id, period.key)
    )
    if row is not None and row["closed_at"] is not None:
        return
    if row is None:
        await conn.execute(
            "INSERT INTO seasons (guild_id, season, starts_at, ends_at) VALUES (?, ?, ?, ?)",
            (guild_id, period.key, period.starts_at.isoformat(), period.ends_at.isoformat()),
        )
    users = [user_id for user_id, *_ in players]
    skills: dict[int, Skill] = {}
    if users:
        marks = ", ".join("?" * len(users))
        rows = await conn.fetchall(
            f"SELECT user_id, mu, sigma FROM season_stats WHERE guild_id = ? AND season = ? "
            f"AND game = ? AND user_id IN ({marks})",
            (guild_id, period.key, game, *users),
        )
        skills = {r[0]: Skill(r[1], r[2]) for r in rows}
    new_skills = rate(sides, ranks, skills)  # absent players start the season at the default
    for user_id, name, won, rounds, points in players:
        after = new_skills.get(user_id, skills.get(user_id, Skill()))
        await conn.execute(
            "INSERT INTO season_stats (guild_id, season, game, user_id, display_name, matches, "
            "wins, rounds, points, mu, sigma, rating, updated_at) "
            "VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, season, game, user_id) DO UPDATE SET "
            "display_name = excluded.display_name, matches = season_stats.matches + 1, "
            "wins = season_stats.wins + excluded.wins, "
            "rounds = season_stats.rounds + excluded.rounds, "
            "points = season_stats.points + excluded.points, mu = excluded.mu, "
            "sigma = excluded.sigma, rating = excluded.rating, updated_at = excluded.updated_at",
            (
                guild_id,
                period.key,
                game,
                user_id,
                name,
                int(won),
                rounds,
                points,
                after.mu,
                after.sigma,
                after.ordinal,
                stamp,
            ),
        )


async def close_ended_seasons(db: Database, now: datetime) -> list[ClosedSeason]:
    """Close every open season that is over at `now`, or that its guild no longer runs (the
    setting changed or went off). A season is closed by one call only (its `closed_at` is set
    where it was unset), so a restart, a second process or a second timer never closes, nor
    announces, a season twice."""
    rows = await db.fetchall(
        "SELECT s.guild_id, s.season, g.season AS kind, g.season_channel FROM seasons AS s "
        "LEFT JOIN guild_settings AS g ON g.guild_id = s.guild_id "
        "WHERE s.closed_at IS NULL ORDER BY s.guild_id, s.season"
    )
    closed: list[ClosedSeason] = []
    for row in rows:
        kind = row["kind"] if row["kind"] in ("monthly", "quarterly") else None
        current = season_at(kind, now)
        if current is not None and current.key == row["season"]:
            continue
        async with db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE seasons SET closed_at = ? WHERE guild_id = ? AND season = ? "
                "AND closed_at IS NULL",
                (now.astimezone(UTC).isoformat(), row["guild_id"], row["season"]),
            )
        if changed:
            closed.append(
                ClosedSeason(
                    guild_id=row["guild_id"],
                    season=row["season"],
                    channel_id=row["season_channel"],
                )
            )
    return closed


async def seasons_played(db: Database, guild_id: int) -> list[str]:
    """The seasons the guild played in, the latest to end first."""
    rows = await db.fetchall(
        "SELECT season FROM seasons WHERE guild_id = ? ORDER BY ends_at DESC, starts_at DESC",
        (guild_id,),
    )
    return [row["season"] for row in rows]
