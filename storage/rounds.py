"""Matches and rounds: a round's record (options, seats, dealer, deck order, rules version) when
it starts, its result and the match totals when it ends. Actions go through action_log.py."""

from __future__ import annotations

from games.contract import RoundRecord, RoundResult
from games.match import MatchState
from storage.action_log import OpenRounds
from storage.codec import dumps, loads
from storage.compaction import compact_round
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


async def start_round(
    db: Database, open_rounds: OpenRounds, table_id: int, record: RoundRecord
) -> int:
    if record.actions:
        raise StoreError("start_round takes a round with no action yet; record them one by one.")

    async def insert(conn: Connection) -> tuple[int, int]:
        await require_table(conn, table_id)
        open_round = await conn.fetchone(
            "SELECT round_no FROM rounds WHERE table_id = ? AND finished_at IS NULL", (table_id,)
        )
        if open_round is not None:
            raise StoreError(
                f"round {open_round[0]} of table {table_id} is not finished; "
                "finish it before starting another."
            )
        match_row = await conn.fetchone(
            "SELECT match_no FROM matches WHERE table_id = ? AND finished_at IS NULL "
            "ORDER BY match_no DESC LIMIT 1",
            (table_id,),
        )
        round_no = await next_number(conn, "rounds", "round_no", table_id)
        inserted = await conn.fetchone(
            "INSERT INTO rounds (table_id, round_no, match_no, match_round, game, "
            "rules_version, options, n_seats, dealer, totals_before, deck, started_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
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
                db.stamp(),
            ),
        )
        assert inserted is not None
        return round_no, inserted[0]

    round_no, round_id = await db.one_trip(insert)  # a round starts at every deal: one trip
    open_rounds.opened((table_id, round_no), round_id, record.n_seats)  # committed: open
    return round_no


async def finish_round(
    db: Database,
    open_rounds: OpenRounds,
    table_id: int,
    round_no: int,
    result: RoundResult,
    totals_after: list[int],
) -> None:
    key = (table_id, round_no)

    async def finish(conn: Connection) -> None:
        row = await conn.fetchone(
            "SELECT id, started_at FROM rounds "
            "WHERE table_id = ? AND round_no = ? AND finished_at IS NULL AND log IS NULL",
            key,
        )
        if row is None:
            raise StoreError(f"round {round_no} of table {table_id} is unknown or finished.")
        changed = await conn.execute(
            "UPDATE rounds SET finished_at = ?, points = ?, detail = ?, totals_after = ? "
            "WHERE id = ?",
            (
                db.stamp(),
                dumps(list(result.points)),
                dumps(dict(result.detail)),
                dumps(list(totals_after)),
                row[0],
            ),
        )
        assert changed == 1
        await compact_round(conn, row[0], row[1])
        open_rounds.close(key)  # under the lock: no action slips in after this

    try:
        await db.one_trip(finish)  # a round ends at every deal: one trip
    except BaseException:
        open_rounds.forget({key})  # the file decides again on next use
        raise


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
