"""The append-only action log: what it refuses, and group commit under concurrency."""

from __future__ import annotations

import asyncio
import sqlite3

import asyncpg
import pytest

from storage import Store, StoreError, action_log
from tests.storage.conftest import Location, ToyTable, raw_sql, resolve_toy


async def test_action_after_or_at_the_last_one_is_refused(store: Store) -> None:
    toy = await ToyTable.open(store)
    await toy.new_round(seed=1)
    await toy.play("draw")
    with pytest.raises(StoreError, match="already has an action at or after it"):
        await store.record_action(toy.id, 0, 0, 0, "draw")
    assert (await store.load_round(toy.id, 0)).actions == [(1, "draw")]


async def test_action_for_unknown_or_finished_round_is_refused(store: Store) -> None:
    toy = await ToyTable.open(store)
    with pytest.raises(StoreError, match="unknown or already finished"):
        await store.record_action(toy.id, 0, 0, 0, "draw")
    await toy.play_round(seed=1)
    with pytest.raises(StoreError, match="unknown or already finished"):
        await store.record_action(toy.id, 0, 99, 0, "draw")


async def test_action_of_a_seat_not_at_the_table_is_refused(store: Store) -> None:
    toy = await ToyTable.open(store)
    await toy.new_round(seed=1)
    with pytest.raises(StoreError, match="seat 5 is not at that table"):
        await store.record_action(toy.id, 0, 0, 5, "draw")


async def test_an_empty_or_overlong_notation_is_refused(store: Store) -> None:
    toy = await ToyTable.open(store)
    await toy.new_round(seed=1)
    for notation in ("", "x" * 101):
        with pytest.raises(StoreError, match="1 to 100 characters"):
            await store.record_action(toy.id, 0, 0, 1, notation)
    assert (await store.load_round(toy.id, 0)).actions == []


async def test_a_refused_action_does_not_fail_the_others_of_its_batch(store: Store) -> None:
    tables = [await ToyTable.open(store) for _ in range(3)]
    for toy in tables:
        await toy.new_round(seed=toy.id)
    outcomes = await asyncio.gather(
        store.record_action(tables[0].id, 0, 0, 1, "draw"),
        store.record_action(tables[1].id, 7, 0, 1, "draw"),  # no such round
        store.record_action(tables[2].id, 0, 0, 1, "pass"),
        return_exceptions=True,
    )
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], StoreError)
    assert (await store.load_round(tables[0].id, 0)).actions == [(1, "draw")]
    assert (await store.load_round(tables[2].id, 0)).actions == [(1, "pass")]


async def test_the_log_cannot_be_rewritten(location: Location, store: Store) -> None:
    toy = await ToyTable.open(store)
    await toy.new_round(seed=1)
    await toy.play("draw")
    with pytest.raises((sqlite3.IntegrityError, asyncpg.RaiseError), match="append"):
        await raw_sql(location, "UPDATE actions SET notation = 'pass'")


async def test_using_a_closed_store_is_a_clear_error(location: Location) -> None:
    store = await Store.open(location, games_resolver=resolve_toy)
    toy = await ToyTable.open(store)
    await toy.new_round(seed=1)
    await store.close()
    with pytest.raises(StoreError, match="closed"):
        await store.record_action(toy.id, 0, 0, 1, "draw")
    with pytest.raises(StoreError, match="closed"):
        await store.get_table(toy.id)
    await store.close()  # closing twice is harmless


async def test_200_tables_recording_at_once_are_all_stored_in_order(store: Store) -> None:
    tables = [await ToyTable.open(store, draws_per_seat=10) for _ in range(200)]
    for toy in tables:
        await toy.new_round(seed=toy.id)
    commits_before = store.commits

    async def play_out(toy: ToyTable) -> None:
        for step in range(20):
            await toy.play("pass" if step % 3 == 0 else "draw")

    await asyncio.gather(*(play_out(toy) for toy in tables))  # any "locked" error would raise
    for toy in tables:
        stored = await store.load_round(toy.id, 0)
        assert stored == toy.round.record()
    # group commit: 4,000 actions needed far fewer transactions than actions
    assert store.commits - commits_before < 4000 // 10


async def test_after_a_restart_the_log_continues_from_the_stored_actions(
    location: Location,
) -> None:
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        toy = await ToyTable.open(store)
        await toy.new_round(seed=1)
        await toy.play("draw")
        await toy.play("draw")
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        toy.store = store
        with pytest.raises(StoreError, match="at or after it"):
            await store.record_action(toy.id, 0, 1, 0, "draw")
        await toy.play("pass")
        assert await store.load_round(toy.id, 0) == toy.round.record()


async def test_the_first_batch_after_a_restart_reads_its_rounds_together(
    location: Location, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(action_log, "LOOKUP_CHUNK", 4)  # 11 tables: chunks of 4, 4 and 3
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        tables = [await ToyTable.open(store) for _ in range(11)]
        await tables[0].play_round(seed=0)  # the first table is in its second round
        for toy in tables:
            await toy.new_round(seed=toy.id)
            await toy.play("draw")
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        first = tables[0]
        assert first.round_no == 1
        for toy in tables:
            toy.store = store
        # one batch: an action for every table, and one for the first table's finished round
        old_round = store.record_action(first.id, 0, 9, 0, "draw")
        results = await asyncio.gather(
            old_round, *(toy.play("pass") for toy in tables), return_exceptions=True
        )
        assert isinstance(results[0], StoreError) and "already finished" in str(results[0])
        assert results[1:] == [None] * len(tables)
        for toy in tables:
            assert await store.load_round(toy.id, toy.round_no or 0) == toy.round.record()
