"""Round starts and ends are group-committed (`storage.round_writer`): those that arrive
together go in one transaction, each keeps its own checks, and a failure costs only its own."""

from __future__ import annotations

import asyncio

import pytest

from games.contract import RoundRecord, RoundResult
from storage import Store, StoreError
from tests.storage.conftest import Location, ToyTable, raw_sql, resolve_toy, stored_seqs

WAVE = 12


async def opened_tables(store: Store, count: int) -> list[ToyTable]:
    return [await ToyTable.open(store) for _ in range(count)]


async def test_a_wave_of_round_starts_and_ends_commits_in_a_few_transactions(
    store: Store,
) -> None:
    tables = await opened_tables(store, WAVE)
    before = store._rounds.batches  # type: ignore[attr-defined]
    await asyncio.gather(*(toy.new_round(seed=index) for index, toy in enumerate(tables)))
    for toy in tables:
        while not toy.round.finished:
            await toy.play("draw")
    await asyncio.gather(*(toy.finish_round() for toy in tables))
    batches = store._rounds.batches - before  # type: ignore[attr-defined]
    assert 2 <= batches <= 4  # one for the first of each wave, one for those queued meanwhile
    assert [toy.round_no for toy in tables] == [0] * WAVE
    for toy in tables:
        result = await store.round_result(toy.id, 0)
        assert result is not None and result[1] == list(toy.match.totals)
    # and every table goes on: its next round starts, numbered after the first
    await asyncio.gather(*(toy.new_round(seed=99) for toy in tables))
    assert [toy.round_no for toy in tables] == [1] * WAVE


async def test_a_refused_round_start_fails_alone_and_its_batch_commits(
    store: Store, location: Location
) -> None:
    tables = await opened_tables(store, 3)
    await tables[1].new_round(seed=1)  # its round is open: another start is refused
    again = tables[1].match.new_round(seed=2).record()
    results = await asyncio.gather(
        tables[0].new_round(seed=3),
        store.start_round(tables[1].id, again),
        store.start_round(999_999, again),  # no such table
        tables[2].new_round(seed=4),
        return_exceptions=True,
    )
    assert results[0] is None and results[3] is None
    assert isinstance(results[1], StoreError) and "not finished" in str(results[1])
    assert isinstance(results[2], StoreError) and "no table 999999" in str(results[2])
    for toy in (tables[0], tables[2]):  # their rounds are open and take actions
        await toy.play("draw")
    assert await stored_seqs(location) == {
        (tables[0].id, 0): [0],
        (tables[2].id, 0): [0],
    }


async def test_a_round_end_of_an_unknown_round_is_refused_alone(store: Store) -> None:
    tables = await opened_tables(store, 2)
    for index, toy in enumerate(tables):
        await toy.new_round(seed=index)
        while not toy.round.finished:
            await toy.play("draw")
    result = tables[0].round.result()
    outcomes = await asyncio.gather(
        store.finish_round(tables[0].id, 7, result, [0, 0]),  # no round 7
        tables[1].finish_round(),
        return_exceptions=True,
    )
    assert isinstance(outcomes[0], StoreError) and "unknown or finished" in str(outcomes[0])
    assert outcomes[1] is None
    assert await store.round_result(tables[1].id, 0) is not None
    await tables[0].finish_round()  # the real one still ends
    assert await store.round_result(tables[0].id, 0) is not None


async def test_a_batch_that_fails_is_tried_again_one_by_one_so_only_the_bad_one_fails(
    store: Store, location: Location
) -> None:
    """A start that cannot be written (its options are no JSON) rolls back the whole batch,
    the round end in it included; each is then tried alone: the others commit."""
    tables = await opened_tables(store, 3)
    await tables[2].new_round(seed=5)
    while not tables[2].round.finished:
        await tables[2].play("draw")
    bad = RoundRecord(
        game="toy", rules_version=1, options={"odd": object()}, n_seats=2, dealer=0, deck=[]
    )
    outcomes = await asyncio.gather(
        tables[0].new_round(seed=6),
        store.start_round(tables[1].id, bad),
        tables[2].finish_round(),
        return_exceptions=True,
    )
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], StoreError)
    assert await raw_sql(
        location, "SELECT COUNT(*) FROM rounds WHERE table_id = ?", (tables[1].id,)
    ) == [(0,)]
    assert await store.round_result(tables[2].id, 0) is not None
    await tables[0].play("draw")  # the round that started in the retry takes actions
    with pytest.raises(StoreError, match="finished"):  # the ended one takes none
        await store.record_action(tables[2].id, 0, 99, 0, "draw")


async def test_a_caller_cancelled_before_its_batch_is_taken_starts_no_round(
    store: Store, location: Location
) -> None:
    first, second = await opened_tables(store, 2)
    leading = asyncio.ensure_future(first.new_round(seed=1))  # takes the writer's first batch
    await asyncio.sleep(0)
    record = second.match.new_round(seed=2).record()
    cancelled = asyncio.ensure_future(store.start_round(second.id, record))
    await asyncio.sleep(0)  # queued behind the first batch
    cancelled.cancel()
    await leading
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    assert await raw_sql(
        location, "SELECT COUNT(*) FROM rounds WHERE table_id = ?", (second.id,)
    ) == [(0,)]
    await second.new_round(seed=3)  # and the table starts its round later as usual
    assert second.round_no == 0


async def test_a_closed_store_refuses_a_round_start(tmp_path: object) -> None:
    store = await Store.open(
        tmp_path / "closed.sqlite3",  # type: ignore[operator]
        games_resolver=resolve_toy,
    )
    toy = await ToyTable.open(store)
    record = toy.match.new_round(seed=1).record()
    await store.close()
    with pytest.raises(StoreError, match="closed"):
        await store.start_round(toy.id, record)


async def test_a_round_ended_before_any_action_keeps_an_empty_log(
    store: Store, location: Location
) -> None:
    """(A table stopped at once, say: its end reads the round and no action in one query.)"""
    toy = await ToyTable.open(store)
    await toy.new_round(seed=8)
    started = toy.round.record()
    await store.finish_round(toy.id, 0, RoundResult(points=(0, 0)), [0, 0])
    assert await raw_sql(
        location, "SELECT log IS NOT NULL FROM rounds WHERE table_id = ?", (toy.id,)
    ) in ([(1,)], [(True,)])
    assert await store.load_round(toy.id, 0) == started
    assert await store.round_result(toy.id, 0) == (RoundResult(points=(0, 0)), [0, 0])
