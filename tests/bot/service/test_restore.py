"""A new service on the same database file continues every table where it stood."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.service import (
    LOBBY,
    PLAYING,
    ROUND_OVER,
    FakeClock,
    PlayerRef,
    RecordingNotifier,
    TableService,
)
from storage import GuildSettings, Store
from tests.bot.service.conftest import (
    ANN,
    BOB,
    CAT,
    CHANNEL,
    GUILD,
    end_round_quickly,
    open_dutch,
    peek_all,
    user_at,
)


async def restarted(
    db_path: Path, seeds: Callable[[], int]
) -> tuple[TableService, Store, FakeClock]:
    store = await Store.open(db_path, synchronous="NORMAL")
    clock = FakeClock(start=2_000_000_000.0)
    service = TableService(store, clock, RecordingNotifier(), seeds)
    await service.restoring.restore()
    return service, store, clock


async def test_a_restart_mid_round_continues_the_round(
    service: TableService, store: Store, db_path: Path, seeds: Callable[[], int]
) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    await peek_all(service, table_id)
    before = service.public_snapshot(table_id)
    player = user_at(before, before.to_act[0])
    await service.play.act(table_id, player, 0, "draw")
    before = service.public_snapshot(table_id)
    held = (await service.play.private_view(table_id, player)).view
    await store.close()

    again, new_store, clock = await restarted(db_path, seeds)
    try:
        after = again.public_snapshot(table_id)
        assert after.status == PLAYING and after.round_no == 0
        assert after.view == before.view and after.to_act == before.to_act
        assert [s.user_id for s in after.seats] == [ANN.user_id, BOB.user_id]
        assert again.tables.table_of_user(GUILD, ANN.user_id) == table_id
        assert (await again.play.private_view(table_id, player)).view == held
        result = await again.play.act(table_id, player, 0, "discard")  # the old round_no is valid
        assert result.round_no == 0
        assert (await new_store.load_round(table_id, 0)).actions[-1] == (result.seat, "discard")
        assert after.turn_deadline == clock.now() + 90  # timers re-armed
    finally:
        await new_store.close()


async def test_a_restart_between_rounds_starts_the_next_round_after_the_pause(
    service: TableService, store: Store, db_path: Path, seeds: Callable[[], int]
) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    await end_round_quickly(service, table_id)
    totals = service.public_snapshot(table_id).totals
    await store.close()

    again, new_store, clock = await restarted(db_path, seeds)
    try:
        snapshot = again.public_snapshot(table_id)
        assert snapshot.status == ROUND_OVER and snapshot.totals == totals
        await clock.advance(again.timers.next_round_seconds)
        snapshot = again.public_snapshot(table_id)
        assert snapshot.status == PLAYING and snapshot.round_no == 1
    finally:
        await new_store.close()


async def test_a_restart_at_a_later_round_s_end_keeps_that_round_s_number(
    service: TableService, store: Store, db_path: Path, seeds: Callable[[], int]
) -> None:
    """Restored before Next round, the table's buttons carry the round just finished (its
    "Next round" and "My cards" ids), not round 0's."""
    table_id = await open_dutch(service, [ANN, BOB])
    await end_round_quickly(service, table_id)
    await service.play.next_round(table_id, ANN.user_id)
    await end_round_quickly(service, table_id)
    before = service.public_snapshot(table_id)
    assert before.status == ROUND_OVER and before.round_no == 1
    await store.close()

    again, new_store, _clock = await restarted(db_path, seeds)
    try:
        after = again.public_snapshot(table_id)
        assert after.status == ROUND_OVER and after.round_no == before.round_no
    finally:
        await new_store.close()


async def test_a_restart_keeps_lobbies_and_seats(
    service: TableService, store: Store, db_path: Path, seeds: Callable[[], int]
) -> None:
    table_id = await open_dutch(service, [ANN, BOB], start=False)
    await service.seating.add_bot(table_id, ANN.user_id)
    await store.close()
    again, new_store, _ = await restarted(db_path, seeds)
    try:
        snapshot = again.public_snapshot(table_id)
        assert snapshot.status == LOBBY
        assert [(s.user_id, s.is_bot) for s in snapshot.seats] == [
            (ANN.user_id, False),
            (BOB.user_id, False),
            (None, True),
        ]
        await again.seating.join(table_id, CAT)
        await again.seating.start(table_id, ANN.user_id)
        await again.followup.settle(table_id)  # the bot's peek follows the start
        started = again.public_snapshot(table_id)
        assert started.status == PLAYING and started.to_act == (0, 1, 3)
    finally:
        await new_store.close()


