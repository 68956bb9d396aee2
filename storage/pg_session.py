"""The PostgreSQL writer's session, kept across a lost connection.

A connection is lost on a server restart, a network cut or `pg_terminate_backend`.

Every call that finds the connection lost reconnects and runs again (tenacity: exponential
backoff for up to `RECONNECT_WINDOW_S`); once a whole window has passed without the server, the
database counts as down and each later call tries once, so a click is refused at once with
`StoreUnavailable` while the server is away and works again as soon as it is back.

A new session first fences off the one it replaces: it terminates the old backend if the server
still runs it, then takes the shards' advisory locks again (`claim`, which waits for the old
session to be gone). After that no statement of the old session can still commit, so whatever
the server holds is final. Action rows whose COMMIT outcome stayed unknown, and whose callers
were told they failed, are then deleted before anything else is written (`doubt`): the database
holds exactly the acknowledged actions.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextlib import suppress
from datetime import datetime
from typing import TypeVar

import asyncpg
from tenacity import (
    AsyncRetrying,
    retry_if_exception,
    stop_after_attempt,
    stop_after_delay,
    wait_exponential,
    wait_random,
)

from storage.errors import StoreUnavailable
from storage.partition import Partition
from storage.pg_claim import claim

log = logging.getLogger(__name__)

SERVER_SETTINGS = {"synchronous_commit": "on", "application_name": "cardtable"}
RECONNECT_WINDOW_S = 10.0  # how long a call under way waits for a lost server to come back
CONNECT_TIMEOUT_S = 3.0
# Errors that mean the connection (or the server) is gone, not that a statement was refused.
LOST_ERRORS = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    # a connection the server ended while it was idle can still look open, but refuses work
    asyncpg.InternalClientError,
)
DELETE_ROWS = (
    "DELETE FROM actions WHERE (round_id, seq) IN (SELECT * FROM unnest($1::bigint[], $2::int[]))"
)
T = TypeVar("T")


class WriterSession:
    """The writer connection of one store: connected, fenced and holding its shards."""

    def __init__(self, url: str, name: str, partition: Partition | None) -> None:
        self.url = url
        self.name = name
        self.partition = partition
        self.conn: asyncpg.Connection | None = None
        self._backend: tuple[int, datetime] | None = None  # (pid, backend_start) of the session
        self._doubtful: list[tuple[int, int]] = []  # (round id, seq) told failed, maybe stored
        # backends of other sessions (the action lanes') to end before the doubtful rows go
        self._fence: list[tuple[int, datetime]] = []
        self.down = False  # a whole reconnect window passed without the server
        self.reconnects = 0

    def is_lost(self, error: BaseException) -> bool:
        """Whether `error` means the connection is gone (the statement's fate is unknown). The
        writer's connection is then dropped for good (the server may have said goodbye before
        the socket closed), so the next use reconnects."""
        if isinstance(error, asyncpg.InterfaceError):  # e.g. "connection is closed"
            lost = self.conn is None or self.conn.is_closed()
        else:
            lost = isinstance(error, LOST_ERRORS)
        if lost and self.conn is not None and not self.conn.is_closed():
            self.conn.terminate()
        return lost

    async def connect(self, conn: asyncpg.Connection | None = None) -> asyncpg.Connection:
        """One attempt at a new session (on `conn`, else a new connection): fence off the
        previous one, claim the shards. Raises the engine's error (or StoreError: a shard
        served by another process); the connection is closed then."""
        if conn is None:
            conn = await asyncpg.connect(
                self.url, server_settings=SERVER_SETTINGS, timeout=CONNECT_TIMEOUT_S
            )
        try:
            if self._backend is not None:
                await _terminate(conn, *self._backend)
            if self.partition is not None:
                await claim(conn, self.partition, self.name)
            row = await conn.fetchrow(
                "SELECT pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()"
            )
            assert row is not None
            self._backend = (row[0], row[1])
        except BaseException:
            conn.terminate()
            raise
        if self.conn is not None:
            self.reconnects += 1
            log.warning("reconnected to %s after a lost connection", self.name)
        self.conn = conn
        return conn

    async def ready(self) -> asyncpg.Connection:
        """The live connection, reconnected if it was lost, with doubtful rows settled. Call
        with the store's lock held. Raises StoreUnavailable when the server stays away."""
        conn = self.conn
        if conn is not None and not self._doubtful and not conn.is_closed():
            return conn  # the usual case, without a retry loop
        return await self.retry(self._ready_once)

    async def _ready_once(self) -> asyncpg.Connection:
        conn = self.conn
        if conn is None or conn.is_closed():
            conn = await self.connect()
        if self._doubtful:
            for backend in self._fence:  # none of their statements may commit after this
                await _terminate(conn, *backend)
            self._fence = []
            rounds, seqs = zip(*self._doubtful, strict=True)
            await conn.execute(DELETE_ROWS, list(rounds), list(seqs))
            log.warning(
                "%d actions whose commit was in doubt, reported as failed, are not kept",
                len(self._doubtful),
            )
            self._doubtful = []
        return conn

    def doubt(self, rows: list[tuple[int, int]], lost: WriterSession | None = None) -> None:
        """Rows (round id, seq) whose COMMIT outcome is unknown and whose callers are told they
        failed: deleted, if stored, before the next write on a new session. `lost`: the
        session (an action lane) that sent them, when not this one: its backend is ended
        before they are deleted."""
        self._doubtful.extend(rows)
        if lost is not None and lost._backend is not None:
            self._fence.append(lost._backend)

    async def retry(self, work: Callable[[], Awaitable[T]]) -> T:
        """Run `work`, again after a lost connection, until it succeeds or the reconnect window
        (one attempt while the database is down) has passed: then StoreUnavailable."""
        stop = stop_after_attempt(1) if self.down else stop_after_delay(RECONNECT_WINDOW_S)
        try:
            async for attempt in AsyncRetrying(
                stop=stop,
                wait=wait_exponential(multiplier=0.05, max=1.0) + wait_random(0, 0.05),
                retry=retry_if_exception(self.is_lost),
                reraise=True,
            ):
                with attempt:
                    result = await work()
        except Exception as error:
            if not self.is_lost(error):
                raise
            self.down = True
            raise StoreUnavailable(
                f"the database {self.name} cannot be reached for now ({error or type(error)})."
            ) from error
        self.down = False
        return result

    async def close(self) -> None:
        if self.conn is not None and not self.conn.is_closed():
            await self.conn.close()


async def _terminate(conn: asyncpg.Connection, pid: int, started: datetime) -> None:
    """End the previous session if the server still runs it (a network cut can leave it alive
    for a while): none of its statements may commit after this session begins writing."""
    with suppress(asyncpg.InsufficientPrivilegeError):  # claim() still waits for it to go
        await conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE pid = $1 AND backend_start = $2",
            pid,
            started,
        )
