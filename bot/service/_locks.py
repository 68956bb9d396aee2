"""The locked section every change of a table goes through.

It holds the table's lock, changes, stores, then, on release, publishes the table's snapshot and
sends the collected notices.

Nothing outside the service reads a live table: it reads the snapshot published here, once
every change made under the lock is stored or rolled back, so a state whose write is pending
(or failed) is never shown.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.service import _snapshot_builder
from bot.service._live_table import LiveTable
from bot.service.errors import TableError
from bot.snapshots import LogEntry, PublicSnapshot
from storage.errors import StoreUnavailable

if TYPE_CHECKING:
    from bot.service.notifier import TableNotifier
    from bot.service.tables import Tables

log = logging.getLogger(__name__)

Notice = tuple[str, int, int | None]  # (notifier method, table id, seat)
MatchListener = Callable[[int], Awaitable[None]]


class Announcer:
    """Sends the notices a locked section collected, once the table's lock is released: to
    the notifier, and a stored match's end to the match listeners (the tournaments)."""

    def __init__(self, notifier: TableNotifier, match_listeners: list[MatchListener]) -> None:
        self.notifier = notifier
        self.match_listeners = match_listeners

    async def send(self, notes: list[Notice]) -> None:
        for kind, table_id, seat in notes:
            try:
                if kind == "turn_reminder":
                    assert seat is not None
                    await self.notifier.turn_reminder(table_id, seat)
                elif kind == "match_over":  # the match listeners', not the notifier's
                    for listener in self.match_listeners:
                        await listener(table_id)
                else:
                    await getattr(self.notifier, kind)(table_id)
            except Exception:  # the glue's trouble must never undo or block a stored change
                log.exception("notifier %s failed for table %s", kind, table_id)


class TableLock:
    """`async with tables.locked(id) as (table, notes)`: hold the table's lock; on
    release keep the table's log lines no other write kept (`Tables.save_log`), publish the
    table's snapshot (every change made under the lock is stored or rolled back by then), then
    send the collected notices. A change nobody announced (a rollback) is
    announced too, so the table message is re-rendered from what is stored."""

    def __init__(
        self,
        tables: Tables,
        table: LiveTable | None,
        *,
        table_id: int = 0,
        refuse_closed: bool = True,
        read_only: bool = False,
    ) -> None:
        self.tables = tables
        # a reader that changes nothing (a followed "My cards" message, for every player at
        # each change) neither republishes nor notifies: the published snapshot still holds
        self.read_only = read_only
        self._table = table  # None: the table of `table_id`, loaded first if need be
        self._table_id = table_id
        self.notes: list[Notice] = []
        self.refuse_closed = refuse_closed

    @property
    def table(self) -> LiveTable:
        assert self._table is not None
        return self._table

    async def __aenter__(self) -> tuple[LiveTable, list[Notice]]:
        if self._table is None:
            await self.tables.ready(self._table_id)
            self._table = self.tables.get(self._table_id)
        await self.table.lock.acquire()
        if self.table.closed and self.refuse_closed:
            self.table.lock.release()
            raise TableError("no_table", table_id=self.table.id)
        return self.table, self.notes

    async def __aexit__(self, *exc: object) -> None:
        table = self.table
        if self.read_only:
            table.lock.release()
            return
        before = table.published
        try:
            await self.tables.save_log(table)
        finally:  # cancelled meanwhile: the lock is released all the same
            publish(table)
            changed = ("table_changed", table.id, None)
            moved = before is not None and before.version != table.version
            if moved and not table.closed and changed not in self.notes:
                self.notes.append(changed)
            table.lock.release()
        await self.tables.announcer.send(self.notes)


def publish(table: LiveTable) -> None:
    """Only here, with every change stored, is the live table turned into what others see."""
    table.published = _snapshot_builder.public_snapshot(table)


def published(table: LiveTable) -> PublicSnapshot:
    assert table.published is not None, "a table is published before it is listed"
    return table.published


def changed(table: LiveTable, notes: list[Notice], entry: LogEntry | None = None) -> None:
    """The table changed under the lock: its log gets `entry`, and the glue will hear it."""
    if entry is not None:
        table.add_log(entry)
    table.version += 1
    if ("table_changed", table.id, None) not in notes:
        notes.append(("table_changed", table.id, None))


def store_failed(error: Exception) -> TableError:
    """The refusal of a click the store failed to save: the user reads one sentence and a
    short error id; the log has the id and the error (which may name the database's path)."""
    if isinstance(error, StoreUnavailable):  # the database server is away, for now
        return TableError("store_unavailable")
    return TableError("store_failed", error_id=logged_error_id("saving failed", error))


def logged_error_id(what: str, error: BaseException | None = None) -> str:
    """A short id for a failure a user is told of, logged once with the details."""
    error_id = secrets.token_hex(4)
    log.warning("%s (error %s): %r", what, error_id, error, exc_info=error)
    return error_id