async def test_a_table_clicked_right_after_a_restart_is_loaded_first_and_whole(
    service: TableService, store: Store, db_path: Path, seeds: Callable[[], int]
) -> None:
    players = [PlayerRef(500 + i, f"P{i}") for i in range(8)]
    ids = [await open_dutch(service, players[i : i + 2]) for i in range(0, 8, 2)]
    for table_id in ids:
        await peek_all(service, table_id)
    last = ids[-1]
    before = service.public_snapshot(last)
    await store.close()

    new_store = await Store.open(db_path, synchronous="NORMAL")
    again = TableService(new_store, FakeClock(), RecordingNotifier(), seeds)
    loads: list[list[int]] = []
    try:
        assert await again.restoring.start(lambda restored, _: loads.append(restored), batch=1) == 4
        # known before it is loaded: its players are seated, its channel lists it
        assert again.tables.table_of_user(GUILD, players[6].user_id) == last
        assert again.has_table(last) and last in again.tables_in_channel(CHANNEL)
        player = user_at(before, before.to_act[0])
        await again.play.act(last, player, 0, "draw")  # waits for its load, then plays
        assert loads[0] == [last]  # before the tables the background had not reached
        after = again.public_snapshot(last)
        assert after.status == PLAYING and after.seats == before.seats
        await again.restoring.wait()
        assert sorted(i for batch in loads for i in batch) == ids
    finally:
        await again.close()
        await new_store.close()


async def test_a_table_found_broken_at_restart_frees_its_players(
    service: TableService, store: Store, db_path: Path, seeds: Callable[[], int]
) -> None:
    table_id = await open_dutch(service, [ANN, BOB])
    await store.close()
    with sqlite3.connect(db_path) as raw:  # its game is gone from this version of the bot
        raw.execute("UPDATE tables SET game = 'retired' WHERE id = ?", (table_id,))

    again, new_store, _ = await restarted(db_path, seeds)
    try:
        assert not again.has_table(table_id)
        assert again.tables.table_of_user(GUILD, ANN.user_id) is None
        assert (await new_store.get_table(table_id)).status == "broken"
    finally:
        await new_store.close()


async def test_a_table_clicked_during_a_background_batch_loads_before_the_next_batch(
    service: TableService, store: Store, db_path: Path, seeds: Callable[[], int]
) -> None:
    players = [PlayerRef(600 + i, f"P{i}") for i in range(8)]
    ids = [await open_dutch(service, players[i : i + 2]) for i in range(0, 8, 2)]
    await store.close()

    new_store = await Store.open(db_path, synchronous="NORMAL")
    load = new_store.load_active_tables
    events: list[tuple[str, tuple[int, ...]]] = []
    first_started, first_ended = asyncio.Event(), asyncio.Event()

    async def watched_load(*args: Any, table_ids: Sequence[int]) -> Any:
        batch = tuple(table_ids)
        events.append(("start", batch))
        if batch == (ids[0], ids[1]):
            first_started.set()
        elif batch == (ids[3],):  # the click's load: it runs once the first batch is done
            await first_ended.wait()
        loaded = await load(*args, table_ids=table_ids)
        events.append(("end", batch))
        if batch == (ids[0], ids[1]):
            first_ended.set()
        return loaded

    new_store.load_active_tables = watched_load  # type: ignore[method-assign]
    again = TableService(new_store, FakeClock(), RecordingNotifier(), seeds)
    try:
        await again.restoring.start(batch=2)
        await first_started.wait()  # the background is loading the first two tables
        await again.restoring.ready(ids[3])  # a click on the last one meanwhile
        await again.restoring.wait()
        # the background started no batch while the clicked table was loading
        assert events.index(("end", (ids[3],))) < events.index(("start", (ids[2],)))
        assert again.table_ids() == ids and all(again.loaded(i) for i in ids)
    finally:
        await again.close()
        await new_store.close()


