"""Where each table's public message lives (channel or thread, message id).

It is kept in the store so that a restarted bot edits the same message."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from storage.models import TableRecord


class TableRecords(Protocol):
    async def get_table(self, table_id: int) -> TableRecord: ...

    async def update_table(
        self, table_id: int, *, message_id: int | None = ..., thread_id: int | None = ...
    ) -> None: ...


@dataclass(frozen=True, slots=True)
class Location:
    channel_id: int
    thread_id: int | None = None
    message_id: int | None = None

    @property
    def post_channel_id(self) -> int:
        """Where the table message goes: the table's thread, else its channel."""
        return self.thread_id if self.thread_id is not None else self.channel_id


class TableLocations:
    """The locations of open tables, cached. A closed table's location is still answered (its
    closing edit needs it) but read from the store and not kept: the cache holds open tables
    only, and `forget` drops a table when it closes."""

    def __init__(self, store: TableRecords, is_open: Callable[[int], bool]) -> None:
        self._store = store
        self._is_open = is_open
        self._known: dict[int, Location] = {}

    def __len__(self) -> int:
        return len(self._known)

    async def get(self, table_id: int) -> Location:
        found = self._known.get(table_id)
        if found is None:
            record = await self._store.get_table(table_id)
            found = Location(record.channel_id, record.thread_id, record.message_id)
            self._keep(table_id, found)
        return found

    async def set_message(self, table_id: int, message_id: int) -> None:
        await self.get(table_id)
        await self._store.update_table(table_id, message_id=message_id)
        self._changed(table_id, message_id=message_id)

    async def set_thread(self, table_id: int, thread_id: int) -> None:
        await self.get(table_id)
        await self._store.update_table(table_id, thread_id=thread_id)
        self._changed(table_id, thread_id=thread_id)

    def _changed(self, table_id: int, **changes: int) -> None:
        """One field of the location kept, on the location as it is now: the other field may
        have been set while the store was written (the table's message posted as its lesson's
        thread was set), and a location read before the write would lose it."""
        location = self._known.get(table_id)
        if location is not None:
            self._keep(table_id, replace(location, **changes))

    def forget(self, table_id: int) -> None:
        self._known.pop(table_id, None)

    def _keep(self, table_id: int, location: Location) -> None:
        if self._is_open(table_id):
            self._known[table_id] = location
