"""Matches and rounds: a match's start, a finished round's result.

A round's record (options, seats, dealer, deck order, rules version) when it starts, and its
result and the match totals when it ends, go through round_writer.py; its actions through
action_log.py."""

from __future__ import annotations

from games.contract import RoundResult
from games.match import MatchState
from storage.codec import dumps, loads
from storage.errors import StoreError
from storage.sql import Connection, Database
from storage.tables import require_table


async def next_number(conn: Connection, table: str, column: str, table_id: int) -> int:
    row = await conn.fetchone(
        f"SELECT COALESCE(MAX({column}) + 1, 0) FROM {table} WHERE table_id = ?", (table_id,)
    )
    assert row is not None
    return int(row[0])


async def start_match(db: Database, table_id: int, state: MatchState) -> int:
    if state.round_points:
        raise StoreError("start_match takes a match with no round played yet.")
    async with db.transaction() as conn:
        await require_table(conn, table_id)
        match_no = await next_number(conn, "matches", "match_no", table_id)
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
                db.stamp(),
            ),
        )
    return match_no


async def round_result(
    db: Database, table_id: int, round_no: int
) -> tuple[RoundResult, list[int]] | None:
    row = await db.fetchone(
        "SELECT points, detail, totals_after FROM rounds "
        "WHERE table_id = ? AND round_no = ? AND finished_at IS NOT NULL",
        (table_id, round_no),
    )
    if row is None:
        return None
    result = RoundResult(points=tuple(loads(row["points"])), detail=loads(row["detail"]))
    return result, loads(row["totals_after"])
