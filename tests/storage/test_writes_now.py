"""Group-committed writes sent at once (`Database.append_now`, `write_now`): on SQLite the
action log's and the turn mentions' batches go to the connection's thread without taking the
store's lock, one behind the other, and never into a transaction under way."""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from storage import Store, StoreError
from storage.database import Database
from tests.storage.conftest import ToyTable, resolve_toy, stored_seqs
from tests.storage.test_turn_mentions import mention

MARK: contextvars.ContextVar[str] = contextvars.ContextVar("mark", default="store")


async def turns(count: int = 5) -> None:
    """Let the event loop run a few turns (what a task woken meanwhile would do, it has)."""
    for _ in range(count):
        await asyncio.sleep(0)


async def hold_thread(db: Database) -> tuple[asyncio.Future[None], Callable[[], None]]:
    """Keep the connection's thread busy until the returned callable is called."""
    running, go = threading.Event(), threading.Event()

    def hold() -> None:
        running.set()
        go.wait()

    held = asyncio.ensure_future(db.conn._execute(hold))
    await asyncio.to_thread(running.wait)
    return held, go.set


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> Store:
    store = await Store.open(tmp_path / "now.db", games_resolver=resolve_toy)
    yield store
    await store.close()


async def test_writers_in_flight_hold_no_lock_and_queue_behind_each_other(
    sqlite_store: Store,
) -> None:
    store = sqlite_store
    db = store._db
    toy = await ToyTable.open(store)
    await toy.new_round(seed=1)
    held, release = await hold_thread(db)
    try:
        await turns()
        saved = asyncio.ensure_future(store.save_turn_mention(mention(toy.id)))
        recorded = asyncio.ensure_future(store.record_action(toy.id, 0, 0, 0, "draw"))
        await turns()
        # both batches wait in the thread's queue; neither waits for the other's trip to end
        assert not db.lock.locked()
        assert db.conn._tx.qsize() == 2
    finally:
        release()
    await asyncio.gather(held, saved, recorded)
    assert await store.turn_mentions() == [mention(toy.id)]
    assert (await store.load_round(toy.id, 0)).actions == [(0, "draw")]


async def test_round_starts_and_ends_in_flight_hold_no_lock_and_share_one_trip(
    sqlite_store: Store,
) -> None:
    """Their batch queues in the connection's thread like the others: a click's action, sent
    meanwhile, waits for no lock behind it."""
    store = sqlite_store
    db = store._db
    ending, starting, playing = [await ToyTable.open(store) for _ in range(3)]
    await ending.new_round(seed=1)
    while not ending.round.finished:
        await ending.play("draw")
    await playing.new_round(seed=3)
    held, release = await hold_thread(db)
    try:
        await turns()
        ended = asyncio.ensure_future(ending.finish_round())
        started = asyncio.ensure_future(starting.new_round(seed=2))
        await turns()
        recorded = asyncio.ensure_future(store.record_action(playing.id, 0, 0, 0, "draw"))
        await turns()
        assert not db.lock.locked()
        assert db.conn._tx.qsize() == 2  # the rounds' one batch, then the action's
    finally:
        release()
    await asyncio.gather(held, ended, started, recorded)
    assert await store.round_result(ending.id, 0) is not None
    assert starting.round_no == 0
    await starting.play("draw")  # the round started is open for its actions
    assert (await store.load_round(playing.id, 0)).actions == [(0, "draw")]


async def test_a_second_batch_queues_behind_the_first_and_a_rounds_later_rows_wait(
    sqlite_store: Store,
) -> None:
    """A row that comes while a batch is on its way goes behind it in the thread's queue at
    once (two batches at most), unless its round has a row in that batch: it waits for it, so
    a round's rows commit in order."""
    store = sqlite_store
    db = store._db
    first, second, third = [await ToyTable.open(store) for _ in range(3)]
    for toy in (first, second, third):
        await toy.new_round(seed=1)
    held, release = await hold_thread(db)
    try:
        await turns()
        writes = [asyncio.ensure_future(store.record_action(first.id, 0, 0, 0, "draw"))]
        await turns()
        writes.append(asyncio.ensure_future(store.record_action(first.id, 0, 1, 1, "draw")))
        await turns()
        assert db.conn._tx.qsize() == 1  # its round's row is on its way: it waits
        writes.append(asyncio.ensure_future(store.record_action(second.id, 0, 0, 0, "draw")))
        await turns()
        assert db.conn._tx.qsize() == 2  # another round's row goes behind it at once
        writes.append(asyncio.ensure_future(store.record_action(third.id, 0, 0, 0, "draw")))
        await turns()
        assert db.conn._tx.qsize() == 2  # two batches on their way: the rest wait
    finally:
        release()
    await asyncio.gather(held, *writes)
    assert await stored_seqs(db.path) == {
        (first.id, 0): [0, 1],
        (second.id, 0): [0],
        (third.id, 0): [0],
    }


