"""A lost PostgreSQL connection (the backend terminated, the server restarted) is restored:
calls under way run again on a new connection, every acknowledged action is stored exactly
once, nothing refused is kept, and the store carries on; while the server is away a call is
refused with StoreUnavailable."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator

import pytest

from storage import Store, StoreUnavailable, pg_session
from storage.postgres import PostgresDatabase
from tests.postgres_server import PostgresServer
from tests.storage.conftest import ToyTable, raw_sql, resolve_toy, stored_seqs

TABLES = 12
ACTIONS = 30  # per table
TERMINATE_EVERY = 60  # acknowledged actions before each terminate
# A table waits at these seqs until the next terminate has been sent: the terminates fall while
# actions are under way, never after the last one (60 acknowledged out of 12 x 10 possible).
GATES = (10, 20)
TERMINATE = (
    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
    "WHERE application_name = 'cardtable' AND pid <> pg_backend_pid()"
)


@pytest.fixture
async def pg_store(postgres_server: PostgresServer) -> AsyncIterator[Store]:
    store = await Store.open(await postgres_server.create_database(), games_resolver=resolve_toy)
    try:
        yield store
    finally:
        await store.close()


async def open_rounds(store: Store, count: int) -> list[ToyTable]:
    tables = [await ToyTable.open(store, users=(10 + 2 * i, 11 + 2 * i)) for i in range(count)]
    for table in tables:
        await table.new_round(seed=table.id)
    return tables


def round_key(table: ToyTable) -> tuple[int, int]:
    assert table.round_no is not None
    return (table.id, table.round_no)


async def record(store: Store, table: ToyTable, seq: int, notation: str = "draw") -> None:
    await store.record_action(table.id, table.round_no or 0, seq, seq % 2, notation)


async def test_actions_under_way_survive_terminated_backends(
    pg_store: Store, postgres_server: PostgresServer
) -> None:
    tables = await open_rounds(pg_store, TABLES)
    acked: dict[tuple[int, int], list[int]] = defaultdict(list)
    progressed = asyncio.Event()
    terminated = {gate: asyncio.Event() for gate in GATES}

    def total() -> int:
        return sum(map(len, acked.values()))

    async def play(table: ToyTable) -> None:
        for seq in range(ACTIONS):
            if seq in terminated:
                await terminated[seq].wait()
            await record(pg_store, table, seq)
            acked[round_key(table)].append(seq)
            progressed.set()

    async def terminate_twice() -> list[int]:
        ended = []
        for gate in GATES:  # each time once the store has acknowledged more actions
            target = total() + TERMINATE_EVERY
            assert target < TABLES * gate  # reached before every table waits at the gate
            while total() < target:
                progressed.clear()
                await progressed.wait()
            ended.append((await raw_sql(postgres_server.url(), TERMINATE))[0][0])
            terminated[gate].set()
        return ended

    *_, ended = await asyncio.gather(*(play(t) for t in tables), terminate_twice())
    assert all(count >= 1 for count in ended)  # the writer, and the readers that were open
    assert await stored_seqs(pg_store_location(pg_store)) == acked
    assert all(seqs == list(range(ACTIONS)) for seqs in acked.values())
    # reads (the pool), transactions and new actions work on the new connections
    await raw_sql(postgres_server.url(), TERMINATE)
    assert len(await pg_store.leaderboard(1, "toy")) == 0
    await ToyTable.open(pg_store)
    for table in tables[1:]:
        await record(pg_store, table, ACTIONS)
    stored = await stored_seqs(pg_store_location(pg_store))
    assert all(stored[round_key(t)] == list(range(ACTIONS + 1)) for t in tables[1:])


async def test_a_server_restart_is_waited_for_and_refused_once_it_lasts(
    pg_store: Store, postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = await open_rounds(pg_store, 2)
    await record(pg_store, first, 0)
    # an action under way while the server restarts is stored once it is back
    await asyncio.to_thread(postgres_server.pause)
    try:
        under_way = asyncio.create_task(record(pg_store, first, 1))
        await asyncio.sleep(0)  # let it start before the server comes back
    finally:
        await asyncio.to_thread(postgres_server.resume)
    await under_way
    # a server away for longer than the reconnect window: refused, and at once afterwards
    monkeypatch.setattr(pg_session, "RECONNECT_WINDOW_S", 0.2)
    await asyncio.to_thread(postgres_server.pause)
    try:
        with pytest.raises(StoreUnavailable, match="cannot be reached"):
            await record(pg_store, first, 2)
        with pytest.raises(StoreUnavailable, match="cannot be reached"):
            await record(pg_store, second, 0)
        with pytest.raises(StoreUnavailable):
            await pg_store.leaderboard(1, "toy")
        with pytest.raises(StoreUnavailable):
            await pg_store.update_table(first.id, status="playing")
    finally:
        await asyncio.to_thread(postgres_server.resume)
    # back: the refused actions are played again and the table carries on
    await record(pg_store, first, 2)
    await record(pg_store, second, 0, "pass")
    await record(pg_store, first, 3)
    stored = await stored_seqs(pg_store_location(pg_store))
    assert stored[round_key(first)] == [0, 1, 2, 3] and stored[round_key(second)] == [0]


async def test_actions_whose_commit_was_in_doubt_are_not_kept_once_refused(
    pg_store: Store, postgres_server: PostgresServer
) -> None:
    (table,) = await open_rounds(pg_store, 1)
    await record(pg_store, table, 0)
    db = pg_store._db
    assert isinstance(db, PostgresDatabase)
    # A batch committed just as the connection went, then the server stayed away: its caller
    # heard it failed, so the row must not stay once the server is back.
    (round_id,) = (await raw_sql(pg_store_location(pg_store), "SELECT id FROM rounds"))[0]
    await raw_sql(
        pg_store_location(pg_store),
        "INSERT INTO actions (round_id, seq, seat, notation, at) VALUES (?, 1, 1, 'draw', 'x')",
        (round_id,),
    )
    db.session.doubt([(round_id, 1)])
    await raw_sql(postgres_server.url(), TERMINATE)
    await record(pg_store, table, 1, "pass")  # the click played again, differently
    rows = await raw_sql(
        pg_store_location(pg_store), "SELECT seq, notation FROM actions ORDER BY seq"
    )
    assert rows == [(0, "draw"), (1, "pass")]


def pg_store_location(store: Store) -> str:
    db = store._db
    assert isinstance(db, PostgresDatabase)
    return db.url
