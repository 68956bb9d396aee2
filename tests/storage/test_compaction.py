"""A round that takes no more actions is one compressed record: nothing of it is lost (it
replays the same, times included), and rounds stored before compaction are compacted later."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import Store, StoreError
from storage.check import main as check_main
from storage.compaction import decode_log, encode_log
from tests.storage.conftest import Location, ToyTable, raw_sql, resolve_toy


async def count(location: Location, sql: str) -> int:
    return int((await raw_sql(location, sql))[0][0])


async def test_a_finished_round_keeps_its_log_as_one_record(
    store: Store, location: Location
) -> None:
    toy = await ToyTable.open(store, target=1000)
    await toy.new_round(seed=5)
    await toy.play("pass")
    while not toy.round.finished:
        await toy.play("draw")
    played = toy.round.record()
    await toy.finish_round()
    await toy.new_round(seed=6)
    await toy.play("draw")
    assert await count(location, "SELECT COUNT(*) FROM rounds WHERE log IS NOT NULL") == 1
    assert await count(location, "SELECT COUNT(*) FROM actions") == 1  # the open round's only
    assert await store.load_round(toy.id, 0) == played


async def test_a_stopped_tables_unfinished_round_is_compacted_and_takes_no_more_actions(
    store: Store, location: Location
) -> None:
    toy = await ToyTable.open(store, target=1000)
    await toy.new_round(seed=3)
    await toy.play("draw")
    await toy.play("pass")
    record = toy.round.record()
    await store.update_table(toy.id, status="abandoned")
    assert await count(location, "SELECT COUNT(*) FROM actions") == 0
    assert await store.load_round(toy.id, 0) == record
    with pytest.raises(StoreError, match="unknown or already finished"):
        await store.record_action(toy.id, 0, 2, 0, "draw")


async def test_rounds_stored_before_compaction_still_load_and_are_compacted_later(
    store: Store, location: Location
) -> None:
    toys = [await ToyTable.open(store, target=1000) for _ in range(3)]
    for toy in toys:
        await toy.play_round(seed=toy.id, moves="dpd")
    expected = [await store.load_round(toy.id, 0) for toy in toys]
    # as a database from before compaction holds them
    for round_id, started_at, log in await raw_sql(
        location, "SELECT id, started_at, log FROM rounds"
    ):
        for seq, seat, notation, at in decode_log(started_at, log):
            await raw_sql(
                location,
                "INSERT INTO actions (round_id, seq, seat, notation, at) VALUES (?, ?, ?, ?, ?)",
                (round_id, seq, seat, notation, at.isoformat()),
            )
    await raw_sql(location, "UPDATE rounds SET log = NULL")
    assert [await store.load_round(toy.id, 0) for toy in toys] == expected
    assert await store.compact_history(limit=2) == 2
    assert await store.compact_history(limit=2) == 1
    assert await store.compact_history(limit=2) == 0
    assert await count(location, "SELECT COUNT(*) FROM actions") == 0
    assert [await store.load_round(toy.id, 0) for toy in toys] == expected


def test_the_record_keeps_seq_seat_notation_and_time_to_the_millisecond() -> None:
    rows = [
        (0, 1, "draw", "2026-01-02T03:04:05.678000+00:00"),
        (2, 0, "swap 3", "2026-01-02T03:04:09.001000+00:00"),
    ]
    decoded = decode_log("2026-01-02T03:04:00+00:00", encode_log("2026-01-02T03:04:00+00:00", rows))
    assert [(seq, seat, notation, at.isoformat()) for seq, seat, notation, at in decoded] == rows


async def test_the_whole_file_check_runs_on_demand(db_path: Path) -> None:
    async with await Store.open(db_path, games_resolver=resolve_toy) as store:
        toy = await ToyTable.open(store)
        await toy.play_round(seed=1)
        assert await store.check_integrity() == []
        assert check_main([str(db_path)]) == 0
