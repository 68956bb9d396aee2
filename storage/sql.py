"""What the store's modules ask of a database, so one copy of them runs on SQLite and PostgreSQL.

The modules are guilds, tables, rounds, action log, recovery and stats; SQLite is `database.py`,
PostgreSQL `postgres.py`.

SQL is written once, with `?` placeholders and types both engines share; the PostgreSQL side
numbers the placeholders. A row reads by column name (`row["id"]`), by index, and `keys()`
(sqlite3.Row and asyncpg.Record both do).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
Row = Any  # sqlite3.Row or asyncpg.Record: row["column"], row[0], row.keys()
# One action log row: (round id, seq, seat, notation).
ActionRow = tuple[int, int, int, str]
# A statement and the parameters of each row it runs over (`Database.write_batch`).
Statement = tuple[str, Sequence[Sequence[Any]]]


class Connection(Protocol):
    """Statements inside a transaction (or the writer's own statements, under the lock)."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...
    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...
    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...


class Database(Protocol):
    """A backend's open database: the lock every write takes, transactions, reads, the
    durable append of action rows, and the clock that stamps rows."""

    now: Callable[[], datetime]
    lock: asyncio.Lock
    schema_version: int

    @property
    def name(self) -> str:
        """Where the data lives, for messages (a file path, or a URL without its password)."""
        ...

    @property
    def writer(self) -> Connection:
        """The connection writes use; only while holding `lock`."""
        ...

    def stamp(self) -> str: ...
    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """BEGIN … COMMIT under the lock, rolled back on any error; engine errors become
        StoreError."""
        ...

    async def one_trip(self, body: Callable[[Connection], Awaitable[T]]) -> T:
        """`body(conn)` in a transaction taken under the lock, as `transaction` does, its
        result returned. The body awaits nothing but its connection's statements: on SQLite
        it then runs whole in the connection's thread, BEGIN to COMMIT, in one trip (a
        transaction of several statements made as many trips, each waiting for a turn of the
        busy event loop while holding the lock every action's write waits for); awaiting
        anything else there is refused (RuntimeError, rolled back)."""
        ...

    async def write_batch(self, statements: Sequence[Statement]) -> None:
        """Run each statement over its rows, in order, in one transaction taken under the
        lock: all or nothing, durable on return, engine errors become StoreError. On SQLite
        the whole transaction (BEGIN, the statements, COMMIT) is one trip to the connection's
        thread: each trip waits for a turn of the event loop, under load longer than the
        statements take."""
        ...

    def write_now(
        self, statements: Sequence[Statement], done: Callable[[BaseException | None], None]
    ) -> bool:
        """`write_batch` without suspending, when it can be: False if the lock is held (a
        transaction is under way), else the transaction is sent at once and `done(None)`, or
        `done(StoreError)`, is called on the event loop when it has committed or failed.
        Writes sent so are committed in the order sent, each whole before the next. On SQLite
        a write sent so costs one turn of the event loop less, and waits for no other: a
        group-committed writer holding the lock across its trip made every other writer wait
        for the loop turns of that trip (a click's action behind the turn mentions' batches:
        docs/performance.md). PostgreSQL: always
        False (its writes go through the lock)."""
        ...

    def one_trip_now(
        self,
        body: Callable[[Connection], Awaitable[T]],
        done: Callable[[T | None, BaseException | None], None],
    ) -> bool:
        """`one_trip` without the lock, when it can be: False if the lock is held, else the
        transaction is sent at once, behind what the connection's thread has queued, and
        `done(result, None)`, or `done(None, error)`, is called on the event loop when it has
        committed or failed, as `write_now`. The round starts and ends held the lock across
        their trip, every click's action waiting for it, and the trip's end waits for turns of
        the busy event loop: sent so, nothing waits for them but their own callers (the
        thread runs each call whole, in order: nothing comes between its statements).
        PostgreSQL: always False."""
        ...

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...
    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...
    async def fetch_for_writer(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows read on the writer's connection, with `lock` held (what the writer itself
        must see); PostgreSQL reconnects first if the connection was lost."""
        ...

    async def append_actions(self, rows: list[ActionRow], at: str) -> None:
        """Store these rows, stamped `at`, in one atomic transaction, durable when it returns.
        Called with `lock` held, outside any transaction. Raises StoreUnavailable when the
        database cannot be reached: the rows are then not stored (PostgreSQL makes sure of it
        even when a COMMIT's outcome was unknown)."""
        ...

    def append_now(
        self, rows: list[ActionRow], at: str, done: Callable[[BaseException | None], None]
    ) -> bool:
        """`append_actions` without suspending, when it can be, as `write_now` (called
        without the lock, right after checking the rows)."""
        ...

    async def check_integrity(self) -> list[str]:
        """Problems in the stored data, read without blocking the store ([]: none)."""
        ...

    def error(self, error: BaseException) -> BaseException:
        """The StoreError for an engine error (other exceptions are returned unchanged)."""
        ...

    async def close(self) -> None: ...


class PipelinedDatabase(Database, Protocol):
    """A database that commits action batches on connections of their own (PostgreSQL):
    `pipeline` batches may be in flight at once."""

    @property
    def pipeline(self) -> int: ...

    async def settle(self) -> None:
        """With `lock` held, before checking a batch: rows of a batch whose commit was in
        doubt (its callers told it failed) are deleted first, if the server kept them."""
        ...

    def send_actions(self, rows: list[ActionRow], at: str, lane: int) -> asyncio.Task[None]:
        """Start committing the rows, stamped `at`, on lane `lane` (0 to pipeline - 1, one
        batch per lane at a time); with `lock` held, right after checking them. The task ends
        once they are durable, or fails (StoreUnavailable: they are not stored)."""
        ...
