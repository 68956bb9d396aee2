"""Opening a PostgreSQL database (asyncpg): connect, migrate, and the connections queries use.

Transactions go through one writer connection under one asyncio lock, as on SQLite, so the
action log's in-memory view of the open rounds stays exact; reads use a small pool and run
beside them. The action log's group commits are pipelined on `ACTION_LANES` connections of
their own: a batch is checked under the lock, then committed on a free lane while the next
batch is checked and sent on another, so the server's WAL flush of one batch overlaps the
next one's round trip (`storage.action_log` keeps a round's rows out of a batch while an
earlier batch holding that round is in flight, and a transaction begins only once every
batch sent before it has committed). Durability: `synchronous_commit=on` for our
sessions whatever the server's default, so a COMMIT is flushed to the server's WAL before
asyncpg returns it: an acknowledged action survives the bot being killed, and the server
crashing too. A lost connection is restored and the call under way runs again
(`pg_session.py`); when a COMMIT's outcome is unknown the retry is made safe by the action
log's (round, seq) key, and a transaction's fate is asked of the server (`txid_status`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from datetime import datetime
from functools import lru_cache
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg
from asyncpg.transaction import Transaction

from storage.errors import StoreError, StoreUnavailable
from storage.partition import Partition
from storage.pg_claim import claim
from storage.pg_migrate import migrate
from storage.pg_session import SERVER_SETTINGS, WriterSession
from storage.sql import ActionRow, Connection, Row, Statement

T = TypeVar("T")

__all__ = ["claim"]  # re-exported: where the shard claim used to live

log = logging.getLogger(__name__)

URL_SCHEMES = ("postgresql", "postgres")
READ_POOL = 4  # connections for reads (leaderboards, recovery) beside the writer
ACTION_LANES = 2  # connections committing action batches, one batch in flight on each
APPEND_ACTIONS = (
    "INSERT INTO actions (round_id, seq, seat, notation, at) "
    "SELECT r, s, t, n, $5 FROM unnest($1::bigint[], $2::int[], $3::int[], $4::text[]) "
    "AS row (r, s, t, n)"
)
# The same batch again after a lost connection: rows its first try did commit are skipped.
APPEND_ACTIONS_AGAIN = f"{APPEND_ACTIONS} ON CONFLICT (round_id, seq) DO NOTHING"
CURRENT_XID = "SELECT txid_current_if_assigned()"


def is_database_url(location: object) -> bool:
    return isinstance(location, str) and location.split("://", 1)[0] in URL_SCHEMES


def redacted(url: str) -> str:
    """The URL without its password, for messages and logs (one that cannot be read, e.g. an
    unclosed `[` of an IPv6 host, is not shown: it may hold a password)."""
    try:
        parts = urlsplit(url)
        _ = parts.port
    except ValueError:
        return "(a DATABASE_URL that is not a valid URL)"
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


ENGINE_ERRORS = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    TimeoutError,
)


class PostgresDatabase:
    def __init__(
        self,
        url: str,
        session: WriterSession,
        pool: asyncpg.Pool,
        now: Callable[[], datetime],
        lanes: Sequence[WriterSession] = (),
    ) -> None:
        self.url = url
        self.session = session
        self.lanes = list(lanes)  # the action log's pipeline (see the module's doc)
        self._sending: set[asyncio.Task[None]] = set()  # batches in flight on the lanes
        assert session.conn is not None
        self.writer = PgConnection(session.conn)
        self.pool = pool
        self.now = now
        self.lock = asyncio.Lock()
        self.schema_version = 0
        self.closed = False

    @property
    def name(self) -> str:
        return redacted(self.url)

    @property
    def conn(self) -> asyncpg.Connection:
        """The writer's connection as it is now (use it under `lock`)."""
        assert self.session.conn is not None
        return self.session.conn

    def stamp(self) -> str:
        return self.now().isoformat()

    def _check_open(self) -> None:
        if self.closed:
            raise StoreError(f"the store on {self.name} is closed.")

    async def _ready(self) -> asyncpg.Connection:
        """The writer's live connection (restored if it was lost); under `lock`."""
        conn = await self.session.ready()
        self.writer._conn = conn
        return conn

    async def fetch_for_writer(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async def read() -> list[Row]:
            return list(await (await self._ready()).fetch(numbered(sql), *params))

        try:
            return await self.session.retry(read)
        except ENGINE_ERRORS as error:
            raise self.error(error) from error

    async def one_trip(self, body: Callable[[Connection], Awaitable[T]]) -> T:
        """`body` in `transaction` (a server's round trips do not wait for the event loop's
        turns as a thread's do: nothing to gain from more)."""
        async with self.transaction() as conn:
            return await body(conn)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConnection]:
        """BEGIN … COMMIT on the writer. A connection found lost at BEGIN is restored first;
        lost inside the transaction, it is a StoreUnavailable (nothing was written); lost
        during COMMIT, the server is asked, once reconnected, whether the transaction
        committed, and only a committed one returns normally."""
        self._check_open()
        async with self.lock:
            await self.drain()
            try:  # BEGIN is where an idle connection the server ended is found: begin again
                conn, xact = await self.session.retry(self._begin)
            except ENGINE_ERRORS as error:
                raise self.error(error) from error
            try:
                yield self.writer
                xid = await conn.fetchval(CURRENT_XID)
            except BaseException as error:
                if not self.session.is_lost(error) and not conn.is_closed():
                    with suppress(*ENGINE_ERRORS):
                        await xact.rollback()
                translated = self.error(error)
                if translated is error:
                    raise
                raise translated from error
            try:
                await xact.commit()
            except ENGINE_ERRORS as error:
                if not self.session.is_lost(error) or xid is None:
                    raise self.error(error) from error
                if not await self._committed(xid, error):
                    raise self.error(error) from error

    async def _begin(self) -> tuple[asyncpg.Connection, Transaction]:
        conn = await self._ready()
        xact = conn.transaction()
        await xact.start()
        return conn, xact

    async def _committed(self, xid: int, error: BaseException) -> bool:
        """Whether transaction `xid`, whose COMMIT was cut off, committed (asked on a new
        session, which fenced off the old one: the answer is final)."""

        async def status() -> str | None:
            answer: str | None = await (await self._ready()).fetchval("SELECT txid_status($1)", xid)
            return answer

        try:
            return await self.session.retry(status) == "committed"
        except StoreUnavailable:
            log.error(
                "the database %s went away during a COMMIT (%s) and did not come back in time: "
                "that transaction is reported as failed but may have been stored",
                self.name,
                error,
            )
            raise

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self._check_open()

        async def read() -> list[Row]:
            async with self.pool.acquire() as conn:
                return list(await conn.fetch(numbered(sql), *params))

        try:
            return await self.session.retry(read)
        except ENGINE_ERRORS as error:
            raise self.error(error) from error

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def write_batch(self, statements: Sequence[Statement]) -> None:
        """The statements in one transaction (`transaction`: its reconnection and its check of
        a COMMIT cut off), each sent once over its rows."""
        async with self.transaction() as conn:
            for sql, rows in statements:
                await conn.executemany(sql, rows)

    def write_now(
        self, statements: Sequence[Statement], done: Callable[[BaseException | None], None]
    ) -> bool:
        return False  # a write takes a pooled connection: awaited, under the lock

    def append_now(
        self, rows: list[ActionRow], at: str, done: Callable[[BaseException | None], None]
    ) -> bool:
        return False  # actions are pipelined on lanes of their own (`send_actions`)

    def one_trip_now(
        self,
        body: Callable[[Connection], Awaitable[T]],
        done: Callable[[T | None, BaseException | None], None],
    ) -> bool:
        return False  # a transaction's statements are round trips to the server: under the lock

    async def append_actions(self, rows: list[ActionRow], at: str) -> None:
        """One INSERT of every row (a column array each), committed on its own: one round trip
        and one WAL flush for the whole batch. If the connection is lost meanwhile, the batch
        is stored again on a new one (rows already committed skipped, by their key); if the
        server stays away, its rows are doubtful: deleted before the next write, since their
        callers hear that they failed."""
        columns = list(zip(*rows, strict=True))
        conn = await self._ready()
        try:
            await conn.execute(APPEND_ACTIONS, *columns, at)
            return
        except ENGINE_ERRORS as error:
            if not self.session.is_lost(error):
                raise

        async def again() -> str:
            tag: str = await (await self._ready()).execute(APPEND_ACTIONS_AGAIN, *columns, at)
            return tag

        try:
            inserted = _count(await self.session.retry(again))
        except StoreUnavailable:
            self.session.doubt([(row[0], row[1]) for row in rows])
            raise
        self._check_inserted(inserted, len(rows))

    @property
    def pipeline(self) -> int:
        """How many action batches may be in flight at once (0: one at a time, under `lock`)."""
        return len(self.lanes)

    async def settle(self) -> None:
        try:
            await self._ready()
        except ENGINE_ERRORS as error:
            raise self.error(error) from error

    def send_actions(self, rows: list[ActionRow], at: str, lane: int) -> asyncio.Task[None]:
        """Start committing a batch on action lane `lane` (free: the caller keeps one batch
        per lane); call with `lock` held, right after the batch was checked. Transactions
        begun after this wait for it (`drain`)."""
        task = asyncio.get_running_loop().create_task(self._append_on(rows, at, lane))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)
        return task

    async def drain(self) -> None:
        """Wait until every action batch sent so far has committed or failed."""
        while self._sending:
            await asyncio.wait(list(self._sending))

    async def _append_on(self, rows: list[ActionRow], at: str, lane: int) -> None:
        """append_actions on an action lane's own session; rows left in doubt are deleted by
        the writer's session (after ending the lane's backend) before its next write."""
        session = self.lanes[lane]
        columns = list(zip(*rows, strict=True))
        try:
            conn = await session.ready()
            await conn.execute(APPEND_ACTIONS, *columns, at)
            return
        except StoreUnavailable:
            raise
        except ENGINE_ERRORS as error:
            if not session.is_lost(error):
                raise self.error(error) from error

        async def again() -> str:
            tag: str = await (await session.ready()).execute(APPEND_ACTIONS_AGAIN, *columns, at)
            return tag

        try:
            inserted = _count(await session.retry(again))
        except StoreUnavailable:
            self.session.doubt([(row[0], row[1]) for row in rows], lost=session)
            raise
        except ENGINE_ERRORS as error:
            raise self.error(error) from error
        self._check_inserted(inserted, len(rows))

    def _check_inserted(self, inserted: int, size: int) -> None:
        if inserted not in (0, size):  # one atomic INSERT stored all of them or none
            raise StoreError(
                f"the database {self.name} holds {size - inserted} of {size} actions "
                "of a batch that was never acknowledged: another program writes to it."
            )

    async def check_integrity(self) -> list[str]:
        """Nothing to report from here: the server verifies its own pages and WAL."""
        return []

    def error(self, error: BaseException) -> BaseException:
        if isinstance(error, StoreError):
            return error
        if self.session.is_lost(error):
            return StoreUnavailable(
                f"the database {self.name} cannot be reached for now ({error}); nothing was stored."
            )
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
            with suppress(Exception):  # each batch's caller hears its own failure
                await self.drain()
            await self.pool.close()
            for lane in self.lanes:
                await lane.close()
            await self.session.close()


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
    session = WriterSession(url, name, partition)
    lanes: list[WriterSession] = []
    pool: asyncpg.Pool | None = None
    try:
        conn = await asyncpg.connect(url, server_settings=SERVER_SETTINGS)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
        raise StoreError(
            f"cannot connect to PostgreSQL at {name} ({error}); check DATABASE_URL and that the "
            "server is running."
        ) from error
    try:
        version = await migrate(conn, name, target=target_version)
        await session.connect(conn)
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=READ_POOL, server_settings=SERVER_SETTINGS
        )
        for _ in range(ACTION_LANES):
            lane = WriterSession(url, name, None)
            lanes.append(lane)
            await lane.connect()
    except BaseException as error:
        for lane in lanes:
            if lane.conn is not None:
                lane.conn.terminate()
        if pool is not None:
            pool.terminate()
        conn.terminate()
        if isinstance(error, ENGINE_ERRORS):
            raise StoreError(f"the database {name} cannot be used: {error}.") from error
        raise
    db = PostgresDatabase(url, session, pool, now, lanes)
    db.schema_version = version
    return db
