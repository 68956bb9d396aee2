"""Tables (where, what game, which options, who hosts, in which state) and their seats."""

from __future__ import annotations

from typing import Any, get_args

from storage import table_logs
from storage.codec import SEAT_COLUMNS, TABLE_COLUMNS, dumps, seat_from_row, table_from_row
from storage.compaction import compact_unfinished
from storage.errors import StoreError
from storage.models import SeatRecord, TableLog, TableRecord, TableStatus
from storage.sql import Connection, Database

STATUSES: tuple[str, ...] = get_args(TableStatus)


async def require_table(conn: Connection, table_id: int) -> None:
    if await conn.fetchone("SELECT 1 FROM tables WHERE id = ?", (table_id,)) is None:
        raise StoreError(f"there is no table {table_id}.")


async def create_table(
    db: Database, guild_id: int, channel_id: int, game: str, options: dict[str, Any], host_id: int
) -> TableRecord:
    now = db.stamp()
    async with db.transaction() as conn:
        row = await conn.fetchone(
            "INSERT INTO tables (guild_id, channel_id, game, options, host_id, status, "
            "created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?) RETURNING id",
            (guild_id, channel_id, game, dumps(options), host_id, now, now),
        )
    assert row is not None
    return await get_table(db, row[0])


async def get_table(db: Database, table_id: int) -> TableRecord:
    row = await db.fetchone(f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,))
    if row is None:
        raise StoreError(f"there is no table {table_id}.")
    try:
        return table_from_row(row, lenient=True)  # a damaged row still says where it lives
    except (ValueError, TypeError) as error:  # pydantic's ValidationError is a ValueError
        raise StoreError(f"table {table_id} is damaged: {error}") from error


async def update_table(db: Database, table_id: int, changes: dict[str, Any]) -> None:
    """Set these columns (status, message_id, thread_id, options, broken_reason)."""
    async with db.transaction() as conn:
        await _update_in(conn, db, table_id, changes)


async def _update_in(
    conn: Connection, db: Database, table_id: int, changes: dict[str, Any]
) -> None:
    """`update_table` inside a transaction the caller holds."""
    if "status" in changes and changes["status"] not in STATUSES:
        raise StoreError(f"{changes['status']!r} is not a table status.")
    if "options" in changes:
        changes["options"] = dumps(changes["options"])
    changes["updated_at"] = db.stamp()
    assignments = ", ".join(f"{column} = ?" for column in changes)
    changed = await conn.execute(
        f"UPDATE tables SET {assignments} WHERE id = ?", (*changes.values(), table_id)
    )
    if changed == 0:
        raise StoreError(f"there is no table {table_id}.")
    if changes.get("status") not in (None, "lobby", "playing"):
        await compact_unfinished(conn, table_id)
        await conn.execute(table_logs.DELETE, (table_id,))  # only active tables restore


async def save_seats(
    db: Database,
    table_id: int,
    seats: list[SeatRecord],
    status: str | None = None,
    log: TableLog | None = None,
) -> None:
    """Replace the seat list, and set the status in the same transaction when given (a
    rematch reopens the lobby with its new seats: both are stored, or neither); `log`, the
    table's log with the line saying so, is kept in it too."""
    async with db.transaction() as conn:
        await require_table(conn, table_id)
        if status is not None:
            await _update_in(conn, db, table_id, {"status": status})
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
        if log is not None and status in (None, "lobby", "playing"):
            await table_logs.write_in(conn, table_id, log)


async def get_seats(db: Database, table_id: int) -> list[SeatRecord]:
    rows = await db.fetchall(
        f"SELECT {SEAT_COLUMNS} FROM seats WHERE table_id = ? ORDER BY position", (table_id,)
    )
    return [seat_from_row(row) for row in rows]