async def test_a_write_never_joins_a_transaction_under_way(tmp_path: Path) -> None:
    location = tmp_path / "tx.db"
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        toy = await ToyTable.open(store)
        await toy.new_round(seed=1)
        await store.record_action(toy.id, 0, 0, 0, "draw")  # the round is known: sent at once
        writes: list[asyncio.Future[None]] = []
        with pytest.raises(RuntimeError, match="rolled back"):
            async with store._db.transaction():
                writes.append(asyncio.ensure_future(store.record_action(toy.id, 0, 1, 1, "draw")))
                writes.append(asyncio.ensure_future(store.save_turn_mention(mention(toy.id))))
                await turns()
                raise RuntimeError("rolled back")
        await asyncio.gather(*writes)  # stored after the transaction, not inside it
        assert await store.turn_mentions() == [mention(toy.id)]
    assert (await stored_seqs(location))[(toy.id, 0)] == [0, 1]


async def test_a_write_that_waits_for_the_lock_runs_as_the_store_not_as_its_caller(
    sqlite_store: Store,
) -> None:
    """A bot move's write may start the task that waits for the lock; that task works for
    every caller (a click's rows join its batch), so it keeps the store's own context."""
    store = sqlite_store
    db = store._db
    toy = await ToyTable.open(store)
    seen: list[str] = []
    write_batch = db.write_batch

    async def observed(statements: object) -> None:
        seen.append(MARK.get())
        await write_batch(statements)  # type: ignore[arg-type]

    db.write_batch = observed  # type: ignore[method-assign]

    async def caller() -> None:
        MARK.set("caller")
        await store.save_turn_mention(mention(toy.id))

    async with db.lock:  # a transaction under way: the write must wait for it
        saved = asyncio.ensure_future(caller())
        await turns()
        assert not saved.done()
    await saved
    assert seen == ["store"]


async def test_closing_stores_the_batch_in_flight_and_those_queued(tmp_path: Path) -> None:
    location = tmp_path / "close.db"
    store = await Store.open(location, games_resolver=resolve_toy)
    toy = await ToyTable.open(store)
    await toy.new_round(seed=1)
    held, release = await hold_thread(store._db)
    try:
        await turns()
        first = asyncio.ensure_future(store.record_action(toy.id, 0, 0, 0, "draw"))
        await turns()
        second = asyncio.ensure_future(store.record_action(toy.id, 0, 1, 1, "draw"))
        await turns()
        closing = asyncio.ensure_future(store.close())
        await turns()
        assert not closing.done()
    finally:
        release()
    await asyncio.gather(held, first, second, closing)
    assert (await stored_seqs(location))[(toy.id, 0)] == [0, 1]
    with pytest.raises(StoreError, match="closed"):
        await store.record_action(toy.id, 0, 2, 0, "draw")


async def test_an_action_sent_under_the_lock_waits_for_a_transaction_sent_at_once(
    sqlite_store: Store,
) -> None:
    """A batch sent at once may be mid-transaction in the connection's thread when a batch
    that took the lock is sent: that one queues behind it (it used to assert that no
    transaction was open, read from the event loop's thread, and fail)."""
    store = sqlite_store
    db = store._db
    toy = await ToyTable.open(store)
    await toy.new_round(seed=1)
    running, go = threading.Event(), threading.Event()

    def hold(_: object) -> int:
        running.set()
        go.wait()
        return 0

    await db.conn._execute(db.conn._conn.create_function, "hold", 1, hold)
    committed: list[BaseException | None] = []
    stall = [("UPDATE tables SET status = status WHERE hold(?) = 1", [(1,)])]
    try:
        assert db.write_now(stall, committed.append)
        await asyncio.to_thread(running.wait)  # BEGIN is done, the transaction open
        async with db.lock:  # the action's batch goes the locked way
            recorded = asyncio.ensure_future(store.record_action(toy.id, 0, 0, 0, "draw"))
            await turns()
        await turns()
    finally:
        go.set()
    await recorded
    assert committed == [None]
    assert (await store.load_round(toy.id, 0)).actions == [(0, "draw")]


async def test_a_round_batch_on_its_way_when_its_writer_is_cancelled_ends_quietly(
    sqlite_store: Store,
) -> None:
    """(The event loop closing cancels the writer: the batch's trip ends later, in the thread,
    and nobody is left to tell; that is no error.)"""
    store = sqlite_store
    db = store._db
    toy = await ToyTable.open(store)
    errors: list[dict[str, object]] = []
    asyncio.get_running_loop().set_exception_handler(lambda _, context: errors.append(context))
    held, release = await hold_thread(db)
    try:
        await turns()
        started = asyncio.ensure_future(toy.new_round(seed=1))
        await turns()
        assert db.conn._tx.qsize() == 1  # the round's batch, behind the held thread
        store._rounds._task.cancel()
        started.cancel()
        await turns()
    finally:
        release()
    await held
    await store.get_guild_settings(99)  # a trip queued after the batch's: its end has run
    assert errors == []
