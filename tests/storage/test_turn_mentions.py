"""Turn mentions are kept while their turn lasts: a restarted bot reads them back (for the
open tables of its guilds) to delete them once played and not to mention the same turn again."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from storage import Store, TurnMention
from tests.storage.conftest import Location, ToyTable, raw_sql, resolve_toy

SNOWFLAKE = 1_200_000_000_000_000_123  # Discord ids do not fit in 32 bits


def mention(table_id: int, message_id: int = SNOWFLAKE, seat: int = 1) -> TurnMention:
    return TurnMention(
        table_id=table_id, channel_id=SNOWFLAKE - 1, message_id=message_id, seat=seat, round_no=3
    )


async def test_a_kept_mention_is_read_back_after_a_restart(location: Location) -> None:
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        table = await ToyTable.open(store)
        await store.save_turn_mention(mention(table.id))
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        assert await store.turn_mentions() == [mention(table.id)]


async def test_a_tables_newer_mention_replaces_the_last_and_outlives_a_late_delete(
    store: Store,
) -> None:
    table = await ToyTable.open(store)
    await store.save_turn_mention(mention(table.id))
    newer = mention(table.id, SNOWFLAKE + 1, seat=0)
    await store.save_turn_mention(newer)
    await store.delete_turn_mention(table.id, SNOWFLAKE)  # the older one's delete came late
    assert await store.turn_mentions() == [newer]
    await store.delete_turn_mention(table.id, newer.message_id)
    assert await store.turn_mentions() == []


async def test_only_the_mentions_of_open_tables_are_read_back(store: Store) -> None:
    playing, stopped = await ToyTable.open(store), await ToyTable.open(store, users=(103, 104))
    for table in (playing, stopped):
        await store.save_turn_mention(mention(table.id))
    await store.update_table(stopped.id, status="abandoned")
    assert await store.turn_mentions() == [mention(playing.id)]


async def test_forgetting_a_guild_forgets_its_tables_mentions(location: Location) -> None:
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        table = await ToyTable.open(store, guild_id=7)
        await store.save_turn_mention(mention(table.id))
        await store.guild_left(7)
        await store.set_retention_days(7, 0)
        assert await store.forget_guilds_past_retention() == [7]
    assert await raw_sql(location, "SELECT COUNT(*) FROM turn_mentions") == [(0,)]


async def test_a_burst_of_mention_writes_commits_together_each_tables_in_order(
    store: Store,
) -> None:
    tables = [await ToyTable.open(store, users=(200 + 2 * i, 201 + 2 * i)) for i in range(20)]
    for table in tables:
        await store.save_turn_mention(mention(table.id))
    transactions = 0
    write_batch = store._db.write_batch

    async def counted(statements: Any) -> None:
        nonlocal transactions
        transactions += 1
        await write_batch(statements)

    store._db.write_batch = counted  # type: ignore[method-assign]
    newer = [mention(table.id, SNOWFLAKE + 1, seat=0) for table in tables]
    writes = []
    for table, new in zip(tables, newer, strict=True):  # as a turn passes: forget, then keep
        writes += [store.delete_turn_mention(table.id, SNOWFLAKE), store.save_turn_mention(new)]
    writes.append(store.delete_turn_mention(tables[0].id, SNOWFLAKE))  # a late delete of the old
    await asyncio.gather(*writes)
    assert transactions < len(writes) / 4  # one commit for the burst, not one per write
    assert await store.turn_mentions() == newer  # each table's writes kept their order


async def test_a_burst_leaves_each_tables_mention_as_its_writes_in_order_would(
    store: Store,
) -> None:
    a, b, c, d = [await ToyTable.open(store, users=(300 + 2 * i, 301 + 2 * i)) for i in range(4)]
    for table in (a, b, c, d):
        await store.save_turn_mention(mention(table.id))
    await asyncio.gather(
        store.save_turn_mention(mention(a.id, SNOWFLAKE + 1)),  # a: kept, then forgotten
        store.delete_turn_mention(a.id, SNOWFLAKE + 1),
        store.delete_turn_mention(b.id, SNOWFLAKE + 9),  # b: another message's delete
        store.save_turn_mention(mention(c.id, SNOWFLAKE + 2)),  # c: a late delete of the old
        store.delete_turn_mention(c.id, SNOWFLAKE),
        store.delete_turn_mention(d.id, SNOWFLAKE),  # d: forgotten
    )
    assert await store.turn_mentions() == [mention(b.id), mention(c.id, SNOWFLAKE + 2)]


async def test_closing_the_store_during_a_commit_writes_what_came_meanwhile_and_returns(
    location: Location,
) -> None:
    """A write queued while a batch commits, then the close: the writer stores it and ends
    (it used to store it and wait for a wake-up that never came, so closing hung)."""
    store = await Store.open(location, games_resolver=resolve_toy)
    first, second = await ToyTable.open(store), await ToyTable.open(store, users=(103, 104))
    committing, closing = asyncio.Event(), asyncio.Event()
    write_batch = store._db.write_batch

    async def held(statements: Any) -> None:
        committing.set()
        await closing.wait()  # the batch commits once the close has begun
        await write_batch(statements)

    store._db.write_batch = held  # type: ignore[method-assign]
    # on SQLite a batch is sent at once when it can be (`write_now`): here it takes the lock
    store._db.write_now = lambda statements, done: False  # type: ignore[method-assign]
    close_writer = store._mentions.close

    async def close_mentions() -> None:
        closing.set()
        await close_writer()

    store._mentions.close = close_mentions  # type: ignore[method-assign]
    writes = [asyncio.create_task(store.save_turn_mention(mention(first.id)))]
    await committing.wait()
    writes.append(asyncio.create_task(store.save_turn_mention(mention(second.id))))
    await asyncio.sleep(0)  # queued while the first batch commits
    await asyncio.wait_for(store.close(), 10)  # a hang fails here, not at the suite's timeout
    await asyncio.gather(*writes)
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        assert await store.turn_mentions() == [mention(first.id), mention(second.id)]


async def test_a_batch_of_mention_writes_is_one_trip_to_the_sqlite_thread(db_path: Path) -> None:
    """BEGIN, the statements and COMMIT run as one call in the connection's thread: under load
    each trip waits for a turn of a busy event loop (seconds at 10,000 tables)."""
    async with await Store.open(db_path, games_resolver=resolve_toy) as store:
        tables = [await ToyTable.open(store, users=(400 + 2 * i, 401 + 2 * i)) for i in range(3)]
        for table in tables:
            await store.save_turn_mention(mention(table.id))
        conn = store._db.conn  # type: ignore[attr-defined]
        queue = conn._tx
        trips = 0

        class Counted:  # every call the connection's thread runs is put on this queue
            def put_nowait(self, item: Any) -> None:
                nonlocal trips
                trips += 1
                queue.put_nowait(item)

        conn._tx = Counted()
        writes = []
        for table in tables:  # a delete, a save and a forget: three statements
            writes += [
                store.delete_turn_mention(table.id, SNOWFLAKE),
                store.save_turn_mention(mention(table.id, SNOWFLAKE + 1)),
            ]
        writes.append(store.delete_turn_mention(tables[0].id, SNOWFLAKE + 1))
        writes.append(store.delete_turn_mention(tables[1].id, SNOWFLAKE + 5))
        await asyncio.gather(*writes)
        # the first write goes at once, alone; the nine queued behind it in one trip
        assert trips == 2
        conn._tx = queue
        assert await store.turn_mentions() == [
            mention(table.id, SNOWFLAKE + 1) for table in tables[1:]
        ]
