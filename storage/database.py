"""Opening the SQLite file (checks, pragmas, migrations) and the one connection every query uses.

All access goes through one aiosqlite connection guarded by one asyncio lock, so a transaction
is never interleaved with another coroutine's statements and "database is locked" cannot
happen inside the process. Durability: WAL with synchronous=FULL by default, so a COMMIT has
reached the disk before it returns (safe against power loss, not only against the process being
killed, which NORMAL would already survive); `synchronous="NORMAL"` trades that for speed.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import sqlite3
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Coroutine,
    Generator,
    Iterable,
    Sequence,
)
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

import aiosqlite

from storage.checkpointer import FALLBACK_PAGES, Checkpointer
from storage.errors import StoreError
from storage.integrity import BackgroundCheck, quick_check
from storage.migrate import migrate
from storage.sql import ActionRow, Connection, Row, Statement

T = TypeVar("T")

SQLITE_HEADER = b"SQLite format 3\x00"
Synchronous = Literal["FULL", "NORMAL"]
INTEGRITY_CHECK_DELAY = 60.0  # seconds after the start: the first clicks come first
STATEMENT_CACHE = 64  # prepared statements kept per connection (the store has fewer texts)
# One statement text for every batch size: the rows travel as one JSON array parameter. A
# multi-row VALUES list needs one text per row count, and each text is a statement sqlite3
# prepares and caches (hundreds of distinct sizes held hundreds of MB); this one is prepared
# once and stays in the connection's statement cache (bounded by `cached_statements`).
INSERT_ACTIONS = (
    "INSERT INTO actions (round_id, seq, seat, notation, at) "
    "SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), "
    "json_extract(value, '$[2]'), json_extract(value, '$[3]'), ? FROM json_each(?)"
)


class SqliteConnection:
    """The `storage.sql.Connection` statements on the one aiosqlite connection."""

    __slots__ = ("_conn",)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cursor = await self._conn.execute(sql, params)
        count = cursor.rowcount
        await cursor.close()
        return count

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._conn.executemany(sql, rows)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._conn.execute_fetchall(sql, params))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self._conn.execute_fetchall(sql, params)
        return next(iter(rows), None)


class _Done:
    """An awaitable that is done at once: a statement run in the connection's thread."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __await__(self) -> Generator[Any, None, Any]:
        yield from ()
        return self.value


class InThreadConnection:
    """The `storage.sql.Connection` statements on the sqlite3 connection itself, in its
    thread: each runs when called, and awaiting it does not suspend (`Database.one_trip`)."""

    __slots__ = ("_raw",)

    def __init__(self, raw: sqlite3.Connection) -> None:
        self._raw = raw

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Awaitable[int]:
        cursor = self._raw.execute(sql, params)
        count = cursor.rowcount
        cursor.close()
        return _Done(count)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> Awaitable[None]:
        self._raw.executemany(sql, rows)
        return _Done(None)

    def fetchall(self, sql: str, params: Sequence[Any] = ()) -> Awaitable[list[Row]]:
        return _Done(self._raw.execute(sql, params).fetchall())

    def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Awaitable[Row | None]:
        return _Done(self._raw.execute(sql, params).fetchone())


