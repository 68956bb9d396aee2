"""`python -m storage.migrate_to URL [--from PATH]`: move a bot from SQLite to PostgreSQL.

It moves the bot from its SQLite file to an empty PostgreSQL database, losing nothing.

Stop the bot first (the file's lock refuses a running one). The file is brought to the latest
schema, then every table, seat, match, round, action, setting, statistic and rating is copied in
one transaction (all or nothing) with PostgreSQL's COPY, ids kept. Then it checks: the row
counts and a digest of every table's contents are the same on both sides, and every active table
replays the same from both. A database that already holds data is refused untouched.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.registry import get_game
from storage import recovery
from storage.database import Database as SqliteDatabase
from storage.database import open_database
from storage.errors import StoreError
from storage.interface import GamesResolver
from storage.models import utc_now
from storage.postgres import PostgresDatabase, is_database_url, open_postgres

# Parents before children (foreign keys); every table the schema holds but schema_version and
# health (the health check's probe row, written anew by the running bot).
TABLES = (
    "guild_settings",
    "guild_privacy",
    "tables",
    "seats",
    "matches",
    "rounds",
    "actions",
    "player_stats",
    "match_players",
    "player_preferences",
    "turn_mentions",
    "hand_reviews",
    "seasons",
    "season_stats",
    "table_logs",
    "tournaments",
    "tournament_entrants",
    "tournament_rounds",
    "tournament_tables",
)
NOT_COPIED = ("schema_version", "health")
# sequences to move past the copied ids
IDENTITIES = (("tables", "id"), ("rounds", "id"), ("tournaments", "id"))
CHUNK = 5000
DEFAULT_PATH = "data/cardtable.sqlite3"
AFTER_COPY = "do not use the PostgreSQL database: empty it (or create another) before trying again"


@dataclass
class Report:
    rows: dict[str, int] = field(default_factory=dict)
    active_tables: int = 0
    broken: list[tuple[int, str]] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"{name:>14}: {count} rows" for name, count in self.rows.items()]
        out.append(f"{self.active_tables} active tables replay the same from both databases")
        out.extend(f"table {table_id} stays broken: {reason}" for table_id, reason in self.broken)
        return out


def _row_digest(row: Any) -> int:
    # values as text, so an int and a float of one value do not differ between drivers
    text = "\x1f".join("\x00" if value is None else repr(value) for value in tuple(row))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:16], "big")


async def _columns(source: SqliteDatabase, table: str) -> list[str]:
    return [row[1] for row in await source.fetchall(f"PRAGMA table_info({table})")]


async def _require_empty(target: PostgresDatabase) -> None:
    for table in TABLES:
        if await target.fetchone(f"SELECT 1 FROM {table} LIMIT 1") is not None:
            raise StoreError(
                f"the PostgreSQL database {target.name} already holds data (table {table}); "
                "migrate_to only writes into an empty database."
            )


async def _copy(source: SqliteDatabase, target: PostgresDatabase) -> dict[str, int]:
    """Every row of every table, in one PostgreSQL transaction."""
    counts: dict[str, int] = {}
    async with target.lock, target.conn.transaction():
        for table in TABLES:
            columns = await _columns(source, table)
            counts[table] = 0
            async with (
                source.lock,
                source.conn.execute(f"SELECT {', '.join(columns)} FROM {table}") as cursor,
            ):
                while rows := list(await cursor.fetchmany(CHUNK)):
                    await target.conn.copy_records_to_table(
                        table, records=[tuple(row) for row in rows], columns=columns
                    )
                    counts[table] += len(rows)
        for table, column in IDENTITIES:
            await target.conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                f"COALESCE(MAX({column}), 0) + 1, false) FROM {table}"
            )
    return counts


async def _sqlite_rows(db: SqliteDatabase, sql: str) -> AsyncIterator[Any]:
    async with db.lock, db.conn.execute(sql) as cursor:
        while rows := await cursor.fetchmany(CHUNK):
            for row in rows:
                yield row


async def _postgres_rows(db: PostgresDatabase, sql: str) -> AsyncIterator[Any]:
    async with db.pool.acquire() as conn, conn.transaction():
        async for row in conn.cursor(sql, prefetch=CHUNK):
            yield row


async def _digest(rows: AsyncIterator[Any]) -> tuple[int, int]:
    """(rows, an order-free digest of their values), read in chunks."""
    total, count = 0, 0
    async for row in rows:
        total = (total + _row_digest(row)) % (1 << 128)
        count += 1
    return count, total


async def _verify(
    source: SqliteDatabase, target: PostgresDatabase, counts: dict[str, int], resolve: GamesResolver
) -> Report:
    report = Report(rows=counts)
    for table in TABLES:
        sql = f"SELECT {', '.join(await _columns(source, table))} FROM {table}"
        theirs = await _digest(_sqlite_rows(source, sql))
        ours = await _digest(_postgres_rows(target, sql))
        if theirs != ours or theirs[0] != counts[table]:
            raise StoreError(
                f"table {table} differs after the copy ({theirs[0]} rows in SQLite, {ours[0]} in "
                f"PostgreSQL, or different values); {AFTER_COPY}"
            )
    before = await recovery.load_active_tables(source, resolve)
    after = await recovery.load_active_tables(target, resolve)
    if sorted(before.broken) != sorted(after.broken) or [
        (a.table, a.seats, a.round_no, a.round.record() if a.round else None) for a in before.tables
    ] != [
        (a.table, a.seats, a.round_no, a.round.record() if a.round else None) for a in after.tables
    ]:
        raise StoreError(f"the active tables do not replay the same from both; {AFTER_COPY}")
    report.active_tables = len(after.tables)
    report.broken = after.broken
    return report


async def migrate_to(path: Path, url: str, resolve: GamesResolver = get_game) -> Report:
    """Copy the SQLite store at `path` into the empty PostgreSQL database at `url`, then check
    the copy. Raises StoreError (one sentence) and writes nothing when it cannot."""
    if not is_database_url(url):
        raise StoreError(f"{url!r} is not a postgresql:// URL.")
    if not path.is_file():
        raise StoreError(f"there is no SQLite store at {path} (give its path with --from).")
    source = await open_database(path, now=utc_now)
    try:
        target = await open_postgres(url, now=utc_now)
        try:
            await _require_empty(target)
            counts = await _copy(source, target)
            return await _verify(source, target, counts, resolve)
        finally:
            await target.close()
    finally:
        await source.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m storage.migrate_to", description=__doc__)
    parser.add_argument("url", help="the empty PostgreSQL database: postgresql://user@host/db")
    parser.add_argument(
        "--from",
        dest="path",
        type=Path,
        default=Path(os.environ.get("DATABASE_PATH") or DEFAULT_PATH),
        help=f"the SQLite file (default: DATABASE_PATH, else {DEFAULT_PATH})",
    )
    args = parser.parse_args(argv)
    try:
        report = asyncio.run(migrate_to(args.path, args.url))
    except StoreError as error:
        print(f"migrate_to: {error}", file=sys.stderr)
        return 1
    for line in report.lines():
        print(line)
    print(f"Done: set DATABASE_URL to this database and start the bot ({args.path} is unchanged).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