async def test_a_guild_s_damaged_settings_stop_no_table_from_loading(
    service: TableService, store: Store, db_path: Path, seeds: Callable[[], int]
) -> None:
    """`'{bad'` in one guild's presets: that guild's tables load with its defaults, and every
    other guild's tables load too (the settings were read outside the per-table guard, and
    the failing batch was tried again forever)."""
    players = [PlayerRef(700 + i, f"P{i}") for i in range(6)]
    damaged = await open_dutch(service, players[:2])
    others = [
        (await service.seating.open_table(GUILD + 1 + i, CHANNEL, players[2 + i], "dutch")).table_id
        for i in range(4)
    ]
    await store.close()
    with sqlite3.connect(db_path) as raw:
        raw.execute(
            "INSERT INTO guild_settings (guild_id, default_presets, turn_seconds, "
            "reveal_seconds, use_threads, updated_at) VALUES (?, '{bad', 30, 8, 0, '0')",
            (GUILD,),
        )

    store_again = await Store.open(db_path, synchronous="NORMAL")
    loads: list[tuple[int, ...]] = []
    load = store_again.load_active_tables

    async def counted(*args: Any, table_ids: Sequence[int]) -> Any:
        loads.append(tuple(table_ids))
        return await load(*args, table_ids=table_ids)

    store_again.load_active_tables = counted  # type: ignore[method-assign]
    again = TableService(store_again, FakeClock(), RecordingNotifier(), seeds)
    try:
        await again.restoring.start(batch=25)
        await asyncio.wait_for(again.restoring.wait(), 10)
        assert sorted(again.table_ids()) == sorted([damaged, *others])
        assert len(loads) == 1  # one batch, no retry
        assert again.public_snapshot(damaged).status == PLAYING
    finally:
        await again.close()
        await store_again.close()


async def test_a_batch_that_fails_loads_table_by_table_and_the_bad_one_is_broken_once(
    service: TableService, store: Store, db_path: Path, seeds: Callable[[], int]
) -> None:
    """A failure the store did not catch (a damaged row of any kind it reads) fails the whole
    batch: its tables are then loaded one by one, the one that fails alone is marked broken
    and its players freed, and nothing is tried again in a loop."""
    players = [PlayerRef(800 + i, f"P{i}") for i in range(6)]
    ids = [await open_dutch(service, players[i : i + 2]) for i in range(0, 6, 2)]
    bad = ids[1]
    await store.close()

    store_again = await Store.open(db_path, synchronous="NORMAL")
    loads: list[tuple[int, ...]] = []
    load = store_again.load_active_tables

    async def failing(*args: Any, table_ids: Sequence[int]) -> Any:
        loads.append(tuple(table_ids))
        if bad in table_ids:
            raise ValueError("a damaged row")
        return await load(*args, table_ids=table_ids)

    store_again.load_active_tables = failing  # type: ignore[method-assign]
    again = TableService(store_again, FakeClock(), RecordingNotifier(), seeds)
    try:
        await again.restoring.start(batch=25)
        await asyncio.wait_for(again.restoring.wait(), 10)
        assert sorted(again.table_ids()) == sorted(set(ids) - {bad})
        assert loads == [tuple(ids), (ids[0],), (bad,), (ids[2],)]
        assert again.tables.table_of_user(GUILD, players[2].user_id) is None  # freed
        assert (await store_again.get_table(bad)).status == "broken"
    finally:
        await again.close()
        await store_again.close()


async def test_a_turn_restored_is_not_reminded_again_but_still_times_out(
    service: TableService, store: Store, db_path: Path, seeds: Callable[[], int]
) -> None:
    await store.save_guild_settings(GuildSettings(guild_id=GUILD, turn_seconds=30))
    table_id = await open_dutch(service, [ANN, BOB])
    await service.play.act(table_id, ANN.user_id, 0, "peek 3 4")
    assert service.public_snapshot(table_id).to_act == (1,)
    await store.close()

    again, new_store, clock = await restarted(db_path, seeds)
    notifier = again.notifier
    assert isinstance(notifier, RecordingNotifier)
    try:
        await clock.advance(29)
        assert notifier.of("turn_reminder") == []  # mentioned before the restart
        await clock.advance(1)  # the turn's time is up all the same: Bob's peek is played
        snapshot = again.public_snapshot(table_id)
        assert snapshot.view is not None and snapshot.view.peeked == (True, True)
        await clock.advance(15)  # a turn that starts after the restart is reminded, as ever
        assert notifier.of("turn_reminder") == [(table_id, snapshot.to_act[0])]
    finally:
        await again.close()
        await new_store.close()