class Database:
    """The connection, its lock, and the clock that stamps rows."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        path: Path,
        now: Callable[[], datetime],
        lock_fd: int | None = None,
    ) -> None:
        self.conn = conn
        self.writer = SqliteConnection(conn)
        self.path = path
        self.now = now
        self.lock_fd = lock_fd
        self.lock = asyncio.Lock()
        self.schema_version = 0
        self.closed = False
        self.checkpointer: Checkpointer | None = None
        self.integrity: BackgroundCheck | None = None

    @property
    def name(self) -> str:
        return str(self.path)

    def committed(self) -> None:
        """Called after each commit: the background checkpointer copies the WAL soon."""
        if self.checkpointer is not None:
            self.checkpointer.nudge()

    async def close(self) -> None:
        self.closed = True
        if self.integrity is not None:
            self.integrity.stop()
        if self.checkpointer is not None:
            await asyncio.to_thread(self.checkpointer.stop)  # before the last checkpoint
            self.checkpointer = None
        try:
            await self.conn.close()
        finally:
            unlock_database_file(self.lock_fd)
            self.lock_fd = None

    def _check_open(self) -> None:
        if self.closed:
            raise StoreError(f"the store on {self.path} is closed.")

    def stamp(self) -> str:
        return self.now().isoformat()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteConnection]:
        """BEGIN IMMEDIATE … COMMIT under the lock; rolled back on any error. SQLite errors
        become StoreError."""
        self._check_open()
        async with self.lock:
            try:
                try:
                    await self.conn.execute("BEGIN IMMEDIATE")
                except BaseException:
                    # Cancelled while waiting for BEGIN: the connection's thread runs it all
                    # the same, so a ROLLBACK is queued behind it (its calls run in order)
                    # before the lock is released, or the next transaction finds one open.
                    await asyncio.shield(self.conn.rollback())
                    raise
                try:
                    yield self.writer
                except BaseException:
                    await asyncio.shield(self.conn.rollback())
                    raise
                await self.conn.execute("COMMIT")
                self.committed()
            except sqlite3.Error as error:
                if self.conn.in_transaction:
                    await self.conn.rollback()
                raise self.error(error) from error

    async def write_batch(self, statements: Sequence[Statement]) -> None:
        """The transaction whole in one trip to the connection's thread (see
        `storage.sql.Database.write_batch`)."""
        self._check_open()
        async with self.lock:
            try:
                # aiosqlite runs each call in its thread, in order; `_execute` (pinned minor
                # version) runs this function there as one call: the event loop waits once
                await _in_thread(self.conn, _write_batch, self.conn._conn, statements)
            except sqlite3.Error as error:
                raise self.error(error) from error
            self.committed()

    async def one_trip(self, body: Callable[[Connection], Awaitable[T]]) -> T:
        """The transaction whole in one trip to the connection's thread (see
        `storage.sql.Database.one_trip`)."""
        self._check_open()
        async with self.lock:
            try:
                # aiosqlite runs each call in its thread, in order (see `write_batch`)
                result: T = await _in_thread(self.conn, _one_trip, self.conn._conn, body)
            except sqlite3.Error as error:
                raise self.error(error) from error
            self.committed()
            return result

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        self._check_open()
        async with self.lock:
            try:
                return list(await self.conn.execute_fetchall(sql, tuple(params)))
            except sqlite3.Error as error:
                raise self.error(error) from error

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetch_for_writer(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return await self.writer.fetchall(sql, params)

    async def append_actions(self, rows: list[ActionRow], at: str) -> None:
        """One INSERT of every row outside any transaction: SQLite commits it as one atomic,
        durable transaction before it returns, in a single trip to the connection's thread."""
        # (a write sent at once may be mid-transaction in the thread now: this runs after it)
        await self.conn.execute(INSERT_ACTIONS, (at, json.dumps(rows, separators=(",", ":"))))
        self.committed()

    def write_now(
        self, statements: Sequence[Statement], done: Callable[[BaseException | None], None]
    ) -> bool:
        return self._send_now(functools.partial(_write_batch, self.conn._conn, statements), done)

    def append_now(
        self, rows: list[ActionRow], at: str, done: Callable[[BaseException | None], None]
    ) -> bool:
        # one statement outside any transaction: SQLite commits it atomically
        rows_json = json.dumps(rows, separators=(",", ":"))
        write = functools.partial(_execute, self.conn._conn, INSERT_ACTIONS, (at, rows_json))
        return self._send_now(write, done)

    def one_trip_now(
        self,
        body: Callable[[Connection], Awaitable[T]],
        done: Callable[[T | None, BaseException | None], None],
    ) -> bool:
        raw = self.conn._conn
        result: list[T] = []  # set in the thread before `done` is called on the loop

        def write() -> None:
            result.append(_one_trip(raw, body))

        def finished(error: BaseException | None) -> None:
            done(result[0] if error is None else None, error)

        return self._send_now(write, finished)

    def _send_now(
        self, write: Callable[[], None], done: Callable[[BaseException | None], None]
    ) -> bool:
        """Queue `write` on the connection's thread, behind what is queued there already,
        unless a transaction holds the lock (its statements must not be interleaved)."""
        if self.closed or self.lock.locked():
            return False

        def finished(error: BaseException | None) -> None:
            if error is None:
                self.committed()
            done(None if error is None else self.error(error))

        # aiosqlite's thread runs (future, function) pairs from this queue in order and
        # resolves the future with `call_soon_threadsafe` (pinned minor version, as `_execute`)
        resolved = cast("asyncio.Future[Any]", _Resolved(asyncio.get_running_loop(), finished))
        self.conn._tx.put_nowait((resolved, write))
        return True

    async def check_integrity(self) -> list[str]:
        try:
            return await asyncio.to_thread(quick_check, self.path)
        except sqlite3.OperationalError as error:
            raise StoreError(f"cannot check {self.path}: {error}.") from error

    def error(self, error: BaseException) -> BaseException:
        if not isinstance(error, sqlite3.Error):
            return error
        if isinstance(error, sqlite3.DatabaseError) and not isinstance(
            error, sqlite3.IntegrityError
        ):
            return StoreError(f"the database {self.path} cannot be used: {error}.")
        return StoreError(f"the database {self.path} refused a write: {error}.")


