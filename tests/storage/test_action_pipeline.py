"""PostgreSQL's pipelined group commit: a batch whose COMMIT has not returned does not hold back
the next one, yet every caller hears only once its own batch has committed, and a round's rows
are committed in order (a row waits while an earlier batch holding its round is in flight)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import asyncpg
import pytest

from storage import Store
from tests.postgres_server import PostgresServer
from tests.storage.conftest import resolve_toy, stored_seqs
from tests.storage.test_reconnect import open_rounds, pg_store_location, record, round_key

WAIT_S = 30.0  # for the server to show a statement waiting on a lock (a loaded machine)


@pytest.fixture
async def pg_store(postgres_server: PostgresServer) -> AsyncIterator[Store]:
    store = await Store.open(await postgres_server.create_database(), games_resolver=resolve_toy)
    try:
        yield store
    finally:
        await store.close()


async def _until_an_insert_waits(admin: asyncpg.Connection) -> None:
    """Until a statement of the store waits for a row lock (the server's state, polled)."""
    deadline = time.monotonic() + WAIT_S
    while not await admin.fetchval("SELECT count(*) FROM pg_locks WHERE NOT granted"):
        assert time.monotonic() < deadline, "the store's INSERT never reached the server"
        await asyncio.sleep(0.01)


async def test_a_batch_in_flight_holds_back_only_its_own_rounds_and_callers(
    pg_store: Store,
    postgres_server: PostgresServer,
) -> None:
    first, second = await open_rounds(pg_store, 2)
    location = pg_store_location(pg_store)
    blocker = await asyncpg.connect(location)
    admin = await asyncpg.connect(location)
    try:
        (round_id,) = await blocker.fetchrow("SELECT id FROM rounds WHERE table_id = $1", first.id)
        # Another session writes the same (round, seq) and keeps its transaction open: the
        # store's INSERT of that key waits on it, its COMMIT not done.
        xact = blocker.transaction()
        await xact.start()
        await blocker.execute(
            "INSERT INTO actions (round_id, seq, seat, notation, at) "
            "VALUES ($1, 0, 0, 'draw', 'x')",
            round_id,
        )
        held = asyncio.ensure_future(record(pg_store, first, 0))
        await _until_an_insert_waits(admin)
        later = asyncio.ensure_future(record(pg_store, first, 1))  # same round: waits its turn
        # another round: committed meanwhile, on another lane
        await asyncio.wait_for(record(pg_store, second, 0), WAIT_S)
        assert not held.done() and not later.done()  # acknowledged only once committed
        stored = await stored_seqs(location)
        assert round_key(first) not in stored and stored[round_key(second)] == [0]
        await xact.rollback()  # the other session's row goes: the store's batch commits
        await asyncio.gather(held, later)
    finally:
        await blocker.close()
        await admin.close()
    stored = await stored_seqs(location)
    assert stored[round_key(first)] == [0, 1] and stored[round_key(second)] == [0]
