"""Where each table's message lives: its thread and its message, kept as the store has them."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from bot.ui.locations import Location, TableLocations
from storage.models import TableRecord


class SlowRecords:
    """A store whose writes wait until the test lets them through, one at a time."""

    def __init__(self) -> None:
        now = datetime.now(UTC)
        self.record = TableRecord(
            id=1, guild_id=1, channel_id=10, game="dutch", host_id=7, created_at=now, updated_at=now
        )
        self.writing = asyncio.Event()  # a write is under way
        self.written = asyncio.Event()  # the test lets it finish

    async def get_table(self, table_id: int) -> TableRecord:
        return self.record

    async def update_table(self, table_id: int, **fields: Any) -> None:
        self.writing.set()
        await self.written.wait()
        self.record = self.record.model_copy(update=fields)


async def test_a_thread_set_while_the_message_is_written_is_kept_with_it() -> None:
    """The table message posted (its id written) while the lesson's thread is set: both are
    kept, neither write undoes the other in the cache."""
    records = SlowRecords()
    locations = TableLocations(records, is_open=lambda _table_id: True)
    assert await locations.get(1) == Location(10)
    message = asyncio.create_task(locations.set_message(1, 500))
    await records.writing.wait()  # the message's write waits, its location read before it
    records.written.set()
    await locations.set_thread(1, 99)
    await message
    assert await locations.get(1) == Location(10, thread_id=99, message_id=500)
    assert (records.record.thread_id, records.record.message_id) == (99, 500)
