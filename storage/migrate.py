"""Schema migrations: `storage/migrations/V<n>__<name>.sql`, applied once each, in order.

Each is applied in its own transaction together with its row in `schema_version`."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources

import aiosqlite

from storage.errors import StoreError

_NAME = re.compile(r"^V(\d+)__(\w+)\.sql$")
# What may precede a statement's first keyword: blanks and comments (a statement's end, quotes
# and comments inside it are found by SQLite's own tokenizer, `sqlite3.complete_statement`).
_LEADING = re.compile(r"\A(?:\s+|--[^\n]*(?:\n|$)|/\*.*?\*/)*", re.DOTALL)
_SELECT = re.compile(r"SELECT\b", re.IGNORECASE)
VERSION_TABLE = "schema_version"
SQLITE_MIGRATIONS = "storage.migrations"


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str

    @property
    def writes(self) -> bool:
        """Whether running it changes the database beyond its `schema_version` row: anything
        but plain SELECT statements (a migration that is a no-op on this backend, such as
        SQLite's V6, is only `SELECT 1`). Whatever cannot be read as SELECTs counts as a write,
        so a doubtful migration is backed up."""
        return not all(_SELECT.match(statement) for statement in statements(self.sql))


def statements(sql: str) -> list[str]:
    """The statements of a script, each without its leading blanks and comments (empty ones
    left out), split where SQLite ends them."""
    found = []
    pending = ""
    for piece in f"{sql}\n;".split(";")[:-1]:
        pending += f"{piece};"
        if sqlite3.complete_statement(pending):
            statement = _LEADING.sub("", pending, count=1)
            if statement != ";":
                found.append(statement)
            pending = ""
    if pending.strip():
        found.append(pending)  # an unterminated quote or comment: not a plain SELECT
    return found


def available_migrations(package: str = SQLITE_MIGRATIONS) -> list[Migration]:
    """Every migration shipped with the code for one backend, by version (1, 2, …; a gap is
    allowed: parallel branches claim numbers ahead, and a version that lands after a higher
    one is applied then, see `pending`)."""
    found = []
    for entry in resources.files(package).iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if not versions or versions[0] != 1 or len(set(versions)) != len(versions):
        raise RuntimeError(f"migrations must be numbered from 1, once each: {versions}")
    return found


def pending(
    migrations: list[Migration], version: int, applied: set[int], target: int
) -> list[Migration]:
    """The migrations to apply, in order: those up to `target` above the database's version,
    and any lower one it has not applied (a version that landed after a higher one)."""
    return [
        m
        for m in migrations
        if m.version <= target and (m.version > version or (applied and m.version not in applied))
    ]


async def applied_versions(db: aiosqlite.Connection) -> set[int]:
    """The versions recorded in the file (empty for a new file)."""
    try:
        async with db.execute(f"SELECT version FROM {VERSION_TABLE}") as cursor:
            return {int(row[0]) for row in await cursor.fetchall()}
    except sqlite3.OperationalError:  # no such table: a new file
        return set()


def latest_version() -> int:
    return available_migrations()[-1].version


def check_ours(where: str, setting: str, names: set[str], version_columns: set[str]) -> bool:
    """Whether the database holds this bot's schema (False: it is empty). Refuses another
    program's tables, with or without a schema_version of its own. `names` are its tables,
    `version_columns` those of its schema_version table."""
    if VERSION_TABLE not in names:
        if names:
            shown = ", ".join(sorted(names)[:5])
            raise StoreError(
                f"{where} is a database of another program (tables: {shown}) and not a "
                f"card table store; choose another {setting}."
            )
        return False
    if not {"version", "name", "applied_at"} <= version_columns or "tables" not in names:
        raise StoreError(
            f"{where} has a {VERSION_TABLE} table but not this bot's schema (another program's "
            f"database?); choose another {setting}."
        )
    return True


def check_not_newer(where: str, setting: str, version: int, latest: int) -> None:
    """A database from a newer bot is refused (and left untouched)."""
    if version > latest:
        raise StoreError(
            f"{where} has schema version {version}, but this version of the bot knows only up to "
            f"{latest}: run a newer version of the bot (or use another {setting})."
        )


async def current_version(db: aiosqlite.Connection, path: str) -> int:
    """The file's schema version: 0 for an empty file. Refuses a file that holds tables but no
    schema_version (another program's database)."""
    async with db.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cursor:
        names = {row[0] for row in await cursor.fetchall() if not row[0].startswith("sqlite_")}
    async with db.execute(f"PRAGMA table_info({VERSION_TABLE})") as cursor:
        columns = {row[1] for row in await cursor.fetchall()}
    if not check_ours(f"the SQLite file {path}", "DATABASE_PATH", names, columns):
        return 0
    async with db.execute(f"SELECT MAX(version) FROM {VERSION_TABLE}") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row and row[0] is not None else 0


async def migrate(db: aiosqlite.Connection, path: str, *, target: int | None = None) -> int:
    """Bring the file to `target` (default: the latest version); returns the version reached.
    A file newer than the code is refused, and the file is left untouched."""
    migrations = available_migrations()
    latest = migrations[-1].version
    target = latest if target is None else target
    version = await current_version(db, path)
    check_not_newer(path, "DATABASE_PATH", version, latest)
    to_apply = pending(migrations, version, await applied_versions(db), target)
    # A copy of a big file takes seconds (about 2 s per GB), so it is made only when a
    # migration will change the file: a release whose migrations are no-ops here starts at once.
    if version > 0 and any(migration.writes for migration in to_apply):
        await _backup(db, path, version)
    for migration in to_apply:
        await _apply(db, path, migration)
        version = max(version, migration.version)
    return version


async def _apply(db: aiosqlite.Connection, path: str, migration: Migration) -> None:
    applied_at = datetime.now(UTC).isoformat()
    # executescript runs outside Python's transaction handling, so the script owns BEGIN/COMMIT;
    # an error leaves the transaction open, and we roll it back: a migration applies fully or not.
    script = (
        "BEGIN IMMEDIATE;\n"
        f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} ("
        "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL);\n"
        f"{migration.sql}\n;\n"
        f"INSERT INTO {VERSION_TABLE} (version, name, applied_at) "
        f"VALUES ({migration.version}, '{migration.name}', '{applied_at}');\n"
        "COMMIT;"
    )
    try:
        await db.executescript(script)
    except sqlite3.Error as error:
        if db.in_transaction:
            await db.rollback()
        raise StoreError(
            f"migration V{migration.version} ({migration.name}) failed on {path}: {error}; "
            "the file was left at the previous version."
        ) from error


async def _backup(db: aiosqlite.Connection, path: str, version: int) -> str:
    """Copy the file before upgrading it: a migration that works but does the wrong thing
    must not cost a guild its history. Returns the copy's path."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    copy = f"{path}-v{version}-{stamp}.bak"
    try:
        await db.execute("VACUUM INTO ?", (copy,))
    except sqlite3.Error as error:
        raise StoreError(
            f"cannot back up {path} to {copy} before upgrading it ({error}); nothing was changed."
        ) from error
    return copy
