"""The public log a table shows ("Last actions"), kept so that a restart shows the same lines.

One row per lobby or running table (`table_logs`, V15): the log's entries as they stood when
it was written (JSON-ready dicts, oldest first, the bot's at most 32), and the round and the
number of its actions they already hold (`TableLog.round_no`, `TableLog.actions`): the engine's
lines that came after are rebuilt from that round's stored actions, so a click never writes
the log. The row is written inside the transactions that already store a table-level change
(seats, a round's start or end: `write_in`, `ROW` rows for a batch), and on its own only for
the lines that come with no other write (`save`: a timeout, a player back). It is deleted
when the table stops being active (`DELETE`): only lobby and running tables are restored.

Entries name players (who joined, left, timed out) with the user ids they name beside the
names (`users`, in the order of the names), so `/privacy forget` finds and scrubs them
(`forget_user_in`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from storage.codec import dumps, loads
from storage.models import TableLog
from storage.sql import Connection, Database

UPSERT = (
    "INSERT INTO table_logs (table_id, round_no, actions, entries) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (table_id) DO UPDATE SET round_no = excluded.round_no, "
    "actions = excluded.actions, entries = excluded.entries"
)
DELETE = "DELETE FROM table_logs WHERE table_id = ?"
Row = tuple[int, int | None, int, str]


def row(table_id: int, log: TableLog, round_no: int | None = None) -> Row:
    """The UPSERT's parameters; `round_no` given: the round the store just numbered (a round
    start's log is taken in the round it starts)."""
    anchor = log.round_no if round_no is None else round_no
    return (table_id, anchor, log.actions, dumps(log.entries))


async def write_in(conn: Connection, table_id: int, log: TableLog) -> None:
    """Keep the table's log, inside a transaction the caller holds."""
    await conn.execute(UPSERT, row(table_id, log))


async def save(db: Database, table_id: int, log: TableLog) -> None:
    """Keep the table's log, alone (one trip on SQLite)."""
    await db.write_batch([(UPSERT, [row(table_id, log)])])


def parse(round_no: Any, actions: Any, entries: Any) -> TableLog:
    """A stored row as a `TableLog`; ValueError (pydantic's included) if it is damaged."""
    return TableLog(round_no=round_no, actions=actions, entries=loads(entries))


def forget_user(entries: list[dict[str, Any]], user_id: int, former: str) -> bool:
    """Every name of `user_id` in these stored entries becomes `former`, and the id goes;
    returns whether any entry named them. An entry's `users` lists the ids of the names it
    carries, in order: its `name`, or each of its `names`."""
    found = False
    for entry in entries:
        users = entry.get("users")
        if not isinstance(users, list) or user_id not in users:
            continue
        data = entry.get("data")
        for index, user in enumerate(users):
            if user != user_id:
                continue
            found = True
            users[index] = None
            if not isinstance(data, dict):
                continue
            if "name" in data:
                data["name"] = former
            names = data.get("names")
            if isinstance(names, list) and index < len(names):
                names[index] = former
    return found


def _readable(text: str) -> list[dict[str, Any]] | None:
    """A row's entries, or None if they no longer read as a log."""
    try:
        entries = loads(text)
    except ValueError:
        return None
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        return None
    return entries


async def lines_naming(db: Database, user_id: int) -> list[dict[str, Any]]:
    """The kept lines that name this user, each with its table (their `/privacy` download)."""
    rows = await db.fetchall(
        "SELECT table_id, entries FROM table_logs WHERE entries LIKE ? ORDER BY table_id",
        (f"%{user_id}%",),
    )
    return [
        {"table_id": table_id, **entry}
        for table_id, text in rows
        for entry in _readable(text) or []
        if isinstance(entry.get("users"), list) and user_id in entry["users"]
    ]


async def forget_user_in(conn: Connection, user_id: int, former: str) -> None:
    """Inside `privacy.forget_user`'s transaction: the user's names and id leave every kept
    log. The ids are written in the JSON text, so a LIKE finds the few rows to read (a number
    that only looks like the id is left as it is); a row found so that no longer reads as a
    log goes whole (its table restores the log it rebuilds without it)."""
    rows = await conn.fetchall(
        "SELECT table_id, entries FROM table_logs WHERE entries LIKE ?", (f"%{user_id}%",)
    )
    for table_id, text in rows:
        entries = _readable(text)
        if entries is None:
            await conn.execute(DELETE, (table_id,))
            continue
        if forget_user(entries, user_id, former):
            await conn.execute(
                "UPDATE table_logs SET entries = ? WHERE table_id = ?", (dumps(entries), table_id)
            )


def rows_for(written: Sequence[tuple[int, TableLog, int | None]]) -> list[Row]:
    """The UPSERT's rows for several tables' logs (a batch of round starts and ends)."""
    return [row(table_id, log, round_no) for table_id, log, round_no in written]
