"""`Database.write_batch`: a write-only transaction given whole (on SQLite, one trip to the
connection's thread) is all or nothing, and a failed one leaves the store usable."""

from __future__ import annotations

import pytest

from storage import Store, StoreError
from storage.mentions import SAVE
from tests.storage.conftest import Location, ToyTable, resolve_toy
from tests.storage.test_turn_mentions import SNOWFLAKE, mention

INSERT = (
    "INSERT INTO turn_mentions (table_id, channel_id, message_id, seat, round_no) "
    "VALUES (?, ?, ?, ?, ?)"
)


async def test_a_batch_that_fails_midway_stores_none_of_its_statements(location: Location) -> None:
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        kept, other = await ToyTable.open(store), await ToyTable.open(store, users=(103, 104))
        await store.save_turn_mention(mention(kept.id))
        saved = (other.id, SNOWFLAKE - 1, SNOWFLAKE, 1, 3)
        twice = [(kept.id, SNOWFLAKE - 1, SNOWFLAKE + 1, 0, 3)] * 2  # a key taken: refused
        with pytest.raises(StoreError):
            await store._db.write_batch([(SAVE, [saved]), (INSERT, twice)])
        assert await store.turn_mentions() == [mention(kept.id)]  # the first one undone too
        await store._db.write_batch([(SAVE, [saved])])  # no transaction was left open
        assert await store.turn_mentions() == [mention(kept.id), mention(other.id)]
