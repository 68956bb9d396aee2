"""`Database.one_trip`: a transaction of several statements whose body awaits only them. On
SQLite it runs whole in the connection's thread, BEGIN to COMMIT, in one trip: a round's
start and end held the store's lock across six or seven trips, each waiting for a turn of a
busy event loop, and every action's write waited for that lock."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from storage import Store, StoreError
from storage.sql import Connection
from tests.storage.conftest import Location, ToyTable, raw_sql, resolve_toy

COUNT_TABLES = "SELECT COUNT(*) FROM tables"
BUMP = "UPDATE tables SET status = 'abandoned' WHERE id = ?"


async def test_a_round_starts_and_ends_in_one_trip_each_to_the_sqlite_thread(
    db_path: Path,
) -> None:
    async with await Store.open(db_path, games_resolver=resolve_toy) as store:
        toy = await ToyTable.open(store)
        connection = store._db.conn  # type: ignore[attr-defined]
        queue = connection._tx  # every call aiosqlite's thread runs is put in it
        trips: list[object] = []

        class Counted:
            def put_nowait(self, item: Any) -> None:
                trips.append(item[1])
                queue.put_nowait(item)

        connection._tx = Counted()  # the thread still reads the queue itself
        await toy.new_round(seed=3)
        assert len(trips) == 1
        while not toy.round.finished:
            await toy.play("draw")
        trips.clear()
        await toy.finish_round()
        assert len(trips) == 1
        connection._tx = queue
        assert (await store.load_active_tables()).tables  # the store reads back what it wrote


async def test_a_body_that_fails_is_rolled_back_and_the_store_goes_on(
    location: Location,
) -> None:
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        toy = await ToyTable.open(store)

        async def fails(conn: Connection) -> None:
            await conn.execute(BUMP, (toy.id,))
            raise StoreError("refused")

        with pytest.raises(StoreError):
            await store._db.one_trip(fails)  # type: ignore[attr-defined]
        assert await raw_sql(location, "SELECT status FROM tables WHERE id = ?", (toy.id,)) == [
            ("playing",)
        ]

        async def counts(conn: Connection) -> int:
            row = await conn.fetchone(COUNT_TABLES)
            assert row is not None
            return int(row[0])

        assert await store._db.one_trip(counts) == 1  # type: ignore[attr-defined]


async def test_a_sqlite_body_that_awaits_anything_else_is_refused_and_rolled_back(
    db_path: Path,
) -> None:
    """In the connection's thread nothing else can be awaited (the event loop is elsewhere):
    the body is stopped, not left half done."""
    async with await Store.open(db_path, games_resolver=resolve_toy) as store:
        toy = await ToyTable.open(store)

        async def strays(conn: Connection) -> None:
            await conn.execute(BUMP, (toy.id,))
            await asyncio.sleep(0)

        with pytest.raises(RuntimeError, match="awaited something else"):
            await store._db.one_trip(strays)  # type: ignore[attr-defined]
        rows = await raw_sql(db_path, "SELECT status FROM tables WHERE id = ?", (toy.id,))
        assert rows == [("playing",)]
