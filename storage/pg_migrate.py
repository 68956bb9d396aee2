"""Schema migrations on PostgreSQL: `storage/pg_migrations/V<n>__<name>.sql`.

They are the same versions as SQLite's, each applied once, in order, in its own transaction with
its `schema_version` row.

Several bot processes may start at once on one database: an advisory lock makes them migrate
one after the other (the second finds the work done)."""

from __future__ import annotations

from datetime import UTC, datetime

import asyncpg

from storage.errors import StoreError
from storage.migrate import VERSION_TABLE, Migration, check_not_newer, check_ours, pending
from storage.migrate import available_migrations as _available

PG_MIGRATIONS = "storage.pg_migrations"
MIGRATION_LOCK = 0x63617264  # pg_advisory_lock key, held while migrating ("card")
SETTING = "DATABASE_URL"


def available_migrations() -> list[Migration]:
    return _available(PG_MIGRATIONS)


async def current_version(conn: asyncpg.Connection, name: str) -> int:
    """The database's schema version: 0 when it holds no table. Refuses another program's
    database (tables but not ours) and says so."""
    names = {
        row[0]
        for row in await conn.fetch(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
    }
    columns = {
        row[0]
        for row in await conn.fetch(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = $1",
            VERSION_TABLE,
        )
    }
    if not check_ours(f"the PostgreSQL database {name}", SETTING, names, columns):
        return 0
    version = await conn.fetchval(f"SELECT MAX(version) FROM {VERSION_TABLE}")
    return int(version or 0)


async def migrate(conn: asyncpg.Connection, name: str, *, target: int | None = None) -> int:
    """Bring the database to `target` (default: the latest version); returns the version
    reached. A database newer than the code is refused and left untouched."""
    migrations = available_migrations()
    latest = migrations[-1].version
    target = latest if target is None else target
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        version = await current_version(conn, name)
        check_not_newer(f"the PostgreSQL database {name}", SETTING, version, latest)
        applied: set[int] = set()
        if version > 0:
            rows = await conn.fetch(f"SELECT version FROM {VERSION_TABLE}")
            applied = {int(row[0]) for row in rows}
        for migration in pending(migrations, version, applied, target):
            await _apply(conn, name, migration)
            version = max(version, migration.version)
        return version
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)


async def _apply(conn: asyncpg.Connection, name: str, migration: Migration) -> None:
    try:
        async with conn.transaction():
            await conn.execute(
                f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (version INTEGER PRIMARY KEY, "
                "name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            await conn.execute(migration.sql)  # no parameters: several statements may run
            await conn.execute(
                f"INSERT INTO {VERSION_TABLE} (version, name, applied_at) VALUES ($1, $2, $3)",
                migration.version,
                migration.name,
                datetime.now(UTC).isoformat(),
            )
    except asyncpg.PostgresError as error:
        raise StoreError(
            f"migration V{migration.version} ({migration.name}) failed on {name}: {error}; "
            "the database was left at the previous version."
        ) from error