async def _in_thread(conn: aiosqlite.Connection, function: Callable[..., T], *args: Any) -> T:
    """`function(*args)` run in the connection's thread as one call, in order with its others
    (aiosqlite's `_execute`, untyped: pinned minor version)."""
    execute = cast("Callable[..., Awaitable[T]]", conn._execute)
    return await execute(function, *args)


class _Resolved:
    """Stands for the future aiosqlite's thread resolves, with `call_soon_threadsafe`, when a
    call ends: `done` runs in that very callback, a turn of the event loop before an asyncio
    future's own callbacks would run (and with no task to wake after them)."""

    __slots__ = ("_done", "_loop", "_resolved")

    def __init__(
        self, loop: asyncio.AbstractEventLoop, done: Callable[[BaseException | None], None]
    ) -> None:
        self._loop = loop
        self._done = done
        self._resolved = False

    def get_loop(self) -> asyncio.AbstractEventLoop:
        return self._loop

    def done(self) -> bool:
        return self._resolved

    def set_result(self, _result: object) -> None:
        self._resolved = True
        self._done(None)

    def set_exception(self, error: BaseException) -> None:
        self._resolved = True
        self._done(error)


def _execute(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> None:
    conn.execute(sql, params).close()


def _write_batch(conn: sqlite3.Connection, statements: Sequence[Statement]) -> None:
    """In the connection's thread: BEGIN IMMEDIATE, each statement over its rows, COMMIT;
    rolled back on any error (the connection is in autocommit mode: isolation_level None)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        for sql, rows in statements:
            conn.executemany(sql, rows)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.rollback()
        raise


def _one_trip(raw: sqlite3.Connection, body: Callable[[Connection], Awaitable[T]]) -> T:
    """In the connection's thread: BEGIN IMMEDIATE, the body (its statements run as they are
    awaited, so it ends without suspending), COMMIT; rolled back on any error."""
    raw.execute("BEGIN IMMEDIATE")
    try:
        steps = cast(Coroutine[Any, Any, T], body(cast(Connection, InThreadConnection(raw))))
        try:
            steps.send(None)
        except StopIteration as done:
            result: T = done.value
        else:
            steps.close()
            raise RuntimeError("a one-trip transaction awaited something else than a statement")
        raw.execute("COMMIT")
        return result
    except BaseException:
        if raw.in_transaction:
            raw.rollback()
        raise


def _check_file(path: Path) -> None:
    """Refuse a directory or a file that is not SQLite before SQLite touches it."""
    if path.is_dir():
        raise StoreError(f"{path} is a directory; DATABASE_PATH must name a file.")
    if path.exists() and path.stat().st_size > 0:
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
        if header != SQLITE_HEADER:
            raise StoreError(
                f"{path} is not an SQLite database (it may be another kind of file); "
                "choose another DATABASE_PATH or move that file away."
            )


async def open_database(
    path: Path,
    *,
    now: Callable[[], datetime],
    synchronous: Synchronous = "FULL",
    target_version: int | None = None,
    integrity_check_delay: float | None = INTEGRITY_CHECK_DELAY,
) -> Database:
    """Create the parent directories, open the file in WAL mode, check it and migrate it. The
    whole-file check runs `integrity_check_delay` seconds later in the background (None: not
    at all); see storage/integrity.py."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _check_file(path)
    except OSError as error:
        raise StoreError(f"cannot use {path}: {error.strerror or error}.") from error
    if synchronous not in ("FULL", "NORMAL"):
        raise StoreError(f"synchronous must be FULL or NORMAL, not {synchronous!r}.")
    lock_fd = lock_database_file(path)
    try:
        # sqlite3 caches prepared statements by text, at most `cached_statements` of them. The
        # store's texts are constants or one of a few variants (the columns a table update sets,
        # one mark per seat): none grows with a batch's size or a value, so the cache holds a
        # small, fixed set of small statements.
        conn = await aiosqlite.connect(
            str(path), isolation_level=None, cached_statements=STATEMENT_CACHE
        )
    except sqlite3.Error as error:
        unlock_database_file(lock_fd)
        raise StoreError(f"cannot open {path}: {error}.") from error
    db = Database(conn, path, now, lock_fd)
    try:
        conn.row_factory = sqlite3.Row
        mode = await conn.execute_fetchall("PRAGMA journal_mode = WAL")
        if next(iter(mode))[0].lower() != "wal":
            raise StoreError(f"{path} cannot use WAL mode (is it on a network filesystem?).")
        await conn.execute(f"PRAGMA synchronous = {synchronous}")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA busy_timeout = 10000")
        # Every page read is checked as it is read (a damaged page recovery needs is refused
        # as corrupt); the whole file is checked later, in the background.
        await conn.execute("PRAGMA cell_size_check = ON")
        db.schema_version = await migrate(conn, str(path), target=target_version)
        await conn.execute(f"PRAGMA wal_autocheckpoint = {FALLBACK_PAGES}")
        db.checkpointer = Checkpointer(path, synchronous)
        db.checkpointer.start()
        if integrity_check_delay is not None:
            db.integrity = BackgroundCheck(path, integrity_check_delay)
            db.integrity.start()
    except sqlite3.DatabaseError as error:
        await db.close()
        raise StoreError(
            f"{path} is corrupt or not an SQLite database ({error}); "
            "restore it from a backup or choose another DATABASE_PATH."
        ) from error
    except BaseException:
        await db.close()
        raise
    return db


def lock_database_file(path: Path) -> int | None:
    """Hold `<file>-lock` while the store is open: a second bot on the same file would play the
    same tables twice, so it is refused. The OS drops the lock when the process dies."""
    try:
        import fcntl
    except ImportError:  # not on POSIX: no guard
        return None
    lock_path = f"{path}-lock"
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise StoreError(f"cannot create {lock_path}: {error.strerror or error}.") from error
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StoreError(
            f"{path} is already in use by another running bot (or store); stop it first, or "
            "give this one another DATABASE_PATH."
        ) from None
    return fd


def unlock_database_file(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)  # closing the descriptor releases the lock
