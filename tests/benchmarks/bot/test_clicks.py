"""The click benchmark's own players: a Dame hoarder grows a hand of 40 cards with legal moves
only, and a click through the benchmark's Discord path is timed in its game's group."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from benchmarks.bot.clicks import Bench, main
from benchmarks.bot.discord_path import BenchNotifier
from benchmarks.bot.set_up import BIG_HAND, HOARDER_SEAT, open_tables
from bot.service import FakeClock, TableService
from bot.ui.discord_notifier import turn_of
from storage import Store


@pytest.fixture
async def bench(tmp_path: Path) -> AsyncIterator[Bench]:
    store = await Store.open(tmp_path / "bench.sqlite3", synchronous="NORMAL")
    notifier = BenchNotifier()
    seeds = itertools.count(3)
    service = TableService(store, FakeClock(), notifier, lambda: next(seeds))
    notifier.service = service
    yield Bench(service, notifier, think=0.0)
    await notifier.close()
    for table_id in service.table_ids():
        await service.seating.stop(table_id, 0, can_manage=True)
    await store.close()


async def test_a_hoarder_grows_a_dame_hand_of_40_cards_with_legal_moves(bench: Bench) -> None:
    await open_tables(bench, 1, ["dame"], hoarders=1.0, grown=1)
    (table_id,) = bench.tables
    view = bench.service.public_snapshot(table_id).view
    assert view.hand_sizes[HOARDER_SEAT] >= BIG_HAND  # every move was accepted on the way

    # the hoarder's table plays on through the benchmark's clicks, each timed in its group
    bench.measure_from = 0.0  # every click is measured
    for _ in range(8):
        click = bench.ready.popleft()
        await bench.click(click, time.perf_counter())
    timed = bench.timed.by_group
    assert bench.timed.errors == 0
    assert sum(len(v) for v in timed.values()) == 8
    assert len(timed[f"dame {BIG_HAND}+"]) >= 1  # the hoarder's own clicks, with 40+ cards


async def test_the_bench_mentions_whose_turn_starts_as_the_bot_does(bench: Bench) -> None:
    await open_tables(bench, 1, ["euchre"], hoarders=0.0, grown=0)
    (table_id,) = bench.tables
    bench.measure_from = 0.0  # every click is measured
    for _ in range(3):
        await bench.click(bench.ready.popleft(), time.perf_counter())
        while bench.notifier._tasks:  # the notifier's passes after the click
            await asyncio.gather(*list(bench.notifier._tasks))
        snapshot = bench.service.public_snapshot(table_id)
        assert turn_of(snapshot) is not None  # Euchre: one human to act at a time
        assert bench.notifier._pings[table_id] == turn_of(snapshot)


def test_the_short_run_reports_both_kinds_of_tables(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--short"])
    out = capsys.readouterr().out
    assert "6 tables of four humans and 3 of one human and three strong bots" in out
    assert "(0 not)" in out  # every table was clicked before the window opened
    for line in ("human clicks", "bots moved", "bot decisions/s", "played by the simple policy"):
        assert line in out
    assert "turns timed out: 0 in the window, 0 in the warm-up, 0 in the set-up" in out
    assert "hints" not in out  # asked only with --hints


def test_the_short_run_with_hints_times_the_coachs_hints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["--short", "--hints", "1", "--tables", "0"])
    out = capsys.readouterr().out
    (header,) = [line for line in out.splitlines() if line.strip().startswith("hints")]
    assert "asked" in header and "p99 ms" in header
    rows = out.splitlines()[out.splitlines().index(header) + 1 :]
    asked = int(rows[0].split()[1])  # the "all" row: hints answered in the window
    assert rows[0].split()[0] == "all" and asked > 0


async def test_the_bench_draws_the_pictures_the_bot_draws_off_the_click(bench: Bench) -> None:
    await open_tables(bench, 1, ["euchre"], hoarders=0.0, grown=0)
    bench.measure_until = float("inf")
    # the pictures are waited for, however long a loaded machine takes to start its drawing
    # processes (the bot gives up on a picture after a few seconds: not what is tested here)
    bench.notifier.pictures.deadline = float("inf")
    for _ in range(3):
        await bench.click(bench.ready.popleft(), time.perf_counter())
    await bench.notifier.coalescer.drain()
    while bench.notifier._tasks:  # the pictures the answers went out without
        await asyncio.gather(*list(bench.notifier._tasks))
    pictures = bench.notifier.pictures
    assert pictures.draws >= 2 and len(bench.notifier.draw_times) == pictures.draws
    assert pictures.uploads >= 2  # a hand and the table


async def test_without_pictures_the_bench_draws_and_sends_none(tmp_path: Path) -> None:
    """`--no-pictures`: the same clicks with cards as text, so the pictures' cost shows."""
    store = await Store.open(tmp_path / "bench.sqlite3", synchronous="NORMAL")
    notifier = BenchNotifier(pictures=False)
    seeds = itertools.count(3)
    service = TableService(store, FakeClock(), notifier, lambda: next(seeds))
    notifier.service = service
    bench = Bench(service, notifier, think=0.0)
    try:
        await open_tables(bench, 1, ["euchre"], hoarders=0.0, grown=0)
        bench.measure_until = float("inf")
        for _ in range(3):
            await bench.click(bench.ready.popleft(), time.perf_counter())
        await notifier.coalescer.drain()
        while notifier._tasks:
            await asyncio.gather(*list(notifier._tasks))
        assert notifier.pictures.draws == notifier.pictures.uploads == 0
    finally:
        await notifier.close()
        for table_id in service.table_ids():
            await service.seating.stop(table_id, 0, can_manage=True)
        await store.close()
