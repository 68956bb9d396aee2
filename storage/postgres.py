"""Opening a PostgreSQL database (asyncpg): connect, migrate, and the connections queries use.

Writes (transactions and the action log's group commits) go through one connection under one
asyncio lock, as on SQLite, so the action log's in-memory view of the open rounds stays exact;
reads use a small pool and run beside them. Durability: `synchronous_commit=on` for our
sessions whatever the server's default, so a COMMIT is flushed to the server's WAL before
asyncpg returns it: an acknowledged action survives the bot being killed, and the server
crashing too.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from storage.errors import StoreError
from storage.partition import Partition
from storage.pg_migrate import migrate
from storage.sql import ActionRow, Row

URL_SCHEMES = ("postgresql", "postgres")
SERVER_SETTINGS = {"synchronous_commit": "on", "application_name": "cardtable"}
CLAIM_WAIT_S = 5.0  # how long a shard's previous holder may take to be gone
READ_POOL = 4  # connections for reads (leaderboards, recovery) beside the writer
APPEND_ACTIONS = (
    "INSERT INTO actions (round_id, seq, seat, notation, at) "
    "SELECT r, s, t, n, $5 FROM unnest($1::bigint[], $2::int[], $3::int[], $4::text[]) "
    "AS row (r, s, t, n)"
)


def _lock_class(schema: str, what: str) -> int:
    """An advisory lock's first key, per schema (several stores may share one database)."""
    return zlib.crc32(f"cardtable/{schema}/{what}".encode()) - (1 << 31)  # a signed int4


async def claim(conn: asyncpg.Connection, partition: Partition, name: str) -> None:
    """Hold, for as long as the connection lives, one advisory lock per shard this process
    owns (a second process given the same shard is refused), and a shared lock on the shard
    count (processes cutting the guilds differently would own the same tables twice). The
    server frees them when the process dies, even killed."""
    schema = await conn.fetchval("SELECT current_schema()")
    counts, shards = _lock_class(schema, "shard-count"), _lock_class(schema, "shard")
    await conn.execute("SELECT pg_advisory_lock_shared($1, $2)", counts, partition.count)
    others = await conn.fetch(
        "SELECT DISTINCT objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND granted "
        "AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
        "AND objsubid = 2 AND classid = $1::bigint::oid AND objid <> $2::bigint::oid",
        counts % (1 << 32),
        partition.count,
    )
    if others:
        raise StoreError(
            f"other bot processes on {name} run with SHARD_COUNT={others[0][0]}, this one with "
            f"{partition.count}: every process must use the same SHARD_COUNT."
        )
    # A process restarted right after being killed may find its old session not yet gone:
    # wait for the lock a little before calling the shard taken.
    await conn.execute(f"SET lock_timeout = {int(CLAIM_WAIT_S * 1000)}")
    try:
        for shard in partition.ids:
            try:
                await conn.execute("SELECT pg_advisory_lock($1, $2)", shards, shard)
            except asyncpg.LockNotAvailableError:
                raise StoreError(
                    f"shard {shard} of {partition.count} is already served by another running "
                    f"bot process on {name}: give each process its own SHARD_IDS."
                ) from None
    finally:
        await conn.execute("RESET lock_timeout")


def is_database_url(location: object) -> bool:
    return isinstance(location, str) and location.split("://", 1)[0] in URL_SCHEMES


def redacted(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = netloc[0].split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[1]}"))


@lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2, …` (our SQL has no `?` inside literals)."""
    pieces = sql.split("?")
    out = [pieces[0]]
    for index, piece in enumerate(pieces[1:], start=1):
        out.append(f"${index}{piece}")
    return "".join(out)


def _count(status: str) -> int:
    """Rows changed, from a command status such as 'UPDATE 3' or 'INSERT 0 1'."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PgConnection:
    """The `storage.sql.Connection` statements on one asyncpg connection."""

    __slots__ = ("_conn",)

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _count(await self._conn.execute(numbered(sql), *params))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._conn.executemany(numbered(sql), rows)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._conn.fetch(numbered(sql), *params))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self._conn.fetchrow(numbered(sql), *params)


ENGINE_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)


class PostgresDatabase:
    def __init__(
        self,
        url: str,
        conn: asyncpg.Connection,
        pool: asyncpg.Pool,
        now: Callable[[], datetime],
    ) -> None:
        self.url = url
        self.conn = conn
        self.writer = PgConnection(conn)
        self.pool = pool
        self.now = now
        self.lock = asyncio.Lock()
        self.schema_version = 0
        self.closed = False

    @property
    def name(self) -> str:
        return redacted(self.url)

    def stamp(self) -> str:
        return self.now().isoformat()

    def _check_open(self) -> None:
        if self.closed:
            raise StoreError(f"the store on {self.name} is closed.")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConnection]:
        self._check_open()
        async with self.lock:
            try:
                async with self.conn.transaction():
                    yield self.writer
            except ENGINE_ERRORS as error:
                raise self.error(error) from error

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self._check_open()
        try:
            async with self.pool.acquire() as conn:
                return list(await conn.fetch(numbered(sql), *params))
        except ENGINE_ERRORS as error:
            raise self.error(error) from error

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def append_actions(self, rows: list[ActionRow], at: str) -> None:
        """One INSERT of every row (a column array each), committed on its own: one round trip
        and one WAL flush for the whole batch."""
        columns = list(zip(*rows, strict=True))
        await self.conn.execute(APPEND_ACTIONS, *columns, at)

    async def check_integrity(self) -> list[str]:
        """Nothing to report from here: the server verifies its own pages and WAL."""
        return []

    def error(self, error: BaseException) -> BaseException:
        if isinstance(error, asyncpg.IntegrityConstraintViolationError | asyncpg.RaiseError):
            return StoreError(f"the database {self.name} refused a write: {error}.")
        if isinstance(error, ENGINE_ERRORS):
            return StoreError(f"the database {self.name} cannot be used: {error}.")
        return error

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        async with self.lock:  # a transaction under way finishes first
            await self.pool.close()
            await self.conn.close()


async def open_postgres(
    url: str,
    *,
    now: Callable[[], datetime],
    target_version: int | None = None,
    partition: Partition | None = None,
) -> PostgresDatabase:
    """Connect to the database at `url`, migrate it, claim the partition's shards (see `claim`)
    and open the read pool. Raises StoreError with one clear sentence when the server cannot be
    reached, the database is not ours, or another process serves these shards."""
    name = redacted(url)
    try:
        conn = await asyncpg.connect(url, server_settings=SERVER_SETTINGS)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
        raise StoreError(
            f"cannot connect to PostgreSQL at {name} ({error}); check DATABASE_URL and that the "
            "server is running."
        ) from error
    try:
        version = await migrate(conn, name, target=target_version)
        if partition is not None:
            await claim(conn, partition, name)
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=READ_POOL, server_settings=SERVER_SETTINGS
        )
    except BaseException as error:
        await conn.close()
        if isinstance(error, ENGINE_ERRORS):
            raise StoreError(f"the database {name} cannot be used: {error}.") from error
        raise
    db = PostgresDatabase(url, conn, pool, now)
    db.schema_version = version
    return db
