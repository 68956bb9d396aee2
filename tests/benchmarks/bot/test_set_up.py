"""The click benchmark's set-up: while the tables are seated, the service's clock is held, so
no turn times out however long seating takes; the turns' timers count from the release."""

from __future__ import annotations

import itertools
from pathlib import Path

from benchmarks.bot.clicks import SET_UP, WARM_UP, Bench, count_timeouts
from benchmarks.bot.discord_path import BenchNotifier
from benchmarks.bot.set_up import HeldClock, open_tables
from bot.service import FakeClock, TableService
from storage import Store
from storage.models import GuildSettings

TURN_SECONDS = float(GuildSettings.model_fields["turn_seconds"].default)  # a guild's default


async def test_a_held_clock_stands_still_and_its_timers_start_at_the_release() -> None:
    base = FakeClock()
    clock = HeldClock(base)
    fired: list[str] = []

    async def fire(name: str) -> None:
        fired.append(name)

    clock.hold()
    held_at = clock.now()
    clock.call_later(10.0, lambda: fire("armed while held"))
    cancelled = clock.call_later(10.0, lambda: fire("cancelled while held"))
    cancelled.cancel()
    await base.advance(3_600.0)  # an hour of seating
    assert fired == []
    assert clock.now() == held_at

    clock.release()
    await base.advance(9.0)
    assert fired == []
    assert clock.now() == held_at + 9.0  # the hour held is not counted
    await base.advance(1.0)
    assert fired == ["armed while held"]
    clock.call_later(1.0, lambda: fire("armed after"))
    await base.advance(1.0)
    assert fired == ["armed while held", "armed after"]


async def test_no_turn_times_out_while_the_tables_are_set_up(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bench.sqlite3", synchronous="NORMAL")
    base = FakeClock()
    clock = HeldClock(base)
    notifier = BenchNotifier()
    seeds = itertools.count(3)
    service = TableService(store, clock, notifier, lambda: next(seeds))
    notifier.service = service
    bench = Bench(service, notifier, think=0.0)
    count_timeouts(service, bench)
    try:
        clock.hold()
        await open_tables(bench, 2, ["euchre", "dame"], hoarders=0.0, grown=0)
        await base.advance(10 * TURN_SECONDS)  # seating outlasted every turn's timer
        assert bench.timeouts[SET_UP] == 0

        bench.phase = WARM_UP
        clock.release()
        await base.advance(TURN_SECONDS - 1.0)
        assert bench.timeouts[WARM_UP] == 0
        await base.advance(1.0)  # nobody clicked: each table's first turn times out now
        assert bench.timeouts[WARM_UP] == 2  # one player to act at each
    finally:
        await notifier.close()
        for table_id in service.table_ids():
            await service.seating.stop(table_id, 0, can_manage=True)
        await service.close()
        await store.close()
