"""Finishing a match (statistics and ratings of its human players) and the leaderboard queries."""

from __future__ import annotations

from datetime import datetime

from storage.codec import as_dict, dumps, loads
from storage.errors import StoreError
from storage.interface import GamesResolver
from storage.models import GameStats, LeaderboardOrder, LeaderboardRow, MatchSummary, PlayerStats
from storage.ratings import Skill, rate, side_ranks
from storage.seasons import rate_in_season
from storage.sql import Connection, Database

ORDERS: dict[str, str] = {
    "rating": "rating DESC, wins DESC, matches DESC, user_id",
    "wins": "wins DESC, matches ASC, rating DESC, user_id",
    "win_rate": "CAST(wins AS DOUBLE PRECISION) / matches DESC, matches DESC, rating DESC, user_id",
}


async def finish_match(
    db: Database,
    resolve: GamesResolver,
    table_id: int,
    winners_seats: list[int],
    final_totals: list[int],
    at: datetime | None = None,
    *,
    rated: bool = True,
) -> None:
    """Store a match's end: its result, each human's statistics and all-time rating, and,
    when the guild runs seasons, their rating in the season open at `at` (default: now).

    An unrated match (a practice table with a coach) is stored for the players' history only:
    no statistic, leaderboard, rating or season changes."""
    match = await db.fetchone(
        "SELECT m.match_no, m.game, m.n_seats, t.guild_id FROM matches AS m "
        "JOIN tables AS t ON t.id = m.table_id "
        "WHERE m.table_id = ? AND m.finished_at IS NULL ORDER BY m.match_no DESC LIMIT 1",
        (table_id,),
    )
    if match is None:
        raise StoreError(f"table {table_id} has no match in progress.")
    game_name, n_seats, guild_id, match_no = (
        match["game"],
        match["n_seats"],
        match["guild_id"],
        match["match_no"],
    )
    try:
        game = resolve(game_name)
    except (KeyError, ImportError) as error:
        raise StoreError(f"cannot rate a match of unknown game {game_name!r}.") from error
    sides = game.sides(n_seats)
    if len(final_totals) != len(sides):
        raise StoreError(
            f"{game_name} with {n_seats} seats has {len(sides)} sides, "
            f"but {len(final_totals)} final totals were given."
        )
    if any(not 0 <= seat < n_seats for seat in winners_seats):
        raise StoreError(f"winners {winners_seats} are not seats of table {table_id}.")

    seated = {
        row["seat"]: row
        for row in await db.fetchall(
            "SELECT seat, user_id, display_name, is_bot FROM seats "
            "WHERE table_id = ? AND left_at IS NULL ORDER BY position",
            (table_id,),
        )
    }
    humans: dict[int, tuple[int, str]] = {}  # seat -> (user id, name); a user counts once
    for seat, row in sorted(seated.items()):
        user_id = row["user_id"]
        if user_id is None or row["is_bot"] or seat >= n_seats:
            continue
        if all(user_id != other for other, _ in humans.values()):
            humans[seat] = (user_id, row["display_name"])
    seat_names = [seated[s]["display_name"] if s in seated else None for s in range(n_seats)]
    rounds_row = await db.fetchone(
        "SELECT COUNT(*) FROM rounds WHERE table_id = ? AND match_no = ? "
        "AND finished_at IS NOT NULL",
        (table_id, match_no),
    )
    rounds = int(rounds_row[0]) if rounds_row else 0
    winning_sides = {game.side_of(seat, n_seats) for seat in winners_seats}
    ranks = side_ranks(final_totals, winning_sides, lower_is_better=game.lower_is_better)
    now = db.stamp()

    async with db.transaction() as conn:
        users = [user_id for user_id, _ in humans.values()]
        skills: dict[int, Skill] = {}
        if users:
            marks = ", ".join("?" * len(users))
            rows = await conn.fetchall(
                f"SELECT user_id, mu, sigma FROM player_stats WHERE guild_id = ? AND game = ? "
                f"AND user_id IN ({marks})",
                (guild_id, game_name, *users),
            )
            skills = {row[0]: Skill(row[1], row[2]) for row in rows}
        rated_sides = [[humans[s][0] for s in side if s in humans] for side in sides]
        new_skills = rate(rated_sides, ranks, skills) if rated else {}
        await conn.execute(
            "UPDATE matches SET finished_at = ?, winners = ?, final_totals = ?, seat_names = ? "
            "WHERE table_id = ? AND match_no = ?",
            (now, dumps(winners_seats), dumps(final_totals), dumps(seat_names), table_id, match_no),
        )
        for seat, (user_id, name) in humans.items():
            side = game.side_of(seat, n_seats)
            won = seat in winners_seats
            before = skills.get(user_id, Skill())
            after = new_skills.get(user_id, before)
            if rated:
                await _count_in_stats(
                    conn,
                    (guild_id, game_name, user_id, name),
                    (won, rounds, final_totals[side]),
                    after,
                    now,
                )
            await conn.execute(
                "INSERT INTO match_players (table_id, match_no, seat, guild_id, game, user_id, "
                "won, total, rating_before, rating_after, finished_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table_id,
                    match_no,
                    seat,
                    guild_id,
                    game_name,
                    user_id,
                    int(won),
                    final_totals[side],
                    before.ordinal,
                    after.ordinal,
                    now,
                ),
            )
        if not rated:
            return
        await rate_in_season(
            conn,
            guild_id=guild_id,
            game=game_name,
            at=at or db.now(),
            stamp=now,
            sides=rated_sides,
            ranks=ranks,
            players=[
                (
                    user_id,
                    name,
                    seat in winners_seats,
                    rounds,
                    final_totals[game.side_of(seat, n_seats)],
                )
                for seat, (user_id, name) in humans.items()
            ],
        )


async def _count_in_stats(
    conn: Connection,
    who: tuple[int, str, int, str],
    result: tuple[bool, int, int],
    after: Skill,
    now: str,
) -> None:
    """Add one rated match to a player's all-time statistics: `who` is (guild, game, user,
    name), `result` (won, rounds, the side's total)."""
    guild_id, game_name, user_id, name = who
    won, rounds, total = result
    await conn.execute(
        "INSERT INTO player_stats (guild_id, game, user_id, display_name, matches, wins, "
        "rounds, points, mu, sigma, rating, updated_at) "
        "VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
        "display_name = excluded.display_name, matches = player_stats.matches + 1, "
        "wins = player_stats.wins + excluded.wins, "
        "rounds = player_stats.rounds + excluded.rounds, "
        "points = player_stats.points + excluded.points, mu = excluded.mu, "
        "sigma = excluded.sigma, "
        "rating = excluded.rating, updated_at = excluded.updated_at",
        (
            guild_id,
            game_name,
            user_id,
            name,
            int(won),
            rounds,
            total,
            after.mu,
            after.sigma,
            after.ordinal,
            now,
        ),
    )


STAT_COLUMNS = "user_id, display_name, matches, wins, rounds, points, rating, mu, sigma"


async def leaderboard(
    db: Database,
    guild_id: int,
    game: str,
    order: LeaderboardOrder,
    limit: int,
    min_matches: int,
    season: str | None = None,
) -> list[LeaderboardRow]:
    """A game's board in the guild: all time, or one season's as stored (a past season's is
    its final board)."""
    if order not in ORDERS:
        raise StoreError(f"unknown leaderboard order {order!r} (rating, wins or win_rate).")
    minimum = max(min_matches, 1) if order == "win_rate" else 1
    params: tuple[object, ...]
    if season is None:
        source, params = "player_stats WHERE", (guild_id, game)
    else:
        source, params = "season_stats WHERE season = ? AND", (season, guild_id, game)
    rows = await db.fetchall(
        f"SELECT {STAT_COLUMNS} FROM {source} guild_id = ? AND game = ? AND matches >= ? "
        f"ORDER BY {ORDERS[order]} LIMIT ?",
        (*params, minimum, max(limit, 0)),
    )
    return [
        LeaderboardRow(rank=position, **as_dict(row)) for position, row in enumerate(rows, start=1)
    ]


async def player_stats(db: Database, guild_id: int, user_id: int, game: str | None) -> PlayerStats:
    one_game = "" if game is None else "AND game = ? "
    rows = await db.fetchall(
        f"SELECT game, {STAT_COLUMNS}, (SELECT 1 + COUNT(*) FROM player_stats AS o "
        "WHERE o.guild_id = p.guild_id AND o.game = p.game AND o.rating > p.rating) AS rank "
        f"FROM player_stats AS p WHERE guild_id = ? AND user_id = ? {one_game}"
        "ORDER BY matches DESC, game",
        (guild_id, user_id) if game is None else (guild_id, user_id, game),
    )
    games = [GameStats(**as_dict(row, skip="user_id")) for row in rows]
    return PlayerStats(guild_id=guild_id, user_id=user_id, games=games)


async def recent_matches(
    db: Database, guild_id: int, user_id: int, limit: int
) -> list[MatchSummary]:
    rows = await db.fetchall(
        "SELECT p.table_id, p.match_no, p.game, p.finished_at, p.seat, p.won, p.total, "
        "p.rating_before, p.rating_after, m.final_totals, m.winners, m.seat_names "
        "FROM match_players AS p JOIN matches AS m "
        "ON m.table_id = p.table_id AND m.match_no = p.match_no "
        "WHERE p.guild_id = ? AND p.user_id = ? "
        "ORDER BY p.finished_at DESC, p.table_id DESC, p.match_no DESC LIMIT ?",
        (guild_id, user_id, max(limit, 0)),
    )
    return [
        MatchSummary(
            table_id=row["table_id"],
            match_no=row["match_no"],
            game=row["game"],
            finished_at=datetime.fromisoformat(row["finished_at"]),
            seat=row["seat"],
            won=bool(row["won"]),
            total=row["total"],
            final_totals=loads(row["final_totals"]),
            winners_seats=loads(row["winners"]),
            players=[name or "" for name in loads(row["seat_names"])],
            rating_before=row["rating_before"],
            rating_after=row["rating_after"],
        )
        for row in rows
    ]
